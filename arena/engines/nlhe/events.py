"""The events of one No-Limit Hold'em deal: the record every file, log and statistic is rendered from.

Each event is an immutable record with a ``kind`` tag: a ``NamedTuple`` (cheap to build: a deal makes
about forty-five) that compares equal only to an event of the same type with the same fields, never to
a bare tuple or another event type, and is not ordered. :func:`event_to_dict` / :func:`event_from_dict`
give a JSON-ready round trip. Seats are numbered 1..N; cards are indices 0..51 (see ``arena.cards``).
"""

from __future__ import annotations

from collections.abc import Callable
from enum import StrEnum, unique
from typing import Any, NamedTuple, TypeVar, cast


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


_T = TypeVar("_T", bound=tuple[Any, ...])

EVENT_TYPES: dict[str, type[tuple[Any, ...]]] = {}
"""Every event type by its ``kind`` tag, in the order of a deal."""


def _same_event(self: tuple[Any, ...], other: object) -> bool:
    if type(other) is type(self):
        return tuple.__eq__(self, other)
    return False if isinstance(other, tuple) else NotImplemented


def _other_event(self: tuple[Any, ...], other: object) -> bool:
    if type(other) is type(self):
        return tuple.__ne__(self, other)
    return True if isinstance(other, tuple) else NotImplemented


def _unordered(self: tuple[Any, ...], other: object) -> bool:
    raise TypeError(f"{type(self).__name__} events are not ordered")


def _event(kind: str) -> Callable[[type[_T]], type[_T]]:
    """Make a ``NamedTuple`` class the event tagged ``kind`` (its class attribute ``kind``) and give it the
    equality of a record: equal only to the same type with the same fields (hashed like its fields), and
    no ordering."""

    def make(cls: type[_T]) -> type[_T]:
        cls.kind = kind  # type: ignore[attr-defined]
        cls.__eq__ = _same_event  # type: ignore[method-assign]
        cls.__ne__ = _other_event  # type: ignore[method-assign,assignment]
        cls.__hash__ = tuple.__hash__  # type: ignore[method-assign]
        cls.__lt__ = cls.__le__ = cls.__gt__ = cls.__ge__ = _unordered  # type: ignore[method-assign]
        EVENT_TYPES[kind] = cls
        return cls

    return make


@_event("deal_started")
class DealStarted(NamedTuple):
    """A deal begins. ``stacks[i]`` is seat ``i+1``'s chips before blinds; ``in_deal`` the dealt seats."""

    deal: int
    dealer: int
    stacks: tuple[int, ...]
    in_deal: tuple[int, ...]


@_event("blind_posted")
class BlindPosted(NamedTuple):
    """A forced bet: ``blind`` is ``"small"`` or ``"big"``; ``amount`` may be short when all-in."""

    seat: int
    blind: str
    amount: int
    all_in: bool


@_event("hole_cards")
class HoleCardsDealt(NamedTuple):
    """A seat's two private cards."""

    seat: int
    cards: tuple[int, int]


@_event("street_started")
class StreetStarted(NamedTuple):
    """A betting round begins; ``board`` holds the cards dealt for it (3, 1, 1, or none pre-flop)."""

    street: Street
    board: tuple[int, ...]


@_event("action")
class ActionTaken(NamedTuple):
    """A seat acted. ``street_total`` is its total in this round afterwards; ``added`` what it put in now."""

    seat: int
    action: ActionKind
    added: int
    street_total: int
    all_in: bool


@_event("street_ended")
class StreetEnded(NamedTuple):
    """A betting round is over (also emitted for the round in which the deal ended by folds)."""

    street: Street


@_event("uncalled_returned")
class UncalledBetReturned(NamedTuple):
    """Chips no other seat matched go back to the seat that bet them."""

    seat: int
    amount: int


@_event("hand_shown")
class HandShown(NamedTuple):
    """At a showdown: a seat's cards and hand strength (``arena.evaluator.evaluate``)."""

    seat: int
    cards: tuple[int, int]
    strength: int
    folded: bool


@_event("pot_awarded")
class PotAwarded(NamedTuple):
    """One pot (index 0 is the main pot) and who gets what of it."""

    pot: int
    amount: int
    eligible: tuple[int, ...]
    winners: tuple[int, ...]
    shares: tuple[int, ...]
    showdown: bool


@_event("deal_ended")
class DealEnded(NamedTuple):
    """The deal is over; ``stacks[i]`` is seat ``i+1``'s chips now."""

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

_ENUM_FIELDS: dict[str, type] = {"street": Street, "action": ActionKind}


_FIELD_NAMES: dict[type, tuple[str, ...]] = {cls: cls._fields for cls in EVENT_TYPES.values()}  # type: ignore[attr-defined]
_KINDS: dict[type, str] = {cls: kind for kind, cls in EVENT_TYPES.items()}


def event_to_dict(event: Event) -> dict[str, Any]:
    """JSON-ready dict with the ``kind`` tag first (events hold only flat values and tuples of ints)."""
    data: dict[str, Any] = {"kind": _KINDS[type(event)]}
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
    return cast(Event, cls(**values))


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
