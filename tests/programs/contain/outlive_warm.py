"""A warm Python decision that leaves a sibling (clone(CLONE_PARENT): a child of the fork server) counting."""

import ctypes
import os

CLONE_PARENT = 0x00008000
SIGCHLD = 17

open("outputf.txt", "w").write("0\n")
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
