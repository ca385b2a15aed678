"""deal.txt: parsing the Code'em statement's own examples, rendering from events, and the round trip."""

import random
from pathlib import Path

import pytest

from arena.cards import from_codem, shuffled_deck
from arena.engines.nlhe import CheckCall, Deal, Fold, RaiseTo, TableRules
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
from arena.errors import FormatError
from arena.games.codem.deal_file import Cell, DealText, parse_deal_file, render_deal_file
from arena.games.codem.inputs import render_deals_money, render_inputf

SEED004 = Path(__file__).parents[2] / "data" / "seed004"


def test_parses_004_complete_example() -> None:
    deal = parse_deal_file((SEED004 / "deal_complete.txt").read_text())
    assert (deal.dealer, deal.stage, deal.main_pot) == (3, Street.SHOWDOWN, 550)
    assert [s.street for s in deal.streets] == [Street.PRE_FLOP, Street.FLOP, Street.TURN, Street.RIVER]
    assert all(s.ended for s in deal.streets)
    assert deal.board == [from_codem(c) for c in (42, 11, 38, 12, 2)]
    assert deal.streets[0].rows[0] == [
        Cell("Call", 10),
        Cell("Call", 10),
        Cell("Rise", 25),
        Cell("Rise", 5),
        Cell("Rise", 10),
        Cell("Call", 10),
    ]
    assert deal.streets[1].rows[0][4] is None
    assert deal.shown[6] == (from_codem(1), from_codem(9))
    assert len(deal.shown) == 6
    assert deal.winners == [[6]]


def test_parses_004_incomplete_example() -> None:
    deal = parse_deal_file((SEED004 / "deal_incomplete.txt").read_text())
    assert (deal.stage, deal.main_pot) == (Street.RIVER, 400)
    assert not deal.streets[-1].ended
    assert deal.streets[-1].rows == [
        [None, None, Cell("Call", 250), Cell("Call", 0), None, Cell("Rise", 250)]
    ]
    assert deal.shown == {} and deal.winners == []


def test_inputs_match_004_examples_byte_for_byte() -> None:
    assert render_inputf((from_codem(12), from_codem(37)), seat=2, spent=400) == (
        "12          37          2          400\n"
    )
    assert render_deals_money(3, [1800, 1500, 600, 2100, 1000, 2000]) == (
        "Deal          3\n"
        "1            1800\n"
        "2            1500\n"
        "3             600\n"
        "4            2100\n"
        "5            1000\n"
        "6            2000\n"
    )


def _three_way_events() -> list:
    """Dealer 1 of 3; seat 2 SB, seat 3 BB; seat 1 raises, seat 2 folds, seat 3 calls; check-check."""
    return [
        DealStarted(deal=1, dealer=1, stacks=(1500, 1500, 1500), in_deal=(1, 2, 3)),
        BlindPosted(seat=2, blind="small", amount=5, all_in=False),
        BlindPosted(seat=3, blind="big", amount=10, all_in=False),
        HoleCardsDealt(seat=2, cards=(0, 1)),
        HoleCardsDealt(seat=3, cards=(2, 3)),
        HoleCardsDealt(seat=1, cards=(12, 25)),
        StreetStarted(street=Street.PRE_FLOP, board=()),
        ActionTaken(seat=1, action=ActionKind.RAISE, added=30, street_total=30, all_in=False),
        ActionTaken(seat=2, action=ActionKind.FOLD, added=0, street_total=5, all_in=False),
        ActionTaken(seat=3, action=ActionKind.CALL, added=20, street_total=30, all_in=False),
        StreetEnded(street=Street.PRE_FLOP),
        StreetStarted(street=Street.FLOP, board=(40, 41, 42)),
        ActionTaken(seat=3, action=ActionKind.CHECK, added=0, street_total=0, all_in=False),
        ActionTaken(seat=1, action=ActionKind.BET, added=10, street_total=10, all_in=False),
        ActionTaken(seat=3, action=ActionKind.FOLD, added=0, street_total=0, all_in=False),
        StreetEnded(street=Street.FLOP),
        UncalledBetReturned(seat=1, amount=10),
        PotAwarded(pot=0, amount=65, eligible=(1,), winners=(1,), shares=(65,), showdown=False),
        DealEnded(stacks=(1535, 1495, 1470), showdown=False),
    ]


def test_renders_orbit_rows_and_pot() -> None:
    events = _three_way_events()
    mid = render_deal_file(events[:12], seats=3)
    assert mid.splitlines()[:3] == ["Dealer         1", "Stage          Flop", "Main_Pot       65"]
    assert "Pre_Flop\n1              2              3\n" in mid
    assert "Rise 30        Rise 5         Rise 10\n-              Fold 5         Call 30\nEnd\n" in mid
    assert mid.endswith("Flop\n41             42             43\n1              2              3\n")
    final = render_deal_file(events, seats=3)
    assert "Stage          Show_Down" in final
    assert final.endswith("Show_Down\nWin            1\n")


def test_round_trip_through_parser() -> None:
    events = _three_way_events()
    parsed = parse_deal_file(render_deal_file(events, seats=3))
    assert parsed.dealer == 1 and parsed.main_pot == 65
    assert parsed.streets[0].rows == [
        [Cell("Rise", 30), Cell("Rise", 5), Cell("Rise", 10)],
        [None, Cell("Fold", 5), Cell("Call", 30)],
    ]
    assert parsed.streets[1].rows == [
        [Cell("Rise", 10), None, Cell("Call", 0)],
        [None, None, Cell("Fold", 0)],
    ]
    assert parsed.board == [40, 41, 42]
    assert parsed.winners == [[1]]


def test_showdown_block_lists_hands_in_seat_order() -> None:
    events = [
        DealStarted(deal=2, dealer=2, stacks=(100, 100), in_deal=(1, 2)),
        StreetStarted(street=Street.PRE_FLOP, board=()),
        HandShown(seat=2, cards=(5, 6), strength=1, folded=False),
        HandShown(seat=1, cards=(7, 8), strength=2, folded=False),
        PotAwarded(pot=0, amount=40, eligible=(1, 2), winners=(1, 2), shares=(20, 20), showdown=True),
        DealEnded(stacks=(100, 100), showdown=True),
    ]
    parsed = parse_deal_file(render_deal_file(events, seats=2))
    assert parsed.shown == {1: (7, 8), 2: (5, 6)}
    assert parsed.winners == [[1, 2]]


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("Stage Flop\nMain_Pot 5\n", "header"),
        ("Dealer 1\nStage Flop\nMain_Pot 5\nCall 10\n", "outside any stage"),
        ("Dealer 1\nStage Pre_Flop\nMain_Pot 5\nPre_Flop\n1 2\nCall ten -\n", "line 6"),
    ],
)
def test_bad_files_name_the_problem(text: str, message: str) -> None:
    with pytest.raises(FormatError, match=message):
        parse_deal_file(text)


def test_deal_text_brought_up_to_date_renders_every_prefix_like_a_fresh_render() -> None:
    """The incremental renderer a table keeps per deal gives, after every event, the whole-deal rendering."""
    rng = random.Random(18)
    prefixes = 0
    for number in range(1, 301):
        seats = rng.randint(2, 6)
        stacks = [rng.choice((rng.randint(1, 60), 1500)) for _ in range(seats)]
        deal = Deal(
            rules=TableRules(seats=seats),
            deal_number=number,
            dealer=rng.randint(1, seats),
            stacks=stacks,
            deck=shuffled_deck(number),
        )
        text = DealText(seats=seats)
        assert text.render(deal.events) == render_deal_file(deal.events, seats=seats)
        while not deal.is_over:
            roll = rng.random()
            if roll < 0.1:
                deal.apply(Fold())
            elif roll < 0.7 or not deal.can_raise():
                deal.apply(CheckCall())
            else:
                deal.apply(RaiseTo(rng.randint(deal.min_raise_to(), deal.max_raise_to())))
            if rng.random() < 0.7:  # not every event list is rendered: a table skips other seats' turns
                assert text.render(deal.events) == render_deal_file(deal.events, seats=seats)
                prefixes += 1
        assert text.render(deal.events) == render_deal_file(deal.events, seats=seats)
    assert prefixes > 1000
