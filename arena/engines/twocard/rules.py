"""The rules of TwoCardDraw as small tables: hands, showdown order, draws, betting outcomes.

Cards are integers 0..4 drawn independently and uniformly (an infinite deck). A hand is a sorted pair
``(low, high)``; there are 15 of them, indexed in the order of :data:`HANDS`.
"""

from __future__ import annotations

from enum import IntEnum, unique

import numpy as np

CARD_VALUES = 5
HANDS: tuple[tuple[int, int], ...] = tuple((a, b) for a in range(CARD_VALUES) for b in range(a, CARD_VALUES))
HAND_COUNT = len(HANDS)
HAND_INDEX: dict[tuple[int, int], int] = {hand: i for i, hand in enumerate(HANDS)}
MAX_BETS = 3
BET_COUNTS = 4  # 0..3 bets in a round
DRAW_CHOICES = 3  # 0, 1 or 2 cards


@unique
class Action(IntEnum):
    """A betting action; the values are the column order of a strategy line (fold call raise)."""

    FOLD = 0
    CALL = 1
    RAISE = 2


@unique
class Outcome(IntEnum):
    """How a first round ended without a fold: the number of bets and who bet first."""

    NONE = 0  # check, check
    YOU_1 = 1  # you bet, server called
    SERVER_1 = 2  # server bet, you called
    YOU_2 = 3
    SERVER_2 = 4
    YOU_3 = 5
    SERVER_3 = 6

    @property
    def bets(self) -> int:
        """Bets made in the round."""
        return (self.value + 1) // 2

    @property
    def first(self) -> int:
        """Who bet first as TwoCardDraw's FIRST field: 0 for you (or nobody), 1 for the server."""
        return 1 if self.value and self.value % 2 == 0 else 0

    @classmethod
    def of(cls, bets: int, server_first: bool) -> Outcome:
        """The outcome with ``bets`` bets; ``server_first`` says who made the first one."""
        if bets == 0:
            return cls.NONE
        return cls(2 * bets - (0 if server_first else 1))


OUTCOMES = tuple(Outcome)


def hand_index(card1: int, card2: int) -> int:
    """Index of the hand holding these two cards (either order)."""
    return HAND_INDEX[(min(card1, card2), max(card1, card2))]


def hand_key(hand: tuple[int, int]) -> tuple[int, int, int]:
    """Sort key: a pair beats no pair, then the higher pair, else high card, then low card."""
    low, high = hand
    return (1 if low == high else 0, high, low)


def compare(mine: tuple[int, int], theirs: tuple[int, int]) -> int:
    """+1 if ``mine`` wins the showdown, -1 if it loses, 0 for a split pot."""
    a, b = hand_key(mine), hand_key(theirs)
    return (a > b) - (a < b)


def after_draw(hand: tuple[int, int], drawn: int, new_cards: tuple[int, ...]) -> tuple[int, int]:
    """The hand after drawing ``drawn`` cards (1 replaces the lower card) from ``new_cards``."""
    _low, high = hand
    if drawn == 0:
        return hand
    if drawn == 1:
        c = new_cards[0]
        return (min(high, c), max(high, c))
    c, d = new_cards[0], new_cards[1]
    return (min(c, d), max(c, d))


def _prior() -> np.ndarray:
    weights = np.array([1.0 if a == b else 2.0 for a, b in HANDS])
    return weights / CARD_VALUES**2


def _compare_matrix() -> np.ndarray:
    return np.array([[compare(h, s) for s in HANDS] for h in HANDS], dtype=float)


def _draw_matrices() -> np.ndarray:
    """``T[d, i, j]``: probability that hand i becomes hand j after drawing d cards."""
    t = np.zeros((DRAW_CHOICES, HAND_COUNT, HAND_COUNT))
    for i, hand in enumerate(HANDS):
        t[0, i, i] = 1.0
        for c in range(CARD_VALUES):
            t[1, i, HAND_INDEX[after_draw(hand, 1, (c,))]] += 1.0 / CARD_VALUES
        t[2, i] = PRIOR
    return t


PRIOR: np.ndarray = _prior()
COMPARE: np.ndarray = _compare_matrix()
DRAW_MATRICES: np.ndarray = _draw_matrices()
