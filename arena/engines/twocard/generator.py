"""TwoCardDraw's strategy generator: random start on the simplex, then improve one situation at a time.

Every situation starts from a distribution drawn uniformly from the unit simplex over the choices that
the rules and TwoCardDraw's five constraints allow (the others stay at 0). Each iteration takes the next
situation (the situations are visited in a seeded random order, reshuffled after every pass), draws a
fresh distribution for it the same way, and keeps it only if it raises the strategy's value against the
near-perfect opponent (a best response making each wrong choice 1 time in 1000). The kept value can
therefore only go up.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np

from arena.engines.twocard.strategy import (
    DRAW_SHAPE,
    ROUND1_SHAPE,
    ROUND2_SHAPE,
    Situation,
    Strategy,
    check_bets,
    situations,
)
from arena.engines.twocard.value import NEAR_PERFECT_MISTAKE, strategy_value


@dataclass
class GenerationResult:
    """The strategy reached, its near-perfect and exact values, and the value after each iteration."""

    strategy: Strategy
    near_perfect_value: float
    value: float
    history: list[float] = field(default_factory=list)
    accepted: int = 0


def _simplex(allowed: tuple[bool, bool, bool], rng: np.random.Generator) -> np.ndarray:
    """A distribution uniform on the simplex of the allowed choices (0 elsewhere)."""
    probs = np.zeros(3)
    mask = np.array(allowed)
    probs[mask] = rng.dirichlet(np.ones(mask.sum())) if mask.sum() > 1 else 1.0
    return probs


def random_strategy(bet1: int, bet2: int, rng: np.random.Generator) -> Strategy:
    """A strategy with every situation drawn uniformly from its constrained simplex."""
    check_bets(bet1, bet2)
    strategy = Strategy(bet1, bet2, np.zeros(ROUND1_SHAPE), np.zeros(DRAW_SHAPE), np.zeros(ROUND2_SHAPE))
    for situation in situations():
        getattr(strategy, situation.table)[situation.index] = _simplex(situation.allowed, rng)
    return strategy


def generate(
    bet1: int,
    bet2: int,
    iterations: int,
    seed: int,
    *,
    mistake: float = NEAR_PERFECT_MISTAKE,
    on_iteration: Callable[[int, float], None] | None = None,
) -> GenerationResult:
    """Run the improvement loop for ``iterations`` steps; ``on_iteration(i, value)`` reports progress."""
    rng = np.random.default_rng(seed)
    strategy = random_strategy(bet1, bet2, rng)
    free: list[Situation] = [s for s in situations() if sum(s.allowed) > 1]
    order: list[int] = []
    current = strategy_value(strategy, mistake=mistake)
    history: list[float] = []
    accepted = 0
    for i in range(iterations):
        if not order:
            order = rng.permutation(len(free)).tolist()
        situation = free[order.pop()]
        table = getattr(strategy, situation.table)
        previous = table[situation.index].copy()
        table[situation.index] = _simplex(situation.allowed, rng)
        candidate = strategy_value(strategy, mistake=mistake)
        if candidate > current:
            current = candidate
            accepted += 1
        else:
            table[situation.index] = previous
        history.append(current)
        if on_iteration is not None:
            on_iteration(i + 1, current)
    return GenerationResult(strategy, current, strategy_value(strategy), history, accepted)
