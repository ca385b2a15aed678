"""Always check, on seed 001's line protocol: the baseline whose mean profit is 5 (half the dead pot)."""

import sys


def main() -> None:
    for line in sys.stdin:
        tag = line.split()[0] if line.strip() else ""
        if tag in ("-1", "SCORE"):
            return
        if tag == "BOARD":
            print("ACTION CHECK", flush=True)


if __name__ == "__main__":
    main()
