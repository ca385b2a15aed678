"""The NLHE event record round-trips through JSON for every event type."""

import json

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

SAMPLES = [
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


def test_every_event_round_trips_through_json() -> None:
    for event in SAMPLES:
        text = json.dumps(event_to_dict(event))
        assert event_from_dict(json.loads(text)) == event
        assert json.loads(text)["kind"] == event.kind
