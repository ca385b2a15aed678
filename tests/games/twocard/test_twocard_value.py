"""Exact value and best response (issue 6, items 2 and 7): simulation, fixed policies, a second solver."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from arena.engines.twocard.generator import random_strategy
from arena.engines.twocard.monte_carlo import simulate
from arena.engines.twocard.rules import HAND_INDEX, HANDS, Outcome
from arena.engines.twocard.strategy import (
    DRAW_SHAPE,
    ROUND1_SHAPE,
    ROUND2_SHAPE,
    Strategy,
    read_strategy,
    write_strategy,
)
from arena.engines.twocard.value import (
    NEAR_PERFECT_MISTAKE,
    Policy,
    best_response,
    policy_value,
    simple_policy,
    strategy_value,
)

ROOT = Path(__file__).resolve().parents[3]
SHIPPED = sorted((ROOT / "bots" / "twocard" / "strategies").glob("*.txt"))
FOURS = HAND_INDEX[(4, 4)]


def passive_strategy(*, fold_to_bet: float) -> Strategy:
    """A server that checks/calls, folds to any bet with the given probability and never draws."""
    round1 = np.zeros(ROUND1_SHAPE)
    round1[..., 1] = 1.0
    round1[:, 1] = [fold_to_bet, 1 - fold_to_bet, 0]
    draw = np.zeros(DRAW_SHAPE)
    draw[..., 0] = 1.0
    round2 = np.zeros(ROUND2_SHAPE)
    round2[..., 1] = 1.0
    round2[:, :, :, :, 1] = [fold_to_bet, 1 - fold_to_bet, 0]
    return Strategy(2, 4, round1, draw, round2)


def strategies() -> list[Strategy]:
    found = [random_strategy(b, 2 * b, np.random.default_rng(b)) for b in (1, 3)]
    return found + [read_strategy(path) for path in SHIPPED]


def other_policies(rng: np.random.Generator) -> list[Policy]:
    """Fixed simple policies: check/call, TwoCardDraw's sample, bet everything with pairs, and random ones."""
    pairs = tuple(i for i, (a, b) in enumerate(HANDS) if a == b)
    fixed = [simple_policy(), simple_policy(aggressive_hands=(FOURS,)), simple_policy(aggressive_hands=pairs)]
    for _ in range(3):
        respond = rng.integers(0, 3, size=(7, 3, 3, 4, 15)).astype(np.int8)
        respond[:, :, :, 3] = np.minimum(respond[:, :, :, 3], 1)
        respond1 = rng.integers(0, 3, size=(4, 15)).astype(np.int8)
        respond1[3] = np.minimum(respond1[3], 1)
        fixed.append(
            Policy(
                open1=rng.integers(0, 2, 15).astype(np.int8),
                respond1=respond1,
                draw=rng.integers(0, 3, size=(7, 15)).astype(np.int8),
                open2=rng.integers(1, 3, size=(7, 3, 3, 15)).astype(np.int8),
                respond2=respond,
            )
        )
    return fixed


def test_a_server_that_always_folds_to_a_bet_is_worth_minus_one_ante() -> None:
    strategy = passive_strategy(fold_to_bet=1.0)
    result = best_response(strategy)
    assert result.value == pytest.approx(-1.0, abs=1e-12)
    assert np.all(result.policy.open2[Outcome.NONE, :, 0] == 2)  # checked first: bet round 2 instead


def test_against_a_calling_station_the_best_response_bets_pairs_of_fours() -> None:
    strategy = passive_strategy(fold_to_bet=0.0)
    result = best_response(strategy)
    assert result.policy.open1[FOURS] == 1
    assert result.value < 0


@pytest.mark.parametrize("index", range(2))
def test_exact_value_agrees_with_a_million_simulated_hands(index: int) -> None:
    strategy = strategies()[index] if not SHIPPED else read_strategy(SHIPPED[index])
    result = best_response(strategy)
    profits = simulate(strategy, result.policy, 1_000_000, np.random.default_rng(100 + index))
    mean, error = -profits.mean(), profits.std() / np.sqrt(len(profits))
    assert abs(mean - result.value) < 4 * error, (mean, result.value, error)


def test_simulation_of_a_fixed_policy_agrees_with_its_exact_value() -> None:
    strategy = strategies()[0]
    policy = simple_policy(aggressive_hands=(FOURS,))
    profits = simulate(strategy, policy, 400_000, np.random.default_rng(7))
    error = profits.std() / np.sqrt(len(profits))
    assert abs(-profits.mean() - policy_value(strategy, policy)) < 4 * error


def test_best_response_never_earns_less_than_fixed_simple_policies() -> None:
    rng = np.random.default_rng(3)
    for strategy in strategies():
        value = strategy_value(strategy)
        assert policy_value(strategy, best_response(strategy).policy) == pytest.approx(value, abs=1e-12)
        for policy in other_policies(rng):
            assert value <= policy_value(strategy, policy) + 1e-12


def test_near_perfect_opponent_is_worth_less_than_the_perfect_one() -> None:
    for strategy in strategies():
        exact = strategy_value(strategy)
        near = strategy_value(strategy, mistake=NEAR_PERFECT_MISTAKE)
        assert near > exact
        assert near - exact < 0.05


def test_independent_pure_python_solver_in_the_sample_bot_gives_the_same_value(tmp_path: Path) -> None:
    strategy = strategies()[1]
    path = tmp_path / "s.txt"
    write_strategy(strategy, path)
    bot = ROOT / "bots" / "twocard" / "best_response.py"
    out = subprocess.run([sys.executable, str(bot), "--value", str(path)], capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    assert float(out.stdout) == pytest.approx(strategy_value(strategy), abs=1e-9)
