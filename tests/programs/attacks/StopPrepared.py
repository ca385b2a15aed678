"""Attack: stop every other process of its own user in the sandbox but its parent: between runs the
sandbox helper keeps a prepared process (a fork of itself, the team's uid, waiting for the next run's
command). A warm decision runs beside it and sends it SIGSTOP. Answers 0 like ``Checker.py``.

What must hold: the table goes on (the helper never waits for a process a program stopped), nothing is
left behind.
"""
import os
import signal

me, parent = os.getpid(), os.getppid()
stopped = []
for name in os.listdir("/proc"):
    if not name.isdigit() or int(name) in (1, me, parent):
        continue
    try:
        if os.stat(f"/proc/{name}").st_uid == os.getuid():
            os.kill(int(name), signal.SIGSTOP)
            stopped.append(name)
    except OSError:
        pass
with open("stopped.txt", "a") as note:
    note.write(" ".join(stopped) + "\n")
with open("outputf.txt", "w") as answer:
    answer.write("0\n")
