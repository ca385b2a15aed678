"""What a deal remembers of its seating: tables whose stacks change every deal play exactly as deals made
without any memory, short blinds included, and no remembered seating lets bad stacks or dealers through."""

from __future__ import annotations

import random

import pytest

from arena.cards import shuffled_deck
from arena.engines.nlhe import CheckCall, Deal, Fold, RaiseTo, TableRules, next_dealer
from arena.engines.nlhe import seating as seating_module
from arena.engines.nlhe.events import BlindPosted, event_to_dict


def _fresh(rules: TableRules, number: int, dealer: int, stacks: list[int], deck: list[int]) -> Deal:
    """The reference: the deal made with nothing remembered (the memory is put back for the next deal)."""
    remembered = dict(seating_module.REMEMBERED)
    seating_module.REMEMBERED.clear()
    try:
        return Deal(rules=rules, deal_number=number, dealer=dealer, stacks=stacks, deck=deck)
    finally:
        seating_module.REMEMBERED.clear()
        seating_module.REMEMBERED.update(remembered)


def _answers(deal: Deal) -> list[object]:
    seats = range(1, deal.rules.seats + 1)
    answers: list[object] = [deal.actor, deal.current_bet, deal.pot_total, deal.board, deal.street]
    answers += [(deal.to_call(s), deal.stack(s), deal.street_total(s), deal.deal_total(s)) for s in seats]
    answers += [(deal.has_folded(s), deal.is_all_in(s)) for s in seats]
    if deal.actor is not None:
        answers += [deal.can_check(), deal.can_raise(), deal.min_raise_to(), deal.max_raise_to()]
    return answers


def _action(rng: random.Random, deal: Deal) -> Fold | CheckCall | RaiseTo:
    roll = rng.random()
    if roll < 0.2:
        return Fold()
    if roll < 0.65 or not deal.can_raise():
        return CheckCall()
    low, high = deal.min_raise_to(), deal.max_raise_to()
    return RaiseTo(rng.choice((low, high, rng.randint(low, high))))


@pytest.mark.parametrize(
    ("seats", "small_blind", "big_blind", "stack"),
    [(6, 5, 10, 1500), (6, 25, 50, 300), (3, 10, 20, 120), (5, 40, 80, 400)],
)
def test_a_table_whose_chips_carry_over_plays_as_deals_made_without_memory(
    seats: int, small_blind: int, big_blind: int, stack: int
) -> None:
    """Chips carry over from deal to deal (busted seats sit out until one seat holds everything, then the
    table starts again): every deal, made with the seatings remembered so far, gives the same events,
    query answers and final stacks as the same deal made after forgetting them all."""
    rng = random.Random(seats * 1000 + big_blind)
    rules = TableRules(seats=seats, small_blind=small_blind, big_blind=big_blind)
    stacks, dealer = [stack] * seats, 1
    seating_module.REMEMBERED.clear()
    remembered = remembered_short = sitting_out = short_blinds = 0
    for number in range(1, 401):
        if sum(1 for chips in stacks if chips) < 2:  # one seat holds everything: a new table
            stacks, dealer = [rng.randint(1, 3 * stack) for _ in range(seats)], rng.randint(1, seats)
        deck = shuffled_deck(number)
        out = tuple(seat for seat, chips in enumerate(stacks, 1) if not chips)
        known = (small_blind, big_blind, dealer, seats, out) in seating_module.REMEMBERED
        deal = Deal(rules=rules, deal_number=number, dealer=dealer, stacks=stacks, deck=deck)
        reference = _fresh(rules, number, dealer, stacks, deck)
        assert deal.events == reference.events
        assert [event_to_dict(e) for e in deal.events] == [event_to_dict(e) for e in reference.events]
        assert _answers(deal) == _answers(reference)
        while not deal.is_over:
            action = _action(rng, deal)
            assert deal.apply(action) == reference.apply(action)
            assert _answers(deal) == _answers(reference)
        assert deal.events == reference.events and deal.final_stacks == reference.final_stacks
        short = any(e.all_in for e in deal.events if isinstance(e, BlindPosted))
        remembered += known
        remembered_short += known and short
        sitting_out += bool(out)
        short_blinds += short
        stacks = list(deal.final_stacks)
        if sum(1 for chips in stacks if chips) >= 2:
            dealer = next_dealer(stacks, dealer)
    # The stacks changed from deal to deal, yet most seatings were remembered; the table also saw seats
    # sitting out and short blinds, some of them on a seating remembered from deeper stacks.
    assert remembered >= 200 and sitting_out >= 100 and remembered_short >= 2


def test_a_remembered_seating_with_a_short_blind_this_time_posts_it_all_in() -> None:
    rules = TableRules(small_blind=25, big_blind=50)
    deep = [1000] * 6
    Deal(rules=rules, deal_number=1, dealer=1, stacks=deep, deck=shuffled_deck(1))  # remembered
    for small_stack, big_stack, posted in [
        (1000, 50, [BlindPosted(2, "small", 25, False), BlindPosted(3, "big", 50, True)]),
        (1000, 51, [BlindPosted(2, "small", 25, False), BlindPosted(3, "big", 50, False)]),
        (25, 30, [BlindPosted(2, "small", 25, True), BlindPosted(3, "big", 30, True)]),
        (26, 1000, [BlindPosted(2, "small", 25, False), BlindPosted(3, "big", 50, False)]),
        (10, 1000, [BlindPosted(2, "small", 10, True), BlindPosted(3, "big", 50, False)]),
    ]:
        stacks = [1000, small_stack, big_stack, 1000, 1000, 1000]
        deal = Deal(rules=rules, deal_number=2, dealer=1, stacks=stacks, deck=shuffled_deck(2))
        assert [e for e in deal.events if isinstance(e, BlindPosted)] == posted
        assert deal.stack(2) == small_stack - posted[0].amount
        assert deal.stack(3) == big_stack - posted[1].amount
        assert deal.pot_total == posted[0].amount + posted[1].amount
        reference = _fresh(rules, 2, 1, stacks, shuffled_deck(2))
        assert deal.events == reference.events and _answers(deal) == _answers(reference)


def test_every_deal_checks_its_stacks_and_dealer_whatever_was_remembered() -> None:
    rules, four = TableRules(), TableRules(seats=4)
    seating_module.REMEMBERED.clear()
    for dealer in range(1, 7):  # every seating of a full table, and of the same table with seat 2 out
        deck = shuffled_deck(dealer)
        Deal(rules=rules, deal_number=dealer, dealer=dealer, stacks=[1500] * 6, deck=deck)
        if dealer != 2:
            stacks = [1500, 0, 1500, 1500, 1500, 1500]
            Deal(rules=rules, deal_number=dealer, dealer=dealer, stacks=stacks, deck=deck)
    for stacks in ([1500, -1, 1500, 1500, 1500, 1500], [1500, 0, 1500, -20, 1500, 1500], [-5] * 6):
        with pytest.raises(ValueError, match=r"hold a negative amount"):
            Deal(rules=rules, deal_number=20, dealer=1, stacks=stacks, deck=shuffled_deck(20))
    with pytest.raises(ValueError, match=r"dealer 2 is not a seat 1\.\.6 with chips"):
        stacks = [900, 0, 800, 1500, 1500, 1500]
        Deal(rules=rules, deal_number=21, dealer=2, stacks=stacks, deck=shuffled_deck(21))
    with pytest.raises(ValueError, match=r"dealer 7 is not a seat 1\.\.6 with chips"):
        Deal(rules=rules, deal_number=22, dealer=7, stacks=[900] * 6, deck=shuffled_deck(22))
    with pytest.raises(ValueError, match=r"dealer 6 is not a seat 1\.\.4 with chips"):  # seat 6 of six seen
        Deal(rules=four, deal_number=23, dealer=6, stacks=[900] * 4, deck=shuffled_deck(23))
    with pytest.raises(ValueError, match="only 1 seat"):
        Deal(rules=rules, deal_number=24, dealer=1, stacks=[900, 0, 0, 0, 0, 0], deck=shuffled_deck(23))
    with pytest.raises(ValueError, match=r"not the 52 distinct cards"):
        Deal(rules=rules, deal_number=25, dealer=1, stacks=[900] * 6, deck=shuffled_deck(25)[:51])
