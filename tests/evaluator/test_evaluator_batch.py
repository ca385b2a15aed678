"""evaluate_batch and strengths_from_sums against evaluate: every rank multiset, flushes, layouts, dtypes."""

from __future__ import annotations

import itertools

import numpy as np
import pytest

from arena.evaluator import (
    HandCategory,
    card_bit_array,
    card_key_array,
    category,
    evaluate,
    evaluate_batch,
)

from support.evaluator import strengths_from_sums


def random_rows(count: int, width: int, seed: int) -> np.ndarray:
    """(count, width) uint8 rows of distinct card indices."""
    return np.argsort(np.random.default_rng(seed).random((count, 52)), axis=1)[:, :width].astype(np.uint8)


def one_by_one(rows: np.ndarray) -> list[int]:
    return [evaluate(row) for row in rows.tolist()]


@pytest.mark.parametrize("width", [5, 6, 7])
def test_random_rows_of_each_width_match_evaluate(width: int) -> None:
    rows = random_rows(50_001, width, seed=width)  # an odd count, several chunks and a short last one
    assert evaluate_batch(rows).tolist() == one_by_one(rows)


@pytest.mark.parametrize("width", [5, 6, 7])
def test_every_rank_multiset_without_a_flush(width: int) -> None:
    # Sorted ranks dealt to suits in turn: a rank's copies get distinct suits, no suit gets five cards.
    rows = np.array(
        [
            [(j % 4) * 13 + rank for j, rank in enumerate(ranks)]
            for ranks in itertools.combinations_with_replacement(range(13), width)
            if max(ranks.count(r) for r in ranks) <= 4
        ],
        dtype=np.uint8,
    )
    strengths = evaluate_batch(rows)
    assert strengths.tolist() == one_by_one(rows)
    assert len(np.unique(strengths)) > 1_000


@pytest.mark.parametrize("width", [5, 6, 7])
def test_every_flush_of_one_suit_with_off_suit_cards(width: int) -> None:
    rows = []
    for suited in range(5, width + 1):
        for ranks in itertools.combinations(range(13), suited):
            others = [13 * (1 + j % 3) + (ranks[0] + j) % 13 for j in range(width - suited)]
            rows.append([*reversed(ranks), *others])  # suited cards are spades, index = rank
    hands = np.array(rows, dtype=np.uint8)
    strengths = evaluate_batch(hands)
    assert strengths.tolist() == one_by_one(hands)
    kinds = {category(s) for s in strengths.tolist()}
    assert {HandCategory.FLUSH, HandCategory.STRAIGHT_FLUSH} <= kinds


def test_layouts_and_dtypes_give_the_same_strengths() -> None:
    rows = random_rows(20_001, 7, seed=11)
    expected = evaluate_batch(rows)
    assert expected.dtype == np.int64
    unaligned = np.empty(rows.size + 1, dtype=np.uint8)[1:].reshape(rows.shape)
    unaligned[:] = rows
    assert unaligned.ctypes.data % 2 == 1
    assert np.array_equal(evaluate_batch(unaligned), expected)
    assert np.array_equal(evaluate_batch(rows[1:]), expected[1:])
    assert np.array_equal(evaluate_batch(rows[::3]), expected[::3])
    assert np.array_equal(evaluate_batch(rows[:, ::-1]), expected)
    for dtype in (np.int8, np.int16, np.uint16, np.int32, np.int64):
        assert np.array_equal(evaluate_batch(rows.astype(dtype)), expected), dtype
    assert evaluate_batch(rows[:0]).shape == (0,)
    assert evaluate_batch(rows[:1]).tolist() == [evaluate(rows[0].tolist())]


def test_strengths_from_sums_match_evaluate() -> None:
    rows = random_rows(30_000, 7, seed=12).astype(np.intp)
    key_sums = card_key_array()[rows].sum(axis=1)
    bit_sums = card_bit_array()[rows].sum(axis=1)
    assert strengths_from_sums(key_sums, bit_sums).tolist() == one_by_one(rows)
