"""Heads-up red team: floods stderr (64 MB over the match) while answering correctly.

The judge must keep reading stderr (a full stderr pipe would block the player and time it out through no
fault of its replies), keep only its cap, and score the match.
"""

import sys

chunk = "e" * 65536 + "\n"
for line in sys.stdin:
    if line.startswith("BOARD"):
        for _ in range(2):
            sys.stderr.write(chunk)
        sys.stderr.flush()
        print("ACTION CHECK", flush=True)
