"""Fast positional constructors for the events the engine emits on its hot path.

A frozen dataclass's ``__init__`` sets every field through ``object.__setattr__``, which makes it about
twice as slow as needed, and a deal makes some forty events. Each maker here builds the very same object
(``object.__new__`` then the slot descriptors, in field order) and checks at import that the class still
has exactly the fields it sets, so a new field in ``events.py`` fails loudly here instead of being left
unset. ``tests/test_nlhe_event_makers.py`` compares every maker with its class's constructor.

Events are frozen values, so the engine also shares equal ones between deals: :func:`memoized` wraps a
maker with a bounded cache keyed by its arguments (blinds and one-card streets recur in most deals).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import fields
from typing import Any

from arena.engines.nlhe.events import (
    ActionTaken,
    BlindPosted,
    DealEnded,
    DealStarted,
    HandShown,
    HoleCardsDealt,
    PotAwarded,
    StreetStarted,
    UncalledBetReturned,
)

_new = object.__new__


def _setters(cls: type, count: int) -> list[Callable[[Any, Any], None]]:
    names = [f.name for f in fields(cls)]
    if len(names) != count:
        raise TypeError(f"{cls.__name__} has fields {names}; its maker sets {count}")
    return [getattr(cls, name).__set__ for name in names]


def _maker2(cls: type) -> Callable[..., Any]:
    s1, s2 = _setters(cls, 2)

    def make(a: Any, b: Any) -> Any:
        event = _new(cls)
        s1(event, a)
        s2(event, b)
        return event

    return make


def _maker4(cls: type) -> Callable[..., Any]:
    s1, s2, s3, s4 = _setters(cls, 4)

    def make(a: Any, b: Any, c: Any, d: Any) -> Any:
        event = _new(cls)
        s1(event, a)
        s2(event, b)
        s3(event, c)
        s4(event, d)
        return event

    return make


def _maker5(cls: type) -> Callable[..., Any]:
    s1, s2, s3, s4, s5 = _setters(cls, 5)

    def make(a: Any, b: Any, c: Any, d: Any, e: Any) -> Any:
        event = _new(cls)
        s1(event, a)
        s2(event, b)
        s3(event, c)
        s4(event, d)
        s5(event, e)
        return event

    return make


def _maker6(cls: type) -> Callable[..., Any]:
    s1, s2, s3, s4, s5, s6 = _setters(cls, 6)

    def make(a: Any, b: Any, c: Any, d: Any, e: Any, f: Any) -> Any:
        event = _new(cls)
        s1(event, a)
        s2(event, b)
        s3(event, c)
        s4(event, d)
        s5(event, e)
        s6(event, f)
        return event

    return make


def memoized(maker: Callable[..., Any], limit: int = 1 << 16) -> Callable[..., Any]:
    """``maker`` returning one shared event per distinct argument tuple (hashable arguments only).

    The cache is emptied when it reaches ``limit`` entries, so memory stays bounded whatever the chips.
    """
    cache: dict[tuple[Any, ...], Any] = {}
    get = cache.get

    def make(*args: Any) -> Any:
        event = get(args)
        if event is None:
            if len(cache) >= limit:
                cache.clear()
            event = cache[args] = maker(*args)
        return event

    return make


deal_started = _maker4(DealStarted)
blind_posted = _maker4(BlindPosted)
hole_cards_dealt = _maker2(HoleCardsDealt)
street_started = _maker2(StreetStarted)
action_taken = _maker5(ActionTaken)
uncalled_bet_returned = _maker2(UncalledBetReturned)
hand_shown = _maker4(HandShown)
pot_awarded = _maker6(PotAwarded)
deal_ended = _maker2(DealEnded)

MAKERS: dict[type, Callable[..., Any]] = {
    DealStarted: deal_started,
    BlindPosted: blind_posted,
    HoleCardsDealt: hole_cards_dealt,
    StreetStarted: street_started,
    ActionTaken: action_taken,
    UncalledBetReturned: uncalled_bet_returned,
    HandShown: hand_shown,
    PotAwarded: pot_awarded,
    DealEnded: deal_ended,
}
