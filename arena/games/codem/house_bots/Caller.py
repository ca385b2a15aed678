"""Caller: a Code'em Poker team program that always calls (or checks when nothing is owed).

The simplest program that follows the protocol: read the Stage line of deal.txt; at Show_Down write
nothing (the answer would be ignored); otherwise write `0` to outputf.txt. Calling never needs to know
the amount, because the arena plays `0` as "match the highest bet of the round".
"""


def read_stage(path: str = "deal.txt") -> str:
    """The value of the `Stage` line of deal.txt, or "" when there is none."""
    try:
        with open(path) as handle:
            for line in handle:
                words = line.split()
                if len(words) >= 2 and words[0] == "Stage":
                    return words[1]
    except OSError:
        pass
    return ""


def main() -> None:
    if read_stage() == "Show_Down":
        return
    with open("outputf.txt", "w") as out:
        out.write("0\n")


if __name__ == "__main__":
    main()
