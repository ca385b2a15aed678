"""Each live hand's share of the pot at an all-in, over the boards still to come.

With at most two board cards to come every run-out is counted (at most 990 boards); with more, a fixed
number of run-outs is drawn from a generator seeded by the cards themselves, so a replay shows the same
figures every time. A tie shares the win between the tied hands, as the pot would be.
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Mapping, Sequence

from arena.cards import FULL_DECK
from arena.evaluator import evaluate_holes

BOARD = 5
EXACT_UP_TO = 2
"""Board cards to come up to which every run-out is counted."""
SAMPLES = 4000
"""Run-outs drawn when more board cards are to come (about ±0.8 points of equity at worst)."""


def all_in_equity(holes: Mapping[int, Sequence[int]], board: Sequence[int]) -> dict[int, float]:
    """Each seat's expected share of the pot (0..1) over the run-outs of ``board``; ``holes`` are the
    live hands. Empty when fewer than two hands are live or the board is complete."""
    if len(holes) < 2 or len(board) >= BOARD:
        return {}
    seats = sorted(holes)
    dead = {card for hole in holes.values() for card in hole} | set(board)
    rest = [card for card in FULL_DECK if card not in dead]
    missing = BOARD - len(board)
    if missing <= EXACT_UP_TO:
        runouts: Sequence[Sequence[int]] = list(itertools.combinations(rest, missing))
    else:
        draw = random.Random(",".join(str(c) for s in seats for c in holes[s]) + "|" + str(list(board)))
        runouts = [draw.sample(rest, missing) for _ in range(SAMPLES)]
    shares = dict.fromkeys(seats, 0.0)
    hands = [holes[s] for s in seats]
    for runout in runouts:
        strengths = evaluate_holes(hands, (*board, *runout))
        best = max(strengths)
        winners = [s for s, strength in zip(seats, strengths, strict=True) if strength == best]
        for seat in winners:
            shares[seat] += 1 / len(winners)
    return {seat: share / len(runouts) for seat, share in shares.items()}
