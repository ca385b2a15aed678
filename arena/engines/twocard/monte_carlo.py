"""Fast in-process simulation of many hands of a fixed policy against a server strategy (numpy, no judge).

It plays the rules forward with sampled cards and sampled server choices, independently of the
backward induction in :mod:`value`, so the two can check each other (issue 6, item 7).
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from arena.engines.twocard.rules import CARD_VALUES, COMPARE, HAND_INDEX, HANDS, Outcome
from arena.engines.twocard.strategy import Strategy
from arena.engines.twocard.value import Policy

_INDEX = np.zeros((CARD_VALUES, CARD_VALUES), dtype=np.int64)
for (_low, _high), _i in HAND_INDEX.items():
    _INDEX[_low, _high] = _INDEX[_high, _low] = _i
_HIGH = np.array([high for _, high in HANDS])


def _sample(probs: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """One choice per row of ``probs`` (n, 3)."""
    u = rng.random(len(probs))
    cumulative = probs.cumsum(axis=1)
    choices: np.ndarray = (u[:, None] >= cumulative[:, :-1]).sum(axis=1)
    return choices


def _betting(
    opening: np.ndarray,
    server: Callable[[np.ndarray, np.ndarray], np.ndarray],
    player: Callable[[np.ndarray, np.ndarray], np.ndarray],
    base: np.ndarray,
    bet: float,
    rng: np.random.Generator,
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Play one round for every row: returns (folded mask, your profit where folded, outcome)."""
    n = len(opening)
    bets = opening.astype(np.int64)
    server_first = opening == 0
    folded = np.zeros(n, dtype=bool)
    profit = np.zeros(n)
    open_rows = np.ones(n, dtype=bool)
    server_turn = True
    while open_rows.any():
        rows = np.flatnonzero(open_rows)
        k = bets[rows]
        choice = _sample(server(rows, k), rng) if server_turn else player(rows, k)
        fold = choice == 0
        stake = base[rows] + (k - 1) * bet
        profit[rows[fold]] = stake[fold] if server_turn else -stake[fold]
        folded[rows[fold]] = True
        open_rows[rows[choice != 2]] = False
        bets[rows[choice == 2]] += 1
        server_turn = not server_turn
    server_first &= bets > 0
    outcome = np.where(bets == 0, 0, 2 * bets - np.where(server_first, 0, 1))
    return folded, profit, outcome


def _draw(hands: np.ndarray, drawn: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    cards = rng.integers(0, CARD_VALUES, size=(len(hands), 2))
    one = _INDEX[_HIGH[hands], cards[:, 0]]
    two = _INDEX[cards[:, 0], cards[:, 1]]
    return np.where(drawn == 0, hands, np.where(drawn == 1, one, two))


def simulate(strategy: Strategy, policy: Policy, hands: int, rng: np.random.Generator) -> np.ndarray:
    """Your profit in each of ``hands`` simulated hands playing ``policy`` against ``strategy``."""
    cards = rng.integers(0, CARD_VALUES, size=(hands, 4))
    mine = _INDEX[cards[:, 0], cards[:, 1]]
    theirs = _INDEX[cards[:, 2], cards[:, 3]]
    bet1, bet2 = float(strategy.bet1), float(strategy.bet2)
    folded, profit, outcome = _betting(
        policy.open1[mine],
        lambda rows, k: strategy.round1[theirs[rows], k],
        lambda rows, k: policy.respond1[k, mine[rows]],
        np.ones(hands),
        bet1,
        rng,
    )
    live = np.flatnonzero(~folded)
    o = outcome[live]
    you_drew = policy.draw[o, mine[live]]
    server_drew = _sample(strategy.draw[o, you_drew, theirs[live]], rng)
    mine2 = _draw(mine[live], you_drew, rng)
    theirs2 = _draw(theirs[live], server_drew, rng)
    bets1 = np.array([Outcome(i).bets for i in range(7)])[o]
    base2 = 1.0 + bets1 * bet1
    folded2, profit2, outcome2 = _betting(
        policy.open2[o, you_drew, server_drew, mine2] - 1,
        lambda rows, k: strategy.round2[o[rows], you_drew[rows], server_drew[rows], theirs2[rows], k],
        lambda rows, k: policy.respond2[o[rows], you_drew[rows], server_drew[rows], k, mine2[rows]],
        base2,
        bet2,
        rng,
    )
    bets2 = (outcome2 + 1) // 2
    showdown = COMPARE[mine2, theirs2] * (base2 + bets2 * bet2)
    profit[live] = np.where(folded2, profit2, showdown)
    return profit
