"""``arena rules-kit``: deal situations a team's parser must read right, each with the engine's verdicts.

A situation is a scripted deal (stacks, dealer, a seeded deck, the answers given so far) stopped at one
seat's decision. Its three input files are rendered by the table's own renderers from the engine's events,
and every answer worth trying (fold, call, the smallest raise and one chip less, all-in and more) is played
on a fresh copy of the deal: what the engine does with it, or the fault it is, is recorded beside it.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from arena.cards import derive_seed, shuffled_deck
from arena.engines.nlhe.deal import Deal
from arena.engines.nlhe.events import ActionTaken
from arena.engines.nlhe.rules import TableRules
from arena.errors import ConfigError
from arena.games.codem.protocol import DEAL_FILE, INPUT_FILE, MONEY_FILE, decision_files, read_answer

SITUATION_FILE = "situation.json"
README_FILE = "README.md"
DEAL_NUMBER = 1


@dataclass(frozen=True)
class Situation:
    """A scripted deal up to one decision: ``before`` are the answers given so far, in turn order."""

    name: str
    title: str
    read: str
    stacks: tuple[int, ...]
    dealer: int
    before: tuple[str, ...] = ()


FULL = 1500
SITUATIONS = (
    Situation(
        "preflop_minimum_raise",
        "Pre-flop, first to act: the smallest raise is the big blind",
        "Nobody has raised: calling costs 10, and a raise must be by at least 10 (to 20).",
        (FULL,) * 6,
        dealer=6,
    ),
    Situation(
        "reraise_minimum",
        "A raise must be at least the previous raise",
        "Seat 3 raised by 30 (to 40): seat 4 calls 40, and a re-raise must be by at least 30 (to 70).",
        (FULL,) * 6,
        dealer=6,
        before=("30",),
    ),
    Situation(
        "flop_minimum_bet",
        "The flop's first bet: at least the big blind",
        "Everyone called pre-flop; on the flop the first bet must be at least 10.",
        (FULL,) * 3,
        dealer=3,
        before=("0", "0", "0"),
    ),
    Situation(
        "turn_minimum_bet",
        "The turn's first bet: at least twice the big blind",
        "On the turn (Fourth_Street) the first bet must be at least 20: a bet of 10 is a fault played as "
        "a check.",
        (FULL,) * 3,
        dealer=3,
        before=("0", "0", "0", "0", "0", "0"),
    ),
    Situation(
        "river_minimum_bet",
        "The river's first bet: at least twice the big blind",
        "On the river (Fifth_Street) the first bet must be at least 20, as on the turn.",
        (FULL,) * 3,
        dealer=3,
        before=("0", "0", "0", "0", "0", "0", "0", "0", "0"),
    ),
    Situation(
        "big_blind_short",
        "The big blind posts only part of 10",
        "Seat 2 has 6 chips and is all-in for its blind: the bet to call is 6 (the larger of the blinds "
        "posted, 5 and 6), and a raise must still be by at least 10 (to 16).",
        (FULL, 6, FULL, FULL),
        dealer=4,
    ),
    Situation(
        "short_all_in_not_a_raise",
        "An all-in for less than a full raise does not reopen the betting",
        "Seat 3 raised by 40 (to 50); seat 4 went all-in for 70, a raise of only 20; seats 1 and 2 folded. "
        "Seat 3 already acted, so it may only call 20 or fold: a raise is played as a call.",
        (FULL, FULL, FULL, 70),
        dealer=4,
        before=("40", "5000", "-10", "-10"),
    ),
    Situation(
        "short_all_in_caller_may_raise",
        "A seat that has not acted yet may raise over a short all-in",
        "Seat 3 raised by 40 (to 50); seat 4 went all-in for 70. Seat 1 has not acted: it may call 70 or "
        "raise by at least 40 (the last full raise) to 110.",
        (FULL, FULL, FULL, 70),
        dealer=4,
        before=("40", "5000"),
    ),
    Situation(
        "side_pots",
        "Two short all-ins: a main pot and a side pot",
        "Seat 2 is all-in for 200 and seat 4 for 600; seats 1 and 3 called 600. The main pot is 800 "
        "(4 x 200, seat 2 can win it), the side pot 1200 (3 x 400: seats 1, 3 and 4); deal.txt's "
        "Main_Pot is all the chips in the middle, 2000. On the flop only seats 1 and 3 can still bet, "
        "into a new side pot.",
        (FULL, 200, FULL, 600),
        dealer=4,
        before=("100", "5000", "0", "5000", "0"),
    ),
    Situation(
        "raising_closed",
        "Nobody left who could call a raise",
        "Seat 3 is all-in for 300 and everyone else folded to seat 2 (the big blind): raising is closed, so "
        "any positive answer is played as a call.",
        (FULL, FULL, 300),
        dealer=3,
        before=("5000", "-10"),
    ),
    Situation(
        "over_stack_raise",
        "A raise larger than the stack is an all-in",
        "Seat 3 has 120 chips: a raise by more than it has is played as its all-in, without a fault.",
        (FULL, FULL, 120),
        dealer=3,
    ),
    Situation(
        "heads_up_blinds",
        "Heads-up, the dealer posts the small blind and acts first",
        "Two seats: seat 1 is the dealer and the small blind (5 in, 5 to call); seat 2 is the big blind.",
        (FULL, FULL),
        dealer=1,
    ),
)


def _deal(situation: Situation) -> Deal:
    """The situation's deal, played up to its decision."""
    deck = shuffled_deck(derive_seed("rules-kit", situation.name))
    rules = TableRules(seats=len(situation.stacks))
    deal = Deal(
        rules=rules, deal_number=DEAL_NUMBER, dealer=situation.dealer, stacks=situation.stacks, deck=deck
    )
    for step, answer in enumerate(situation.before, 1):
        reading = read_answer(answer, deal)
        if reading.fault is not None or deal.actor is None:
            raise ConfigError(f"rules-kit situation {situation.name}: step {step} ({answer!r}) is not clean")
        deal.apply(reading.action)
    if deal.actor is None:
        raise ConfigError(f"rules-kit situation {situation.name}: nobody is to act")
    return deal


def _answers_to_try(deal: Deal) -> list[str]:
    """Fold, call, and the raises around the limits (by how much over the current bet)."""
    answers = [-10, 0]
    if deal.can_raise():
        smallest = deal.min_raise_to() - deal.current_bet
        largest = deal.max_raise_to() - deal.current_bet
        answers += [smallest - 1, smallest, largest, largest + 100]
    else:
        answers.append(10)
    return [str(a) for a in dict.fromkeys(a for a in answers if a == -10 or a >= 0)]


def _verdict(situation: Situation, answer: str) -> dict[str, Any]:
    """What the engine does with ``answer`` at the situation's decision."""
    deal = _deal(situation)
    reading = read_answer(answer, deal)
    taken = next(e for e in deal.apply(reading.action) if isinstance(e, ActionTaken))
    engine = f"{taken.action.value}: puts in {taken.added}, round total {taken.street_total}"
    return {
        "answer": answer,
        "fault": None if reading.fault is None else reading.fault.value,
        "reason": reading.reason or None,
        "engine": engine + (", all-in" if taken.all_in else ""),
    }


def situation_record(situation: Situation) -> tuple[dict[str, str], dict[str, Any]]:
    """The three input files of the situation's decision and its record (legal answers, verdicts)."""
    deal = _deal(situation)
    seat = deal.actor
    assert seat is not None  # _deal refuses a situation where nobody is to act
    files = decision_files(deal, seat, deal_number=DEAL_NUMBER, stacks_before=situation.stacks)
    can_raise = deal.can_raise()
    legal = {
        "to_call": deal.to_call(seat),
        "can_check": deal.can_check(),
        "can_raise": can_raise,
        "min_raise_by": deal.min_raise_to() - deal.current_bet if can_raise else None,
        "all_in_by": deal.max_raise_to() - deal.current_bet if can_raise else None,
    }
    record = {
        "name": situation.name,
        "title": situation.title,
        "read": situation.read,
        "seat": seat,
        "stage": deal.street.value,
        "stacks_before": list(situation.stacks),
        "dealer": situation.dealer,
        "chips_in_middle": deal.pot_total,
        "legal": legal,
        "answers": [_verdict(situation, answer) for answer in _answers_to_try(deal)],
    }
    return files, record


def _readme(number: int, record: dict[str, Any]) -> str:
    legal = record["legal"]
    lines = [
        f"# {number:02d} {record['title']}",
        "",
        record["read"],
        "",
        f"Seat {record['seat']} to act ({record['stage']}); to call: {legal['to_call']}; "
        + (
            f"raise by {legal['min_raise_by']} to {legal['all_in_by']} (all-in)."
            if legal["can_raise"]
            else "raising is closed."
        ),
        "",
        "| outputf.txt | fault | what the engine does |",
        "| --- | --- | --- |",
    ]
    for verdict in record["answers"]:
        fault = verdict["fault"] or "-"
        lines.append(f"| `{verdict['answer']}` | {fault} | {verdict['engine']} |")
    return "\n".join(lines) + "\n"


def write_kit(out: Path) -> list[str]:
    """Write every situation into ``out/NN_name/`` (the three input files, situation.json, README.md) and
    an index ``out/README.md``; return the folder names."""
    if out.exists() and (not out.is_dir() or any(out.iterdir())):
        raise ConfigError(f"{out} exists and is not an empty folder")
    out.mkdir(parents=True, exist_ok=True)
    index = [
        "# arena rules kit",
        "",
        "Each folder is one decision: the three input files a program is given, "
        "situation.json (the legal answers and what the engine does with each) and README.md.",
        "",
    ]
    names = []
    for number, situation in enumerate(SITUATIONS, 1):
        files, record = situation_record(situation)
        name = f"{number:02d}_{situation.name}"
        folder = out / name
        folder.mkdir()
        for filename in (INPUT_FILE, MONEY_FILE, DEAL_FILE):
            (folder / filename).write_text(files[filename])
        (folder / SITUATION_FILE).write_text(json.dumps(record, indent=2) + "\n")
        (folder / README_FILE).write_text(_readme(number, record))
        index.append(f"- `{name}/`: {situation.title}")
        names.append(name)
    (out / README_FILE).write_text("\n".join(index) + "\n")
    return names
