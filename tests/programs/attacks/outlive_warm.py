"""A warm Python decision that leaves a sibling (clone(CLONE_PARENT): a child of the fork server) counting.

It answers 0 (call) like Caller.py, unless a sibling left by an earlier decision is still counting: then -10
(fold), so a table where anything outlived a decision plays differently from one with Caller.py here.
"""

import ctypes
import os
import time


def counter() -> str:
    try:
        return open("counter.txt").read()
    except OSError:
        return ""


before = counter()
time.sleep(0.05)
survivor = counter() != before

CLONE_PARENT = 0x00008000
SIGCHLD = 17

open("outputf.txt", "w").write("-10\n" if survivor else "0\n")
libc = ctypes.CDLL(None, use_errno=True)
pid = libc.syscall(56, CLONE_PARENT | SIGCHLD, 0, 0, 0, 0)  # raw clone: no stack, copy-on-write like fork
if pid == 0:
    n = 0
    while True:
        n += 1
        fd = os.open("counter.txt", os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644)
        os.write(fd, f"{n}\n".encode())
        os.close(fd)
        for _ in range(20000):
            pass
        os.sched_yield()
