"""Line-protocol driver for a Python TwoCardDraw solution (TwoCardDraw's class interface), used unchanged.

The judge writes one call per line (``round2 1 3 1 0 2``); this driver calls the method of the same
name on one TwoCardDraw instance with the integer arguments and prints the integer it returns.
"""

import sys

sys.path.insert(0, ".")
from TwoCardDraw import TwoCardDraw

METHODS = {"init": 2, "new_hand": 3, "round1": 3, "draw": 3, "round2": 5, "showdown": 4}


def main() -> int:
    out = sys.stdout
    sys.stdout = sys.stderr  # a solution's own printing must not corrupt the protocol
    player = TwoCardDraw()
    for line in sys.stdin:
        fields = line.split()
        if not fields:
            continue
        name, args = fields[0], [int(f) for f in fields[1:]]
        if METHODS.get(name) != len(args):
            sys.stderr.write(f"driver: unknown call {line!r}\n")
            return 3
        answer = getattr(player, name)(*args)
        out.write(f"{int(answer) if answer is not None else 0}\n")
        out.flush()
    return 0


if __name__ == "__main__":
    sys.exit(main())
