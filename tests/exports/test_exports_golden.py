"""Golden files: a small four-seat table of three scripted deals in each export format.

Deal 1 is the side-pot deal of docs/protocol.md (dealer 4, the big blind short with 200, an over-the-top
all-in, a main pot and a side pot); deal 2 is folded round to the big blind (the small blind's uncalled
5 comes back to it); deal 3 splits a pot of 35 three ways on a board straight, the two
odd chips going to the winners nearest the dealer's left. Stacks carry over from deal to deal.
Regenerate after a deliberate format change with
``ARENA_UPDATE_GOLDEN=1 pytest tests/exports/test_exports_golden.py`` and review the difference.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from arena.cards import FULL_DECK, parse_cards
from arena.engines.nlhe import CheckCall, Deal, Fold, RaiseTo, TableRules, next_dealer
from arena.exports.acpc import render_acpc
from arena.exports.logs import TableLog
from arena.exports.phh import render_phh
from arena.exports.pokerstars import render_pokerstars

from support.exports import check_acpc, check_phh, check_pokerstars

GOLDEN = Path(__file__).parents[1] / "golden" / "exports_table"
TEAMS = ("Pr0001", "Pr0002", "Pr0003", "Pr0004")
VIEWER = "Pr0003"
C, F = CheckCall(), Fold()
DEALS = [
    (
        "Qs As Ks 7c Qh Ah Kh 2d 4c 2s 5d 9c 4h Jd 4d 3h",
        [RaiseTo(40), C, C, RaiseTo(200), C, F, C, C, RaiseTo(50), C, RaiseTo(20), RaiseTo(60), C, C, C],
    ),
    ("", [F, F, F]),
    ("2c 4s 2h 4d 3d 5h 3c 5c 7d Ts Jh Qd 6s Kc 6h 9s", [C, C, F, C, *[C, C, C] * 3]),
]  # fmt: skip


def small_table() -> TableLog:
    """The three deals played on the engine, stacks carried over as at a real table."""
    rules = TableRules(seats=4)
    stacks: tuple[int, ...] = (1500, 200, 1500, 1500)
    dealer = 4
    played = []
    for number, (top, actions) in enumerate(DEALS, 1):
        cards = parse_cards(top)
        deck = cards + [c for c in FULL_DECK if c not in cards]
        deal = Deal(rules=rules, deal_number=number, dealer=dealer, stacks=stacks, deck=deck)
        for action in actions:
            deal.apply(action)
        assert deal.is_over
        played.append(tuple(deal.events))
        stacks = deal.final_stacks
        dealer = next_dealer(stacks, dealer)
    return TableLog("golden", TEAMS, rules, tuple(played))


def renderings() -> dict[str, str]:
    log = small_table()
    return {
        "golden.phhs": render_phh(log),
        f"golden.{VIEWER}.phhs": render_phh(log, team=VIEWER),
        f"golden.{VIEWER}.txt": render_pokerstars(log, team=VIEWER),
        "golden.log": render_acpc(log),
        f"golden.{VIEWER}.log": render_acpc(log, team=VIEWER),
    }


@pytest.mark.parametrize("name", sorted(renderings()))
def test_each_format_matches_its_golden_file(name: str) -> None:
    text = renderings()[name]
    path = GOLDEN / name
    if os.environ.get("ARENA_UPDATE_GOLDEN"):
        path.write_text(text)
    assert text == path.read_text(), f"{name} differs from its golden file"


def test_the_golden_table_is_what_its_docstring_says() -> None:
    log = small_table()
    ends = [deal[-1].stacks for deal in log.deals]
    assert ends[0] == (1190, 640, 1410, 1460)  # seat 2 takes the main pot, seat 3 the side pot
    assert ends[1][2] - ends[0][2] == 5  # the big blind wins the small blind; its own 5 extra comes back
    assert [ends[2][s] - ends[1][s] for s in range(4)] == [2, 1, -5, 2]  # 35 split 12 + 11 + 12, SB out 5


def test_the_golden_files_read_back_in_pokerkit() -> None:
    log = small_table()
    deals = {events[0].deal: events for events in log.deals}
    texts = renderings()
    for name in ("golden.phhs", f"golden.{VIEWER}.phhs"):
        tally = check_phh(texts[name], deals, log.rules, table="golden")
        assert tally.compared == 3
    assert check_pokerstars(texts[f"golden.{VIEWER}.txt"], deals, table="golden", viewer=3).compared == 3
    tally = check_acpc(texts["golden.log"], deals, log.rules, table="golden")
    assert tally.compared == 3 and tally.rules["odd chips"] == 1
