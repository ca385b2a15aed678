"""What a program's answer becomes (docs/protocol.md, "What a program answers"): each reading that the
Code'em statement leaves open, on a real deal, with the action played and the fault recorded."""

from __future__ import annotations

import pytest

from arena.cards import FULL_DECK
from arena.engines.nlhe import CheckCall, Deal, Fold, RaiseTo, TableRules
from arena.faults import FaultKind
from arena.games.codem.protocol import read_answer


def _deal(stacks: list[int]) -> Deal:
    """Three seats, dealer 3: seat 1 posts 5, seat 2 posts 10, seat 3 acts first facing the big blind."""
    return Deal(rules=TableRules(seats=3), deal_number=1, dealer=3, stacks=stacks, deck=list(FULL_DECK))


def test_zero_calls_and_minus_ten_folds() -> None:
    deal = _deal([1500, 1500, 1500])
    assert read_answer("0\n", deal).action == CheckCall()
    assert read_answer("-10\n", deal).action == Fold()
    assert read_answer("0\n", deal).fault is None and read_answer("-10", deal).fault is None


def test_a_raise_is_by_the_amount_over_the_highest_bet() -> None:
    deal = _deal([1500, 1500, 1500])
    reading = read_answer("30", deal)
    assert reading.action == RaiseTo(40) and reading.fault is None  # the big blind 10, raised by 30


def test_an_over_stack_raise_is_an_all_in_without_a_fault() -> None:
    deal = _deal([1500, 1500, 800])
    reading = read_answer("5000", deal)
    assert reading.action == RaiseTo(800) and reading.fault is None


def test_a_raise_when_raising_is_closed_is_a_call_without_a_fault() -> None:
    deal = _deal([1500, 1500, 1500])
    deal.apply(RaiseTo(1500))  # seat 3 all-in
    deal.apply(Fold())  # seat 1
    assert deal.actor == 2 and not deal.can_raise()  # nobody left who could answer a raise
    reading = read_answer("100", deal)
    assert reading.action == CheckCall() and reading.fault is None


def test_an_under_minimum_raise_is_a_call_with_a_fault() -> None:
    deal = _deal([1500, 1500, 1500])
    reading = read_answer("3", deal)
    assert reading.action == CheckCall()
    assert reading.fault is FaultKind.RAISE_BELOW_MINIMUM
    assert reading.reason == "raise by 3 is below the minimum raise of 10; played as a call"


@pytest.mark.parametrize(
    ("answer", "fault"),
    [
        (None, FaultKind.NO_ANSWER),
        ("", FaultKind.NO_ANSWER),
        ("call", FaultKind.NOT_AN_INTEGER),
        ("1.5", FaultKind.NOT_AN_INTEGER),
        ("-3", FaultKind.INVALID_ANSWER),
    ],
)
def test_anything_else_is_a_fault_and_the_default_action(answer: str | None, fault: FaultKind) -> None:
    owing = _deal([1500, 1500, 1500])  # seat 3 owes the big blind: the default is a fold
    assert read_answer(answer, owing).action == Fold() and read_answer(answer, owing).fault is fault
    free = _deal([1500, 1500, 1500])
    free.apply(CheckCall())  # seat 3 calls
    free.apply(CheckCall())  # seat 1 completes; the big blind may check
    assert free.actor == 2 and free.can_check()
    assert read_answer(answer, free).action == CheckCall() and read_answer(answer, free).fault is fault
