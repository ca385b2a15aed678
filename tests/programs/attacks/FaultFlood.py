# Attack: make each fault as large as it can be on the organiser's disk. Every decision rewrites 14 help
# files (with the given canary.txt, the 15 allowed) of 0.5 MB each (random bytes, so nothing settles),
# prints characters outside the BMP to stdout and stderr (4 bytes of UTF-8 each, 12 bytes as JSON's
# \ud83d\ude00) up to near the output cap, and exits 1: a crash, recorded with its stdout, stderr, inputs
# and the help files it started from.
import os
import sys

for index in range(14):
    with open(f"help{index:02d}.bin", "wb") as out:
        out.write(os.urandom(500_000))
text = "\U0001f600" * 7000  # 28,000 bytes on each stream, below the 65,536 of both
sys.stdout.write(text)
sys.stdout.flush()
sys.stderr.write(text)
sys.stderr.flush()
sys.exit(1)
