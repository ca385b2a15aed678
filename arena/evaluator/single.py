"""One hand at a time: ``evaluate`` for any 5 to 7 cards, ``evaluate_holes`` for a showdown.

Both read the tables of ``arena.evaluator.card_keys`` (the card keys are summed, a flush is found from
the suit counts); ``evaluate_holes`` ranks hands without a flush through the rank-sum hash of
``arena.evaluator.batch`` instead of the dict (built on its first call, about 0.25 s). Cards must be
distinct: nothing here checks that, as the deal guarantees it.
"""

from __future__ import annotations

from collections.abc import Sequence

from arena.evaluator.batch import RANK_BIAS, ROW_BITS, hash_tables
from arena.evaluator.card_keys import (
    CARD_KEYS,
    FLUSH_BITS,
    FLUSH_OFFSET,
    FLUSH_STRENGTHS,
    PLAIN_STRENGTHS,
    RANK_KEYS,
    RANK_MASK,
    SUIT_BITS,
)
from arena.evaluator.ranking import RANKS

_BOARD_FLUSH_OFFSET = 0x5555  # 5 added to each suit's board count: 3..5 sets the top bit
# CARD_KEYS split in two, for evaluate_holes: the rank key and the suit count of each card.
_CARD_RANK_KEYS = tuple(RANK_KEYS[c % RANKS] for c in range(52))
_CARD_SUIT_KEYS = tuple(1 << 4 * (c // RANKS) for c in range(52))
_hash_views: list[memoryview] = []  # (displacements, strengths) of the batch hash: evaluate_holes' first call


def evaluate(cards: Sequence[int]) -> int:
    """Strength of the best five of 5 to 7 distinct card indices (the layout: ``evaluator.ranking``)."""
    keys = CARD_KEYS
    total = 0
    for card in cards:
        total += keys[card]
    flush = (total + FLUSH_OFFSET) & FLUSH_BITS
    if not flush:
        try:
            return PLAIN_STRENGTHS[total >> SUIT_BITS]
        except KeyError:
            raise ValueError(f"{len(cards)} cards {list(cards)} are not 5 to 7 distinct cards") from None
    mask = 0
    for card in cards:
        mask |= 1 << card
    return FLUSH_STRENGTHS[(mask >> (RANKS * (flush.bit_length() // 4 - 1))) & RANK_MASK]


def evaluate_holes(holes: Sequence[Sequence[int]], board: Sequence[int]) -> list[int]:
    """``[evaluate((*hole, *board)) for hole in holes]`` for pairs of hole cards sharing a 3-5 card board.

    Hands without a flush are ranked through the rank-sum hash of the batch path (built on the first
    call): two lookups in its int32 arrays (690 KB) stay in cache better than the dict that
    ``evaluate`` uses. The rank keys and the suit counts are summed apart, so every sum stays a
    one-digit Python int (cheap arithmetic); when no suit shows three times on the board (about 63 % of
    five-card boards) no hand can hold a flush and the suits are not looked at again.
    """
    if not _hash_views:
        tables = hash_tables()
        _hash_views.extend([tables.displacements.data, tables.strengths.data])
    displacements, plain = _hash_views
    ranks, suits = _CARD_RANK_KEYS, _CARD_SUIT_KEYS
    rank_sum = suit_counts = 0
    for card in board:
        rank_sum += ranks[card]
        suit_counts += suits[card]
    base = rank_sum + RANK_BIAS
    if not (suit_counts + _BOARD_FLUSH_OFFSET) & FLUSH_BITS:
        return [
            plain[(biased := base + ranks[first] + ranks[second]) + displacements[biased >> ROW_BITS]]
            for first, second in holes
        ]
    suit_counts += FLUSH_OFFSET
    board_mask = 0
    for card in board:
        board_mask |= 1 << card
    strengths = []
    for first, second in holes:
        flush = (suit_counts + suits[first] + suits[second]) & FLUSH_BITS
        if flush:
            mask = board_mask | 1 << first | 1 << second
            strengths.append(FLUSH_STRENGTHS[(mask >> (RANKS * (flush.bit_length() // 4 - 1))) & RANK_MASK])
        else:
            biased = base + ranks[first] + ranks[second]
            strengths.append(plain[biased + displacements[biased >> ROW_BITS]])
    return strengths
