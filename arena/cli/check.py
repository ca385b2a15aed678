"""``arena check PROGRAM``: a team tries its program at a sandboxed table against house bots.

The report is what a team can act on: the build output; every fault with the exact ``deal.txt`` the
program was given and what it printed; its decision times against the limit; its help files against the
limit; a verdict by the contest's rules. Exit code 0 on pass, 1 on fail.
"""

from __future__ import annotations

import argparse
import json
import tempfile
from collections import defaultdict
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.markup import escape
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn

from arena import untrusted
from arena.engines.nlhe.events import ActionTaken, Event, Street, StreetStarted, event_from_dict
from arena.errors import ConfigError
from arena.faults import Fault
from arena.games.codem.deal_file import render_deal_file
from arena.games.codem.protocol import PROTOCOL_FILES
from arena.games.codem.table import PlayerSpec, TableConfig, TeamResult, run_table
from arena.languages import language_for
from arena.sandbox import Limits

HOUSE_BOTS = ("Tight.c", "Raiser.cpp", "Bluffer.pl")
BOTS_DIR = Path(__file__).resolve().parents[2] / "bots" / "codem"


def register(subparsers: argparse._SubParsersAction) -> None:
    """Add the ``check`` sub-command."""
    parser = subparsers.add_parser(
        "check",
        help="try a team program at a sandboxed table against house bots and report what to fix",
        description="Build PROGRAM (<TeamId>.<ext>) in the sandbox, play it at a Code'em table against "
        f"house bots ({', '.join(HOUSE_BOTS)} from bots/codem/), and report its build output, every fault "
        "with the deal.txt it was given, its decision times and help files against the limits, and a "
        "verdict. Exit code 0 on pass, 1 on fail.",
    )
    parser.add_argument("program", type=Path, metavar="PROGRAM", help="the team program to check")
    parser.add_argument("--deals", type=int, default=50, metavar="N", help="deals to play (default 50)")
    parser.add_argument("--seed", type=int, default=0, metavar="S", help="seed fixing every deck (default 0)")
    parser.add_argument(
        "--time-limit", type=float, default=1.0, metavar="T", help="wall seconds per decision (default 1.0)"
    )
    parser.add_argument("--out", type=Path, metavar="DIR", help="keep the table's files in DIR")
    parser.add_argument("--json", action="store_true", help="print the report as JSON")
    parser.set_defaults(handler=run)


def house_players(program: Path) -> list[PlayerSpec]:
    """The checked program in seat 1 and the house bots after it (never one of the same name)."""
    if not BOTS_DIR.is_dir():
        raise ConfigError(f"the house bots are missing: {BOTS_DIR} does not exist")
    bots = [BOTS_DIR / name for name in HOUSE_BOTS if Path(name).stem != program.stem]
    return [PlayerSpec(team=program.stem, program=program)] + [
        PlayerSpec(team=bot.stem, program=bot) for bot in bots
    ]


def check_program(
    program: Path, *, deals: int, seed: int, time_limit_s: float, out: Path, console: Console | None = None
) -> dict[str, Any]:
    """Play the table and build the report (a JSON-ready dict)."""
    if not program.is_file():
        raise ConfigError(f"{program}: no such program file")
    language = language_for(program)
    if deals < 1:
        raise ConfigError(f"--deals must be at least 1, got {deals}")
    players = house_players(program)
    config = TableConfig(deals=deals, seed=seed, time_limit_s=time_limit_s)
    with Progress(
        TextColumn("[bold]check"),
        BarColumn(),
        MofNCompleteColumn(),
        TextColumn("deals"),
        console=console,
        transient=True,
        disable=console is None,
    ) as progress:
        task = progress.add_task("deals", total=deals)
        result = run_table(players, out, config, on_deal=lambda n: progress.update(task, completed=n))
    team = next(t for t in result.teams if t.team == program.stem)
    events = _events_by_deal(out / "events.jsonl")
    limits = Limits()
    help_files = _help_files(out / "teams" / team.team, program, language.name)
    faults = [
        {**fault.to_dict(), "deal_txt": deal_txt}
        for fault, deal_txt in _with_deal_files(team, events, seats=len(players))
    ]
    reasons = _verdict_reasons(team, help_files, limits.help_files, time_limit_s)
    return {
        "program": str(program),
        "team": team.team,
        "language": language.name,
        "isolation": result.isolation,
        "opponents": [p.team for p in players[1:]],
        "deals_played": result.deals_played,
        "build": {"ok": team.built, "output": team.build_output},
        "decisions": team.decisions,
        "timing": {**team.timing, "limit_ms": time_limit_s * 1000},
        "help_files": {"used": len(help_files), "limit": limits.help_files, "names": help_files},
        "faults": faults,
        "final_stack": team.final_stack,
        "profit": team.profit,
        "disqualified": team.disqualified,
        "verdict": "pass" if not reasons else "fail",
        "reasons": reasons,
    }


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


def _with_deal_files(
    team: TeamResult, events: dict[int, list[Event]], *, seats: int
) -> list[tuple[Fault, str]]:
    """Each fault with the ``deal.txt`` as the program saw it at that decision (rebuilt from the events).

    Faults of one deal and stage are matched, in order, to the team's decisions in that stage.
    """
    seen: dict[tuple[int, str], int] = defaultdict(int)
    paired = []
    for fault in team.faults:
        deal_events = events.get(fault.deal)
        if not deal_events:
            paired.append((fault, ""))
            continue
        if fault.stage == Street.SHOWDOWN.value:
            paired.append((fault, render_deal_file(deal_events, seats=seats)))
            continue
        points = _decision_points(deal_events, team.seat, fault.stage)
        index = seen[(fault.deal, fault.stage)]
        seen[(fault.deal, fault.stage)] += 1
        cut = points[min(index, len(points) - 1)] if points else len(deal_events)
        paired.append((fault, render_deal_file(deal_events[:cut], seats=seats)))
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


def run(args: argparse.Namespace) -> int:
    """Print the report; 0 on pass, 1 on fail."""
    console = Console(stderr=args.json)
    if args.out is not None:
        report = check_program(
            args.program,
            deals=args.deals,
            seed=args.seed,
            time_limit_s=args.time_limit,
            out=args.out,
            console=console,
        )
    else:
        with tempfile.TemporaryDirectory(prefix="arena-check-") as folder:
            report = check_program(
                args.program,
                deals=args.deals,
                seed=args.seed,
                time_limit_s=args.time_limit,
                out=Path(folder),
                console=console,
            )
    if args.json:
        print(json.dumps(report, indent=2))
    else:
        print_report(console, report)
    return 0 if report["verdict"] == "pass" else 1


def _shown(text: object) -> str:
    """Text a program controls, for rich markup: control characters escaped, markup escaped."""
    return escape(untrusted.printable(str(text)))


def print_report(console: Console, report: dict[str, Any]) -> None:
    """The report as a team reads it; everything the program controls is shown escaped."""
    console.rule(
        f"arena check {_shown(report['program'])} ({report['language']}, sandbox: {report['isolation']})"
    )
    build = report["build"]
    console.print(f"[bold]build[/bold]: {'ok' if build['ok'] else '[red]failed[/red]'}")
    if build["output"].strip():
        console.print(untrusted.printable(build["output"].rstrip()), markup=False, highlight=False)
    console.print(
        f"[bold]table[/bold]: {report['deals_played']} deals against {', '.join(report['opponents'])}; "
        f"final stack {report['final_stack']} ({report['profit']:+d})"
    )
    timing = report["timing"]
    console.print(
        f"[bold]decision time[/bold] over {report['decisions']} decisions: "
        f"median {timing['median_ms']:.1f} ms, "
        f"p99 {timing['p99_ms']:.1f} ms, max {timing['max_ms']:.1f} ms (limit {timing['limit_ms']:.0f} ms)"
    )
    helps = report["help_files"]
    names = untrusted.listing(helps["names"], shown=20)
    console.print(
        f"[bold]help files[/bold]: {helps['used']} of {helps['limit']} allowed"
        + (f" ({_shown(names)})" if helps["names"] else "")
    )
    console.print(f"[bold]faults[/bold]: {len(report['faults'])}")
    for number, fault in enumerate(report["faults"], 1):
        console.print(
            f"\n[red]fault {number}[/red]: deal {fault['deal']}, {_shown(fault['stage'])}: "
            f"{_shown(fault['kind'])}: {_shown(fault['reason'])}",
            highlight=False,
        )
        if fault["deal_txt"]:
            console.print("deal.txt it was given:", style="dim")
            console.print(fault["deal_txt"].rstrip(), markup=False, highlight=False)
        if fault["stderr"]:
            console.print("what it printed (stderr):", style="dim")
            console.print(untrusted.printable(fault["stderr"].rstrip()), markup=False, highlight=False)
    verdict = report["verdict"]
    style = "green" if verdict == "pass" else "red"
    console.print(f"\n[bold {style}]verdict: {verdict.upper()}[/bold {style}]")
    for reason in report["reasons"]:
        console.print(f"  - {_shown(reason)}", highlight=False)
