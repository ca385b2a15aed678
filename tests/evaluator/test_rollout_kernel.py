"""The compiled rollouts (arena/evaluator/rollouts.c) against the numpy path, draw for draw; their build."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import numpy as np
import pytest

from arena import compiled
from arena.evaluator.kernel import DISABLE, FLAGS, SOURCE, rollout_kernel
from arena.evaluator.rollouts import rollout_outcomes, win_tie_rates

pytestmark = [
    pytest.mark.native,
    pytest.mark.skipif(rollout_kernel() is None, reason="no C compiler: the numpy path runs alone"),
]


def _numpy_path(monkeypatch: pytest.MonkeyPatch) -> None:
    """From here on in the test, the rollouts take the numpy path."""
    monkeypatch.setenv(DISABLE, "1")
    rollout_kernel.cache_clear()


@pytest.fixture(autouse=True)
def _kernel_again() -> Iterator[None]:
    yield
    os.environ.pop(DISABLE, None)
    rollout_kernel.cache_clear()


def _cases(count: int) -> Iterator[tuple[list[int], list[int], list[int], int, int]]:
    """(hero, board, exclude, samples, seed): every board size, with and without excluded cards."""
    rng = np.random.default_rng(2026)
    for case in range(count):
        deck = rng.permutation(52).tolist()
        shown = (0, 3, 4, 5)[case % 4]
        excluded = int(rng.integers(0, 6))
        yield deck[:2], deck[2 : 2 + shown], deck[7 : 7 + excluded], int(rng.integers(1, 500)), case


def _play(cases: list[tuple[list[int], list[int], list[int], int, int]]) -> list[object]:
    """Outcomes, rates and the generator's next draw, per case."""
    seen: list[object] = []
    for hero, board, exclude, samples, seed in cases:
        rng = np.random.default_rng(seed)
        outcomes = rollout_outcomes(hero, board, samples, rng, exclude).tolist()
        rates = win_tie_rates(hero, board, samples, rng, exclude)
        seen.append((outcomes, rates, rng.random()))
    return seen


def test_the_kernel_gives_the_numpy_paths_outcomes_rates_and_generator_state(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    cases = list(_cases(400))
    compiled_results = _play(cases)
    _numpy_path(monkeypatch)
    assert rollout_kernel() is None
    assert _play(cases) == compiled_results


def test_a_long_rate_query_equals_the_numpy_paths_chunked_one(monkeypatch: pytest.MonkeyPatch) -> None:
    hero, board, samples = [0, 13], [5, 18, 31], 45_000  # more than one of the numpy path's chunks
    compiled_rates = win_tie_rates(hero, board, samples, np.random.default_rng(9))
    _numpy_path(monkeypatch)
    assert win_tie_rates(hero, board, samples, np.random.default_rng(9)) == compiled_rates


def test_bad_cards_are_refused_before_the_kernel_runs() -> None:
    with pytest.raises(ValueError, match="repeat"):
        win_tie_rates([3, 3], [], 10, np.random.default_rng(0))
    with pytest.raises(ValueError, match="unseen cards"):
        win_tie_rates([0, 1], [], 10, np.random.default_rng(0), exclude=list(range(2, 50)))


def test_a_build_anyone_else_can_write_is_not_used(tmp_path: Path) -> None:
    cache = tmp_path / "kernels"
    first = compiled.compiled(SOURCE, FLAGS, cache)
    assert first is not None and compiled.trusted(first)
    first.chmod(0o777)
    first.write_bytes(b"swapped")  # what another user could have done to a writable build
    compiled.compiled.cache_clear()
    again = compiled.compiled(SOURCE, FLAGS, cache)
    assert again == first and compiled.trusted(again)
    assert again.read_bytes()[:4] == b"\x7fELF"  # rebuilt, not loaded as it was found
