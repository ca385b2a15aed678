"""TwoCardDraw red team: answers every call that counts with a 4,000-digit integer.

Python's ``int`` reads it, the rules refuse it, and the refusal quotes the whole number: docs/sandbox.md
says every recorded reason is capped at 600 characters.
"""

import sys

for line in sys.stdin:
    method = line.split()[0]
    print("9" * 4000 if method not in ("init", "showdown", "new_hand") else 0, flush=True)
