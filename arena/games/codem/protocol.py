"""Code'em's file protocol: the three input files of a decision, and ``outputf.txt`` read as an action.

No rules live here: legality comes from the engine's queries. The readings of answers the
Code'em statement leaves open
(over-stack raise, under-minimum raise, raise when raising is closed) are documented in docs/protocol.md.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from arena import untrusted
from arena.engines.nlhe.actions import Action, CheckCall, Fold, RaiseTo
from arena.engines.nlhe.deal import Deal
from arena.faults import FaultKind
from arena.games.codem.deal_file import render_deal_file
from arena.games.codem.inputs import render_deals_money, render_inputf

FOLD_ANSWER = -10
INPUT_FILE = "inputf.txt"
MONEY_FILE = "deals_money.txt"
DEAL_FILE = "deal.txt"
OUTPUT_FILE = "outputf.txt"
PROTOCOL_FILES = (INPUT_FILE, MONEY_FILE, DEAL_FILE, OUTPUT_FILE)
_INTEGER = re.compile(r"[+-]?\d{1,18}")


def decision_files(
    deal: Deal,
    seat: int,
    *,
    deal_number: int,
    stacks_before: Sequence[int],
    deal_text: str | None = None,
    deals_money: str | None = None,
) -> dict[str, str]:
    """The three input files for ``seat`` at the deal's current point (or after it ended).

    ``deal_text`` is the deal's ``deal.txt`` when the caller already rendered it (it is the same for
    every seat, e.g. the final file given to each program after a showdown); ``deals_money`` likewise its
    ``deals_money.txt`` (the same all through the deal).
    """
    if deal_text is None:
        deal_text = render_deal_file(deal.events, seats=len(stacks_before))
    if deals_money is None:
        deals_money = render_deals_money(deal_number, stacks_before)
    return {
        INPUT_FILE: render_inputf(deal.hole_cards(seat), seat=seat, spent=deal.deal_total(seat)),
        MONEY_FILE: deals_money,
        DEAL_FILE: deal_text,
    }


def default_action(deal: Deal) -> Action:
    """The documented fallback for any fault: check when checking is free, else fold."""
    return CheckCall() if deal.can_check() else Fold()


@dataclass(frozen=True)
class Reading:
    """An answer read as an action; ``fault`` is set (with a reason) when the answer was not acceptable."""

    action: Action
    fault: FaultKind | None = None
    reason: str = ""


def read_answer(text: str | None, deal: Deal, size: int | None = None) -> Reading:
    """Turn the first line of ``outputf.txt`` into an action for the deal's current actor.

    ``size`` is the file's whole size, when known: a file with no answer in the part read (``text``, up to
    the output cap) is named for what it is, not called empty.
    """
    if text is None or not text.strip():
        read = len(text.encode()) if text is not None else 0
        if size is not None and size > read:
            reason = f"outputf.txt holds {size:,} bytes with no answer in the first {read:,}"
        elif text:
            reason = "outputf.txt holds only blanks"
        else:
            reason = "outputf.txt was empty or missing"
        return Reading(default_action(deal), FaultKind.NO_ANSWER, reason)
    first = text.strip().splitlines()[0].strip()
    if not _INTEGER.fullmatch(first):
        shown = first if len(first) <= 40 else first[:40] + "..."
        return Reading(default_action(deal), FaultKind.NOT_AN_INTEGER, f"answer {shown!r} is not an integer")
    value = int(first)
    if value == 0:
        return Reading(CheckCall())
    if value == FOLD_ANSWER:
        return Reading(Fold())
    if value < 0:
        return Reading(
            default_action(deal),
            FaultKind.INVALID_ANSWER,
            f"answer {value} is negative but not -10 (fold)",
        )
    if not deal.can_raise():
        return Reading(CheckCall())
    target = deal.current_bet + value
    if target >= deal.max_raise_to():
        return Reading(RaiseTo(deal.max_raise_to()))
    if target < deal.min_raise_to():
        minimum = deal.min_raise_to() - deal.current_bet
        return Reading(
            CheckCall(),
            FaultKind.RAISE_BELOW_MINIMUM,
            f"raise by {value} is below the minimum raise of {minimum}; played as a call",
        )
    return Reading(RaiseTo(target))


def help_files_left(folder: Path, program_name: str) -> list[str]:
    """The help files a program left in its team folder: everything but the protocol files and its build
    (folders count, ``name/``, as at the table), names escaped as a program chose them.

    A build is the source ``<TeamId>.<ext>``, the executable ``<TeamId>`` and, for Java, the classes at
    the top of the folder. Links are listed, never followed.
    """
    if not folder.is_dir():
        return []
    stem = program_name.rsplit(".", 1)[0]
    java = program_name.endswith(".java")
    kept = []
    for path in sorted(folder.rglob("*")):
        name = path.relative_to(folder).as_posix()
        if name in PROTOCOL_FILES or name in (program_name, stem):
            continue
        if java and path.parent == folder and path.suffix == ".class":
            continue
        folder_mark = "/" if path.is_dir() and not path.is_symlink() else ""
        kept.append(untrusted.name(name + folder_mark))
    return kept
