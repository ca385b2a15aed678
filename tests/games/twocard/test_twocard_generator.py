"""TwoCardDraw's strategy generator: five constraints always hold, the value only goes up, seeds reproduce."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from arena.engines.twocard.generator import generate, random_strategy
from arena.engines.twocard.rules import HAND_INDEX, HANDS
from arena.engines.twocard.strategy import constraint_violations, read_strategy
from arena.engines.twocard.value import NEAR_PERFECT_MISTAKE, strategy_value

SHIPPED = sorted((Path(__file__).resolve().parents[3] / "bots" / "twocard" / "strategies").glob("*.txt"))
FOURS = HAND_INDEX[(4, 4)]


def assert_five_constraints(strategy) -> None:
    assert constraint_violations(strategy) == []
    # spelled out once more, independently of the situation list
    assert np.all(strategy.round1[FOURS, :, 0] == 0)  # never fold 4-4
    assert np.all(strategy.round2[:, :, :, FOURS, :, 0] == 0)
    assert np.all(strategy.draw[:, :, FOURS, 0] == 1)  # never exchange 4-4
    for hand, (low, high) in enumerate(HANDS):
        if high == 4 and low != 4:
            assert np.all(strategy.draw[:, :, hand, 2] == 0)  # a 4: never draw two
        if low == high:
            assert np.all(strategy.draw[:, :, hand, 1] == 0)  # a pair: never draw one
    assert np.all(strategy.round2[:, :, :, FOURS, :3, 2] == 1)  # 4-4 always raises in round 2
    assert np.all(strategy.round1[:, 0, 0] == 0) and np.all(strategy.round2[..., 0, 0] == 0)  # free call


def test_random_start_is_on_the_simplex_and_respects_the_constraints() -> None:
    strategy = random_strategy(3, 6, np.random.default_rng(0))
    assert_five_constraints(strategy)
    for table in (strategy.round1, strategy.draw, strategy.round2):
        assert np.allclose(table.sum(axis=-1), 1) and np.all(table >= 0)
    assert np.all(strategy.round1[:, 3, 2] == 0)  # no fourth bet


def test_generator_improves_monotonically_and_keeps_the_constraints() -> None:
    seen: list[tuple[int, float]] = []
    result = generate(2, 4, 600, seed=5, on_iteration=lambda i, v: seen.append((i, v)))
    assert [i for i, _ in seen] == list(range(1, 601))
    assert all(b >= a for a, b in zip(result.history, result.history[1:], strict=False))
    start = strategy_value(random_strategy(2, 4, np.random.default_rng(5)), mistake=NEAR_PERFECT_MISTAKE)
    assert result.near_perfect_value > start
    assert result.accepted > 0
    assert result.near_perfect_value == strategy_value(result.strategy, mistake=NEAR_PERFECT_MISTAKE)
    assert result.value == strategy_value(result.strategy)
    assert_five_constraints(result.strategy)


def test_same_seed_same_strategy() -> None:
    a = generate(1, 3, 200, seed=9)
    b = generate(1, 3, 200, seed=9)
    c = generate(1, 3, 200, seed=10)
    assert a.strategy.same_as(b.strategy)
    assert not a.strategy.same_as(c.strategy)


def test_shipped_strategies_respect_the_constraints_and_have_values_of_000s_order() -> None:
    assert SHIPPED
    for path in SHIPPED:
        strategy = read_strategy(path)
        assert_five_constraints(strategy)
        assert -0.6 < strategy_value(strategy) < 0
