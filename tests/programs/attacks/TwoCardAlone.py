"""The control of TwoCardFork.py: the same 0.25 s of CPU a call, spent in the answering process itself."""

import sys
import time

SPIN_S = 0.25

for _line in sys.stdin:
    end = time.process_time() + SPIN_S
    while time.process_time() < end:
        pass
    print("0", flush=True)
