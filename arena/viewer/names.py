"""Words for people: card names for text alternatives and hand names at a showdown."""

from __future__ import annotations

from arena.cards import RANKS, card_text, rank_of
from arena.evaluator import HandCategory, category

RANK_NAMES = (
    "two",
    "three",
    "four",
    "five",
    "six",
    "seven",
    "eight",
    "nine",
    "ten",
    "jack",
    "queen",
    "king",
    "ace",
)
PLURALS = (
    "twos",
    "threes",
    "fours",
    "fives",
    "sixes",
    "sevens",
    "eights",
    "nines",
    "tens",
    "jacks",
    "queens",
    "kings",
    "aces",
)
SUIT_NAMES = {"s": "spades", "c": "clubs", "h": "hearts", "d": "diamonds"}
SUIT_SYMBOLS = {"s": "\u2660", "c": "\u2663", "h": "\u2665", "d": "\u2666"}

assert len(RANK_NAMES) == len(PLURALS) == len(RANKS)


def card_code(card: int) -> str:
    """The two-character code of a card index, e.g. ``Ks`` (rank ``23456789TJQKA``, suit ``shdc``)."""
    return card_text(card)


def card_name(card: int) -> str:
    """A card in words, e.g. ``king of spades`` (the text alternative of a card picture)."""
    return f"{RANK_NAMES[rank_of(card)]} of {SUIT_NAMES[card_code(card)[1]]}"


def hand_name(strength: int) -> str:
    """A hand strength from :func:`arena.evaluator.evaluate` in words, e.g. ``two pair, kings and nines``."""
    first, second = (strength >> 16) & 15, (strength >> 12) & 15
    match category(strength):
        case HandCategory.HIGH_CARD:
            return f"high card, {RANK_NAMES[first]}"
        case HandCategory.ONE_PAIR:
            return f"a pair of {PLURALS[first]}"
        case HandCategory.TWO_PAIR:
            return f"two pair, {PLURALS[first]} and {PLURALS[second]}"
        case HandCategory.THREE_OF_A_KIND:
            return f"three of a kind, {PLURALS[first]}"
        case HandCategory.STRAIGHT:
            return f"a straight, {RANK_NAMES[first]} high"
        case HandCategory.FLUSH:
            return f"a flush, {RANK_NAMES[first]} high"
        case HandCategory.FULL_HOUSE:
            return f"a full house, {PLURALS[first]} full of {PLURALS[second]}"
        case HandCategory.FOUR_OF_A_KIND:
            return f"four of a kind, {PLURALS[first]}"
        case HandCategory.STRAIGHT_FLUSH:
            if first == len(RANKS) - 1:
                return "a royal flush"
            return f"a straight flush, {RANK_NAMES[first]} high"
    raise ValueError(f"strength {strength} has no hand category")
