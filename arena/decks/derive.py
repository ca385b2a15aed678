"""Decks from a secret key, and the old decks from a known seed (tests and demos only).

The keyed derivation (docs/tournament.md, "Secret decks") is short enough to redo in any language:

* table secret ``T = HMAC-SHA256(key, "arena/table/" + deck_id)``: one per table (the rotations of a
  duplicate table share their deck id, so they share their cards);
* deal key ``D = HMAC-SHA256(T, "deal/" + N)`` for deal ``N`` (1-based);
* a byte stream ``HMAC-SHA256(D, counter)`` for counter = 0, 1, 2... as 4 big-endian bytes;
* the deck: cards 0..51 in order, then for ``i`` from 51 down to 1 swap position ``i`` with ``j``, where
  ``j`` is the next stream byte ``b`` with ``b < 256 - 256 % (i + 1)`` taken modulo ``i + 1`` (bytes
  at or above that bound are skipped, so every ``j`` is equally likely).

The first dealer is drawn with ``random.Random`` seeded by ``HMAC-SHA256(T, "dealer")`` (not secret:
every program sees the button).

Heads-up and TwoCardDraw draw from generators rather than one deck a deal: each generator is seeded by
:meth:`StreamSeeds.seed_of`, ``HMAC-SHA256(T, label)`` read as a big-endian integer (docs/headsup.md and
docs/twocard.md name the labels), or, from a known seed, ``derive_seed(seed, *labels)`` as before keys.
"""

from __future__ import annotations

import hashlib
import hmac
import random
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Protocol

from arena.cards import FULL_DECK, derive_seed, shuffled_deck


def _mac(key: bytes, message: str | bytes) -> bytes:
    data = message.encode() if isinstance(message, str) else message
    return hmac.new(key, data, hashlib.sha256).digest()


def sha256_hex(data: bytes) -> str:
    """SHA-256 of ``data`` as hex: how keys and table secrets are committed."""
    return hashlib.sha256(data).hexdigest()


def table_secret(key: bytes, deck_id: str) -> bytes:
    """The secret of one table's decks: ``HMAC-SHA256(key, "arena/table/" + deck_id)``."""
    return _mac(key, "arena/table/" + deck_id)


def _stream(deal_key: bytes) -> Iterator[int]:
    counter = 0
    while True:
        yield from _mac(deal_key, counter.to_bytes(4, "big"))
        counter += 1


def keyed_deck(secret: bytes, deal: int) -> list[int]:
    """Deal ``deal``'s deck of the table whose secret is ``secret`` (Fisher-Yates from HMAC bytes)."""
    deck = list(FULL_DECK)
    stream = _stream(_mac(secret, f"deal/{deal}"))
    for i in range(len(deck) - 1, 0, -1):
        bound = i + 1
        limit = 256 - 256 % bound
        byte = next(stream)
        while byte >= limit:
            byte = next(stream)
        j = byte % bound
        deck[i], deck[j] = deck[j], deck[i]
    return deck


class Decks(Protocol):
    """What a table draws its cards and its first dealer from."""

    def deck(self, deal: int) -> list[int]:
        """The 52 cards of deal ``deal`` in dealing order."""
        ...

    def dealer_rng(self) -> random.Random:
        """The generator that draws the first dealer."""
        ...


@dataclass(frozen=True)
class KeyedDecks:
    """A table's decks from its secret (no one without the key can tell them)."""

    secret: bytes = field(repr=False)

    def deck(self, deal: int) -> list[int]:
        """The keyed deck of deal ``deal``."""
        return keyed_deck(self.secret, deal)

    def dealer_rng(self) -> random.Random:
        """Seeded by ``HMAC-SHA256(secret, "dealer")``."""
        return random.Random(int.from_bytes(_mac(self.secret, "dealer"), "big"))


@dataclass(frozen=True)
class SeededDecks:
    """A table's decks from a known seed: anyone who knows the seed knows every card (tests, demos)."""

    seed: int

    def deck(self, deal: int) -> list[int]:
        """``shuffled_deck(derive_seed(seed, "deal", deal))``, as before secret keys."""
        return shuffled_deck(derive_seed(self.seed, "deal", deal))

    def dealer_rng(self) -> random.Random:
        """Seeded by ``derive_seed(seed, "dealer")``."""
        return random.Random(derive_seed(self.seed, "dealer"))


@dataclass(frozen=True)
class StreamSeeds:
    """The seeds of a game's random generators: from a table secret, or from a known seed (demos)."""

    seed: int = 0
    secret: bytes | None = field(default=None, repr=False)

    def seed_of(self, *labels: object, bits: int = 256) -> int:
        """The seed of the generator named by ``labels``: the first ``bits`` of ``HMAC-SHA256(secret,
        "/".join(labels))``, or ``derive_seed(seed, *labels)`` (64 bits) from a known seed."""
        if self.secret is None:
            return derive_seed(self.seed, *labels)
        return int.from_bytes(_mac(self.secret, "/".join(map(str, labels)))[: bits // 8], "big")


def table_decks(*, seed: int, secret: bytes | None) -> Decks:
    """The keyed decks when a table secret is given, else the seeded ones."""
    return KeyedDecks(secret) if secret is not None else SeededDecks(seed)
