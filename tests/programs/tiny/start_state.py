"""Prints what a program's start sequence left it with: identity, capabilities, limits, cgroup, OOM score.

Run cold (a fresh interpreter) and warm (a fork server's child), it must print the same lines.
"""

import ctypes
import os

PR_GET_DUMPABLE = 3
libc = ctypes.CDLL(None)
status = dict(line.split(":", 1) for line in open("/proc/self/status").read().splitlines())
keys = ("Uid", "Gid", "Groups", "CapInh", "CapPrm", "CapEff", "CapBnd", "CapAmb", "NoNewPrivs", "Seccomp")
for key in keys:
    print(f"{key}={' '.join(status.get(key, '-').split())}")
print(f"oom_score_adj={open('/proc/self/oom_score_adj').read().strip()}")
print(f"cgroup={';'.join(open('/proc/self/cgroup').read().split())}")
print(f"own session={os.getsid(0) == os.getpid()}")
print(f"dumpable={libc.prctl(PR_GET_DUMPABLE, 0, 0, 0, 0)}")
print(f"cwd={os.getcwd()}")
for line in open("/proc/self/limits").read().splitlines()[1:]:
    print(f"{line[:26].strip()}={' '.join(line[26:].split())}")
open("outputf.txt", "w").write("0\n")
