"""The three random streams of a heads-up match, each derived from the match seed alone.

* **decks**: hand ``h`` is dealt from ``shuffled_deck(derive_seed(seed, "headsup", "deck", h))``.
* **Bob**: hand ``h`` gives Bob a fresh ``numpy`` generator seeded ``derive_seed(seed, "headsup",
  "bob", h)``; every raise in that hand draws his 100 rollouts from it, in order.
* **RATE answers**: one generator for the match, ``derive_seed(seed, "headsup", "rate")``.

Because the streams never share a generator, the player's RATE queries cannot change a deck or one
of Bob's decisions, and any hand can be replayed alone from the seed and its number.
"""

from __future__ import annotations

import numpy as np

from arena.cards import derive_seed, shuffled_deck


def hand_deck(seed: int, hand: int) -> list[int]:
    """The permuted deck of hand ``hand`` (1-based)."""
    return shuffled_deck(derive_seed(seed, "headsup", "deck", hand))


def bob_stream(seed: int, hand: int) -> np.random.Generator:
    """Bob's generator for hand ``hand``."""
    return np.random.default_rng(derive_seed(seed, "headsup", "bob", hand))


def rate_stream(seed: int) -> np.random.Generator:
    """The generator that answers the player's RATE queries for the whole match."""
    return np.random.default_rng(derive_seed(seed, "headsup", "rate"))
