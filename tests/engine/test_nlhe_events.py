"""Events behave as immutable records (one of every type sampled): equal only to the same event type
with the same fields (never to a bare tuple or another type), hashable, unordered, readable, and they
survive pickling and JSON."""

from __future__ import annotations

import json
import pickle
from operator import eq, ne

import pytest

from arena.engines.nlhe.events import (
    EVENT_TYPES,
    ActionKind,
    ActionTaken,
    BlindPosted,
    DealEnded,
    DealStarted,
    HandShown,
    HoleCardsDealt,
    PotAwarded,
    Street,
    StreetEnded,
    StreetStarted,
    UncalledBetReturned,
    event_from_dict,
    event_to_dict,
)

SAMPLES = [  # one of every event type
    DealStarted(deal=3, dealer=2, stacks=(1500, 0, 300), in_deal=(1, 3)),
    BlindPosted(seat=3, blind="small", amount=5, all_in=False),
    HoleCardsDealt(seat=1, cards=(0, 51)),
    StreetStarted(street=Street.FLOP, board=(4, 5, 6)),
    ActionTaken(seat=1, action=ActionKind.RAISE, added=40, street_total=50, all_in=True),
    StreetEnded(street=Street.RIVER),
    UncalledBetReturned(seat=1, amount=20),
    HandShown(seat=3, cards=(7, 8), strength=123456, folded=True),
    PotAwarded(pot=1, amount=101, eligible=(1, 3), winners=(1, 3), shares=(51, 50), showdown=True),
    DealEnded(stacks=(1600, 0, 200), showdown=True),
]


def test_samples_cover_every_event_type() -> None:
    assert {type(e) for e in SAMPLES} == set(EVENT_TYPES.values())


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
    text = json.dumps(event_to_dict(event))  # type: ignore[arg-type]
    assert event_from_dict(json.loads(text)) == event and json.loads(text)["kind"] == event.kind  # type: ignore[attr-defined]


def test_repr_names_the_type_and_the_fields() -> None:
    assert repr(UncalledBetReturned(seat=2, amount=90)) == "UncalledBetReturned(seat=2, amount=90)"
    assert repr(StreetEnded(Street.RIVER)).startswith("StreetEnded(street=")


def test_kind_tags_name_the_types_and_are_not_fields() -> None:
    for kind, cls in EVENT_TYPES.items():
        assert cls.kind == kind and "kind" not in cls._fields  # type: ignore[attr-defined]
    assert event_to_dict(UncalledBetReturned(2, 90)) == {"kind": "uncalled_returned", "seat": 2, "amount": 90}
