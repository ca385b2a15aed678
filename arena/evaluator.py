"""Hand strength of the best five of up to seven cards, shared by every hold'em game.

``evaluate(cards)`` returns an ``int``: higher is stronger, equal means a tie. The ranking is the one
of Code'em and heads-up hold'em: straight flush > four of a kind > full house > flush > straight > three of a
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
  hand without a flush (a dict for single hands; for arrays, a perfect hash of the sum: a displacement
  per 256 consecutive sums, then one table of 100,857 slots, 690 KB in all, that stays in cache).
* A flush is ranked from the 13-bit mask of its suit's ranks: the hand's 52-bit card mask shifted by
  ``13 * suit``.

The dict and flush table are built at import from the ranking rules (about 0.1 s); the hash tables of
``evaluate_batch``, ``strengths_from_sums`` and ``evaluate_holes`` on the first call of any of them
(about 0.25 s). Cards must be distinct: no function here checks that, as the deal guarantees it.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from dataclasses import dataclass
from enum import IntEnum, unique

import numpy as np

_RANKS = 13
_MAX_CARDS = 7
_MAX_OF_A_RANK = 4
_SUIT_BITS = 16
_FLUSH_OFFSET = 0x3333  # 3 added to each suit's count: a count of 5..7 then sets the nibble's top bit
_FLUSH_BITS = 0x8888
_BOARD_FLUSH_OFFSET = 0x5555  # 5 added to each suit's board count: 3..5 sets the top bit
_CHUNK = 8_192  # rows per step of evaluate_batch: its arrays and tables stay in the 2 MB L2 cache
_ROW_BITS = 8  # rows of the rank-sum hash: 256 consecutive (biased) rank sums share one displacement
# evaluate_batch adds _FLUSH_OFFSET to each row's key sum through its tables, spread evenly over the
# words of one or two rows (3, 5 or 7 parts); a bias on the rank sum, absorbed by the hash, makes the
# total divisible by 3, 5 and 7.
_RANK_BIAS = next(bias for bias in range(105) if (_FLUSH_OFFSET + (bias << _SUIT_BITS)) % 105 == 0)
_BIASED_OFFSET = _FLUSH_OFFSET + (_RANK_BIAS << _SUIT_BITS)
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
# CARD_KEYS split in two, for evaluate_holes: the rank key and the suit count of each card.
_CARD_RANK_KEYS = tuple(RANK_KEYS[c % _RANKS] for c in range(52))
_CARD_SUIT_KEYS = tuple(1 << 4 * (c // _RANKS) for c in range(52))
_CARD_BITS_NP = np.left_shift(1, np.arange(52, dtype=np.int64))
_batch: list[_BatchTables] = []  # built by _batch_tables on the first call that needs it
_hash_views: list[memoryview] = []  # (displacements, strengths) of _batch: evaluate_holes' first call


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

    Hands without a flush are ranked through the rank-sum hash of :func:`evaluate_batch` (built on the
    first call): two lookups in its int32 arrays (690 KB) stay in cache better than the dict that
    ``evaluate`` uses. The rank keys and the suit counts are summed apart, so every sum stays a
    one-digit Python int (cheap arithmetic); when no suit shows three times on the board (about 63 % of
    five-card boards) no hand can hold a flush and the suits are not looked at again.
    """
    if not _hash_views:
        tables = _batch_tables()
        _hash_views.extend([memoryview(tables.displacements), memoryview(tables.strengths)])
    displacements, plain = _hash_views
    ranks, suits = _CARD_RANK_KEYS, _CARD_SUIT_KEYS
    rank_sum = suit_counts = 0
    for card in board:
        rank_sum += ranks[card]
        suit_counts += suits[card]
    base = rank_sum + _RANK_BIAS
    if not (suit_counts + _BOARD_FLUSH_OFFSET) & _FLUSH_BITS:
        return [
            plain[(biased := base + ranks[first] + ranks[second]) + displacements[biased >> _ROW_BITS]]
            for first, second in holes
        ]
    suit_counts += _FLUSH_OFFSET
    board_mask = 0
    for card in board:
        board_mask |= 1 << card
    strengths = []
    for first, second in holes:
        flush = (suit_counts + suits[first] + suits[second]) & _FLUSH_BITS
        if flush:
            mask = board_mask | 1 << first | 1 << second
            strengths.append(_FLUSH[(mask >> (_RANKS * (flush.bit_length() // 4 - 1))) & _RANK_MASK])
        else:
            biased = base + ranks[first] + ranks[second]
            strengths.append(plain[biased + displacements[biased >> _ROW_BITS]])
    return strengths


def category(strength: int) -> HandCategory:
    """The hand type of a strength returned by :func:`evaluate`."""
    return HandCategory(strength >> 20)


def _displacements(keys: np.ndarray) -> np.ndarray:
    """Per row ``key >> _ROW_BITS``, an offset making ``key + offset[key >> _ROW_BITS]`` distinct over keys.

    Row displacement (first fit, fullest rows first): each row of 256 possible keys is slid along a
    free-slot map to the first place where all its keys land on free slots. Rows holding one key fill
    the remaining holes in one step. The rank sums of 5 to 7 cards (73,775 keys) fit 100,857 slots.
    """
    rows = keys >> _ROW_BITS
    order = np.lexsort((keys, rows))
    sorted_rows, columns = rows[order], keys[order] & ((1 << _ROW_BITS) - 1)
    starts = np.flatnonzero(np.r_[True, sorted_rows[1:] != sorted_rows[:-1]])
    counts = np.diff(np.r_[starts, len(keys)])
    window = 1 << 15  # shifts tried per numpy step
    free = np.ones(2 * len(keys) + (1 << _ROW_BITS) + window, dtype=bool)
    bases = np.zeros(int(rows.max()) + 1, dtype=np.int64)
    first_free = 0
    by_size = np.argsort(-counts, kind="stable")
    for row in by_size[counts[by_size] > 1].tolist():
        cols = columns[starts[row] : starts[row] + counts[row]]
        first_free += int(np.argmax(free[first_free:]))
        base = max(0, first_free - int(cols[0]))
        while True:
            fits = free[base + cols[0] : base + cols[0] + window].copy()
            for col in cols[1:].tolist():
                fits &= free[base + col : base + col + window]
            shift = int(np.argmax(fits))
            if fits[shift]:
                break
            base += window
        free[base + shift + cols] = False
        bases[sorted_rows[starts[row]]] = base + shift
    singles = by_size[counts[by_size] == 1]
    bases[sorted_rows[starts[singles]]] = np.flatnonzero(free)[: singles.size] - columns[starts[singles]]
    return bases - (np.arange(bases.size, dtype=np.int64) << _ROW_BITS)


@dataclass(frozen=True)
class _BatchTables:
    """Lookup tables of :func:`evaluate_batch`, :func:`strengths_from_sums` and :func:`evaluate_holes`."""

    displacements: np.ndarray  # int32 per row of biased rank sums (see _displacements)
    strengths: np.ndarray  # int32 strength per hashed slot, for hands without a flush
    pair_keys: dict[int, np.ndarray]  # per row width: biased summed key of card bytes lo | hi << 8
    last_keys: dict[int, np.ndarray]  # per odd row width: biased key of the card shared by a word


def _batch_tables() -> _BatchTables:
    if not _batch:
        keys = np.fromiter(_PLAIN.keys(), dtype=np.int64, count=len(_PLAIN)) + _RANK_BIAS
        displacements = _displacements(keys)
        strengths = np.zeros(int((keys + displacements[keys >> _ROW_BITS]).max()) + 1, dtype=np.int64)
        strengths[keys + displacements[keys >> _ROW_BITS]] = np.fromiter(_PLAIN.values(), dtype=np.int64,
                                                                         count=len(_PLAIN))
        cards = np.arange(52)
        pairs = np.zeros((51 | 51 << 8) + 1, dtype=np.int64)
        words = (cards[:, None] | cards[None, :] << 8).ravel()
        pairs[words] = (_CARD_KEYS_NP[:, None] + _CARD_KEYS_NP).ravel()
        # Each row's sum carries _BIASED_OFFSET once: spread over its words and, for odd widths, the
        # card that the row shares a word with (added to one row, subtracted from the other).
        pair_keys = {6: pairs + _BIASED_OFFSET // 3}
        last_keys = {}
        for width in (5, 7):
            pair_keys[width] = pairs + 2 * (_BIASED_OFFSET // width)
            last_keys[width] = _CARD_KEYS_NP + _BIASED_OFFSET // width
        # int32 halves the tables (690 KB), keeping them in the 2 MB L2 cache beside a chunk's arrays
        _batch.append(_BatchTables(displacements.astype(np.int32), strengths.astype(np.int32), pair_keys,
                                   last_keys))
    return _batch[0]


def _plain_into(out: np.ndarray, biased: np.ndarray, spare: np.ndarray, tables: _BatchTables) -> None:
    """Write into ``out`` (int64) the strengths of key sums ``biased`` as if none held a flush."""
    rows = out  # the rows pass through ``out`` before the strengths overwrite it
    np.right_shift(biased, _SUIT_BITS + _ROW_BITS, out=rows)
    displacements = np.take(tables.displacements, rows, mode="wrap")
    np.right_shift(biased, _SUIT_BITS, out=spare)
    spare += displacements
    np.copyto(out, np.take(tables.strengths, spare, mode="wrap"))


def _flushed(biased: np.ndarray, spare: np.ndarray, flags: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(positions, flush bits) of the key sums ``biased`` holding a flush; ``spare``, ``flags``: scratch."""
    np.bitwise_and(biased, _FLUSH_BITS, out=spare)
    np.not_equal(spare, 0, out=flags)
    positions = np.flatnonzero(flags)
    return positions, spare[positions]


def _flush_strengths_of(masks: np.ndarray, flush_bits: np.ndarray) -> np.ndarray:
    """Strengths of flushes from 52-bit card masks and their sums' flush bits (``8 << 4 * suit``)."""
    masks >>= _SUIT_SHIFT_NP[flush_bits >> 3]
    masks &= _RANK_MASK
    return np.take(_FLUSH_NP, masks)


def strengths_from_sums(key_sums: np.ndarray, bit_sums: np.ndarray) -> np.ndarray:
    """Strengths of hands given by their summed :data:`CARD_KEYS` and summed ``1 << card`` (int64 arrays).

    This is :func:`evaluate_batch` for callers that build the sums themselves, e.g. from a shared board.
    """
    tables = _batch_tables()
    biased = np.add(key_sums, _BIASED_OFFSET, dtype=np.int64)
    out = np.empty(len(biased), dtype=np.int64)
    spare = np.empty_like(out)
    _plain_into(out, biased, spare, tables)
    positions, flush_bits = _flushed(biased, spare, np.empty(len(biased), dtype=bool))
    if positions.size:
        out[positions] = _flush_strengths_of(np.asarray(bit_sums, dtype=np.int64)[positions], flush_bits)
    return out


def few_strengths_from_sums(key_sums: np.ndarray, bit_sums: np.ndarray) -> np.ndarray:
    """:func:`strengths_from_sums` as int32, for a few hundred sums at a time (Monte-Carlo rollouts).

    The same lookups with fewer numpy calls and temporaries, and no chunking: when a call's fixed
    cost outweighs its work, this is the cheaper entry point. ``key_sums`` and ``bit_sums`` are int64
    and are not modified.
    """
    tables = _batch_tables()
    biased = key_sums + _BIASED_OFFSET
    slots = biased >> _SUIT_BITS
    slots += tables.displacements.take(biased >> (_SUIT_BITS + _ROW_BITS), mode="wrap")
    out = tables.strengths.take(slots, mode="wrap")
    flush_bits = biased & _FLUSH_BITS
    positions = flush_bits.nonzero()[0]
    if positions.size:
        masks = bit_sums[positions]
        masks >>= _SUIT_SHIFT_NP[flush_bits[positions] >> 3]
        masks &= _RANK_MASK
        out[positions] = _FLUSH_NP.take(masks)
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

    ``uint8`` input is used as it is; other integer types are checked and copied to ``uint8`` first.
    Each two adjacent card bytes, read as one little-endian 16-bit word, index a table of the pair's
    summed keys. A row of odd width shares a word with the next row, so rows are summed two at a
    time: the second row takes the shared word's pair key, less the key of the word's first card,
    which goes to the first row. The sums reach the strengths through a perfect hash (see
    :func:`_displacements`), in chunks of rows whose arrays stay in cache; flushes are found per
    chunk and ranked from their cards' bit masks.
    """
    hands = np.asarray(cards)
    if hands.ndim != 2 or not 5 <= hands.shape[1] <= _MAX_CARDS or not np.issubdtype(hands.dtype, np.integer):
        raise ValueError(f"cards must be integers of shape (N, 5..7), not {hands.dtype} {hands.shape}")
    if hands.size and (hands.max() > 51 or (hands.dtype.kind == "i" and hands.min() < 0)):
        raise ValueError(f"card indices must be 0..51, got {hands.min()}..{hands.max()}")
    hands = np.ascontiguousarray(hands, dtype=np.uint8)
    if hands.ctypes.data % 2:  # 16-bit words need an even address
        hands = hands.copy()
    count, width = hands.shape
    out = np.empty(count, dtype=np.int64)
    paired = count - count % 2 if width % 2 else count
    _strengths_into(out[:paired], hands[:paired])
    if paired < count:  # an odd row of odd width goes through with a copy of itself as its partner
        out[paired:] = _strengths_into(np.empty(2, dtype=np.int64), np.repeat(hands[paired:], 2, axis=0))[:1]
    return out


def _strengths_into(out: np.ndarray, hands: np.ndarray) -> np.ndarray:
    """Fill ``out`` with the strengths of contiguous ``uint8`` rows ``hands`` (even count for odd width)."""
    tables = _batch_tables()
    count, width = hands.shape
    half = width // 2
    pair_keys = tables.pair_keys[width]
    words = hands.reshape(-1).view("<u2")
    chunk = max(2, min(_CHUNK, count))
    biased = np.empty(chunk, dtype=np.int64)
    spare = np.empty(chunk, dtype=np.int64)
    flags = np.empty(chunk, dtype=bool)
    word_keys = np.empty((chunk // 2, width) if width % 2 else (chunk, half), dtype=np.int64)
    shared = np.empty(chunk // 2, dtype=np.int64)
    for start in range(0, count, chunk):
        rows = min(chunk, count - start)
        total = biased[:rows]
        block = words[start * width // 2 : (start + rows) * width // 2]
        if width % 2:
            groups = rows // 2
            keys = word_keys[:groups]
            np.take(pair_keys, block.reshape(groups, width), out=keys, mode="wrap")
            last = shared[:groups]
            card_bytes = hands.reshape(-1)[start * width : (start + rows) * width]
            np.take(tables.last_keys[width], card_bytes[width - 1 :: 2 * width], out=last, mode="wrap")
            by_group = total.reshape(groups, 2)
            first, second = by_group[:, 0], by_group[:, 1]
            np.add(keys[:, 0], last, out=first)
            for c in range(1, half):
                first += keys[:, c]
            np.subtract(keys[:, half], last, out=second)
            for c in range(half + 1, width):
                second += keys[:, c]
        else:
            keys = word_keys[:rows]
            np.take(pair_keys, block.reshape(rows, half), out=keys, mode="wrap")
            np.add(keys[:, 0], keys[:, 1], out=total)
            for c in range(2, half):
                total += keys[:, c]
        _plain_into(out[start : start + rows], total, spare[:rows], tables)
        positions, flush_bits = _flushed(total, spare[:rows], flags[:rows])
        if positions.size:  # flushes: about 3% of seven-card hands, ranked from their cards' bit masks
            bits = np.take(_CARD_BITS_NP, np.take(hands[start : start + rows], positions, axis=0).T)
            masks = np.add.reduce(bits, axis=0)
            np.put(out[start : start + rows], positions, _flush_strengths_of(masks, flush_bits))
    return out
