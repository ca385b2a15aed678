"""Attack (issue 24): stop, trace or kill the warm fork server that forked this decision, then answer 0.

The Python twin of ReachWatcher.c, for the warm road: prints the server's pid, then the errno (0: it
worked) of SIGSTOP, PTRACE_ATTACH and SIGKILL to it, and of SIGKILL to every process it may signal
(``kill(-1)``), then "done".
"""

import ctypes
import os
import signal

PTRACE_ATTACH = 16
libc = ctypes.CDLL(None, use_errno=True)


def outcome(call, *args):
    try:
        call(*args)
    except OSError as error:
        return error.errno
    return 0


def trace(pid):
    if libc.ptrace(PTRACE_ATTACH, pid, None, None) != 0:
        raise OSError(ctypes.get_errno(), "ptrace")


server = os.getppid()
print("server", server)
print("stop", outcome(os.kill, server, signal.SIGSTOP))
print("trace", outcome(trace, server))
print("kill", outcome(os.kill, server, signal.SIGKILL))
print("all", outcome(os.kill, -1, signal.SIGKILL))
print("done")
with open("outputf.txt", "w") as answer:
    answer.write("0\n")
