"""The engine's fast event makers build exactly what the event classes build."""

from __future__ import annotations

import pytest

from arena.engines.nlhe.event_makers import MAKERS, check_maker, hole_cards_dealt
from arena.engines.nlhe.events import (
    ActionKind,
    ActionTaken,
    BlindPosted,
    DealEnded,
    DealStarted,
    HandShown,
    HoleCardsDealt,
    PotAwarded,
    Street,
    StreetStarted,
    UncalledBetReturned,
    event_from_dict,
    event_to_dict,
)

SAMPLES = [
    DealStarted(3, 2, (1500, 0, 1490), (1, 3)),
    BlindPosted(4, "big", 7, True),
    HoleCardsDealt(5, (12, 51)),
    StreetStarted(Street.FLOP, (1, 2, 3)),
    ActionTaken(6, ActionKind.RAISE, 30, 40, False),
    UncalledBetReturned(2, 90),
    HandShown(1, (0, 13), 1234567, True),
    PotAwarded(1, 35, (1, 3, 4), (3, 4), (18, 17), True),
    DealEnded((0, 3000), True),
]


@pytest.mark.parametrize("event", SAMPLES, ids=lambda e: type(e).__name__)
def test_maker_builds_an_equal_event(event: object) -> None:
    values = [getattr(event, name) for name in event._fields]  # type: ignore[attr-defined]
    made = MAKERS[type(event)](*values)
    assert type(made) is type(event)
    assert made == event and hash(made) == hash(event) and repr(made) == repr(event)
    assert event_from_dict(event_to_dict(made)) == event
    with pytest.raises(AttributeError):  # still frozen
        setattr(made, event._fields[0], 9)  # type: ignore[attr-defined]


def test_every_event_the_engine_makes_has_a_maker() -> None:
    assert set(MAKERS) == {type(e) for e in SAMPLES}


def test_a_maker_that_does_not_take_the_class_fields_is_refused() -> None:
    with pytest.raises(TypeError, match=r"its maker takes \('seat', 'cards'\)"):
        check_maker(ActionTaken, hole_cards_dealt)
