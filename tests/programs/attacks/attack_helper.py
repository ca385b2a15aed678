"""Attacks the process that started it (PID 1 of its namespace): signals, limits, ptrace, /proc files;
reports its own capabilities."""
import ctypes
import os
import resource
import signal

attempts = []
for name, action in [
    ("kill", lambda: os.kill(1, signal.SIGKILL)),
    ("term", lambda: os.kill(1, signal.SIGTERM)),
    ("int", lambda: os.kill(1, signal.SIGINT)),
    ("prlimit", lambda: resource.prlimit(1, resource.RLIMIT_NOFILE, (0, 0))),
    ("environ", lambda: open("/proc/1/environ").read()),
    ("fd", lambda: os.listdir("/proc/1/fd")),
    ("ptrace", lambda: ctypes.CDLL(None, use_errno=True).ptrace(16, 1, 0, 0) == 0 or (_ for _ in ()).throw(OSError(ctypes.get_errno(), "ptrace"))),
]:
    try:
        action()
        attempts.append(f"{name}:done")
    except OSError as error:
        attempts.append(f"{name}:{error.errno}")
for line in open("/proc/self/status"):
    if line.startswith(("CapEff", "CapPrm", "CapAmb", "CapInh")):
        key, value = line.split()
        attempts.append(f"{key.rstrip(':')}:{value}")
with open("outputf.txt", "w") as answer:
    answer.write(" ".join(attempts) + "\n")
