"""Opponent statistics counted from hand-built deals whose numbers are worked out by hand."""

from __future__ import annotations

import csv
import io
import json

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
)
from arena.games.codem.stats import (
    PlayerStats,
    compute_stats,
    position_names,
    stats_csv,
    stats_json,
    stats_text,
    team_stats,
)

A = ActionKind


def act(seat: int, action: ActionKind, added: int, total: int) -> ActionTaken:
    return ActionTaken(seat=seat, action=action, added=added, street_total=total, all_in=False)


def showdown_deal() -> list:
    """Seat 1 raises, seat 2 calls, seat 3 (big blind) folds; seat 1 wins a showdown worth 190."""
    return [
        DealStarted(deal=1, dealer=1, stacks=(1500, 1500, 1500), in_deal=(1, 2, 3)),
        BlindPosted(seat=2, blind="small", amount=5, all_in=False),
        BlindPosted(seat=3, blind="big", amount=10, all_in=False),
        HoleCardsDealt(seat=1, cards=(0, 1)),
        HoleCardsDealt(seat=2, cards=(2, 3)),
        HoleCardsDealt(seat=3, cards=(4, 5)),
        StreetStarted(street=Street.PRE_FLOP, board=()),
        act(1, A.RAISE, 30, 30),
        act(2, A.CALL, 25, 30),
        act(3, A.FOLD, 0, 10),
        StreetEnded(street=Street.PRE_FLOP),
        StreetStarted(street=Street.FLOP, board=(10, 11, 12)),
        act(2, A.CHECK, 0, 0),
        act(1, A.BET, 20, 20),
        act(2, A.CALL, 20, 20),
        StreetEnded(street=Street.FLOP),
        StreetStarted(street=Street.TURN, board=(13,)),
        act(2, A.CHECK, 0, 0),
        act(1, A.CHECK, 0, 0),
        StreetEnded(street=Street.TURN),
        StreetStarted(street=Street.RIVER, board=(14,)),
        act(2, A.BET, 40, 40),
        act(1, A.CALL, 40, 40),
        StreetEnded(street=Street.RIVER),
        HandShown(seat=1, cards=(0, 1), strength=900, folded=False),
        HandShown(seat=2, cards=(2, 3), strength=100, folded=False),
        HandShown(seat=3, cards=(4, 5), strength=500, folded=True),
        PotAwarded(pot=0, amount=190, eligible=(1, 2), winners=(1,), shares=(190,), showdown=True),
        DealEnded(stacks=(1600, 1410, 1490), showdown=True),
    ]


def fold_deal() -> list:
    """Seat 3 completes the small blind, seat 1 checks, bets the flop and seat 3 folds: seat 1 wins 20."""
    return [
        DealStarted(deal=2, dealer=2, stacks=(1600, 1410, 1490), in_deal=(1, 2, 3)),
        BlindPosted(seat=3, blind="small", amount=5, all_in=False),
        BlindPosted(seat=1, blind="big", amount=10, all_in=False),
        StreetStarted(street=Street.PRE_FLOP, board=()),
        act(2, A.FOLD, 0, 0),
        act(3, A.CALL, 5, 10),
        act(1, A.CHECK, 0, 10),
        StreetEnded(street=Street.PRE_FLOP),
        StreetStarted(street=Street.FLOP, board=(20, 21, 22)),
        act(3, A.CHECK, 0, 0),
        act(1, A.BET, 10, 10),
        act(3, A.FOLD, 0, 0),
        StreetEnded(street=Street.FLOP),
        UncalledBetReturned(seat=1, amount=10),
        PotAwarded(pot=0, amount=20, eligible=(1,), winners=(1,), shares=(20,), showdown=False),
        DealEnded(stacks=(1610, 1410, 1480), showdown=False),
    ]


def test_a_raiser_who_wins_at_showdown() -> None:
    stats = compute_stats([(showdown_deal(), 1), (fold_deal(), 1)])
    assert (stats.hands, stats.vpip_hands, stats.pfr_hands) == (2, 1, 1)
    assert (stats.postflop_aggressive, stats.postflop_calls) == (2, 1)
    assert (stats.saw_flop, stats.showdowns, stats.showdown_wins) == (2, 1, 1)
    assert stats.profit == 110
    rates = stats.rates()
    assert rates["vpip"] == 0.5 and rates["pfr"] == 0.5
    assert rates["aggression_factor"] == 2.0
    assert rates["went_to_showdown"] == 0.5 and rates["won_at_showdown"] == 1.0


def test_a_caller_who_loses_at_showdown() -> None:
    stats = compute_stats([(showdown_deal(), 2), (fold_deal(), 2)])
    assert (stats.hands, stats.vpip_hands, stats.pfr_hands) == (2, 1, 0)
    assert (stats.postflop_aggressive, stats.postflop_calls) == (1, 1)
    assert (stats.saw_flop, stats.showdowns, stats.showdown_wins) == (1, 1, 0)
    assert stats.profit == -90
    assert stats.rates()["won_at_showdown"] == 0.0


def test_blinds_and_checks_are_not_voluntary_and_a_folded_hand_shown_is_no_showdown() -> None:
    stats = compute_stats([(showdown_deal(), 3), (fold_deal(), 3)])
    assert (stats.hands, stats.vpip_hands, stats.pfr_hands) == (2, 1, 0)
    assert (stats.saw_flop, stats.showdowns) == (1, 0)
    assert stats.rates()["aggression_factor"] is None
    assert stats.rates()["won_at_showdown"] is None
    assert stats.profit == -20


def test_a_seat_not_dealt_in_counts_nothing() -> None:
    events = showdown_deal()
    events[0] = DealStarted(deal=1, dealer=1, stacks=(1500, 1500, 1500, 0), in_deal=(1, 2, 3))
    stats = compute_stats([(events, 4)])
    assert stats.hands == 0 and stats.rates()["vpip"] is None


def test_reports_are_stable_text_and_json() -> None:
    stats = compute_stats([(showdown_deal(), 1), (fold_deal(), 1)])
    data = json.loads(stats_json("Pr0023", stats, tables=1))
    assert data["team"] == "Pr0023" and data["counts"]["hands"] == 2 and data["rates"]["pfr"] == 0.5
    assert stats_json("Pr0023", stats, tables=1) == stats_json("Pr0023", stats, tables=1)
    text = stats_text("Pr0023", stats, tables=1)
    assert "VPIP                50.0% (1)" in text
    assert "aggression factor   2.00 (2 bets+raises / 1 calls)" in text
    assert text.endswith("profit              110\n")


def three_bet_deal() -> list:
    """Seat 1 (button) raises to 30, seat 2 (small blind) re-raises to 100, seat 3 folds, seat 1 folds."""
    return [
        DealStarted(deal=3, dealer=1, stacks=(1500, 1500, 1500), in_deal=(1, 2, 3)),
        BlindPosted(seat=2, blind="small", amount=5, all_in=False),
        BlindPosted(seat=3, blind="big", amount=10, all_in=False),
        StreetStarted(street=Street.PRE_FLOP, board=()),
        act(1, A.RAISE, 30, 30),
        act(2, A.RAISE, 95, 100),
        act(3, A.FOLD, 0, 10),
        act(1, A.FOLD, 0, 30),
        StreetEnded(street=Street.PRE_FLOP),
        UncalledBetReturned(seat=2, amount=70),
        PotAwarded(pot=0, amount=70, eligible=(2,), winners=(2,), shares=(70,), showdown=False),
        DealEnded(stacks=(1470, 1540, 1490), showdown=False),
    ]


def test_a_re_raise_facing_one_raise_is_a_3_bet_and_each_facing_seat_had_the_chance() -> None:
    deals = [showdown_deal(), three_bet_deal()]
    small_blind = compute_stats([(d, 2) for d in deals])
    assert (small_blind.three_bet_chances, small_blind.three_bets) == (2, 1)
    assert small_blind.rates()["three_bet"] == 0.5
    big_blind = compute_stats([(d, 3) for d in deals])  # folded to one raise in the first, two in the second
    assert (big_blind.three_bet_chances, big_blind.three_bets) == (1, 0)
    button = compute_stats([(d, 1) for d in deals])  # opened both times; faced the 3-bet, not one raise
    assert (button.three_bet_chances, button.three_bets) == (0, 0)
    assert button.rates()["three_bet"] is None


def test_profit_is_also_counted_by_position() -> None:
    assert position_names((2, 3, 1)) == {2: "SB", 3: "BB", 1: "BTN"}
    assert position_names((4, 5, 6, 1, 2, 3)) == {4: "SB", 5: "BB", 6: "UTG", 1: "MP", 2: "CO", 3: "BTN"}
    assert position_names((2, 1)) == {2: "BB", 1: "BTN"}  # heads-up: the dealer posts the small blind
    # Deal 1 (dealer 1): seat 1 is the button; deal 2 (dealer 2): seat 1 is the big blind.
    stats = compute_stats([(showdown_deal(), 1), (fold_deal(), 1)])
    assert stats.profit_by_position["BTN"] == 100 and stats.hands_by_position["BTN"] == 1
    assert stats.profit_by_position["BB"] == 10 and stats.hands_by_position["BB"] == 1
    assert sum(stats.profit_by_position.values()) == stats.profit


def test_every_team_gets_a_row_of_stats_csv() -> None:
    deals = [showdown_deal(), three_bet_deal()]
    stats = team_stats([(("Pr0001", "Pr0002", "Pr0003"), deals)])
    assert sorted(stats) == ["Pr0001", "Pr0002", "Pr0003"]
    rows = list(csv.DictReader(io.StringIO(stats_csv(stats))))
    assert [row["team"] for row in rows] == ["Pr0001", "Pr0002", "Pr0003"]
    second = rows[1]
    assert second["hands"] == "2" and second["three_bet"] == "0.5" and second["profit"] == str(-90 + 40)
    assert second["hands_SB"] == "2" and second["profit_SB"] == "-50" and second["profit_BTN"] == "0"
    assert rows[2]["aggression_factor"] == ""  # never called after the flop: undefined, left empty


def test_two_seats_counts_add_up_field_by_field_and_position_by_position() -> None:
    one, other = PlayerStats(hands=3, vpip_hands=1, profit=-20), PlayerStats(hands=2, pfr_hands=1, profit=50)
    one.hands_by_position["BB"] += 3
    other.hands_by_position["BB"] += 1
    other.profit_by_position["BTN"] += 50
    both = one + other
    assert (both.hands, both.vpip_hands, both.pfr_hands, both.profit) == (5, 1, 1, 30)
    assert both.hands_by_position["BB"] == 4 and both.profit_by_position["BTN"] == 50
    assert one.hands == 3 and one.hands_by_position["BB"] == 3, "the addends are left as they were"
