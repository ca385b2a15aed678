"""Events behave as immutable records: equal only to the same event type with the same fields (never to
a bare tuple or another type), hashable, unordered, readable, and they survive pickling and JSON."""

from __future__ import annotations

import pickle
from operator import eq, ne

import pytest

from arena.engines.nlhe.events import (
    EVENT_TYPES,
    ActionKind,
    ActionTaken,
    HoleCardsDealt,
    Street,
    StreetEnded,
    StreetStarted,
    UncalledBetReturned,
    event_from_dict,
    event_to_dict,
)

SAMPLES = [
    ActionTaken(seat=2, action=ActionKind.CALL, added=10, street_total=10, all_in=False),
    HoleCardsDealt(seat=2, cards=(12, 51)),
    StreetStarted(street=Street.FLOP, board=(1, 2, 3)),
    StreetEnded(street=Street.RIVER),
    UncalledBetReturned(seat=2, amount=90),
]


def test_equal_only_to_the_same_type_with_the_same_fields() -> None:
    returned, hole = UncalledBetReturned(seat=3, amount=12), HoleCardsDealt(seat=3, cards=(12, 0))
    assert returned == UncalledBetReturned(3, 12) and hash(returned) == hash(UncalledBetReturned(3, 12))
    assert returned != UncalledBetReturned(3, 13)
    assert UncalledBetReturned(3, 12) != HoleCardsDealt(3, 12)  # type: ignore[arg-type]
    for event, bare in ((returned, (3, 12)), (hole, (3, (12, 0)))):  # both operand orders
        assert not eq(event, bare) and not eq(bare, event) and ne(event, bare) and ne(bare, event)
    assert len({returned, UncalledBetReturned(3, 12), (3, 12)}) == 2


def test_events_are_not_ordered() -> None:
    with pytest.raises(TypeError):
        _ = UncalledBetReturned(1, 5) < UncalledBetReturned(2, 5)  # type: ignore[operator]
    with pytest.raises(TypeError):
        _ = UncalledBetReturned(1, 5) >= (1, 5)  # type: ignore[operator]


@pytest.mark.parametrize("event", SAMPLES, ids=lambda e: type(e).__name__)
def test_an_event_is_immutable(event: object) -> None:
    with pytest.raises(AttributeError):
        event.seat = 4  # type: ignore[attr-defined]
    with pytest.raises(AttributeError):
        event.extra = 1  # type: ignore[attr-defined]


@pytest.mark.parametrize("event", SAMPLES, ids=lambda e: type(e).__name__)
def test_an_event_survives_pickling_and_json(event: object) -> None:
    for protocol in range(pickle.HIGHEST_PROTOCOL + 1):
        copy = pickle.loads(pickle.dumps(event, protocol))
        assert type(copy) is type(event) and copy == event
    assert event_from_dict(event_to_dict(event)) == event  # type: ignore[arg-type]


def test_repr_names_the_type_and_the_fields() -> None:
    assert repr(UncalledBetReturned(seat=2, amount=90)) == "UncalledBetReturned(seat=2, amount=90)"
    assert repr(StreetEnded(Street.RIVER)).startswith("StreetEnded(street=")


def test_kind_tags_name_the_types_and_are_not_fields() -> None:
    for kind, cls in EVENT_TYPES.items():
        assert cls.kind == kind and "kind" not in cls._fields  # type: ignore[attr-defined]
    assert event_to_dict(UncalledBetReturned(2, 90)) == {"kind": "uncalled_returned", "seat": 2, "amount": 90}
