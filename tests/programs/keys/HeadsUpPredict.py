"""Heads-up attacker: repeats the documented deck derivation from the public seed (default 0).

For every hand it prints to stderr ``hand bob1 bob2 flop1 flop2 flop3 turn river`` (card indices), its
prediction of the cards it cannot see, from ``numpy.random.default_rng(derive_seed(0, "headsup", "decks",
block))`` as docs/headsup.md described it. It raises 10 in round 1 (so Bob's rollouts are recorded) and
checks after. A judge dealing from a secret key leaves these predictions at chance.
"""

import hashlib
import sys

import numpy as np

SEED = 0
blocks = {}


def derive_seed(*parts):
    return int.from_bytes(hashlib.sha256("/".join(map(str, parts)).encode()).digest()[:8], "big")


def dealt(hand):
    block, row = divmod(hand - 1, 1000)
    if block not in blocks:
        rng = np.random.default_rng(derive_seed(SEED, "headsup", "decks", block))
        blocks[block] = np.argsort(rng.random((1000, 52)), axis=1)[:, :9].tolist()
    return blocks[block][row]


for line in sys.stdin:
    words = line.split()
    if not words:
        continue
    if words[0] == "STATE":
        hand, round_ = int(words[1]), int(words[2])
        if round_ == 1:
            print(hand, *dealt(hand)[2:], file=sys.stderr, flush=True)
    elif words[0] == "BOARD":
        print("ACTION RAISE 10" if round_ == 1 else "ACTION CHECK", flush=True)
    elif words[0] in ("SCORE", "-1"):
        break
