"""The replay's states, computed from a real engine deal with a side pot, checked against its events."""

from __future__ import annotations

import pytest

from arena.cards import parse_cards, shuffled_deck
from arena.engines.nlhe import CheckCall, Deal, Fold, RaiseTo, TableRules
from arena.engines.nlhe.events import DealEnded, HandShown, HoleCardsDealt, PotAwarded, StreetStarted
from arena.evaluator import evaluate
from arena.viewer.names import card_name, hand_name
from arena.viewer.replay import PotView, replay, unplaced_faults

NAMES = ["Ann", "Bob", "Cy", "Dee", "<b>Eve</b>", "Fay"]
STACKS = [1500, 1500, 1500, 1500, 200, 1500]


def side_pot_deal() -> Deal:
    """Dealer 3; seat 5 goes all-in for 200 pre-flop, seats 2 and 6 play on to a showdown: whatever the
    cards, a main pot for seats 2, 5, 6 and a side pot for seats 2 and 6."""
    deal = Deal(rules=TableRules(), deal_number=1, dealer=3, stacks=STACKS, deck=shuffled_deck(2026))
    for action in (
        RaiseTo(amount=30),
        Fold(),
        CheckCall(),
        Fold(),
        Fold(),  # seats 6, 1, 2, 3, 4
        RaiseTo(amount=200),
        CheckCall(),
        CheckCall(),  # seat 5 all-in; 6 and 2 call
        RaiseTo(amount=100),
        RaiseTo(amount=300),
        CheckCall(),  # flop: 6 bets, 2 raises, 6 calls
        CheckCall(),
        CheckCall(),  # turn
        CheckCall(),
        CheckCall(),  # river
    ):
        deal.apply(action)
    assert deal.is_over
    return deal


def test_every_step_conserves_the_chips_and_ends_on_the_events_stacks() -> None:
    deal = side_pot_deal()
    steps = replay(deal.events, names=NAMES)
    for step in steps:
        assert sum(s.stack for s in step.seats) + step.in_middle == sum(STACKS), step.text
    end = deal.events[-1]
    assert isinstance(end, DealEnded)
    assert tuple(s.stack for s in steps[-1].seats) == end.stacks
    assert steps[-1].in_middle == 0
    assert steps[0].text == "Deal 1: Cy has the button"
    assert [s.text for s in steps[1:3]] == [
        "Dee posts the small blind 5",
        "<b>Eve</b> posts the big blind 10",
    ]
    assert [(s.seat, s.bet) for s in steps[2].seats if s.bet] == [(4, 5), (5, 10)]
    assert [(s.seat, s.blind) for s in steps[-1].seats if s.blind] == [(4, "small"), (5, "big")]
    assert steps[2].in_middle == 15


def test_pots_are_cut_by_the_engine_rule_street_by_street() -> None:
    steps = replay(side_pot_deal().events, names=NAMES)
    flop = next(s for s in steps if s.text.startswith("Flop"))
    assert flop.pots == (PotView("main pot", 605, (2, 5, 6)),)
    assert all(s.bet == 0 for s in flop.seats)
    turn = next(s for s in steps if s.text.startswith("Turn"))
    assert turn.pots == (PotView("main pot", 605, (2, 5, 6)), PotView("side pot 1", 600, (2, 6)))
    assert turn.in_middle == 1205


def test_showdown_pots_match_the_awards_and_name_the_winning_hands() -> None:
    deal = side_pot_deal()
    steps = replay(deal.events, names=NAMES)
    awards = [e for e in deal.events if isinstance(e, PotAwarded)]
    strengths = {e.seat: e.strength for e in deal.events if isinstance(e, HandShown)}
    before = next(i for i, s in enumerate(steps) if s.text.startswith("Main pot"))
    pots_before = [(p.amount, p.eligible) for p in steps[before - 1].pots]
    assert pots_before == [(a.amount, a.eligible) for a in awards]
    final = steps[-1].pots
    assert [(p.amount, p.winners, p.shares, p.awarded) for p in final] == [
        (a.amount, a.winners, a.shares, True) for a in awards
    ]
    assert [p.hand for p in final] == [hand_name(strengths[a.winners[0]]) for a in awards]


def test_cards_are_the_dealt_ones_and_only_live_hands_are_shown() -> None:
    deal = side_pot_deal()
    steps = replay(deal.events, names=NAMES)
    dealt = {e.seat: e.cards for e in deal.events if isinstance(e, HoleCardsDealt)}
    boards = [c for e in deal.events if isinstance(e, StreetStarted) for c in e.board]
    for step in steps[4:]:
        assert {s.seat: s.cards for s in step.seats} == dealt
    assert steps[-1].board == tuple(boards)
    assert {s.seat for s in steps[-1].seats if s.shown} == {2, 5, 6}
    first_shown = next(i for i, step in enumerate(steps) if " shows " in step.text)
    assert not any(s.shown for step in steps[:first_shown] for s in step.seats)
    as_dict = steps[-1].to_dict()
    assert as_dict["pot"] == 0 and len(as_dict["seats"]) == 6
    assert all(len(code) == 2 for s in as_dict["seats"] for code in s["cards"])


def test_a_fault_sits_on_the_decision_that_played_its_default() -> None:
    deal = side_pot_deal()
    faults = [
        {"team": "Ann", "kind": "timeout", "reason": "ran past the 1 s wall limit", "stage": "Pre_Flop"},
        {"team": "Fay", "kind": "raise_below_minimum", "reason": "raise by 1 ...", "stage": "Fifth_Street"},
        {"team": "Bob", "kind": "crash", "reason": "exited with status 1", "stage": "Show_Down"},
    ]
    steps = replay(deal.events, names=NAMES, faults=faults)
    marked = [(s.actor, s.fault.kind, s.fault.played) for s in steps if s.fault is not None]
    assert marked == [(1, "timeout", "fold"), (6, "raise_below_minimum", "check")]
    assert "default after a fault: timeout" in next(s.text for s in steps if s.fault is not None)
    assert unplaced_faults(faults, deal.events, NAMES) == [faults[2]]


@pytest.mark.parametrize(
    ("cards", "name"),
    [
        ("KsKd9c9h2s3d4c", "two pair, kings and nines"),
        ("AsKd9c7h2s3d4c", "high card, ace"),
        ("7s7d7c9h9s3d4c", "a full house, sevens full of nines"),
        ("5s4d3c2hAs9dKc", "a straight, five high"),
        ("AsKsQsJsTs2d3c", "a royal flush"),
        ("QcQd5h8s2c3d9h", "a pair of queens"),
    ],
)
def test_hand_names(cards: str, name: str) -> None:
    assert hand_name(evaluate(parse_cards(cards))) == name


def test_card_names_for_text_alternatives() -> None:
    names = [card_name(c) for c in parse_cards("KsTd2c")]
    assert names == ["king of spades", "ten of diamonds", "two of clubs"]
