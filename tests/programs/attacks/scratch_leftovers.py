"""Leaves in /tmp what the end of a decision must remove: a deep folder tree, folders of mode 0500 and 0000,
a link to a help folder outside /tmp, a FIFO; and a SysV shared memory segment, message queue and semaphore
set. Answers 0."""

import ctypes
import os

libc = ctypes.CDLL(None, use_errno=True)
IPC_CREAT, IPC_PRIVATE = 0o1000, 0
ids = (
    libc.shmget(IPC_PRIVATE, 4096, IPC_CREAT | 0o600),
    libc.msgget(IPC_PRIVATE, IPC_CREAT | 0o600),
    libc.semget(IPC_PRIVATE, 1, IPC_CREAT | 0o600),
)
os.makedirs("keep", exist_ok=True)
with open("keep/kept.txt", "w") as kept:
    kept.write("mine\n")
deep = "/tmp"
for level in range(80):
    deep = os.path.join(deep, f"d{level}")
    os.mkdir(deep)
with open(os.path.join(deep, "bottom.txt"), "w") as bottom:
    bottom.write("x")
for name, mode in (("readonly", 0o500), ("closed", 0o000)):
    os.mkdir(f"/tmp/{name}")
    with open(f"/tmp/{name}/inside.txt", "w") as inside:
        inside.write("x")
    os.chmod(f"/tmp/{name}", mode)
os.symlink(os.path.abspath("keep"), "/tmp/outside")
os.mkfifo("/tmp/fifo")
print(*ids)
with open("outputf.txt", "w") as out:
    out.write("0\n" if min(ids) >= 0 else "1\n")
