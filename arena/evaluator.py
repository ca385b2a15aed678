"""Hand strength of the best five of up to seven cards, shared by every hold'em game.

``evaluate(cards)`` returns an ``int``: higher is stronger, equal means a tie. The ranking is the one
of seeds 004, 001 and 003: straight flush > four of a kind > full house > flush > straight > three of a
kind > two pair > one pair > high card; A-2-3-4-5 is the lowest straight and K-A-2-3-4 is none; suits
never break ties. ``category(strength)`` gives the :class:`HandCategory`.

Strength layout: ``category << 20 | r1 << 16 | r2 << 12 | r3 << 8 | r4 << 4 | r5`` with the ranks
(0..12) in the order they are compared.
"""

from __future__ import annotations

from collections.abc import Sequence
from enum import IntEnum, unique


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


_WHEEL = 0b1_0000_0000_1111  # A,5,4,3,2


def _straight_top(rank_mask: int) -> int:
    """Rank of the top card of the best straight in a 13-bit rank mask, or -1."""
    for top in range(12, 3, -1):
        window = 0b11111 << (top - 4)
        if rank_mask & window == window:
            return top
    if rank_mask & _WHEEL == _WHEEL:
        return 3  # five-high
    return -1


def _pack(category: HandCategory, ranks: Sequence[int]) -> int:
    value = int(category)
    for i in range(5):
        value = (value << 4) | (ranks[i] if i < len(ranks) else 0)
    return value


def evaluate(cards: Sequence[int]) -> int:
    """Strength of the best five-card hand among 5 to 7 card indices (see module docs)."""
    counts = [0] * 13
    suit_masks = [0, 0, 0, 0]
    for card in cards:
        rank = card % 13
        counts[rank] += 1
        suit_masks[card // 13] |= 1 << rank
    for mask in suit_masks:
        if mask.bit_count() >= 5:
            top = _straight_top(mask)
            if top >= 0:
                return _pack(HandCategory.STRAIGHT_FLUSH, [top])
            flush_ranks = [r for r in range(12, -1, -1) if mask >> r & 1][:5]
            return _pack(HandCategory.FLUSH, flush_ranks)
    groups = sorted(((n, r) for r, n in enumerate(counts) if n), reverse=True)
    if groups[0][0] == 4:
        kicker = max(r for n, r in groups[1:])
        return _pack(HandCategory.FOUR_OF_A_KIND, [groups[0][1], kicker])
    if groups[0][0] == 3 and len(groups) > 1 and groups[1][0] >= 2:
        return _pack(HandCategory.FULL_HOUSE, [groups[0][1], groups[1][1]])
    rank_mask = 0
    for r, n in enumerate(counts):
        if n:
            rank_mask |= 1 << r
    top = _straight_top(rank_mask)
    if top >= 0:
        return _pack(HandCategory.STRAIGHT, [top])
    if groups[0][0] == 3:
        kickers = sorted((r for n, r in groups[1:]), reverse=True)[:2]
        return _pack(HandCategory.THREE_OF_A_KIND, [groups[0][1], *kickers])
    if groups[0][0] == 2 and groups[1][0] == 2:
        kicker = max(r for n, r in groups[2:])
        return _pack(HandCategory.TWO_PAIR, [groups[0][1], groups[1][1], kicker])
    if groups[0][0] == 2:
        kickers = sorted((r for n, r in groups[1:]), reverse=True)[:3]
        return _pack(HandCategory.ONE_PAIR, [groups[0][1], *kickers])
    return _pack(HandCategory.HIGH_CARD, [r for n, r in groups[:5]])


def category(strength: int) -> HandCategory:
    """The hand type of a strength returned by :func:`evaluate`."""
    return HandCategory(strength >> 20)
