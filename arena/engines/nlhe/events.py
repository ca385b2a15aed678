"""The events of one No-Limit Hold'em deal: the record every file, log and statistic is rendered from.

Each event is a frozen dataclass with a ``kind`` tag; :func:`event_to_dict` / :func:`event_from_dict`
give a JSON-ready round trip. Seats are numbered 1..N; cards are indices 0..51 (see ``arena.cards``).
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from enum import StrEnum, unique
from typing import Any, ClassVar


@unique
class Street(StrEnum):
    """Betting rounds, named as in seed 004's ``deal.txt``."""

    PRE_FLOP = "Pre_Flop"
    FLOP = "Flop"
    TURN = "Fourth_Street"
    RIVER = "Fifth_Street"
    SHOWDOWN = "Show_Down"


@unique
class ActionKind(StrEnum):
    """What a seat did. ``CHECK`` and ``CALL`` both render as ``Call`` in ``deal.txt``."""

    FOLD = "fold"
    CHECK = "check"
    CALL = "call"
    BET = "bet"
    RAISE = "raise"


@dataclass(frozen=True, slots=True)
class DealStarted:
    """A deal begins. ``stacks[i]`` is seat ``i+1``'s chips before blinds; ``in_deal`` the dealt seats."""

    kind: ClassVar[str] = "deal_started"
    deal: int
    dealer: int
    stacks: tuple[int, ...]
    in_deal: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class BlindPosted:
    """A forced bet: ``blind`` is ``"small"`` or ``"big"``; ``amount`` may be short when all-in."""

    kind: ClassVar[str] = "blind_posted"
    seat: int
    blind: str
    amount: int
    all_in: bool


@dataclass(frozen=True, slots=True)
class HoleCardsDealt:
    """A seat's two private cards."""

    kind: ClassVar[str] = "hole_cards"
    seat: int
    cards: tuple[int, int]


@dataclass(frozen=True, slots=True)
class StreetStarted:
    """A betting round begins; ``board`` holds the cards dealt for it (3, 1, 1, or none pre-flop)."""

    kind: ClassVar[str] = "street_started"
    street: Street
    board: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class ActionTaken:
    """A seat acted. ``street_total`` is its total in this round afterwards; ``added`` what it put in now."""

    kind: ClassVar[str] = "action"
    seat: int
    action: ActionKind
    added: int
    street_total: int
    all_in: bool


@dataclass(frozen=True, slots=True)
class StreetEnded:
    """A betting round is over (also emitted for the round in which the deal ended by folds)."""

    kind: ClassVar[str] = "street_ended"
    street: Street


@dataclass(frozen=True, slots=True)
class UncalledBetReturned:
    """Chips no other seat matched go back to the seat that bet them."""

    kind: ClassVar[str] = "uncalled_returned"
    seat: int
    amount: int


@dataclass(frozen=True, slots=True)
class HandShown:
    """At a showdown: a seat's cards and hand strength (``arena.evaluator.evaluate``)."""

    kind: ClassVar[str] = "hand_shown"
    seat: int
    cards: tuple[int, int]
    strength: int
    folded: bool


@dataclass(frozen=True, slots=True)
class PotAwarded:
    """One pot (index 0 is the main pot) and who gets what of it."""

    kind: ClassVar[str] = "pot_awarded"
    pot: int
    amount: int
    eligible: tuple[int, ...]
    winners: tuple[int, ...]
    shares: tuple[int, ...]
    showdown: bool


@dataclass(frozen=True, slots=True)
class DealEnded:
    """The deal is over; ``stacks[i]`` is seat ``i+1``'s chips now."""

    kind: ClassVar[str] = "deal_ended"
    stacks: tuple[int, ...]
    showdown: bool


Event = (
    DealStarted
    | BlindPosted
    | HoleCardsDealt
    | StreetStarted
    | ActionTaken
    | StreetEnded
    | UncalledBetReturned
    | HandShown
    | PotAwarded
    | DealEnded
)

EVENT_TYPES: dict[str, type] = {
    cls.kind: cls
    for cls in (
        DealStarted,
        BlindPosted,
        HoleCardsDealt,
        StreetStarted,
        ActionTaken,
        StreetEnded,
        UncalledBetReturned,
        HandShown,
        PotAwarded,
        DealEnded,
    )
}

_ENUM_FIELDS: dict[str, type] = {"street": Street, "action": ActionKind}


_FIELD_NAMES: dict[type, tuple[str, ...]] = {
    cls: tuple(f.name for f in fields(cls)) for cls in EVENT_TYPES.values()
}


def event_to_dict(event: Event) -> dict[str, Any]:
    """JSON-ready dict with the ``kind`` tag first (events hold only flat values and tuples of ints)."""
    data: dict[str, Any] = {"kind": event.kind}
    for name in _FIELD_NAMES[type(event)]:
        value = getattr(event, name)
        data[name] = list(value) if isinstance(value, tuple) else value
    return data


def event_from_dict(data: dict[str, Any]) -> Event:
    """Inverse of :func:`event_to_dict`."""
    cls = EVENT_TYPES[data["kind"]]
    values: dict[str, Any] = {}
    for f in fields(cls):
        value = data[f.name]
        if f.name in _ENUM_FIELDS:
            value = _ENUM_FIELDS[f.name](value)
        elif isinstance(value, list):
            value = tuple(value)
        values[f.name] = value
    return cls(**values)


__all__ = [
    "EVENT_TYPES",
    "ActionKind",
    "ActionTaken",
    "BlindPosted",
    "DealEnded",
    "DealStarted",
    "Event",
    "HandShown",
    "HoleCardsDealt",
    "PotAwarded",
    "Street",
    "StreetEnded",
    "StreetStarted",
    "UncalledBetReturned",
    "event_from_dict",
    "event_to_dict",
]
