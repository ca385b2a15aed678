"""The ranking of hold'em hands, stated as data: hand categories, straights and what each category compares.

The ranking is the one of Code'em and heads-up hold'em: straight flush > four of a kind > full house >
flush > straight > three of a kind > two pair > one pair > high card; A-2-3-4-5 is the lowest straight
and K-A-2-3-4 is none; suits never break ties.

A strength is an ``int``, higher is stronger and equal means a tie:
``category << 20 | r1 << 16 | r2 << 12 | r3 << 8 | r4 << 4 | r5`` with the ranks (0..12 for 2..A) in the
order they are compared and unused places 0. ``plain_strengths`` and ``flush_strengths`` apply these rules
to every rank multiset and every suit's rank mask at once; ``arena.evaluator.card_keys`` turns the results
into the lookup tables that the fast paths read.
"""

from __future__ import annotations

from enum import IntEnum, unique

import numpy as np

RANKS = 13
ACE = RANKS - 1


@unique
class HandCategory(IntEnum):
    """Hand types, weakest first."""

    HIGH_CARD = 0
    ONE_PAIR = 1
    TWO_PAIR = 2
    THREE_OF_A_KIND = 3
    STRAIGHT = 4
    FLUSH = 5
    FULL_HOUSE = 6
    FOUR_OF_A_KIND = 7
    STRAIGHT_FLUSH = 8


def _ranks_mask(*ranks: int) -> int:
    mask = 0
    for rank in ranks:
        mask |= 1 << rank
    return mask


#: The straights, weakest first: (the rank it is compared by, the five ranks it needs as a 13-bit mask).
#: The ace plays low only in the five-high straight A-2-3-4-5 (compared by its five, rank 3).
STRAIGHTS: tuple[tuple[int, int], ...] = (
    (3, _ranks_mask(ACE, 0, 1, 2, 3)),
    *((top, _ranks_mask(*range(top - 4, top + 1))) for top in range(4, RANKS)),
)

#: The categories made by groups of equal ranks, strongest first; a hand takes the first that fits (the
#: straight, checked between the full house and three of a kind, outranks the ones below it). ``groups``:
#: the least sizes of the hand's largest groups, largest first (a full house needs a group of three and
#: another of at least two); the groups' ranks are compared first, larger groups first, then ``kickers``
#: of the highest ranks left.
GROUPED: tuple[tuple[HandCategory, tuple[int, ...], int], ...] = (
    (HandCategory.FOUR_OF_A_KIND, (4,), 1),
    (HandCategory.FULL_HOUSE, (3, 2), 0),
    (HandCategory.THREE_OF_A_KIND, (3,), 2),
    (HandCategory.TWO_PAIR, (2, 2), 1),
    (HandCategory.ONE_PAIR, (2,), 3),
    (HandCategory.HIGH_CARD, (), 5),
)


def category(strength: int) -> HandCategory:
    """The hand type of a strength (see the module docs)."""
    return HandCategory(strength >> 20)


def _pack(categories: np.ndarray, ranks: np.ndarray) -> np.ndarray:
    """Strengths from categories (M,) and compared ranks (M, 5)."""
    value = categories.astype(np.int64)
    for i in range(5):
        value = (value << 4) | ranks[:, i]
    return value


def _straight_tops(masks: np.ndarray) -> np.ndarray:
    """The rank of the best straight in each 13-bit rank mask, -1 for none."""
    tops = np.full(len(masks), -1, dtype=np.int64)
    for top, needed in STRAIGHTS:
        tops[(masks & needed) == needed] = top
    return tops


def _highest(present: np.ndarray, count: int) -> np.ndarray:
    """The ``count`` highest ranks present in each row of an (M, 13) bool array, highest first (0-padded)."""
    ranks = np.where(present, np.arange(RANKS), -1)
    highest: np.ndarray = np.maximum(-np.sort(-ranks, axis=1)[:, :count], 0)
    return highest


def _masks(present: np.ndarray) -> np.ndarray:
    """The 13-bit rank mask of each row of an (M, 13) bool array."""
    masks: np.ndarray = (present.astype(np.int64) << np.arange(RANKS)).sum(axis=1)
    return masks


def plain_strengths(counts: np.ndarray) -> np.ndarray:
    """Strengths of hands without a flush, given as (M, 13) rank counts of 5 to 7 cards."""
    present = counts > 0
    ranks_by_group = -np.sort(-np.where(present, counts * 16 + np.arange(RANKS), -1), axis=1)
    sizes, group_ranks = ranks_by_group >> 4, ranks_by_group & 15  # groups by size, then rank
    straight_tops = _straight_tops(_masks(present))
    categories = np.full(len(counts), -1, dtype=np.int64)
    compared = np.zeros((len(counts), 5), dtype=np.int64)
    for hand, groups, kickers in GROUPED:
        if hand is HandCategory.THREE_OF_A_KIND:  # a straight ranks just above three of a kind
            fits = (categories < 0) & (straight_tops >= 0)
            categories[fits] = HandCategory.STRAIGHT
            compared[fits, 0] = straight_tops[fits]
        fits = categories < 0
        for i, size in enumerate(groups):
            fits &= sizes[:, i] >= size
        left = present[fits]
        for i in range(len(groups)):
            compared[fits, i] = group_ranks[fits, i]
            left &= np.arange(RANKS) != group_ranks[fits, i, None]
        compared[fits, len(groups) : len(groups) + kickers] = _highest(left, kickers)
        categories[fits] = hand
    return _pack(categories, compared)


def flush_strengths(masks: np.ndarray) -> np.ndarray:
    """Strengths of flushes, given as 13-bit rank masks of one suit holding at least five ranks."""
    tops = _straight_tops(masks)
    present = (masks[:, None] >> np.arange(RANKS)) & 1 == 1
    compared = _highest(present, 5)
    straight = tops >= 0
    compared[straight] = 0
    compared[straight, 0] = tops[straight]
    categories = np.where(straight, HandCategory.STRAIGHT_FLUSH, HandCategory.FLUSH)
    return _pack(categories, compared)
