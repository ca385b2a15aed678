"""Issue 24: reads the hand count, then prints one 300 MB line with no end (and waits to be ended)."""

import sys
import time

sys.stdin.readline()
chunk = b"R" * (1 << 20)
for _ in range(300):
    sys.stdout.buffer.write(chunk)
sys.stdout.buffer.flush()
time.sleep(60)
