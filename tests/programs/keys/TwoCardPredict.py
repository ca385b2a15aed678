"""TwoCardDraw attacker (line protocol): repeats the documented per-hand derivation from the public seed.

Hand ``n`` of test case 1 drew its cards from ``random.Random(derive_seed(0, "twocard", 1, n))`` as
docs/twocard.md described it: the program's two cards, the server's two, then the replacements. At each
``new_hand`` it writes ``n server1 server2`` (its prediction of the server's hand, sorted) to
``predictions.txt`` in its folder; it checks and calls throughout and never draws. A judge dealing from a
secret key leaves these predictions at chance.
"""

import hashlib
import random
import sys


def derive_seed(*parts):
    return int.from_bytes(hashlib.sha256("/".join(map(str, parts)).encode()).digest()[:8], "big")


hand = 0
log = open("predictions.txt", "w")
for line in sys.stdin:
    words = line.split()
    if words and words[0] == "new_hand":
        hand += 1
        rng = random.Random(derive_seed(0, "twocard", 1, hand))
        cards = [rng.randrange(5) for _ in range(8)]
        print(hand, *sorted(cards[2:4]), file=log, flush=True)
    answer = 1 if words and words[0] in ("round1", "round2") else 0
    print(answer, flush=True)
