"""The batch path: strengths of many hands at once with numpy, through a perfect hash of the rank sums.

``evaluate_batch`` ranks the rows of an (N, 5..7) array of card indices; ``few_strengths_from_sums`` ranks
hands given as summed card keys and card masks (Monte-Carlo rollouts build those from a shared board).
Both give what ``arena.evaluator.evaluate`` gives, hand by hand.

A hand without a flush is ranked by its rank-key sum through a perfect hash instead of the dict: a
displacement per 256 consecutive (biased) sums, then one table of 100,857 slots, both int32 (690 KB in
all) so that they stay in cache. The tables are built on the first call that needs them (about 0.25 s).
How the sums are made from ``uint8`` rows, and the measurements behind each choice, are in
docs/performance-log.md ("Evaluator").
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from arena.evaluator.card_keys import (
    FLUSH_BITS,
    FLUSH_OFFSET,
    FLUSH_STRENGTHS_ARRAY,
    MAX_CARDS,
    PLAIN_STRENGTHS,
    RANK_MASK,
    SUIT_BITS,
    card_bit_array,
    card_key_array,
)
from arena.evaluator.ranking import RANKS

CHUNK = 8_192  # rows per step of evaluate_batch: its arrays and tables stay in the 2 MB L2 cache
ROW_BITS = 8  # rows of the rank-sum hash: 256 consecutive (biased) rank sums share one displacement
# evaluate_batch adds FLUSH_OFFSET to each row's key sum through its tables, spread evenly over the
# words of one or two rows (3, 5 or 7 parts); a bias on the rank sum, absorbed by the hash, makes the
# total divisible by 3, 5 and 7.
RANK_BIAS = next(bias for bias in range(105) if (FLUSH_OFFSET + (bias << SUIT_BITS)) % 105 == 0)
BIASED_OFFSET = FLUSH_OFFSET + (RANK_BIAS << SUIT_BITS)
_CARD_KEYS_NP = card_key_array()
_CARD_BITS_NP = card_bit_array()
# Flush bit (8 << 4 * suit) >> 3 -> the shift of that suit's ranks in a 52-bit card mask.
_SUIT_SHIFT_NP = np.zeros((FLUSH_BITS >> 3) + 1, dtype=np.int64)
_SUIT_SHIFT_NP[[1 << 4 * s for s in range(4)]] = [RANKS * s for s in range(4)]
_batch: list[_BatchTables] = []  # built by hash_tables on the first call that needs it


def _displacements(keys: np.ndarray) -> np.ndarray:
    """Per row ``key >> ROW_BITS``, an offset making ``key + offset[key >> ROW_BITS]`` distinct over keys.

    Row displacement (first fit, fullest rows first): each row of 256 possible keys is slid along a
    free-slot map to the first place where all its keys land on free slots. Rows holding one key fill
    the remaining holes in one step. The rank sums of 5 to 7 cards (73,775 keys) fit 100,857 slots.
    """
    rows = keys >> ROW_BITS
    order = np.lexsort((keys, rows))
    sorted_rows, columns = rows[order], keys[order] & ((1 << ROW_BITS) - 1)
    starts = np.flatnonzero(np.r_[True, sorted_rows[1:] != sorted_rows[:-1]])
    counts = np.diff(np.r_[starts, len(keys)])
    window = 1 << 15  # shifts tried per numpy step
    free = np.ones(2 * len(keys) + (1 << ROW_BITS) + window, dtype=bool)
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
    return bases - (np.arange(bases.size, dtype=np.int64) << ROW_BITS)


@dataclass(frozen=True)
class _BatchTables:
    """Lookup tables of :func:`evaluate_batch`, :func:`strengths_from_sums` and :func:`evaluate_holes`."""

    displacements: np.ndarray  # int32 per row of biased rank sums (see _displacements)
    strengths: np.ndarray  # int32 strength per hashed slot, for hands without a flush
    pair_keys: dict[int, np.ndarray]  # per row width: biased summed key of card bytes lo | hi << 8
    last_keys: dict[int, np.ndarray]  # per odd row width: biased key of the card shared by a word


def hash_tables() -> _BatchTables:
    if not _batch:
        keys = np.fromiter(PLAIN_STRENGTHS.keys(), dtype=np.int64, count=len(PLAIN_STRENGTHS)) + RANK_BIAS
        displacements = _displacements(keys)
        strengths = np.zeros(int((keys + displacements[keys >> ROW_BITS]).max()) + 1, dtype=np.int64)
        plain = np.fromiter(PLAIN_STRENGTHS.values(), dtype=np.int64, count=len(PLAIN_STRENGTHS))
        strengths[keys + displacements[keys >> ROW_BITS]] = plain
        cards = np.arange(52)
        pairs = np.zeros((51 | 51 << 8) + 1, dtype=np.int64)
        words = (cards[:, None] | cards[None, :] << 8).ravel()
        pairs[words] = (_CARD_KEYS_NP[:, None] + _CARD_KEYS_NP).ravel()
        # Each row's sum carries BIASED_OFFSET once: spread over its words and, for odd widths, the
        # card that the row shares a word with (added to one row, subtracted from the other).
        pair_keys = {6: pairs + BIASED_OFFSET // 3}
        last_keys = {}
        for width in (5, 7):
            pair_keys[width] = pairs + 2 * (BIASED_OFFSET // width)
            last_keys[width] = _CARD_KEYS_NP + BIASED_OFFSET // width
        # int32 halves the tables (690 KB), keeping them in the 2 MB L2 cache beside a chunk's arrays
        _batch.append(
            _BatchTables(displacements.astype(np.int32), strengths.astype(np.int32), pair_keys, last_keys)
        )
    return _batch[0]


def _plain_into(out: np.ndarray, biased: np.ndarray, spare: np.ndarray, tables: _BatchTables) -> None:
    """Write into ``out`` (int64) the strengths of key sums ``biased`` as if none held a flush."""
    rows = out  # the rows pass through ``out`` before the strengths overwrite it
    np.right_shift(biased, SUIT_BITS + ROW_BITS, out=rows)
    displacements = np.take(tables.displacements, rows, mode="wrap")
    np.right_shift(biased, SUIT_BITS, out=spare)
    spare += displacements
    np.copyto(out, np.take(tables.strengths, spare, mode="wrap"))


def _flushed(biased: np.ndarray, spare: np.ndarray, flags: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(positions, flush bits) of the key sums ``biased`` holding a flush; ``spare``, ``flags``: scratch."""
    np.bitwise_and(biased, FLUSH_BITS, out=spare)
    np.not_equal(spare, 0, out=flags)
    positions = np.flatnonzero(flags)
    return positions, spare[positions]


def _flush_strengths_of(masks: np.ndarray, flush_bits: np.ndarray) -> np.ndarray:
    """Strengths of flushes from 52-bit card masks and their sums' flush bits (``8 << 4 * suit``)."""
    masks >>= _SUIT_SHIFT_NP[flush_bits >> 3]
    masks &= RANK_MASK
    return np.take(FLUSH_STRENGTHS_ARRAY, masks)


def few_strengths_from_sums(key_sums: np.ndarray, bit_sums: np.ndarray) -> np.ndarray:
    """Strengths (int32) of hands given by their summed :data:`CARD_KEYS` and summed ``1 << card`` (int64).

    Made for a few hundred sums at a time (Monte-Carlo rollouts): the lookups of :func:`evaluate_batch`
    with few numpy calls and temporaries, and no chunking. ``key_sums`` and ``bit_sums`` are int64
    and are not modified.
    """
    tables = hash_tables()
    biased = key_sums + BIASED_OFFSET
    slots = biased >> SUIT_BITS
    slots += tables.displacements.take(biased >> (SUIT_BITS + ROW_BITS), mode="wrap")
    out = tables.strengths.take(slots, mode="wrap")
    flush_bits = biased & FLUSH_BITS
    positions = flush_bits.nonzero()[0]
    if positions.size:
        masks = bit_sums[positions]
        masks >>= _SUIT_SHIFT_NP[flush_bits[positions] >> 3]
        masks &= RANK_MASK
        out[positions] = FLUSH_STRENGTHS_ARRAY.take(masks)
    return out


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
    if hands.ndim != 2 or not 5 <= hands.shape[1] <= MAX_CARDS or not np.issubdtype(hands.dtype, np.integer):
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
    tables = hash_tables()
    count, width = hands.shape
    half = width // 2
    pair_keys = tables.pair_keys[width]
    words = hands.reshape(-1).view("<u2")
    chunk = max(2, min(CHUNK, count))
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
