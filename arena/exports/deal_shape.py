"""One deal's events gathered into the shape every hand-history format walks: positions, streets, showdown.

Positions follow the poker-software convention PHH, pokerkit and the ACPC dealer share: the dealt seats
from the dealer's left (the small blind) round to the dealer, who is last. Heads-up (the dealer posts the
small blind) this puts the big blind first and the dealer second, as those programs also do.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from arena.cards import card_text
from arena.engines.nlhe.events import (
    ActionTaken,
    BlindPosted,
    DealEnded,
    DealStarted,
    Event,
    HandShown,
    HoleCardsDealt,
    PotAwarded,
    Street,
    StreetStarted,
    UncalledBetReturned,
)
from arena.engines.nlhe.rules import seats_from_dealer


@dataclass
class StreetPlay:
    """A betting round: the cards dealt for it, the actions in order, chips returned at its end."""

    street: Street
    board: tuple[int, ...]
    actions: list[ActionTaken] = field(default_factory=list)
    returned: list[UncalledBetReturned] = field(default_factory=list)


@dataclass
class Hand:
    """A deal as hand histories tell it (seats 1..N, cards 0..51)."""

    number: int
    dealer: int
    seats: int
    order: tuple[int, ...]
    stacks: tuple[int, ...]
    final: tuple[int, ...]
    holes: dict[int, tuple[int, int]]
    blinds: list[BlindPosted]
    streets: list[StreetPlay]
    shown: list[HandShown]
    pots: list[PotAwarded]
    showdown: bool

    @property
    def board(self) -> tuple[int, ...]:
        """Every community card dealt."""
        return tuple(card for play in self.streets for card in play.board)

    def position(self, seat: int) -> int:
        """0-based index of ``seat`` in :attr:`order` (pokerkit's player index, ACPC's position)."""
        return self.order.index(seat)

    def shown_down(self, seat: int) -> bool:
        """Whether ``seat`` showed its cards at a showdown (live to the end, not folded)."""
        return any(h.seat == seat and not h.folded for h in self.shown)


def compact(cards: Iterable[int]) -> str:
    """Cards written together, as PHH and ACPC write them: ``AsKd``."""
    return "".join(card_text(c) for c in cards)


def gather_hand(events: Sequence[Event]) -> Hand:
    """The :class:`Hand` of one finished deal's events."""
    start = events[0]
    assert isinstance(start, DealStarted), start
    end = events[-1]
    assert isinstance(end, DealEnded), end
    seats = len(start.stacks)
    hand = Hand(
        number=start.deal,
        dealer=start.dealer,
        seats=seats,
        order=seats_from_dealer(start.dealer, start.in_deal, seats),
        stacks=start.stacks,
        final=end.stacks,
        holes={},
        blinds=[],
        streets=[],
        shown=[],
        pots=[],
        showdown=end.showdown,
    )
    for event in events:
        match event:
            case BlindPosted():
                hand.blinds.append(event)
            case HoleCardsDealt(seat=seat, cards=cards):
                hand.holes[seat] = cards
            case StreetStarted(street=street, board=board):
                hand.streets.append(StreetPlay(street, board))
            case ActionTaken():
                hand.streets[-1].actions.append(event)
            case UncalledBetReturned():
                hand.streets[-1].returned.append(event)
            case HandShown():
                hand.shown.append(event)
            case PotAwarded():
                hand.pots.append(event)
    return hand
