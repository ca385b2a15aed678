"""Golden files: the three input files a program is given at every decision of a scripted side-pot deal.

Four seats, dealer 4, the big blind short-stacked (200). Pre-flop seat 3 raises, the short stack goes
all-in over the top, two seats call: a main pot for all three and a side pot for seats 1 and 3. The
answers go through the adapter exactly as a program's ``outputf.txt`` would. Regenerate after a
deliberate format change with ``ARENA_UPDATE_GOLDEN=1 pytest tests/games/codem/test_codem_golden.py``
and review.
"""

import os
from pathlib import Path

import pytest

from arena.cards import FULL_DECK, parse_cards
from arena.engines.nlhe.deal import Deal
from arena.engines.nlhe.rules import TableRules
from arena.games.codem.protocol import decision_files, read_answer

GOLDEN = Path(__file__).parents[2] / "golden" / "codem_sidepot"
STACKS = (1500, 200, 1500, 1500)
# Dealt one card at a time from the seat left of the dealer (1, 2, 3, 4, 1, 2, 3, 4), then
# burn + flop, burn + turn, burn + river.
TOP = parse_cards("Qs As Ks 7c Qh Ah Kh 2d 4c 2s 5d 9c 4h Jd 4d 3h")
ANSWERS = [
    (3, "30"), (4, "0"), (1, "0"), (2, "5000"), (3, "0"), (4, "-10"), (1, "0"),  # pre-flop
    (1, "0"), (3, "50"), (1, "0"),  # flop
    (1, "20"), (3, "40"), (1, "0"),  # turn
    (1, "0"), (3, "0"),  # river
]  # fmt: skip


def _deal() -> Deal:
    deck = TOP + [c for c in FULL_DECK if c not in TOP]
    return Deal(rules=TableRules(seats=4), deal_number=7, dealer=4, stacks=STACKS, deck=deck)


def _snapshots() -> dict[str, dict[str, str]]:
    deal = _deal()
    snapshots: dict[str, dict[str, str]] = {}
    for step, (seat, answer) in enumerate(ANSWERS, 1):
        assert deal.actor == seat, f"step {step}: expected seat {seat} to act, engine says {deal.actor}"
        name = f"{step:02d}_seat{seat}_{deal.street.value}"
        snapshots[name] = decision_files(deal, seat, deal_number=7, stacks_before=STACKS)
        reading = read_answer(answer, deal)
        assert reading.fault is None, reading.reason
        deal.apply(reading.action)
    assert deal.is_over
    for seat in deal.in_deal:
        snapshots[f"{len(ANSWERS) + seat:02d}_seat{seat}_Show_Down"] = decision_files(
            deal, seat, deal_number=7, stacks_before=STACKS
        )
    return snapshots


def test_scripted_deal_outcome() -> None:
    deal = _deal()
    assert deal.hole_cards(2) == tuple(parse_cards("As Ah"))
    for _, answer in ANSWERS:
        deal.apply(read_answer(answer, deal).action)
    # Put in: seat 1 310, seat 2 200 (all-in), seat 3 310, seat 4 40 (folded pre-flop).
    # Main pot 3 x 200 + 40 = 640 to seat 2 (aces); side pot 2 x 110 = 220 to seat 3 (kings over queens).
    assert deal.final_stacks == (1500 - 310, 640, 1500 - 310 + 220, 1500 - 40)
    assert sum(deal.final_stacks) == sum(STACKS)


def test_input_files_match_golden() -> None:
    snapshots = _snapshots()
    if os.environ.get("ARENA_UPDATE_GOLDEN"):
        for name, files in snapshots.items():
            (GOLDEN / name).mkdir(parents=True, exist_ok=True)
            for filename, text in files.items():
                (GOLDEN / name / filename).write_text(text)
    stored = sorted(p.name for p in GOLDEN.iterdir())
    assert stored == sorted(snapshots), "golden snapshots differ in number or names"
    for name, files in snapshots.items():
        for filename, text in files.items():
            assert (GOLDEN / name / filename).read_text() == text, f"{name}/{filename} differs from golden"


@pytest.mark.parametrize("answer", ["abc", "", "1.5", "-3"])
def test_bad_answers_fall_back_to_check_or_fold(answer: str) -> None:
    deal = _deal()
    reading = read_answer(answer, deal)
    assert reading.fault is not None
    assert type(reading.action).__name__ == "Fold"  # seat 3 faces the big blind: not free to check


def test_protocol_doc_shows_the_golden_example() -> None:
    doc = (Path(__file__).parents[3] / "docs" / "protocol.md").read_text()
    for name in ("12_seat3_Fourth_Street", "18_seat3_Show_Down"):
        for filename in ("inputf.txt", "deals_money.txt", "deal.txt"):
            if name.startswith("18") and filename != "deal.txt":
                continue
            assert (GOLDEN / name / filename).read_text() in doc, f"docs/protocol.md lacks {name}/{filename}"
