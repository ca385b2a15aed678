"""Plain-Python rollouts: the readable statement of Bob's procedure and of RATE, used as a reference.

The judge uses the vectorised :mod:`arena.evaluator.rollouts`; tests compare the two in distribution and the
benchmark measures the judge with these as its same-run reference.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from arena.cards import remaining_deck
from arena.evaluator import evaluate


def naive_outcomes(
    hero: Sequence[int],
    board: Sequence[int],
    samples: int,
    rng: np.random.Generator,
) -> np.ndarray:
    """+1/0/-1 per rollout for ``hero``: one permutation of the unseen cards each, opponent's two first."""
    unseen = np.array(remaining_deck([*hero, *board]))
    missing = 5 - len(board)
    out = np.empty(samples, dtype=np.int8)
    for i in range(samples):
        drawn = [int(c) for c in rng.permutation(unseen)[: 2 + missing]]
        full = [*board, *drawn[2:]]
        mine = evaluate([*hero, *full])
        theirs = evaluate([*drawn[:2], *full])
        out[i] = (mine > theirs) - (mine < theirs)
    return out


def naive_rates(
    hero: Sequence[int],
    board: Sequence[int],
    samples: int,
    rng: np.random.Generator,
) -> tuple[float, float]:
    """(win, tie) frequencies over ``samples`` rollouts, as a RATE answer."""
    results = naive_outcomes(hero, board, samples, rng)
    return float(np.mean(results > 0)), float(np.mean(results == 0))
