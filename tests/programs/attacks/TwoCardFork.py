"""TwoCardDraw red team: think in a child process, hoping the thinking is not charged to the budget.

The line-protocol seat once charged a player the CPU time of its one session process (and of children
it had waited for); it now reads the sandbox's cgroup. This player forks a worker at start; each call line goes to the worker, which spins
``SPIN_S`` seconds of CPU before it answers 0, while the session process just waits on a pipe.
TwoCardAlone.py, the control, spins in the answering process itself.
"""

import os
import sys
import time

SPIN_S = 0.25


def think() -> str:
    end = time.process_time() + SPIN_S
    while time.process_time() < end:
        pass
    return "0"


to_worker_r, to_worker_w = os.pipe()
from_worker_r, from_worker_w = os.pipe()
if os.fork() == 0:
    os.close(to_worker_w)
    os.close(from_worker_r)
    requests = os.fdopen(to_worker_r)
    answers = os.fdopen(from_worker_w, "w")
    for _line in requests:
        answers.write(think() + "\n")
        answers.flush()
    os._exit(0)
os.close(to_worker_r)
os.close(from_worker_w)
requests = os.fdopen(to_worker_w, "w")
answers = os.fdopen(from_worker_r)
for line in sys.stdin:
    requests.write(line)
    requests.flush()
    print(answers.readline().strip(), flush=True)
