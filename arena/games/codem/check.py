"""A team tries its program at a sandboxed Code'em table against house bots: what ``arena check`` reports.

The report is what a team can act on: the build output; every fault with the exact ``deal.txt`` the
program was given and what it printed; its decision times against the limit; its help files against the
limit; a verdict by the contest's rules. :func:`check_program` plays the table and returns a
:class:`CheckReport`; :func:`render_report` is its text, as ``arena check`` prints it and as ``arena watch``
writes it beside a submission.
"""

from __future__ import annotations

import json
from collections import defaultdict
from collections.abc import Callable
from dataclasses import dataclass
from enum import StrEnum, unique
from pathlib import Path
from typing import Any

from arena import untrusted
from arena.decks.commitment import start_single_table
from arena.engines.nlhe.events import ActionTaken, Event, Street, StreetStarted, event_from_dict
from arena.errors import ConfigError
from arena.faults import Fault
from arena.games.codem.deal_file import render_deal_file
from arena.games.codem.protocol import PROTOCOL_FILES
from arena.games.codem.results import TeamResult
from arena.games.codem.table import PlayerSpec, TableConfig, run_table
from arena.languages import language_for
from arena.sandbox import Limits

HOUSE_BOTS = ("Tight.c", "Raiser.cpp", "Bluffer.pl")
CHECK = "check"
BOTS_DIR = Path(__file__).resolve().parents[3] / "bots" / "codem"


def house_players(program: Path) -> list[PlayerSpec]:
    """The checked program in seat 1 and the house bots after it (never one of the same name)."""
    if not BOTS_DIR.is_dir():
        raise ConfigError(f"the house bots are missing: {BOTS_DIR} does not exist")
    bots = [BOTS_DIR / name for name in HOUSE_BOTS if Path(name).stem != program.stem]
    return [PlayerSpec(team=program.stem, program=program)] + [
        PlayerSpec(team=bot.stem, program=bot) for bot in bots
    ]


@unique
class Verdict(StrEnum):
    """Whether the program would survive the contest."""

    PASS = "pass"
    FAIL = "fail"


@dataclass(frozen=True)
class CheckedFault:
    """A fault, with the ``deal.txt`` the program was given at that decision (empty when unknown)."""

    fault: Fault
    deal_txt: str


@dataclass(frozen=True)
class CheckReport:
    """What ``arena check`` found: the build, the table, the times, the help files, the faults, a verdict."""

    program: str
    team: str
    language: str
    isolation: str
    opponents: tuple[str, ...]
    deals_played: int
    built: bool
    build_output: str
    decisions: int
    timing: dict[str, float]
    limit_ms: float
    help_files: tuple[str, ...]
    help_limit: int
    faults: tuple[CheckedFault, ...]
    final_stack: int
    profit: int
    disqualified: bool
    reasons: tuple[str, ...]
    decks: str = ""
    """Where the cards came from: the committed secret key, or the warning that goes with a known seed."""

    @property
    def verdict(self) -> Verdict:
        """Pass when no reason to fail was found."""
        return Verdict.FAIL if self.reasons else Verdict.PASS

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready form (``arena check --json``)."""
        return {
            "program": self.program,
            "team": self.team,
            "language": self.language,
            "isolation": self.isolation,
            "opponents": list(self.opponents),
            "deals_played": self.deals_played,
            "decks": self.decks,
            "build": {"ok": self.built, "output": self.build_output},
            "decisions": self.decisions,
            "timing": {**self.timing, "limit_ms": self.limit_ms},
            "help_files": {
                "used": len(self.help_files),
                "limit": self.help_limit,
                "names": list(self.help_files),
            },
            "faults": [{**f.fault.to_dict(), "deal_txt": f.deal_txt} for f in self.faults],
            "final_stack": self.final_stack,
            "profit": self.profit,
            "disqualified": self.disqualified,
            "verdict": self.verdict.value,
            "reasons": list(self.reasons),
        }


def check_program(
    program: Path,
    *,
    deals: int,
    seed: int | None,
    time_limit_s: float,
    out: Path,
    on_deal: Callable[[int], None] | None = None,
    deck_key: Path | None = None,
) -> CheckReport:
    """Play the program at a table of house bots in ``out`` and report on it.

    The decks come from a fresh secret key (or the one in ``deck_key``) committed in
    ``out/commitment.json``, as at a tournament; ``seed`` deals from a known seed instead.
    """
    if not program.is_file():
        raise ConfigError(f"{program}: no such program file")
    language = language_for(program)
    if deals < 1:
        raise ConfigError(f"--deals must be at least 1, got {deals}")
    players = house_players(program)
    decks = start_single_table(out, CHECK, key_file=deck_key, seed=seed)
    secret = decks.secret(CHECK)
    config = TableConfig(deals=deals, seed=seed or 0, table_secret=secret, time_limit_s=time_limit_s)
    result = run_table(players, out, config, on_deal=on_deal)
    team = next(t for t in result.teams if t.team == program.stem)
    events = _events_by_deal(out / "events.jsonl")
    limits = Limits()
    help_files = _help_files(out / "teams" / team.team, program, language.name)
    return CheckReport(
        program=str(program),
        team=team.team,
        language=language.name,
        isolation=result.isolation,
        opponents=tuple(p.team for p in players[1:]),
        deals_played=result.deals_played,
        built=team.built,
        build_output=team.build_output,
        decisions=team.decisions,
        timing=team.timing,
        limit_ms=time_limit_s * 1000,
        help_files=tuple(help_files),
        help_limit=limits.help_files,
        faults=tuple(_with_deal_files(team, events, seats=len(players))),
        final_stack=team.final_stack,
        profit=team.profit,
        disqualified=team.disqualified,
        reasons=tuple(_verdict_reasons(team, help_files, limits.help_files, time_limit_s)),
        decks=decks.describe(),
    )


def _verdict_reasons(team: TeamResult, help_files: list[str], help_limit: int, limit_s: float) -> list[str]:
    """Why the program would not survive the contest (empty when it would)."""
    reasons = []
    if not team.built:
        reasons.append("the program does not build")
    if team.disqualified:
        reasons.append(f"disqualified from the table after {len(team.faults)} faults")
    elif team.faults:
        kinds = sorted({fault.kind.value for fault in team.faults})
        reasons.append(f"{len(team.faults)} fault(s): {', '.join(kinds)}")
    if team.built and team.timing["max_ms"] > limit_s * 1000:
        reasons.append(f"a decision took {team.timing['max_ms']:.0f} ms, over the {limit_s:g} s limit")
    if len(help_files) > help_limit:
        reasons.append(f"{len(help_files)} help files kept, the limit is {help_limit}")
    return reasons


def _events_by_deal(path: Path) -> dict[int, list[Event]]:
    if not path.exists():
        return {}
    deals = {}
    for line in path.read_text().splitlines():
        record = json.loads(line)
        deals[record["deal"]] = [event_from_dict(event) for event in record["events"]]
    return deals


def _with_deal_files(team: TeamResult, events: dict[int, list[Event]], *, seats: int) -> list[CheckedFault]:
    """Each fault with the ``deal.txt`` as the program saw it at that decision (rebuilt from the events).

    Faults of one deal and stage are matched, in order, to the team's decisions in that stage.
    """
    seen: dict[tuple[int, str], int] = defaultdict(int)
    paired: list[CheckedFault] = []
    for fault in team.faults:
        deal_events = events.get(fault.deal)
        if not deal_events:
            paired.append(CheckedFault(fault, ""))
            continue
        if fault.stage == Street.SHOWDOWN.value:
            paired.append(CheckedFault(fault, render_deal_file(deal_events, seats=seats)))
            continue
        points = _decision_points(deal_events, team.seat, fault.stage)
        index = seen[(fault.deal, fault.stage)]
        seen[(fault.deal, fault.stage)] += 1
        cut = points[min(index, len(points) - 1)] if points else len(deal_events)
        paired.append(CheckedFault(fault, render_deal_file(deal_events[:cut], seats=seats)))
    return paired


def _decision_points(events: list[Event], seat: int, stage: str) -> list[int]:
    """Indexes of the seat's actions in one street: the events before each are what it was shown."""
    street = ""
    points = []
    for index, event in enumerate(events):
        if isinstance(event, StreetStarted):
            street = event.street.value
        elif isinstance(event, ActionTaken) and event.seat == seat and street == stage:
            points.append(index)
    return points


def _help_files(folder: Path, program: Path, language: str) -> list[str]:
    """What the program kept in its folder besides the protocol files and its build (folders count, as
    at the table); names escaped, as a program chose them."""
    if not folder.is_dir():
        return []
    build = {program.name, program.stem}
    kept = []
    for path in sorted(folder.rglob("*")):
        name = path.relative_to(folder).as_posix()
        if name in PROTOCOL_FILES or name in build:
            continue
        if language == "java" and path.parent == folder and path.suffix == ".class":
            continue
        kept.append(untrusted.name(name + "/" if path.is_dir() else name))
    return kept


def render_report(report: CheckReport) -> str:
    """The report as a team reads it: plain text, every control character escaped (a program's stderr,
    answers and file names reach a terminal as visible ``\\x1b``, never as escape sequences)."""
    lines = [f"── arena check {report.program} ({report.language}, sandbox: {report.isolation}) ──"]
    lines.append(f"build: {'ok' if report.built else 'failed'}")
    if report.build_output.strip():
        lines.append(report.build_output.rstrip())
    lines.append(
        f"table: {report.deals_played} deals against {', '.join(report.opponents)}; "
        f"final stack {report.final_stack} ({report.profit:+d})"
    )
    if report.decks:
        lines.append(report.decks)
    timing = report.timing
    lines.append(
        f"decision time over {report.decisions} decisions: median {timing['median_ms']:.1f} ms, "
        f"p99 {timing['p99_ms']:.1f} ms, max {timing['max_ms']:.1f} ms (limit {report.limit_ms:.0f} ms)"
    )
    names = f" ({untrusted.listing(report.help_files, shown=20)})" if report.help_files else ""
    lines.append(f"help files: {len(report.help_files)} of {report.help_limit} allowed{names}")
    lines.append(f"faults: {len(report.faults)}")
    for number, checked in enumerate(report.faults, 1):
        fault = checked.fault
        lines.append("")
        lines.append(f"fault {number}: deal {fault.deal}, {fault.stage}: {fault.kind.value}: {fault.reason}")
        if checked.deal_txt:
            lines.append("deal.txt it was given:")
            lines.append(checked.deal_txt.rstrip())
        if fault.stderr:
            lines.append("what it printed (stderr):")
            lines.append(fault.stderr.rstrip())
    lines.append("")
    lines.append(f"verdict: {report.verdict.value.upper()}")
    lines.extend(f"  - {reason}" for reason in report.reasons)
    return untrusted.printable("\n".join(lines) + "\n")
