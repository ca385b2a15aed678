"""Card keys and the lookup tables built from the ranking rules at import (about 0.1 s).

Every card has one integer key, ``RANK_KEYS[rank] << 16 | 1 << 4 * suit``, and a hand is the sum of its
cards' keys:

* The low 16 bits hold four 4-bit counts, the number of cards of each suit. Adding 3 to each count sets
  its top bit exactly when the count is 5 or more: ``(sum + FLUSH_OFFSET) & FLUSH_BITS`` is nonzero for a
  flush and its bit tells the suit (at most one suit can hold five of seven cards, and a hand holding a
  flush can hold neither a full house nor four of a kind, so the flush is then the best hand).
* The high bits are the sum of the rank keys. ``RANK_KEYS`` give every multiset of at most seven ranks,
  each at most four times, its own sum (found by ``tools/derive_rank_keys.py``), so one lookup in
  ``PLAIN_STRENGTHS`` ranks any hand without a flush.
* A flush is ranked from the 13-bit mask of its suit's ranks (``FLUSH_STRENGTHS``): the hand's 52-bit card
  mask shifted right by ``13 * suit``.
"""

from __future__ import annotations

import itertools

import numpy as np

from arena.evaluator.ranking import RANKS, flush_strengths, plain_strengths

MAX_CARDS = 7
MAX_OF_A_RANK = 4
SUIT_BITS = 16  # the rank-key sum sits above the four suit counts
FLUSH_OFFSET = 0x3333  # 3 added to each suit's count: a count of 5..7 then sets the nibble's top bit
FLUSH_BITS = 0x8888
RANK_MASK = (1 << RANKS) - 1

#: Per-rank keys (2..A) whose sums over any multiset of at most seven ranks, each at most four times, are
#: all distinct: the smallest such key rank by rank (``python tools/derive_rank_keys.py`` finds them again).
RANK_KEYS: tuple[int, ...] = (
    1,
    5,
    24,
    112,
    521,
    2247,
    9244,
    30823,
    103066,
    250154,
    667453,
    1526359,
    3453520,
)

#: Key of each card index 0..51: rank key in the high bits, a one in its suit's count in the low 16.
CARD_KEYS: tuple[int, ...] = tuple(
    RANK_KEYS[c % RANKS] << SUIT_BITS | 1 << 4 * (c // RANKS) for c in range(52)
)


def rank_multisets() -> np.ndarray:
    """Rank counts (M, 13) of every multiset of 5, 6 or 7 ranks with each rank at most four times."""
    blocks = []
    for n in range(5, MAX_CARDS + 1):
        combos = np.array(list(itertools.combinations_with_replacement(range(RANKS), n)), dtype=np.int64)
        counts = np.zeros((len(combos), RANKS), dtype=np.int64)
        rows = np.arange(len(combos))
        for j in range(n):
            np.add.at(counts, (rows, combos[:, j]), 1)
        blocks.append(counts[counts.max(axis=1) <= MAX_OF_A_RANK])
    return np.concatenate(blocks)


def _build_tables() -> tuple[dict[int, int], np.ndarray]:
    counts = rank_multisets()
    sums = counts @ np.array(RANK_KEYS, dtype=np.int64)
    if np.unique(sums).size != sums.size:
        raise AssertionError("RANK_KEYS do not give distinct sums")
    plain = dict(zip(sums.tolist(), plain_strengths(counts).tolist(), strict=True))
    masks = np.arange(1 << RANKS, dtype=np.int64)
    five_or_more = np.array([m.bit_count() >= 5 for m in range(1 << RANKS)])
    flush = np.zeros(1 << RANKS, dtype=np.int64)
    flush[five_or_more] = flush_strengths(masks[five_or_more])
    return plain, flush


#: Strength of every hand without a flush, by the sum of its rank keys (``key_sum >> SUIT_BITS``).
#: ``FLUSH_STRENGTHS_ARRAY``: strength of a flush by its suit's 13-bit rank mask (0 below five ranks);
#: ``FLUSH_STRENGTHS`` the same as a list, for pure-Python lookups.
PLAIN_STRENGTHS, FLUSH_STRENGTHS_ARRAY = _build_tables()
FLUSH_STRENGTHS: list[int] = FLUSH_STRENGTHS_ARRAY.tolist()

_CARD_KEYS_ARRAY = np.array(CARD_KEYS, dtype=np.int64)
_CARD_BITS_ARRAY = np.left_shift(1, np.arange(52, dtype=np.int64))


def card_key_array() -> np.ndarray:
    """:data:`CARD_KEYS` as an int64 numpy array (read-only view)."""
    view = _CARD_KEYS_ARRAY.view()
    view.flags.writeable = False
    return view


def card_bit_array() -> np.ndarray:
    """``1 << card`` for every card index as an int64 numpy array (read-only view)."""
    view = _CARD_BITS_ARRAY.view()
    view.flags.writeable = False
    return view
