"""Pr0011: a DELIBERATELY FAULTY Code'em Poker team program (Python 3).

It calls everything and goes all-in with a pair of tens or better (a raise larger than its stack is an
all-in, docs/protocol.md), but it carries a bug on purpose: it divides by
`(card1 + card2) % 7`, so whenever its two hole card numbers add up to a multiple of 7 it crashes with
ZeroDivisionError (a traceback on stderr, exit status 1) and writes no answer. The arena records a crash
fault and plays the default action (check when free, else fold). At Show_Down it writes nothing.
"""


def read_words(path: str) -> list[str]:
    try:
        with open(path) as handle:
            return handle.read().split()
    except OSError:
        return []


def read_stage() -> str:
    words = read_words("deal.txt")
    for index, word in enumerate(words[:-1]):
        if word == "Stage":
            return words[index + 1]
    return ""


def main() -> None:
    if read_stage() == "Show_Down":
        return
    numbers = [int(w) if w.lstrip("-").isdigit() else 0 for w in read_words("inputf.txt")] + [0, 0]
    card1, card2 = numbers[0], numbers[1]
    weight = 7 // ((card1 + card2) % 7)  # the bug: a multiple of 7 divides by zero
    pair = (card1 - 1) % 13 == (card2 - 1) % 13
    answer = 100_000 * weight if pair and (card1 - 1) % 13 >= 8 else 0
    with open("outputf.txt", "w") as out:
        out.write(f"{answer}\n")


if __name__ == "__main__":
    main()
