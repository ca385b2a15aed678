"""Hand strength of the best five of up to seven cards, shared by every hold'em game.

``evaluate(cards)`` returns an ``int``: higher is stronger, equal means a tie. The ranking is the one
of seeds 004, 001 and 003: straight flush > four of a kind > full house > flush > straight > three of a
kind > two pair > one pair > high card; A-2-3-4-5 is the lowest straight and K-A-2-3-4 is none; suits
never break ties. ``category(strength)`` gives the :class:`HandCategory`. ``evaluate_batch`` does the
same for the rows of a numpy array.

Strength layout: ``category << 20 | r1 << 16 | r2 << 12 | r3 << 8 | r4 << 4 | r5`` with the ranks
(0..12) in the order they are compared, unused places 0 (a straight keeps only its top card, five-high
being rank 3; a full house its trips and pair ranks; four of a kind its quad rank and kicker).

How it is fast: every card has one integer key, ``RANK_KEYS[rank] << 16 | 1 << 4 * suit``, and a hand
is the sum of its cards' keys.

* The low 16 bits hold four 4-bit counts, the number of cards of each suit. Adding 3 to each count
  sets its top bit exactly when the count is 5 or more: ``(sum + 0x3333) & 0x8888`` is nonzero for a
  flush and its bit tells the suit (at most one suit can have five of seven cards, and a hand holding
  a flush can hold neither a full house nor four of a kind, so the flush is then the best hand).
* The high bits are the sum of the rank keys. :data:`RANK_KEYS` were chosen so that every multiset of
  at most seven ranks, each rank at most four times, has its own sum; one table lookup then ranks any
  hand without a flush.
* A flush is ranked from the 13-bit mask of its suit's ranks: the hand's 52-bit card mask shifted by
  ``13 * suit``.

The tables are built at import from the ranking rules (about 0.1 s); the dense arrays that
``evaluate_batch`` and ``evaluate_holes`` index (37 MB) are built on the first call of either. Cards must
be distinct: no function here checks that, as the deal guarantees it.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from enum import IntEnum, unique

import numpy as np

_RANKS = 13
_MAX_CARDS = 7
_MAX_OF_A_RANK = 4
_SUIT_BITS = 16
_FLUSH_OFFSET = 0x3333  # 3 added to each suit's count: a count of 5..7 then sets the nibble's top bit
_FLUSH_BITS = 0x8888
_CHUNK = 16_384  # rows per step of evaluate_batch, keeping its temporaries in cache
_RANK_MASK = (1 << _RANKS) - 1


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


#: Per-rank keys (2..A) whose sums over any multiset of at most seven ranks, each at most four times,
#: are all distinct. Found by :func:`derive_rank_keys` (greedy, smallest admissible key per rank).
RANK_KEYS: tuple[int, ...] = (
    1, 5, 24, 112, 521, 2247, 9244, 30823, 103066, 250154, 667453, 1526359, 3453520,
)


def derive_rank_keys(ranks: int = _RANKS) -> list[int]:
    """Smallest keys, rank by rank, keeping all multiset sums distinct (how :data:`RANK_KEYS` was found).

    A candidate key ``k`` for a new rank fails when two multisets ``m1 + c1*k`` and ``m2 + c2*k`` of the
    earlier ranks (``c1 > c2`` copies of the new rank, sizes within seven) collide, i.e. when
    ``(c1 - c2) * k`` is a difference of two earlier sums. Those differences come from a
    cross-correlation of the earlier sums' indicator arrays, done by FFT. The 13 ranks take about a
    minute; this is not run at import.
    """
    keys: list[int] = []
    by_size = [np.array([0], dtype=np.int64)] + [np.zeros(0, dtype=np.int64)] * _MAX_CARDS
    for _ in range(ranks):
        top = max(int(sums.max()) for sums in by_size if sums.size)
        within = np.zeros(top + 1)
        up_to: list[np.ndarray] = []
        for sums in by_size:
            within[sums] = 1.0
            up_to.append(within.copy())
        length = 1 << (2 * top + 2).bit_length()
        spectra = [np.fft.rfft(u, length) for u in up_to]
        bad = np.zeros(top + 2, dtype=bool)
        bad[0] = True
        for c1 in range(1, _MAX_OF_A_RANK + 1):
            for c2 in range(c1):
                corr = np.fft.irfft(np.conj(spectra[_MAX_CARDS - c1]) * spectra[_MAX_CARDS - c2], length)
                lags = np.flatnonzero(corr[: top + 1] > 0.5)
                multiples = lags[lags % (c1 - c2) == 0] // (c1 - c2)
                bad[multiples[multiples < bad.size]] = True
        key = int(np.flatnonzero(~bad)[0]) if not bad.all() else bad.size
        keys.append(key)
        by_size = [
            np.unique(np.concatenate([by_size[s - c] + c * key for c in range(min(_MAX_OF_A_RANK, s) + 1)]))
            for s in range(_MAX_CARDS + 1)
        ]
    return keys


def _straight_tops(present: np.ndarray) -> np.ndarray:
    """Top rank of the best straight in each row of a (M, 13) bool array, -1 for none (3 = five-high)."""
    run = np.zeros(len(present), dtype=np.int64)
    top = np.full(len(present), -1, dtype=np.int64)
    columns = [present[:, _RANKS - 1], *(present[:, r] for r in range(_RANKS))]  # ace low first
    for position, column in enumerate(columns):
        run = np.where(column, run + 1, 0)
        top = np.where(run >= 5, position - 1, top)
    return top


def _pack(category: np.ndarray, ranks: np.ndarray) -> np.ndarray:
    value = category.astype(np.int64)
    for i in range(5):
        value = (value << 4) | ranks[:, i]
    return value


def _ranks_desc(present: np.ndarray) -> np.ndarray:
    """Present ranks of each row, highest first, padded with 0 (M, 13)."""
    ranks = np.where(present, np.arange(_RANKS), -1)
    return np.maximum(-np.sort(-ranks, axis=1), 0)


def _flush_strengths(masks: np.ndarray) -> np.ndarray:
    """Strengths of 13-bit single-suit rank masks holding at least five ranks."""
    present = (masks[:, None] >> np.arange(_RANKS)) & 1 == 1
    top = _straight_tops(present)
    ranks = _ranks_desc(present)[:, :5]
    straight = top >= 0
    ranks[straight] = 0
    ranks[straight, 0] = top[straight]
    category = np.where(straight, HandCategory.STRAIGHT_FLUSH, HandCategory.FLUSH)
    return _pack(category, ranks)


def _plain_strengths(counts: np.ndarray) -> np.ndarray:
    """Strengths of (M, 13) rank counts with no flush, by the seeds' comparison rules."""
    present = counts > 0
    arange = np.arange(_RANKS)
    order = -np.sort(-np.where(present, counts * 16 + arange, -1), axis=1)
    size = order >> 4
    rank = order & 15
    descending = _ranks_desc(present)

    def best_other(*excluded: np.ndarray) -> np.ndarray:
        keep = present.copy()
        for ex in excluded:
            keep &= arange != ex[:, None]
        return np.where(keep, arange, -1).max(axis=1)

    m = len(counts)
    category = np.zeros(m, dtype=np.int64)
    ranks = descending[:, :5].copy()

    def put(where: np.ndarray, cat: HandCategory, *columns: np.ndarray) -> None:
        category[where] = cat
        ranks[where] = 0
        for i, column in enumerate(columns):
            ranks[where, i] = column[where]

    top = _straight_tops(present)
    put(size[:, 0] == 2, HandCategory.ONE_PAIR, rank[:, 0], rank[:, 1], rank[:, 2], rank[:, 3])
    two_pair = (size[:, 0] == 2) & (size[:, 1] == 2)
    put(two_pair, HandCategory.TWO_PAIR, rank[:, 0], rank[:, 1], best_other(rank[:, 0], rank[:, 1]))
    put(size[:, 0] == 3, HandCategory.THREE_OF_A_KIND, rank[:, 0], rank[:, 1], rank[:, 2])
    put(top >= 0, HandCategory.STRAIGHT, top)
    put((size[:, 0] == 3) & (size[:, 1] >= 2), HandCategory.FULL_HOUSE, rank[:, 0], rank[:, 1])
    put(size[:, 0] == 4, HandCategory.FOUR_OF_A_KIND, rank[:, 0], best_other(rank[:, 0]))
    return _pack(category, ranks)


def _rank_multisets() -> np.ndarray:
    """Rank counts (M, 13) of every multiset of 5, 6 or 7 ranks with each rank at most four times."""
    blocks = []
    for n in range(5, _MAX_CARDS + 1):
        combos = np.array(list(itertools.combinations_with_replacement(range(_RANKS), n)), dtype=np.int64)
        counts = np.zeros((len(combos), _RANKS), dtype=np.int64)
        rows = np.arange(len(combos))
        for j in range(n):
            np.add.at(counts, (rows, combos[:, j]), 1)
        blocks.append(counts[counts.max(axis=1) <= _MAX_OF_A_RANK])
    return np.concatenate(blocks)


def _build_tables() -> tuple[dict[int, int], list[int], np.ndarray]:
    counts = _rank_multisets()
    sums = counts @ np.array(RANK_KEYS, dtype=np.int64)
    if np.unique(sums).size != sums.size:
        raise AssertionError("RANK_KEYS do not give distinct sums")
    plain = dict(zip(sums.tolist(), _plain_strengths(counts).tolist(), strict=True))
    masks = np.arange(1 << _RANKS, dtype=np.int64)
    big = np.array([m.bit_count() >= 5 for m in range(1 << _RANKS)])
    flush = np.zeros(1 << _RANKS, dtype=np.int64)
    flush[big] = _flush_strengths(masks[big])
    return plain, flush.tolist(), flush


_PLAIN, _FLUSH, _FLUSH_NP = _build_tables()

#: Key of each card index 0..51: rank key in the high bits, a one in its suit's count in the low 16.
CARD_KEYS: tuple[int, ...] = tuple(
    RANK_KEYS[c % _RANKS] << _SUIT_BITS | 1 << 4 * (c // _RANKS) for c in range(52)
)
# Flush bit (8 << 4 * suit) >> 3 -> the shift of that suit's ranks in a 52-bit card mask.
_SUIT_SHIFT_NP = np.zeros((_FLUSH_BITS >> 3) + 1, dtype=np.int64)
_SUIT_SHIFT_NP[[1 << 4 * s for s in range(4)]] = [_RANKS * s for s in range(4)]
_CARD_KEYS_NP = np.array(CARD_KEYS, dtype=np.int64)
_CARD_BITS_NP = np.left_shift(1, np.arange(52, dtype=np.int64))
_dense: list[np.ndarray] = []  # filled by _dense_tables on the first batch
_dense_views: list = []  # (memoryview of the class table, strengths as a list): evaluate_holes' first call


def evaluate(cards: Sequence[int]) -> int:
    """Strength of the best five-card hand among 5 to 7 distinct card indices (see module docs)."""
    keys = CARD_KEYS
    total = 0
    for card in cards:
        total += keys[card]
    flush = (total + _FLUSH_OFFSET) & _FLUSH_BITS
    if not flush:
        try:
            return _PLAIN[total >> _SUIT_BITS]
        except KeyError:
            raise ValueError(f"{len(cards)} cards {list(cards)} are not 5 to 7 distinct cards") from None
    mask = 0
    for card in cards:
        mask |= 1 << card
    return _FLUSH[(mask >> (_RANKS * (flush.bit_length() // 4 - 1))) & _RANK_MASK]


def board_sums(board: Sequence[int]) -> tuple[int, int]:
    """(summed :data:`CARD_KEYS`, card mask) of shared cards, for :func:`evaluate_with_board`."""
    keys = CARD_KEYS
    total = mask = 0
    for card in board:
        total += keys[card]
        mask |= 1 << card
    return total, mask


def evaluate_with_board(hole: Sequence[int], board_key_sum: int, board_mask: int) -> int:
    """``evaluate((*hole, *board))`` for two hole cards and a board given by :func:`board_sums`.

    A showdown sums its five board keys once instead of once per seat. The board must hold 3 to 5 cards.
    """
    first, second = hole
    keys = CARD_KEYS
    total = board_key_sum + keys[first] + keys[second]
    flush = (total + _FLUSH_OFFSET) & _FLUSH_BITS
    if not flush:
        return _PLAIN[total >> _SUIT_BITS]
    mask = board_mask | 1 << first | 1 << second
    return _FLUSH[(mask >> (_RANKS * (flush.bit_length() // 4 - 1))) & _RANK_MASK]


def evaluate_holes(holes: Sequence[Sequence[int]], board: Sequence[int]) -> list[int]:
    """``[evaluate((*hole, *board)) for hole in holes]`` for pairs of hole cards sharing a 3-5 card board.

    Hands without a flush are ranked through the dense tables of :func:`evaluate_batch` (built on the
    first call): one lookup in a flat array touches less memory than the dict that ``evaluate`` uses.
    """
    if not _dense_views:
        table, classes, _ = _dense_tables()
        _dense_views.extend([memoryview(table), classes.tolist()])
    class_of, strength_of = _dense_views
    key_sum, board_mask = board_sums(board)
    keys, flushes = CARD_KEYS, _FLUSH
    strengths = []
    for first, second in holes:
        total = key_sum + keys[first] + keys[second]
        flush = (total + _FLUSH_OFFSET) & _FLUSH_BITS
        if flush:
            mask = board_mask | 1 << first | 1 << second
            strengths.append(flushes[(mask >> (_RANKS * (flush.bit_length() // 4 - 1))) & _RANK_MASK])
        else:
            strengths.append(strength_of[class_of[total >> _SUIT_BITS]])
    return strengths


def category(strength: int) -> HandCategory:
    """The hand type of a strength returned by :func:`evaluate`."""
    return HandCategory(strength >> 20)


def _dense_tables() -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(class index per rank-key sum, strength per class, key sum per little-endian card pair)."""
    if not _dense:
        sums = np.fromiter(_PLAIN.keys(), dtype=np.int64, count=len(_PLAIN))
        strengths = np.fromiter(_PLAIN.values(), dtype=np.int64, count=len(_PLAIN))
        classes, index = np.unique(strengths, return_inverse=True)
        table = np.zeros(int(sums.max()) + 1, dtype=np.uint16)
        table[sums] = index
        cards = np.arange(52)
        pairs = np.zeros(1 << 16, dtype=np.int64)
        pairs[(cards[:, None] | cards[None, :] << 8).ravel()] = (
            _CARD_KEYS_NP[:, None] + _CARD_KEYS_NP[None, :]
        ).ravel()
        _dense.extend([table, classes, pairs])
    return _dense[0], _dense[1], _dense[2]


def _plain_into(out: np.ndarray, totals: np.ndarray) -> None:
    """Write into ``out`` the strengths of hands with key sums ``totals``, as if none held a flush."""
    table, classes, _ = _dense_tables()
    np.take(classes, np.take(table, totals >> _SUIT_BITS, mode="clip"), out=out, mode="clip")


def _flushes_into(out: np.ndarray, totals: np.ndarray, cards: np.ndarray | None,
                  bit_sums: np.ndarray | None) -> None:
    """Overwrite in ``out`` the hands whose key sums ``totals`` (clobbered) hold a flush."""
    totals += _FLUSH_OFFSET
    totals &= _FLUSH_BITS
    flushed = np.flatnonzero(totals)
    if flushed.size:
        shifts = _SUIT_SHIFT_NP[totals[flushed] >> 3]
        if bit_sums is not None:
            masks = bit_sums[flushed]
        else:
            assert cards is not None
            masks = np.take(_CARD_BITS_NP, cards[flushed]).sum(axis=1)
        out[flushed] = _FLUSH_NP[(masks >> shifts) & _RANK_MASK]


def strengths_from_sums(key_sums: np.ndarray, bit_sums: np.ndarray) -> np.ndarray:
    """Strengths of hands given by their summed :data:`CARD_KEYS` and summed ``1 << card`` (int64 arrays).

    This is :func:`evaluate_batch` for callers that build the sums themselves, e.g. from a shared board.
    """
    out = np.empty(len(key_sums), dtype=np.int64)
    totals = np.array(key_sums, dtype=np.int64)
    _plain_into(out, totals)
    _flushes_into(out, totals, None, np.asarray(bit_sums))
    return out


def card_key_array() -> np.ndarray:
    """:data:`CARD_KEYS` as an int64 numpy array (read-only view)."""
    view = _CARD_KEYS_NP.view()
    view.flags.writeable = False
    return view


def card_bit_array() -> np.ndarray:
    """``1 << card`` for every card index as an int64 numpy array (read-only view)."""
    view = _CARD_BITS_NP.view()
    view.flags.writeable = False
    return view


def evaluate_batch(cards: np.ndarray) -> np.ndarray:
    """Strengths (int64) of the rows of an (N, 5..7) integer array of card indices, as :func:`evaluate`.

    Rows are summed two cards at a time: each pair of adjacent card bytes, read as one little-endian
    16-bit number, indexes a table of the pair's summed keys. ``uint8`` input is used as it is; other
    integer types are checked and copied to ``uint8`` first.
    """
    hands = np.asarray(cards)
    if hands.ndim != 2 or not 5 <= hands.shape[1] <= _MAX_CARDS or not np.issubdtype(hands.dtype, np.integer):
        raise ValueError(f"cards must be integers of shape (N, 5..7), not {hands.dtype} {hands.shape}")
    if hands.size and (hands.max() > 51 or (hands.dtype.kind == "i" and hands.min() < 0)):
        raise ValueError(f"card indices must be 0..51, got {hands.min()}..{hands.max()}")
    hands = np.ascontiguousarray(hands, dtype=np.uint8)
    _, _, pair_keys = _dense_tables()
    count, width = hands.shape
    flat = hands.reshape(-1)
    out = np.empty(count, dtype=np.int64)
    totals = np.empty(count, dtype=np.int64)
    for start in range(0, count, _CHUNK):
        rows = min(_CHUNK, count - start)
        block = flat[start * width : (start + rows) * width]
        pairs = np.ndarray((rows, width // 2), dtype="<u2", buffer=block, strides=(width, 2))
        pair_sums = np.take(pair_keys, pairs, mode="clip")
        chunk_totals = totals[start : start + rows]
        if width % 2:
            np.take(_CARD_KEYS_NP, block[width - 1 :: width], out=chunk_totals, mode="clip")
            chunk_totals += pair_sums[:, 0]
        else:
            chunk_totals[:] = pair_sums[:, 0]
        for column in range(1, width // 2):
            chunk_totals += pair_sums[:, column]
        _plain_into(out[start : start + rows], chunk_totals)
    _flushes_into(out, totals, hands, None)
    return out
