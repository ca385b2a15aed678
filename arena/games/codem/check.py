"""A team tries its program where the tournament will put it: what ``arena check`` reports.

The program plays six-seat tables under the tournament's rules, time limit and fault limit, once in each
of several seats (always seat 1 and seat 6, the others drawn from the seed), against the house bots or
the programs of another folder. The report is what a team can act on: the build output; every fault with
its seat, deal, cards, stacks, the three input files exactly as given and what the program printed; its
decision times and help files against the limits; a verdict by the contest's rules, PASS only when every
seat played clean. :func:`check_program` plays and returns a :class:`CheckReport`; :func:`render_report`
is its text, as ``arena check`` prints it and as ``arena watch`` writes it beside a submission.
"""

from __future__ import annotations

import hashlib
import random
import statistics
from collections.abc import Callable
from dataclasses import dataclass, replace
from enum import StrEnum, unique
from importlib import resources
from pathlib import Path
from typing import Any

from arena import untrusted
from arena.build_errors import first_build_error
from arena.cards import derive_seed
from arena.decks.commitment import commit_tables, start_single_table
from arena.errors import ConfigError
from arena.faults import Fault, stage_text
from arena.games.codem.protocol import DEAL_FILE, INPUT_FILE, MONEY_FILE, help_files_left
from arena.games.codem.results import TableResult, TeamResult
from arena.games.codem.table import PlayerSpec, TableConfig, run_table
from arena.languages import language_for
from arena.languages.filenames import name_problem
from arena.sandbox import Limits

HOUSE_BOTS = ("Tight.c", "Raiser.cpp", "Bluffer.pl", "Caller.py", "Tracker.rb", "Learner.py")
"""Five of them sit at every check table (Learner only when the program checked is one of the others)."""
SEATS = 6
FIXED_SEATS = (1, SEATS)
CHECK = "check"


def seats_to_try(count: int, seed: int) -> list[int]:
    """Seat 1, seat 6 and ``count - 2`` of the seats between, drawn from the seed; in seat order."""
    if not len(FIXED_SEATS) <= count <= SEATS:
        raise ConfigError(f"--seats must be between {len(FIXED_SEATS)} and {SEATS}, got {count}")
    middle = [seat for seat in range(1, SEATS + 1) if seat not in FIXED_SEATS]
    drawn = random.Random(derive_seed(seed, "check seats")).sample(middle, count - len(FIXED_SEATS))
    return sorted([*FIXED_SEATS, *drawn])


def house_bots(folder: Path) -> list[Path]:
    """The house bots, shipped inside the package (importlib.resources), written into ``folder``."""
    shipped = resources.files("arena.games.codem").joinpath("house_bots")
    folder.mkdir(parents=True, exist_ok=True)
    bots = []
    for name in HOUSE_BOTS:
        bot = shipped.joinpath(name)
        if not bot.is_file():
            raise ConfigError(f"the house bot {name} is missing from this installation of arena")
        (folder / name).write_bytes(bot.read_bytes())
        bots.append(folder / name)
    return bots


def opponents(program: Path, against: Path | None, scratch: Path) -> list[PlayerSpec]:
    """Five opponents: the programs of ``against`` first (in name order), then house bots."""
    chosen: list[Path] = []
    if against is not None:
        if not against.is_dir():
            raise ConfigError(f"--against {against} is not a folder of programs")
        for path in sorted(against.iterdir()):
            taken = {p.stem for p in chosen} | {program.stem}
            if name_problem(path) is None and path.stem not in taken and len(chosen) < SEATS - 1:
                chosen.append(path)
        if not chosen:
            raise ConfigError(
                f"--against {against} holds no program to play against (<TeamId>.<ext>, "
                "named as docs/protocol.md says, other than the one checked)"
            )
    for bot in house_bots(scratch / "house"):
        if len(chosen) < SEATS - 1 and bot.stem not in {p.stem for p in chosen} | {program.stem}:
            chosen.append(bot)
    return [PlayerSpec(team=path.stem, program=path) for path in chosen]


@unique
class Verdict(StrEnum):
    """Whether the program would survive the contest."""

    PASS = "pass"
    FAIL = "fail"


@dataclass(frozen=True)
class SeatOutcome:
    """How the program did in one seat."""

    seat: int
    deals_played: int
    final_stack: int
    profit: int
    faults: int
    disqualified: bool
    decisions: int
    timing: dict[str, float]
    help_files: int

    @property
    def clean(self) -> bool:
        """Played without a fault."""
        return self.faults == 0 and not self.disqualified


@dataclass(frozen=True)
class CheckReport:
    """What ``arena check`` found: the build, each seat, the times, the help files, the faults, a verdict."""

    program: str
    team: str
    language: str
    isolation: str
    opponents: tuple[str, ...]
    rules: dict[str, Any]
    deals_per_seat: int
    seats: tuple[SeatOutcome, ...]
    built: bool
    build_output: str
    timing: dict[str, float]
    help_files: tuple[str, ...]
    help_limit: int
    faults: tuple[Fault, ...]
    reasons: tuple[str, ...]
    decks: str = ""
    """Where the cards came from: the committed secret key, or the warning that goes with a known seed."""

    @property
    def verdict(self) -> Verdict:
        """Pass when no reason to fail was found."""
        return Verdict.FAIL if self.reasons else Verdict.PASS

    @property
    def first_error(self) -> str:
        """The compiler's first error, with its file and line (``""`` when the program built)."""
        return "" if self.built else first_build_error(self.build_output)

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready form (``arena check --json``)."""
        return {
            "program": self.program,
            "team": self.team,
            "language": self.language,
            "isolation": self.isolation,
            "opponents": list(self.opponents),
            "rules": self.rules,
            "seats_tried": [s.seat for s in self.seats],
            "deals_per_seat": self.deals_per_seat,
            "seats": [{**vars(s), "clean": s.clean} for s in self.seats] if self.built else [],
            "deals_played": sum(s.deals_played for s in self.seats) if self.built else 0,
            "decks": self.decks,
            "build": {"ok": self.built, "first_error": self.first_error, "output": self.build_output},
            "decisions": sum(s.decisions for s in self.seats),
            "timing": self.timing if self.built else None,
            "help_files": {
                "used": len(self.help_files),
                "limit": self.help_limit,
                "names": list(self.help_files),
            },
            "faults": [{**f.to_dict(), "deal_txt": f.inputs.get(DEAL_FILE, "")} for f in self.faults],
            "profit": sum(s.profit for s in self.seats) if self.built else None,
            "disqualified": any(s.disqualified for s in self.seats),
            "verdict": self.verdict.value,
            "reasons": list(self.reasons),
        }


def check_program(
    program: Path,
    config: TableConfig,
    *,
    seats: int,
    out: Path,
    against: Path | None = None,
    seed: int | None = None,
    deck_key: Path | None = None,
    on_start: Callable[[list[int], list[str]], None] | None = None,
    on_deal: Callable[[int], None] | None = None,
) -> CheckReport:
    """Play the program in each seat tried (tables in ``out/seat<N>/``) and report on it.

    The decks come from a fresh secret key (or the one in ``deck_key``) committed in ``out/commitment.json``,
    as at a tournament; every seat's table deals the same cards. ``seed`` deals from a known seed instead
    (and draws the seats tried; without it they are drawn from the key). ``on_start`` hears the seats and
    the opponents before play; ``on_deal`` the deals played in all.
    """
    if not program.is_file():
        raise ConfigError(f"{program}: no such program file")
    problem = name_problem(program)
    if problem is not None:
        raise ConfigError(f"{program.name}: the tournament would not play this file: {problem}")
    language = language_for(program)
    decks = start_single_table(out, CHECK, key_file=deck_key, seed=seed, tables=())
    secret = decks.secret(CHECK)
    draw = seed if seed is not None else int.from_bytes(hashlib.sha256(secret or b"").digest()[:8], "big")
    tried = seats_to_try(seats, draw)
    commit_tables(out, decks, [f"seat{seat}" for seat in tried])  # before the first card, as always
    rivals = opponents(program, against, out)
    fixed = {"build_cache": out / "builds", "seed": seed or 0, "table_secret": secret}
    config = TableConfig(**{**dict(config), **fixed})
    if on_start is not None:
        on_start(tried, [p.team for p in rivals])
    results: dict[int, TableResult] = {}
    for done, seat in enumerate(tried):
        players = [*rivals[: seat - 1], PlayerSpec(program.stem, program), *rivals[seat - 1 :]]
        base = done * config.deals
        results[seat] = run_table(players, out / f"seat{seat}", config, on_deal=_offset(on_deal, base))
        if not _team(results[seat], program.stem).built:
            break  # the same build fails in every seat
    return replace(_report(program, language.name, config, results, rivals, out), decks=decks.describe())


def _offset(on_deal: Callable[[int], None] | None, base: int) -> Callable[[int], None] | None:
    """``on_deal`` counting from ``base`` (the deals of the seats played before), or None."""
    if on_deal is None:
        return None
    callback = on_deal
    return lambda number: callback(base + number)


def _team(result: TableResult, team: str) -> TeamResult:
    return next(t for t in result.teams if t.team == team)


def _report(
    program: Path,
    language: str,
    config: TableConfig,
    results: dict[int, TableResult],
    rivals: list[PlayerSpec],
    out: Path,
) -> CheckReport:
    teams = {seat: _team(result, program.stem) for seat, result in results.items()}
    first = next(iter(teams.values()))
    helps = {
        seat: help_files_left(out / f"seat{seat}" / "teams" / program.stem, program.name) for seat in teams
    }
    most_helps = max(helps.values(), key=len)
    measured = [t.timing for t in teams.values() if t.decisions]
    timing = {
        "median_ms": statistics.median(t["median_ms"] for t in measured) if measured else 0.0,
        "p99_ms": max((t["p99_ms"] for t in measured), default=0.0),
        "max_ms": max((t["max_ms"] for t in measured), default=0.0),
        "limit_ms": config.time_limit_s * 1000,
        "allowance_ms": float(first.timing.get("allowance_ms", 0.0)),
    }
    outcomes = tuple(
        SeatOutcome(
            seat=seat,
            deals_played=results[seat].deals_played,
            final_stack=team.final_stack,
            profit=team.profit,
            faults=len(team.faults),
            disqualified=team.disqualified,
            decisions=team.decisions,
            timing=team.timing,
            help_files=len(helps[seat]),
        )
        for seat, team in teams.items()
    )
    limits = Limits()
    limit_ms = timing["limit_ms"] + timing["allowance_ms"]
    return CheckReport(
        program=str(program),
        team=program.stem,
        language=language,
        isolation=next(iter(results.values())).isolation,
        opponents=tuple(p.team for p in rivals),
        rules={
            "seats": SEATS,
            "small_blind": config.rules.small_blind,
            "big_blind": config.rules.big_blind,
            "stack": config.rules.starting_stack,
            "time_limit_s": config.time_limit_s,
            "max_faults": config.max_faults,
        },
        deals_per_seat=config.deals,
        seats=outcomes,
        built=first.built,
        build_output=first.build_output,
        timing=timing,
        help_files=tuple(most_helps),
        help_limit=limits.help_files,
        faults=tuple(fault for team in teams.values() for fault in team.faults),
        reasons=tuple(_verdict_reasons(teams, len(most_helps), limits.help_files, limit_ms)),
    )


def _verdict_reasons(
    teams: dict[int, TeamResult], help_files: int, help_limit: int, limit_ms: float
) -> list[str]:
    """Why the program would not survive the contest (empty when it would), seat by seat."""
    if not all(team.built for team in teams.values()):
        return ["the program does not build"]
    reasons = []
    for seat, team in teams.items():
        if team.disqualified:
            reasons.append(f"seat {seat}: disqualified from the table after {len(team.faults)} faults")
        elif team.faults:
            kinds = sorted({fault.kind.value for fault in team.faults})
            reasons.append(f"seat {seat}: {len(team.faults)} fault(s): {', '.join(kinds)}")
        if team.timing["max_ms"] > limit_ms:
            took = team.timing["max_ms"]
            reasons.append(f"seat {seat}: a decision took {took:.0f} ms, over the {limit_ms:.0f} ms limit")
    if help_files > help_limit:
        reasons.append(f"{help_files} help files kept, the limit is {help_limit}")
    return reasons


def render_report(report: CheckReport, *, replay_from: Path | None = None) -> str:
    """The report as a team reads it (plain text); with ``replay_from``, each fault's replay command."""
    lines = [f"── arena check {report.program} ({report.language}, sandbox: {report.isolation}) ──"]
    if report.decks:
        lines.append(report.decks)
    lines.append(f"build: {'ok' if report.built else 'failed'}")
    if not report.built:
        return _unbuilt_report(report, lines)
    if report.build_output.strip():
        lines.append(report.build_output.rstrip())
    rules = report.rules
    seats = ", ".join(str(s.seat) for s in report.seats)
    lines.append(
        f"tables: {rules['seats']} seats, blinds {rules['small_blind']}/{rules['big_blind']}, stacks "
        f"{rules['stack']}, disqualified after {rules['max_faults']} faults; "
        f"{report.deals_per_seat} deals in each of seats {seats} against {', '.join(report.opponents)}"
    )
    for seat in report.seats:
        state = "clean" if seat.clean else "disqualified" if seat.disqualified else f"{seat.faults} fault(s)"
        lines.append(
            f"  seat {seat.seat}: {seat.deals_played} deals, profit {seat.profit:+d}, "
            f"{seat.decisions} decisions, {state}"
        )
    timing = report.timing
    allowance = (
        f" + {timing['allowance_ms']:.0f} ms {report.language} start-up allowance"
        if timing["allowance_ms"] >= 1
        else ""
    )
    lines.append(
        f"decision time over {sum(s.decisions for s in report.seats)} decisions (wall clock): median "
        f"{timing['median_ms']:.1f} ms, p99 {timing['p99_ms']:.1f} ms, max {timing['max_ms']:.1f} ms "
        f"(limit {timing['limit_ms']:.0f} ms{allowance}) of CPU time; the time rules: docs/protocol.md, Time"
    )
    names = f" ({untrusted.listing(report.help_files, shown=20)})" if report.help_files else ""
    lines.append(f"help files: {len(report.help_files)} of {report.help_limit} allowed{names}")
    lines.append(f"faults: {len(report.faults)}")
    for number, fault in enumerate(report.faults, 1):
        lines.extend(["", *_fault_lines(number, fault, report.team, replay_from)])
    lines.append("")
    lines.append(f"verdict: {report.verdict.value.upper()}")
    lines.extend(f"  - {reason}" for reason in report.reasons)
    return untrusted.printable("\n".join(lines) + "\n")


def _unbuilt_report(report: CheckReport, lines: list[str]) -> str:
    """A program that never built: its first error, the compiler's whole output, no play figures."""
    if report.first_error:
        lines += ["first error:", *(f"  {line}" for line in report.first_error.splitlines())]
    if report.build_output.strip():
        lines += ["", "the build's whole output:", report.build_output.rstrip()]
    lines += ["", "no table was played: a program that does not build sits out every deal", ""]
    lines.append(f"verdict: {report.verdict.value.upper()}")
    lines.extend(f"  - {reason}" for reason in report.reasons)
    return untrusted.printable("\n".join(lines) + "\n")


def _fault_lines(number: int, fault: Fault, team: str, replay_from: Path | None) -> list[str]:
    """One fault: where, what, the files it was given and what it printed (the compiler's output is above)."""
    if fault.stage == "build":
        return [f"fault {number}: {fault.kind.value}: {fault.reason}"]
    lines = [
        f"fault {number}: seat {fault.seat}, deal {fault.deal}, {stage_text(fault.stage)}, "
        f"decision {fault.decision}: "
        f"{fault.kind.value}: {fault.reason}",
        f"your cards {fault.cards}; stacks before the deal {', '.join(map(str, fault.stacks))}",
    ]
    for name in (INPUT_FILE, MONEY_FILE, DEAL_FILE):
        if fault.inputs.get(name):
            lines += [f"{name} it was given:", fault.inputs[name].rstrip()]
    for stream, text in (("stdout", fault.stdout), ("stderr", fault.stderr)):
        if text.strip():
            lines += [f"what it printed ({stream}):", text.rstrip()]
    if replay_from is not None:
        lines.append(
            f"rerun it: arena replay {replay_from} --table seat{fault.seat} --deal {fault.deal} "
            f"--team {team} --decision {fault.decision}"
        )
    return lines
