"""Scripted deals on a stacked deck: pot and stacks after every street, blinds, heads-up order, all-ins,
side pots, odd chips, a seat busting and sitting out, and deterministic replays."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import pytest

from arena.cards import FULL_DECK, parse_cards, shuffled_deck
from arena.engines.nlhe import CheckCall, Deal, Fold, RaiseTo, TableRules, next_dealer
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
    StreetEnded,
    StreetStarted,
    UncalledBetReturned,
    event_from_dict,
    event_to_dict,
)

RULES = TableRules()


def stacked_deck(*, dealer: int, stacks: Sequence[int], holes: Mapping[int, str], board: str) -> list[int]:
    """A deck that deals ``holes`` (seat -> two cards) and the five ``board`` cards; other cards fill in."""
    seats = len(stacks)
    order = sorted(
        (s for s in range(1, seats + 1) if stacks[s - 1] > 0), key=lambda s: (s - dealer - 1) % seats
    )
    wanted = {seat: parse_cards(text) for seat, text in holes.items()}
    flop_turn_river = parse_cards(board)
    used = {c for cards in wanted.values() for c in cards} | set(flop_turn_river)
    spare = iter([c for c in FULL_DECK if c not in used])
    dealt = {seat: wanted.get(seat) or [next(spare), next(spare)] for seat in order}
    deck = [dealt[seat][0] for seat in order] + [dealt[seat][1] for seat in order]
    flop, turn, river = flop_turn_river[:3], flop_turn_river[3], flop_turn_river[4]
    deck += [next(spare), *flop, next(spare), turn, next(spare), river]
    deck += list(spare)
    assert sorted(deck) == list(FULL_DECK)
    return deck


def stacks_of(deal: Deal) -> list[int]:
    return [deal.stack(seat) for seat in range(1, deal.rules.seats + 1)]


def play(deal: Deal, *actions: CheckCall | Fold | RaiseTo) -> None:
    for action in actions:
        deal.apply(action)


def test_six_handed_deal_with_a_side_pot_street_by_street() -> None:
    stacks = [1500, 1500, 1500, 1500, 200, 1500]
    holes = {5: "AhAd", 6: "KcKd", 2: "QsQh"}
    deck = stacked_deck(dealer=3, stacks=stacks, holes=holes, board="As7c2d9h3s")
    deal = Deal(rules=RULES, deal_number=1, dealer=3, stacks=stacks, deck=deck)

    # Dealer 3: seat 4 posts the small blind, seat 5 the big blind, seat 6 acts first.
    assert deal.events[1:3] == [BlindPosted(4, "small", 5, False), BlindPosted(5, "big", 10, False)]
    assert [e.seat for e in deal.events if isinstance(e, HoleCardsDealt)] == [4, 5, 6, 1, 2, 3]
    assert deal.hole_cards(5) == tuple(parse_cards("AhAd"))
    assert deal.actor == 6 and deal.min_raise_to() == 20 and deal.max_raise_to() == 1500
    play(deal, RaiseTo(amount=30), Fold(), CheckCall(), Fold(), Fold())
    assert deal.actor == 5 and deal.to_call(5) == 20
    play(deal, RaiseTo(amount=200))  # all-in
    assert deal.is_all_in(5)
    play(deal, CheckCall(), CheckCall())
    assert deal.street is Street.FLOP and deal.board == tuple(parse_cards("As7c2d"))
    assert deal.pot_total == 605
    assert stacks_of(deal) == [1500, 1300, 1500, 1495, 0, 1300]

    # Flop: the first live seat left of the dealer that is not all-in is seat 6; min bet = big blind.
    assert deal.actor == 6 and deal.min_raise_to() == 10
    play(deal, RaiseTo(amount=100), RaiseTo(amount=300), CheckCall())
    assert deal.street is Street.TURN and deal.pot_total == 1205
    assert stacks_of(deal) == [1500, 1000, 1500, 1495, 0, 1000]

    # Turn: the opening bet must be at least twice the big blind.
    assert deal.min_raise_to() == 20
    with pytest.raises(ValueError, match="raise to 15 is below the minimum 20"):
        deal.verify_raise_to(15)
    with pytest.raises(ValueError, match="raise to 15 is below the minimum 20"):
        deal.apply(RaiseTo(amount=15))
    play(deal, CheckCall(), RaiseTo(amount=20))
    assert deal.min_raise_to() == 40  # after a bet, the minimum raise is the bet's size
    play(deal, CheckCall())
    assert deal.street is Street.RIVER and deal.pot_total == 1245
    assert stacks_of(deal) == [1500, 980, 1500, 1495, 0, 980]

    new = deal.apply(CheckCall()) + deal.apply(CheckCall())
    assert deal.is_over and deal.street is Street.SHOWDOWN and deal.pot_total == 0
    shown = [e for e in new if isinstance(e, HandShown)]
    assert [(e.seat, e.folded) for e in shown] == [(s, s not in (2, 5, 6)) for s in range(1, 7)]
    pots = [e for e in new if isinstance(e, PotAwarded)]
    assert [(p.amount, p.eligible, p.winners, p.shares) for p in pots] == [
        (605, (2, 5, 6), (5,), (605,)),  # trips aces take the main pot
        (640, (2, 6), (6,), (640,)),  # kings beat queens for the side pot
    ]
    assert new[-1] == DealEnded((1500, 980, 1500, 1495, 605, 1620), True)
    assert deal.final_stacks == (1500, 980, 1500, 1495, 605, 1620)


def test_a_fold_win_returns_the_uncalled_bet_and_shows_no_hand() -> None:
    stacks = [1500] * 6
    deal = Deal(rules=RULES, deal_number=4, dealer=6, stacks=stacks, deck=shuffled_deck(4))
    play(deal, RaiseTo(amount=40), Fold(), Fold(), Fold())  # seat 3 raises, 4, 5, 6 fold
    assert deal.actor == 1
    new = deal.apply(Fold()) + deal.apply(Fold())
    assert [type(e) for e in new] == [
        ActionTaken,
        ActionTaken,
        StreetEnded,
        UncalledBetReturned,
        PotAwarded,
        DealEnded,
    ]
    assert new[2] == StreetEnded(Street.PRE_FLOP)
    assert new[3] == UncalledBetReturned(3, 30)
    assert new[4] == PotAwarded(0, 25, (3,), (3,), (25,), False)
    assert new[5] == DealEnded((1495, 1490, 1515, 1500, 1500, 1500), False)


def test_heads_up_dealer_posts_small_blind_acts_first_then_last() -> None:
    stacks = [0, 1000, 0, 0, 700, 0]
    deal = Deal(rules=RULES, deal_number=9, dealer=5, stacks=stacks, deck=shuffled_deck(9))
    assert deal.in_deal == (2, 5)
    assert deal.events[1:3] == [BlindPosted(5, "small", 5, False), BlindPosted(2, "big", 10, False)]
    assert [e.seat for e in deal.events if isinstance(e, HoleCardsDealt)] == [2, 5]
    assert deal.actor == 5
    play(deal, CheckCall())
    assert deal.actor == 2 and deal.can_check()  # the big blind's option
    play(deal, CheckCall())
    assert deal.street is Street.FLOP and deal.actor == 2  # the big blind acts first after the flop
    play(deal, CheckCall())
    assert deal.actor == 5


def test_short_blinds_are_posted_all_in() -> None:
    stacks = [3, 7, 1500, 1500, 0, 0]
    deal = Deal(rules=RULES, deal_number=2, dealer=4, stacks=stacks, deck=shuffled_deck(2))
    assert deal.events[1:3] == [BlindPosted(1, "small", 3, True), BlindPosted(2, "big", 7, True)]
    assert deal.current_bet == 7 and deal.actor == 3 and deal.min_raise_to() == 17


def test_all_in_for_less_does_not_reopen_the_betting() -> None:
    stacks = [1500, 1500, 1500, 150, 1500, 0]
    deal = Deal(rules=RULES, deal_number=3, dealer=5, stacks=stacks, deck=shuffled_deck(3))
    # Dealer 5, blinds 1 and 2; pre-flop everyone calls.
    play(deal, CheckCall(), CheckCall(), CheckCall(), CheckCall(), CheckCall())
    assert deal.street is Street.FLOP and deal.actor == 1
    play(deal, RaiseTo(amount=100), CheckCall(), CheckCall())  # seat 1 bets, 2 and 3 call
    assert deal.actor == 4 and deal.can_raise()
    play(deal, RaiseTo(amount=140))  # all-in: a raise of 40, less than the full 100
    assert deal.actor == 5 and deal.can_raise() and deal.min_raise_to() == 240  # seat 5 had not acted
    play(deal, CheckCall())
    assert deal.actor == 1 and not deal.can_raise() and deal.to_call(1) == 40
    with pytest.raises(ValueError, match="already acted at a bet of 100"):
        deal.verify_raise_to(240)
    before = (len(deal.events), deal.pot_total, stacks_of(deal))
    with pytest.raises(ValueError):
        deal.apply(RaiseTo(amount=240))
    assert (len(deal.events), deal.pot_total, stacks_of(deal)) == before
    play(deal, CheckCall(), Fold(), CheckCall())
    assert deal.street is Street.TURN and deal.pot_total == 50 + 140 * 4 + 100  # seat 2 folded its 100


def test_a_full_raise_after_acting_reopens_the_betting() -> None:
    deal = Deal(
        rules=RULES, deal_number=5, dealer=1, stacks=[1500, 1500, 1500, 0, 0, 0], deck=shuffled_deck(5)
    )
    play(deal, CheckCall(), CheckCall())  # dealer 1 calls, seat 2 (small blind) completes
    assert deal.actor == 3 and deal.can_raise()
    play(deal, RaiseTo(amount=30))
    assert deal.actor == 1 and deal.can_raise() and deal.min_raise_to() == 50


def test_three_way_split_gives_odd_chips_nearest_the_dealers_left() -> None:
    stacks = [1500] * 6
    holes = {1: "2c3d", 3: "4s5h", 4: "2h3c"}
    deck = stacked_deck(dealer=1, stacks=stacks, holes=holes, board="AsKdQhJcTs")
    deal = Deal(rules=RULES, deal_number=7, dealer=1, stacks=stacks, deck=deck)
    # Seat 4 calls, 5 and 6 fold, 1 calls, the small blind (2) folds, the big blind (3) checks.
    play(deal, CheckCall(), Fold(), Fold(), CheckCall(), Fold(), CheckCall())
    assert deal.pot_total == 35
    while not deal.is_over:
        deal.apply(CheckCall())
    pot = next(e for e in deal.events if isinstance(e, PotAwarded))
    assert pot.winners == (1, 3, 4) and pot.shares == (11, 12, 12)
    assert deal.final_stacks == (1501, 1495, 1502, 1502, 1500, 1500)


def test_everyone_all_in_runs_the_board_out_and_returns_the_excess() -> None:
    stacks = [300, 1000, 500, 0, 0, 0]
    holes = {1: "AsAc", 2: "KsKc", 3: "QsQc"}
    deck = stacked_deck(dealer=1, stacks=stacks, holes=holes, board="2d7h9cJd4h")
    deal = Deal(rules=RULES, deal_number=8, dealer=1, stacks=stacks, deck=deck)
    assert deal.actor == 1  # three seats: dealer 1, blinds 2 and 3, seat 1 first pre-flop
    play(deal, RaiseTo(amount=300), RaiseTo(amount=1000))
    new = deal.apply(CheckCall())  # seat 3 calls all-in for 500
    assert deal.is_over
    kinds = [type(e) for e in new]
    assert kinds[:3] == [ActionTaken, StreetEnded, UncalledBetReturned]
    assert new[2] == UncalledBetReturned(2, 500)
    assert [e.street for e in new if isinstance(e, StreetStarted)] == [Street.FLOP, Street.TURN, Street.RIVER]
    pots = [(e.amount, e.eligible, e.winners) for e in new if isinstance(e, PotAwarded)]
    assert pots == [(900, (1, 2, 3), (1,)), (400, (2, 3), (2,))]
    assert deal.final_stacks == (900, 900, 0, 0, 0, 0)


def test_a_busted_seat_sits_out_of_the_next_deal() -> None:
    stacks = [1500, 1500, 1500, 1500, 40, 1500]
    holes = {5: "7c2d", 6: "AsAh"}
    deck = stacked_deck(dealer=4, stacks=stacks, holes=holes, board="KdQs9h5c3c")
    deal = Deal(rules=RULES, deal_number=1, dealer=4, stacks=stacks, deck=deck)
    play(deal, Fold(), Fold(), Fold(), Fold(), RaiseTo(amount=40), CheckCall())  # 5 all-in, 6 calls
    assert deal.is_over and deal.final_stacks[4] == 0
    after = list(deal.final_stacks)
    dealer = next_dealer(after, 4)
    assert dealer == 6  # seat 5 has no chips: the button skips it
    second = Deal(rules=RULES, deal_number=2, dealer=dealer, stacks=after, deck=shuffled_deck(2))
    assert second.events[0] == DealStarted(2, 6, tuple(after), (1, 2, 3, 4, 6))
    assert second.events[1:3] == [BlindPosted(1, "small", 5, False), BlindPosted(2, "big", 10, False)]
    assert 5 not in [e.seat for e in second.events if isinstance(e, HoleCardsDealt)]
    with pytest.raises(ValueError, match="seat 5 is not dealt"):
        second.hole_cards(5)
    third_dealer = next_dealer([0, 0, 0, 0, 0, 1500], 6)
    with pytest.raises(ValueError, match="only 1 seat"):
        Deal(
            rules=RULES,
            deal_number=3,
            dealer=third_dealer,
            stacks=[0, 0, 0, 0, 0, 1500],
            deck=shuffled_deck(3),
        )


def test_the_same_deck_and_actions_replay_the_same_events() -> None:
    def run() -> list[dict[str, object]]:
        deal = Deal(
            rules=RULES,
            deal_number=11,
            dealer=2,
            stacks=[1500, 800, 1500, 60, 1500, 1500],
            deck=shuffled_deck(11),
        )
        script = iter([RaiseTo(amount=30), CheckCall(), RaiseTo(amount=60), Fold(), CheckCall(), CheckCall()])
        while not deal.is_over:
            deal.apply(next(script, CheckCall()))
        return [event_to_dict(e) for e in deal.events]

    first, second = run(), run()
    assert first == second
    assert [event_to_dict(event_from_dict(d)) for d in first] == first


def test_check_and_call_are_recorded_with_street_totals() -> None:
    deal = Deal(
        rules=RULES, deal_number=12, dealer=1, stacks=[1500, 1500, 1500, 0, 0, 0], deck=shuffled_deck(12)
    )
    new = deal.apply(CheckCall()) + deal.apply(CheckCall()) + deal.apply(CheckCall())
    actions = [(e.seat, e.action, e.added, e.street_total) for e in new if isinstance(e, ActionTaken)]
    assert actions == [
        (1, ActionKind.CALL, 10, 10),
        (2, ActionKind.CALL, 5, 10),
        (3, ActionKind.CHECK, 0, 10),
    ]
    assert deal.street is Street.FLOP and deal.street_total(1) == 0 and deal.deal_total(1) == 10
    play(deal, RaiseTo(amount=10))
    assert deal.events[-1] == ActionTaken(2, ActionKind.BET, 10, 10, False)


def test_bad_deals_and_actions_after_the_end_are_refused() -> None:
    with pytest.raises(ValueError, match="3 stacks given for a table of 6"):
        Deal(rules=RULES, deal_number=1, dealer=1, stacks=[1, 2, 3], deck=shuffled_deck(1))
    with pytest.raises(ValueError, match="dealer 2 is not a seat"):
        Deal(rules=RULES, deal_number=1, dealer=2, stacks=[10, 0, 10, 0, 0, 0], deck=shuffled_deck(1))
    with pytest.raises(ValueError, match="51 cards"):
        Deal(rules=RULES, deal_number=1, dealer=1, stacks=[10] * 6, deck=shuffled_deck(1)[:51])
    deal = Deal(rules=RULES, deal_number=1, dealer=1, stacks=[1500] * 6, deck=shuffled_deck(1))
    for _ in range(5):
        deal.apply(Fold())
    assert deal.is_over and deal.actor is None
    with pytest.raises(ValueError, match="deal 1 is over"):
        deal.apply(CheckCall())
    with pytest.raises(ValueError, match="is over"):
        deal.verify_fold()
    assert not deal.can_raise() and not deal.can_check()


def test_a_raise_must_be_a_whole_number_of_chips() -> None:
    deal = Deal(rules=RULES, deal_number=13, dealer=1, stacks=[1500] * 6, deck=shuffled_deck(13))
    before = len(deal.events)
    for amount in (25.5, "30", True):
        with pytest.raises(ValueError, match="whole number of chips"):
            deal.apply(RaiseTo(amount=amount))  # type: ignore[arg-type]
    assert len(deal.events) == before and deal.pot_total == 15


@pytest.mark.parametrize(
    "deck",
    [
        list(range(51)),  # a card short
        [*range(52), 0],  # a card too many
        [0, *range(1, 51), 0],  # a duplicate in place of 51
        [*range(51), 52],  # a card outside 0..51
        [*range(51), -1],
    ],
)
def test_a_deck_that_is_not_the_52_distinct_cards_is_refused(deck: list[int]) -> None:
    with pytest.raises(ValueError, match=r"not the 52 distinct cards 0\.\.51"):
        Deal(rules=RULES, deal_number=1, dealer=1, stacks=[1500] * 6, deck=deck)


def test_stacks_and_dealer_are_checked_whatever_seatings_were_seen_before() -> None:
    # A deal remembers what its seating and blinds imply; the checks must not depend on that memory.
    for dealer in range(1, 7):
        Deal(rules=RULES, deal_number=dealer, dealer=dealer, stacks=[1500] * 6, deck=shuffled_deck(dealer))
    with pytest.raises(ValueError, match=r"stacks \[1500, -1, 1500, 1500, 1500, 1500\] hold a negative"):
        Deal(rules=RULES, deal_number=7, dealer=1, stacks=[1500, -1, *[1500] * 4], deck=shuffled_deck(7))
    with pytest.raises(ValueError, match=r"dealer 2 is not a seat 1\.\.6 with chips"):
        Deal(rules=RULES, deal_number=8, dealer=2, stacks=[1500, 0, *[1500] * 4], deck=shuffled_deck(8))
    with pytest.raises(ValueError, match="6 stacks given for a table of 3 seats"):
        Deal(rules=TableRules(seats=3), deal_number=9, dealer=1, stacks=[1500] * 6, deck=shuffled_deck(9))
    with pytest.raises(ValueError, match="only 1 seat"):
        Deal(rules=RULES, deal_number=10, dealer=1, stacks=[1500, *[0] * 5], deck=shuffled_deck(10))


def test_the_same_seating_under_other_blinds_posts_those_blinds() -> None:
    stacks = [1500, 1500, 60, 1500, 1500, 1500]
    small = Deal(rules=RULES, deal_number=1, dealer=1, stacks=stacks, deck=shuffled_deck(1))
    big = Deal(
        rules=TableRules(small_blind=50, big_blind=100),
        deal_number=2,
        dealer=1,
        stacks=stacks,
        deck=shuffled_deck(2),
    )
    assert [e for e in small.events if isinstance(e, BlindPosted)] == [
        BlindPosted(2, "small", 5, False),
        BlindPosted(3, "big", 10, False),
    ]
    assert [e for e in big.events if isinstance(e, BlindPosted)] == [
        BlindPosted(2, "small", 50, False),
        BlindPosted(3, "big", 60, True),
    ]
    assert (small.current_bet, small.pot_total, small.actor) == (10, 15, 4)
    assert (big.current_bet, big.pot_total, big.actor) == (60, 110, 4)
