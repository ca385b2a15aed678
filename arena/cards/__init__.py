"""Card encodings, decks and seeded shuffles.

Internally a card is an ``int`` index 0..51: ``suit * 13 + rank`` where rank 0..12 is 2..A and
suit 0..3 is spades, clubs, hearts, diamonds (the order of Code'em's card table).

* Code'em numbers cards 1..52 in the same order: ``codem = index + 1``.
* Heads-up hold'em gives a card as ``(suit, value)`` with value 1..13 for 2..A: ``index = suit*13 + value-1``.
* Text uses ``rank + suit`` letters, e.g. ``As``, ``Td``, ``2c``.
"""

from __future__ import annotations

import hashlib
import random
from collections.abc import Iterable, Sequence

RANKS = "23456789TJQKA"
SUITS = "schd"
DECK_SIZE = 52
FULL_DECK: tuple[int, ...] = tuple(range(DECK_SIZE))


def rank_of(card: int) -> int:
    """Rank 0..12 (2..A) of a card index."""
    return card % 13


def suit_of(card: int) -> int:
    """Suit 0..3 (spades, clubs, hearts, diamonds) of a card index."""
    return card // 13


def make_card(rank: int, suit: int) -> int:
    """Card index from rank 0..12 and suit 0..3."""
    if not (0 <= rank < 13 and 0 <= suit < 4):
        raise ValueError(f"rank {rank} must be 0..12 and suit {suit} 0..3")
    return suit * 13 + rank


def to_codem(card: int) -> int:
    """Code'em's number 1..52 of a card index."""
    return card + 1


def from_codem(number: int) -> int:
    """Card index of Code'em's number 1..52."""
    if not 1 <= number <= DECK_SIZE:
        raise ValueError(f"card number {number} is outside 1..52")
    return number - 1


def to_suit_value(card: int) -> tuple[int, int]:
    """Heads-up's ``(suit, value)`` pair, value 1..13 for 2..A."""
    return suit_of(card), rank_of(card) + 1


def from_suit_value(suit: int, value: int) -> int:
    """Card index of a heads-up ``(suit, value)`` pair."""
    if not (0 <= suit <= 3 and 1 <= value <= 13):
        raise ValueError(f"card ({suit}, {value}) needs suit 0..3 and value 1..13")
    return suit * 13 + value - 1


def card_text(card: int) -> str:
    """Two-letter text of a card, e.g. ``As``."""
    return RANKS[rank_of(card)] + SUITS[suit_of(card)]


def parse_card(text: str) -> int:
    """Card index of a two-letter text such as ``As`` or ``td``."""
    if len(text) != 2 or text[0].upper() not in RANKS or text[1].lower() not in SUITS:
        raise ValueError(f"card text {text!r} is not rank+suit like 'As'")
    return make_card(RANKS.index(text[0].upper()), SUITS.index(text[1].lower()))


def parse_cards(text: str) -> list[int]:
    """Card indices of concatenated or spaced texts, e.g. ``AsKd`` or ``As Kd``."""
    compact = "".join(text.split())
    if len(compact) % 2:
        raise ValueError(f"card list {text!r} has an odd number of characters")
    return [parse_card(compact[i : i + 2]) for i in range(0, len(compact), 2)]


def cards_text(cards: Iterable[int]) -> str:
    """Space-separated texts of cards."""
    return " ".join(card_text(c) for c in cards)


def derive_seed(*parts: object) -> int:
    """A 64-bit seed derived from a base seed and labels (table, deal, stream...).

    Stable across Python versions and platforms (SHA-256 of the parts' text), so any deal can be
    replayed alone from the tournament seed and its labels.
    """
    text = "/".join(str(p) for p in parts).encode()
    return int.from_bytes(hashlib.sha256(text).digest()[:8], "big")


def shuffled_deck(seed: int) -> list[int]:
    """A full deck in a uniformly random order fixed by ``seed``."""
    deck = list(FULL_DECK)
    random.Random(seed).shuffle(deck)
    return deck


def remaining_deck(used: Sequence[int]) -> list[int]:
    """The cards of a full deck that are not in ``used``, in index order."""
    taken = set(used)
    return [c for c in FULL_DECK if c not in taken]
