"""The three random streams of a heads-up match, each seeded from the match's secret key (or known seed).

Every seed is :meth:`arena.decks.derive.StreamSeeds.seed_of` its labels: ``HMAC-SHA256(T, label)`` with
``T`` the match's table secret, or ``derive_seed(seed, *labels)`` with ``--seed`` (demos only).

* **decks**: hands are dealt in blocks of 1,000; block ``b`` (hands ``1000 b + 1 .. 1000 b + 1000``)
  draws a ``1000 x 52`` array of uniforms from ``numpy.random.default_rng(seed of "headsup/decks/b")``
  and each row's ``argsort`` is that hand's deck (a uniform permutation; only its first nine cards are
  dealt). One draw for a thousand hands keeps the judge's cost per hand small.
* **Bob**: hand ``h`` gives Bob a fresh ``numpy`` generator seeded with the first 64 bits of the seed of
  ``"headsup/bob/h"`` (the compiled loop rebuilds ``default_rng`` for 64-bit seeds); every raise in that
  hand draws his 100 rollouts from it, in order.
* **RATE answers**: one generator for the match, seeded with the seed of ``"headsup/rate"``.

Because the streams never share a generator, the player's RATE queries cannot change a deck or one
of Bob's decisions, and any hand can be replayed alone from the key and its number.
"""

from __future__ import annotations

import numpy as np

from arena.decks.derive import StreamSeeds

DECK_BLOCK = 1000
DEALT = 9  # Alice 2, Bob 2, board 5


class DeckStream:
    """The dealt cards of every hand of a match, computed a block of 1,000 hands at a time."""

    def __init__(self, seeds: StreamSeeds) -> None:
        self.seeds = seeds
        self._block = -1
        self._cards: list[list[int]] = []

    def dealt(self, hand: int) -> list[int]:
        """The nine cards dealt in hand ``hand`` (1-based), in the heads-up statement's order."""
        block, row = divmod(hand - 1, DECK_BLOCK)
        if block != self._block:
            rng = np.random.default_rng(self.seeds.seed_of("headsup", "decks", block))
            order = np.argsort(rng.random((DECK_BLOCK, 52)), axis=1)[:, :DEALT]
            self._cards = order.tolist()
            self._block = block
        return self._cards[row]


def hand_deck(seeds: StreamSeeds, hand: int) -> list[int]:
    """The dealt cards of hand ``hand`` (1-based) of the match with ``seeds``, replayable alone."""
    return DeckStream(seeds).dealt(hand)


def bob_seed(seeds: StreamSeeds, hand: int) -> int:
    """The 64-bit seed of Bob's generator for hand ``hand``."""
    return seeds.seed_of("headsup", "bob", hand, bits=64)


def bob_stream(seeds: StreamSeeds, hand: int) -> np.random.Generator:
    """Bob's generator for hand ``hand``."""
    return np.random.default_rng(bob_seed(seeds, hand))


def rate_stream(seeds: StreamSeeds) -> np.random.Generator:
    """The generator that answers the player's RATE queries for the whole match."""
    return np.random.default_rng(seeds.seed_of("headsup", "rate"))
