"""Evaluator helpers only tests use: hands given as summed card keys, and the offline rank-key search.

``strengths_from_sums`` and ``evaluate_with_board`` rank hands given by summed ``CARD_KEYS`` and card
masks through the single-hand tables (the dict of rank sums and the flush table), not through the batch
path's hash: they are the reference that ``few_strengths_from_sums`` and the rollouts are checked
against. ``derive_rank_keys`` is tools/derive_rank_keys.py's search.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import numpy as np

from arena.evaluator import CARD_KEYS
from arena.evaluator.card_keys import (
    FLUSH_BITS,
    FLUSH_OFFSET,
    FLUSH_STRENGTHS,
    PLAIN_STRENGTHS,
    RANK_MASK,
    SUIT_BITS,
)
from arena.evaluator.ranking import RANKS

from support.tools import load_tool


def strength_of_sums(key_sum: int, card_mask: int) -> int:
    """Strength of one hand given by its summed ``CARD_KEYS`` and its ``1 << card`` mask."""
    flush = (key_sum + FLUSH_OFFSET) & FLUSH_BITS
    if not flush:
        return PLAIN_STRENGTHS[key_sum >> SUIT_BITS]
    return FLUSH_STRENGTHS[(card_mask >> (RANKS * (flush.bit_length() // 4 - 1))) & RANK_MASK]


def strengths_from_sums(key_sums: np.ndarray, bit_sums: np.ndarray) -> np.ndarray:
    """Strengths (int64) of hands given by their summed ``CARD_KEYS`` and summed ``1 << card``."""
    pairs = zip(np.asarray(key_sums).tolist(), np.asarray(bit_sums).tolist(), strict=True)
    return np.array([strength_of_sums(key, mask) for key, mask in pairs], dtype=np.int64)


def board_sums(board: Sequence[int]) -> tuple[int, int]:
    """(summed ``CARD_KEYS``, card mask) of shared cards, for :func:`evaluate_with_board`."""
    return sum(CARD_KEYS[card] for card in board), sum(1 << card for card in board)


def evaluate_with_board(hole: Sequence[int], board_key_sum: int, board_mask: int) -> int:
    """``evaluate((*hole, *board))`` for two hole cards and a 3-5 card board given by :func:`board_sums`."""
    first, second = hole
    key_sum = board_key_sum + CARD_KEYS[first] + CARD_KEYS[second]
    return strength_of_sums(key_sum, board_mask | 1 << first | 1 << second)


derive_rank_keys: Callable[[int], list[int]] = load_tool("derive_rank_keys").derive_rank_keys
