"""Monte-Carlo showdowns of heads-up hold'em: seed 001's RATE and Bob's rollouts, 003's getRatesBySampling.

A rollout takes one uniform random permutation of the cards nobody can see (the deck less the hero's
hole cards, the visible board and any ``exclude``d cards) and assigns it to the unknown positions in
natural order: the opponent's two hole cards first, then the missing community cards; the rest of the
permutation is unused (and so not drawn). The hero's and the opponent's best five of seven are then
compared.

Every function draws only from the ``numpy.random.Generator`` it is given, so a seeded generator
gives the same answer every time.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from arena.evaluator import CARD_KEYS, card_bit_array, card_key_array, strengths_from_sums

_BOARD_SIZE = 5
_CHUNK = 20_000  # rollouts per vectorised step of win_tie_rates, bounding its memory
_KEYS = card_key_array()
_BITS = card_bit_array()


def _unseen(hero: Sequence[int], board: Sequence[int], exclude: Sequence[int]) -> np.ndarray:
    """Cards not in hero, board or exclude, in index order, after checking the known cards."""
    if len(hero) != 2:
        raise ValueError(f"the hero holds {len(hero)} cards, needs 2")
    if len(board) > _BOARD_SIZE:
        raise ValueError(f"the board has {len(board)} cards, at most {_BOARD_SIZE}")
    known = [*hero, *board, *exclude]
    if any(not 0 <= c <= 51 for c in known):
        raise ValueError(f"card indices must be 0..51, got {known}")
    if len(set(known)) != len(known):
        raise ValueError(f"known cards repeat: {known}")
    dead = np.zeros(52, dtype=bool)
    dead[known] = True
    unseen = np.flatnonzero(~dead)
    needed = 2 + _BOARD_SIZE - len(board)
    if unseen.size < needed:
        raise ValueError(f"only {unseen.size} unseen cards, a rollout needs {needed}")
    return unseen


def _deal(unseen: np.ndarray, unknown: int, samples: int, rng: np.random.Generator) -> np.ndarray:
    """First ``unknown`` cards of ``samples`` uniform random permutations of ``unseen``.

    A forward Fisher-Yates shuffle per row: position ``j`` takes a uniform card among those not yet
    placed. Its first ``unknown`` positions are those of a full uniform permutation; the rest of the
    permutation is never used, so it is not drawn.
    """
    size = unseen.size
    perm = np.tile(unseen.astype(np.uint8), (samples, 1))
    uniforms = rng.random((samples, unknown))
    rows = np.arange(samples)
    for position in range(unknown):
        pick = (uniforms[:, position] * (size - position)).astype(np.intp)
        pick += position
        chosen = perm[rows, pick]
        perm[rows, pick] = perm[:, position]
        perm[:, position] = chosen
    return perm[:, :unknown].astype(np.intp)


def _outcomes(hero: Sequence[int], board: Sequence[int], dealt: np.ndarray) -> np.ndarray:
    samples = len(dealt)
    keys = _KEYS[dealt]
    bits = _BITS[dealt]
    board_key = sum(CARD_KEYS[c] for c in board)
    board_bits = sum(1 << c for c in board)
    shared_key = keys[:, 2:].sum(axis=1) + board_key
    shared_bits = bits[:, 2:].sum(axis=1) + board_bits
    hero_key = shared_key + (CARD_KEYS[hero[0]] + CARD_KEYS[hero[1]])
    hero_bits = shared_bits + ((1 << hero[0]) | (1 << hero[1]))
    opponent_key = shared_key + keys[:, 0] + keys[:, 1]
    opponent_bits = shared_bits + bits[:, 0] + bits[:, 1]
    strengths = strengths_from_sums(np.concatenate([hero_key, opponent_key]),
                                    np.concatenate([hero_bits, opponent_bits]))
    return np.sign(strengths[:samples] - strengths[samples:]).astype(np.int8)


def rollout_outcomes(hero: Sequence[int], board: Sequence[int], samples: int, rng: np.random.Generator,
                     exclude: Sequence[int] = ()) -> np.ndarray:
    """Outcome for the hero of each of ``samples`` rollouts: int8 +1 win, 0 tie, -1 loss.

    ``hero`` is two card indices, ``board`` the 0..5 visible community cards, ``exclude`` further cards
    known to be out of play. Bob's EV(CALL) of seed 001 is the mean of a payoff over
    ``rollout_outcomes(bob_hole, board, 100, rng)``.
    """
    if samples < 0:
        raise ValueError(f"samples {samples} must be at least 0")
    unseen = _unseen(hero, board, exclude)
    if samples == 0:
        return np.zeros(0, dtype=np.int8)
    return _outcomes(hero, board, _deal(unseen, 2 + _BOARD_SIZE - len(board), samples, rng))


def deal_unknown(hero: Sequence[int], board: Sequence[int], samples: int, rng: np.random.Generator,
                 exclude: Sequence[int] = ()) -> np.ndarray:
    """Cards each rollout deals, shape ``(samples, 2 + 5 - len(board))``: opponent's two, then the board's.

    Draws exactly what :func:`rollout_outcomes` draws from the same generator state.
    """
    if samples < 0:
        raise ValueError(f"samples {samples} must be at least 0")
    return _deal(_unseen(hero, board, exclude), 2 + _BOARD_SIZE - len(board), samples, rng)


def win_tie_rates(hero: Sequence[int], board: Sequence[int], samples: int, rng: np.random.Generator,
                  exclude: Sequence[int] = ()) -> tuple[float, float]:
    """``(P(hero strictly better), P(tie))`` estimated over ``samples`` rollouts (seed 001's RATE)."""
    if samples < 1:
        raise ValueError(f"samples {samples} must be at least 1")
    unseen = _unseen(hero, board, exclude)
    wins = ties = 0
    for start in range(0, samples, _CHUNK):
        dealt = _deal(unseen, 2 + _BOARD_SIZE - len(board), min(_CHUNK, samples - start), rng)
        outcomes = _outcomes(hero, board, dealt)
        wins += int(np.count_nonzero(outcomes == 1))
        ties += int(np.count_nonzero(outcomes == 0))
    return wins / samples, ties / samples
