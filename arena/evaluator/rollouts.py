"""Monte-Carlo showdowns of heads-up hold'em: RATE and Bob's rollouts, texas.h's getRatesBySampling.

A rollout takes one uniform random permutation of the cards nobody can see (the deck less the hero's
hole cards, the visible board and any ``exclude``d cards) and assigns it to the unknown positions in
natural order: the opponent's two hole cards first, then the missing community cards; the rest of the
permutation is unused (and so not drawn). The hero's and the opponent's best five of seven are then
compared.

Every function draws only from the ``numpy.random.Generator`` it is given, so a seeded generator
gives the same answer every time.

The judge calls these thousands of times with small sample counts (Bob's 100 rollouts, RATE queries
of a few dozen), so a call's fixed cost matters more than its cost per rollout. Where a C compiler is
installed, ``rollout_outcomes`` and ``win_tie_rates`` run the compiled kernel of :mod:`arena.evaluator.kernel`
(a few microseconds a call), which draws and ranks exactly as the numpy path below. On the numpy
path (and always for ``deal_unknown``) the constants of a
set of known cards and of a deal's shape are cached, the rows are shuffled together in one flat
array with a few numpy calls per dealt position, and both hands of every rollout are summed and
ranked in one pass. Tests compare the draws and results, bit for bit, with the earlier
straightforward implementation.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import cached_property, lru_cache

import numpy as np

from arena.evaluator import CARD_KEYS, card_bit_array, card_key_array, few_strengths_from_sums
from arena.evaluator.kernel import rollout_kernel

_BOARD_SIZE = 5
_CHUNK = 20_000  # rollouts per vectorised step of win_tie_rates, bounding its memory
_KNOWN_CACHE = 256  # distinct (hero, board, exclude) card sets whose constants are kept
_CACHED_SAMPLES = 1_000  # deals of at most this many rollouts keep their constants (at most 110 KB each)
# Row 0: each card's summed key, row 1: its bit (1 << card), so that one ``take`` fetches both.
_KEYS_AND_BITS = np.stack([card_key_array(), card_bit_array()])
_ALL_CARDS_MASK = (1 << 52) - 1


def _weights(unknown: int) -> np.ndarray:
    """Row 0 sums the dealt board cards (the hero's share), row 1 every dealt card (the opponent's)."""
    weights = np.ones((2, unknown), dtype=np.int64)
    weights[0, :2] = 0
    weights.flags.writeable = False
    return weights


_WEIGHTS = {unknown: _weights(unknown) for unknown in range(2, 2 + _BOARD_SIZE + 1)}


@dataclass(frozen=True)
class _Known:
    """What a rollout needs of the known cards: computed once per distinct (hero, board, exclude).

    The compiled kernel takes the mask and the sums; the numpy path's arrays are made when first used.
    """

    mask: int  # bit per known card
    unknown: int  # cards a rollout deals: the opponent's two and the missing board
    sums: tuple[int, int, int, int]  # key and bit sums of hero + board, then of the board

    @cached_property
    def unseen(self) -> np.ndarray:
        """Bool per card index: nobody can see the card."""
        unseen_bytes = np.frombuffer((_ALL_CARDS_MASK & ~self.mask).to_bytes(7, "little"), dtype=np.uint8)
        return np.unpackbits(unseen_bytes, count=52, bitorder="little").view(bool)

    @cached_property
    def keys_and_bits(self) -> np.ndarray:
        """(2, unseen cards): :data:`_KEYS_AND_BITS` of the unseen cards, in index order."""
        return _KEYS_AND_BITS[:, self.unseen]

    @cached_property
    def constants(self) -> np.ndarray:
        """(2, 2, 1): key and bit sums of (hero + board, board)."""
        hero_key, hero_bits, board_key, board_bits = self.sums
        return np.array((hero_key, board_key, hero_bits, board_bits), dtype=np.int64).reshape(2, 2, 1)


_known_cards: dict[tuple[int, ...], _Known] = {}


def _known(hero: Sequence[int], board: Sequence[int], exclude: Sequence[int]) -> _Known:
    """The :class:`_Known` of these cards, after checking them."""
    if len(hero) != 2:
        raise ValueError(f"the hero holds {len(hero)} cards, needs 2")
    if len(board) > _BOARD_SIZE:
        raise ValueError(f"the board has {len(board)} cards, at most {_BOARD_SIZE}")
    known = [*hero, *board, *exclude]
    mask = 0
    for card in known:
        if not 0 <= card <= 51:
            raise ValueError(f"card indices must be 0..51, got {known}")
        mask |= 1 << int(card)
    if mask.bit_count() != len(known):
        raise ValueError(f"known cards repeat: {known}")
    unknown = 2 + _BOARD_SIZE - len(board)
    if 52 - len(known) < unknown:
        raise ValueError(f"only {52 - len(known)} unseen cards, a rollout needs {unknown}")
    key = (mask, *hero, *board)  # the hero's two cards, then the board's: the rest of the mask is excluded
    cached = _known_cards.get(key)
    if cached is None:
        board_key = board_bits = 0
        for card in board:
            board_key += CARD_KEYS[card]
            board_bits += 1 << card
        hero_key = board_key + CARD_KEYS[hero[0]] + CARD_KEYS[hero[1]]
        hero_bits = board_bits + (1 << hero[0]) + (1 << hero[1])
        cached = _Known(mask, unknown, (hero_key, hero_bits, board_key, board_bits))
        if len(_known_cards) >= _KNOWN_CACHE:
            _known_cards.clear()
        _known_cards[key] = cached
    return cached


def _layout(size: int, unknown: int, samples: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Constants of a deal: (the unshuffled flat rows, scale per position, flat bases).

    The ``samples x size`` matrix of positions in ``unseen`` is kept flat, each row ``0 .. size - 1``
    (uint8) before the shuffle; ``bases[j, s] = s * size + j`` is the flat index of row ``s``'s
    position ``j``, and ``scales[j] = size - j`` the number of entries left to pick from there. Small
    deals (Bob's 100 rollouts, typical RATE queries) reuse them from a cache.
    """
    if samples <= _CACHED_SAMPLES:
        return _cached_layout(size, unknown, samples)
    return _build_layout(size, unknown, samples)


def _build_layout(size: int, unknown: int, samples: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    positions = np.tile(np.arange(size, dtype=np.uint8), samples)
    scales = (size - np.arange(unknown, dtype=np.float64))[:, None]
    bases = np.arange(unknown, dtype=np.intp)[:, None] + np.arange(0, samples * size, size, dtype=np.intp)
    for array in (positions, scales, bases):
        array.flags.writeable = False
    return positions, scales, bases


_cached_layout = lru_cache(maxsize=64)(_build_layout)


def _deal(known: _Known, samples: int, rng: np.random.Generator) -> np.ndarray:
    """First ``unknown`` entries of ``samples`` uniform random permutations of the unseen cards.

    A forward Fisher-Yates shuffle per row: position ``j`` takes a uniform card among those not yet
    placed, the one at position ``j + floor(u * (size - j))`` for the row's ``j``-th uniform ``u``. Its
    first ``unknown`` positions are those of a full uniform permutation; the rest of the permutation
    is never used, so it is not drawn. The rows are shuffled together as one flat array of positions
    in ``unseen``; position ``j`` is never read again once placed, so a step only copies the entry at
    ``j`` to the picked position (no swap back). The entries are positions among the unseen cards in
    index order (uint8), shape ``(unknown, samples)``: position-major, the transpose of the rows.
    """
    unknown = known.unknown
    flat, scales, bases = _layout(known.keys_and_bits.shape[1], unknown, samples)
    uniforms = rng.random((samples, unknown))
    picks = (uniforms.T * scales).astype(np.intp)
    picks += bases
    flat = flat.copy()
    placed = np.empty((unknown, samples), dtype=np.uint8)
    last = unknown - 1
    for position in range(unknown):
        pick = picks[position]
        placed[position] = flat[pick]
        if position < last:
            flat[pick] = flat[bases[position]]
    return placed


def _strengths(known: _Known, placed: np.ndarray) -> np.ndarray:
    """Strengths of the hero's (row 0) and the opponent's (row 1) best hands per rollout of :func:`_deal`."""
    # sums[0]: key sums, sums[1]: bit sums; each (2, samples): the hero's row, then the opponent's
    sums = np.matmul(_WEIGHTS[known.unknown], known.keys_and_bits.take(placed, axis=1))
    sums += known.constants
    return few_strengths_from_sums(sums[0].reshape(-1), sums[1].reshape(-1)).reshape(sums.shape[1:])


def rollout_outcomes(
    hero: Sequence[int],
    board: Sequence[int],
    samples: int,
    rng: np.random.Generator,
    exclude: Sequence[int] = (),
) -> np.ndarray:
    """Outcome for the hero of each of ``samples`` rollouts: int8 +1 win, 0 tie, -1 loss.

    ``hero`` is two card indices, ``board`` the 0..5 visible community cards, ``exclude`` further cards
    known to be out of play. Bob's EV(CALL) in the heads-up statement is the mean of a payoff over
    ``rollout_outcomes(bob_hole, board, 100, rng)``.
    """
    if samples < 0:
        raise ValueError(f"samples {samples} must be at least 0")
    known = _known(hero, board, exclude)
    if samples == 0:
        return np.zeros(0, dtype=np.int8)
    kernel = rollout_kernel()
    if kernel is not None:
        outcomes = np.empty(samples, dtype=np.int8)
        kernel.rollouts(rng, known.mask, known.unknown, known.sums, samples, outcomes)
        return outcomes
    strengths = _strengths(known, _deal(known, samples, rng))
    signs: np.ndarray = np.sign(strengths[0] - strengths[1]).astype(np.int8)
    return signs


def deal_unknown(
    hero: Sequence[int],
    board: Sequence[int],
    samples: int,
    rng: np.random.Generator,
    exclude: Sequence[int] = (),
) -> np.ndarray:
    """Cards each rollout deals, shape ``(samples, 2 + 5 - len(board))``: opponent's two, then the board's.

    Draws exactly what :func:`rollout_outcomes` draws from the same generator state.
    """
    if samples < 0:
        raise ValueError(f"samples {samples} must be at least 0")
    known = _known(hero, board, exclude)
    return np.flatnonzero(known.unseen).take(_deal(known, samples, rng).T)


def win_tie_rates(
    hero: Sequence[int],
    board: Sequence[int],
    samples: int,
    rng: np.random.Generator,
    exclude: Sequence[int] = (),
) -> tuple[float, float]:
    """``(P(hero strictly better), P(tie))`` estimated over ``samples`` rollouts (heads-up's RATE)."""
    if samples < 1:
        raise ValueError(f"samples {samples} must be at least 1")
    known = _known(hero, board, exclude)
    kernel = rollout_kernel()
    if kernel is not None:
        wins, ties = kernel.rollouts(rng, known.mask, known.unknown, known.sums, samples)
        return wins / samples, ties / samples
    wins = ties = 0
    for start in range(0, samples, _CHUNK):
        hero_strength, opponent_strength = _strengths(known, _deal(known, min(_CHUNK, samples - start), rng))
        wins += int(np.count_nonzero(hero_strength > opponent_strength))
        ties += int(np.count_nonzero(hero_strength == opponent_strength))
    return wins / samples, ties / samples
