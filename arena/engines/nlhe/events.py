"""The events of one No-Limit Hold'em deal: the record every file, log and statistic is rendered from.

Each event is an immutable record with a ``kind`` tag: a ``NamedTuple`` (cheap to build: a deal makes
about forty-five) that compares equal only to an event of the same type with the same fields, never to
a bare tuple or another event type, and is not ordered. :func:`event_to_dict` / :func:`event_from_dict`
give a JSON-ready round trip. Seats are numbered 1..N; cards are indices 0..51 (see ``arena.cards``).
"""

from __future__ import annotations

from enum import StrEnum, unique
from typing import Any, NamedTuple, TypeVar


@unique
class Street(StrEnum):
    """Betting rounds, named as in Code'em's ``deal.txt``."""

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


_T = TypeVar("_T", bound=tuple)


def _same_event(self: tuple, other: object) -> bool:
    if type(other) is type(self):
        return tuple.__eq__(self, other)
    return False if isinstance(other, tuple) else NotImplemented


def _other_event(self: tuple, other: object) -> bool:
    if type(other) is type(self):
        return tuple.__ne__(self, other)
    return True if isinstance(other, tuple) else NotImplemented


def _unordered(self: tuple, other: object) -> bool:
    raise TypeError(f"{type(self).__name__} events are not ordered")


def _record(cls: type[_T]) -> type[_T]:
    """Give a ``NamedTuple`` event class the equality of a record: equal only to the same type with the
    same fields (hashed like its fields), and no ordering."""
    cls.__eq__ = _same_event  # type: ignore[assignment]
    cls.__ne__ = _other_event  # type: ignore[assignment]
    cls.__hash__ = tuple.__hash__  # type: ignore[assignment]
    cls.__lt__ = cls.__le__ = cls.__gt__ = cls.__ge__ = _unordered  # type: ignore[assignment]
    return cls


@_record
class DealStarted(NamedTuple):
    """A deal begins. ``stacks[i]`` is seat ``i+1``'s chips before blinds; ``in_deal`` the dealt seats."""

    kind = "deal_started"
    deal: int
    dealer: int
    stacks: tuple[int, ...]
    in_deal: tuple[int, ...]


@_record
class BlindPosted(NamedTuple):
    """A forced bet: ``blind`` is ``"small"`` or ``"big"``; ``amount`` may be short when all-in."""

    kind = "blind_posted"
    seat: int
    blind: str
    amount: int
    all_in: bool


@_record
class HoleCardsDealt(NamedTuple):
    """A seat's two private cards."""

    kind = "hole_cards"
    seat: int
    cards: tuple[int, int]


@_record
class StreetStarted(NamedTuple):
    """A betting round begins; ``board`` holds the cards dealt for it (3, 1, 1, or none pre-flop)."""

    kind = "street_started"
    street: Street
    board: tuple[int, ...]


@_record
class ActionTaken(NamedTuple):
    """A seat acted. ``street_total`` is its total in this round afterwards; ``added`` what it put in now."""

    kind = "action"
    seat: int
    action: ActionKind
    added: int
    street_total: int
    all_in: bool


@_record
class StreetEnded(NamedTuple):
    """A betting round is over (also emitted for the round in which the deal ended by folds)."""

    kind = "street_ended"
    street: Street


@_record
class UncalledBetReturned(NamedTuple):
    """Chips no other seat matched go back to the seat that bet them."""

    kind = "uncalled_returned"
    seat: int
    amount: int


@_record
class HandShown(NamedTuple):
    """At a showdown: a seat's cards and hand strength (``arena.evaluator.evaluate``)."""

    kind = "hand_shown"
    seat: int
    cards: tuple[int, int]
    strength: int
    folded: bool


@_record
class PotAwarded(NamedTuple):
    """One pot (index 0 is the main pot) and who gets what of it."""

    kind = "pot_awarded"
    pot: int
    amount: int
    eligible: tuple[int, ...]
    winners: tuple[int, ...]
    shares: tuple[int, ...]
    showdown: bool


@_record
class DealEnded(NamedTuple):
    """The deal is over; ``stacks[i]`` is seat ``i+1``'s chips now."""

    kind = "deal_ended"
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


_FIELD_NAMES: dict[type, tuple[str, ...]] = {cls: cls._fields for cls in EVENT_TYPES.values()}


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
    for name in _FIELD_NAMES[cls]:
        value = data[name]
        if name in _ENUM_FIELDS:
            value = _ENUM_FIELDS[name](value)
        elif isinstance(value, list):
            value = tuple(value)
        values[name] = value
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
