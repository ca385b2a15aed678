"""Attack: a TwoCardDraw player (lines interface) answering rich markup, ``[/x]``, to every call.

The answer is not an integer, a fault whose reason quotes it; ``arena twocard play`` prints that reason
through rich with markup on, where a closing tag that opens nothing is an error.
"""

import sys

for _line in sys.stdin:
    print("[/x]", flush=True)
