"""``arena check PROGRAM``: a team tries its program where the tournament will put it, and learns what to fix.

The program plays six-seat tables under the tournament's rules, time limit and fault limit, once in each
of several seats (always seat 1 and seat 6, the others drawn from the seed), against the house bots or
the programs of ``--against DIR``. The report is what a team can act on: the build output; every fault
with its seat, deal, cards, stacks, the three input files exactly as given and what the program printed;
its decision times and help files against the limits; a verdict by the contest's rules, PASS only when
every seat played clean. Exit code 0 on pass, 1 on fail.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import tempfile
from importlib import resources
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn

from arena.cards import derive_seed
from arena.cli.options import add_rule_options, folder
from arena.errors import ConfigError
from arena.games.codem.protocol import DEAL_FILE, INPUT_FILE, MONEY_FILE, help_files_left
from arena.games.codem.table import PlayerSpec, TableConfig, TableResult, TeamResult, run_table
from arena.languages import language_for
from arena.names import name_problem
from arena.sandbox import Limits
from arena.tournament.host import TournamentSettings
from arena.tournament.submissions import find_submissions

HOUSE_BOTS = ("Tight.c", "Raiser.cpp", "Bluffer.pl", "Caller.py", "Tracker.rb", "Learner.py")
"""Five of them sit at every check table (Learner only when the program checked is one of the others)."""
SEATS = 6
FIXED_SEATS = (1, SEATS)


def register(subparsers: argparse._SubParsersAction) -> None:
    """Add the ``check`` sub-command."""
    parser = subparsers.add_parser(
        "check",
        help="try a team program at six-seat tables, in several seats, and report what to fix",
        description="Build PROGRAM (<TeamId>.<ext>, named as docs/protocol.md says) in the sandbox and play "
        "it at six-seat Code'em tables under the tournament's rules, once in each of several seats (seat 1, "
        f"seat 6 and seats drawn from --seed) against the house bots ({', '.join(HOUSE_BOTS)}) or the "
        "programs in --against DIR. Reports its build output, every fault with the seat, cards, stacks and "
        "the three input files it was given, its decision times and help files against the limits, and a "
        "verdict: PASS only if every seat played clean. Exit code 0 on pass, 1 on fail.",
    )
    parser.add_argument("program", type=Path, metavar="PROGRAM", help="the team program to check")
    parser.add_argument("--deals", type=int, default=50, metavar="N", help="deals in each seat (default 50)")
    parser.add_argument(
        "--seats",
        type=int,
        default=3,
        metavar="K",
        help="seats to try, 2 to 6: seat 1, seat 6 and K-2 seats drawn from --seed (default 3)",
    )
    parser.add_argument("--seed", type=int, default=0, metavar="S", help="seed fixing every deck (default 0)")
    parser.add_argument(
        "--against",
        type=Path,
        metavar="DIR",
        help="opponents: the programs in DIR (<TeamId>.<ext>), the house bots filling any seat left",
    )
    add_rule_options(parser, what="as the tournament")
    parser.add_argument("--out", type=folder, metavar="DIR", help="keep the tables' files in DIR/seat<N>/")
    parser.add_argument("--json", action="store_true", help="print the report as JSON")
    parser.set_defaults(handler=run)


def seats_to_try(count: int, seed: int) -> list[int]:
    """Seat 1, seat 6 and ``count - 2`` of the seats between, drawn from the seed; in seat order."""
    if not len(FIXED_SEATS) <= count <= SEATS:
        raise ConfigError(f"--seats must be between {len(FIXED_SEATS)} and {SEATS}, got {count}")
    middle = [seat for seat in range(1, SEATS + 1) if seat not in FIXED_SEATS]
    drawn = random.Random(derive_seed(seed, "check seats")).sample(middle, count - len(FIXED_SEATS))
    return sorted([*FIXED_SEATS, *drawn])


def house_bots(folder: Path) -> list[Path]:
    """The house bots, shipped inside the package, written into ``folder`` (read with importlib.resources)."""
    shipped = resources.files("arena.games.codem").joinpath("house_bots")
    folder.mkdir(parents=True, exist_ok=True)
    bots = []
    for name in HOUSE_BOTS:
        bot = shipped.joinpath(name)
        if not bot.is_file():
            raise ConfigError(f"the house bot {name} is missing from this installation of arena")
        target = folder / name
        target.write_bytes(bot.read_bytes())
        bots.append(target)
    return bots


def opponents(program: Path, against: Path | None, scratch: Path) -> list[PlayerSpec]:
    """Five opponents: the programs of ``against`` first (in team order), then house bots."""
    chosen: list[Path] = []
    if against is not None:
        found, _skipped = find_submissions(against)
        chosen = [s.program for s in found if s.team != program.stem][: SEATS - 1]
    taken = {path.stem for path in chosen} | {program.stem}
    for bot in house_bots(scratch / "house"):
        if len(chosen) < SEATS - 1 and bot.stem not in taken:
            chosen.append(bot)
            taken.add(bot.stem)
    return [PlayerSpec(team=path.stem, program=path) for path in chosen]


def check_config(args: argparse.Namespace) -> TableConfig:
    """The tables' configuration from the command line, validated by the tournament's own settings."""
    small, big = args.blinds
    settings = TournamentSettings(
        deals=args.deals,
        seed=args.seed,
        time_limit_s=args.time_limit,
        max_faults=args.max_faults,
        small_blind=small,
        big_blind=big,
        stack=args.stack,
    )
    return TableConfig(
        deals=settings.deals,
        seed=settings.seed,
        time_limit_s=settings.time_limit_s,
        max_faults=settings.max_faults,
        rules=settings.rules(),
    )


def check_program(
    program: Path,
    config: TableConfig,
    *,
    seats: int,
    out: Path,
    against: Path | None = None,
    console: Console | None = None,
) -> dict[str, Any]:
    """Play the program in each seat tried and build the report (a JSON-ready dict)."""
    if not program.is_file():
        raise ConfigError(f"{program}: no such program file")
    problem = name_problem(program)
    if problem is not None:
        raise ConfigError(f"{program.name}: the tournament would not play this file: {problem}")
    language = language_for(program)
    tried = seats_to_try(seats, config.seed)
    rivals = opponents(program, against, out)
    config = config.model_copy(update={"build_cache": out / "builds"})
    if console is not None:
        console.print(
            f"check {program.name}: seats {', '.join(map(str, tried))} of {SEATS}, {config.deals} deals each, "
            f"against {', '.join(p.team for p in rivals)}",
            highlight=False,
            markup=False,
        )
    results: dict[int, TableResult] = {}
    with Progress(
        TextColumn("[bold]check"),
        BarColumn(),
        MofNCompleteColumn(),
        TextColumn("deals"),
        console=console,
        transient=True,
        disable=console is None,
    ) as progress:
        task = progress.add_task("deals", total=config.deals * len(tried))
        for done, seat in enumerate(tried):
            players = [*rivals[: seat - 1], PlayerSpec(program.stem, program), *rivals[seat - 1 :]]
            results[seat] = run_table(
                players,
                out / f"seat{seat}",
                config,
                on_deal=lambda n, base=done * config.deals: progress.update(task, completed=base + n),
            )
            if not _team(results[seat], program.stem).built:
                break  # the same build fails in every seat
    return _report(program, language.name, config, results, rivals, out)


def _team(result: TableResult, team: str) -> TeamResult:
    return next(t for t in result.teams if t.team == team)


def _report(
    program: Path,
    language: str,
    config: TableConfig,
    results: dict[int, TableResult],
    rivals: list[PlayerSpec],
    out: Path,
) -> dict[str, Any]:
    limits = Limits()
    teams = {seat: _team(result, program.stem) for seat, result in results.items()}
    first = next(iter(teams.values()))
    allowance_ms = float(first.timing.get("allowance_ms", 0.0))
    limit_ms = config.time_limit_s * 1000
    faults = [
        {**fault.to_dict(), "deal_txt": fault.inputs.get(DEAL_FILE, "")}
        for team in teams.values()
        for fault in team.faults
    ]
    helps = {
        seat: help_files_left(out / f"seat{seat}" / "teams" / program.stem, program.name) for seat in teams
    }
    most_helps = max(helps.values(), key=len)
    measured = [t.timing for t in teams.values() if t.decisions]
    timing = {
        "median_ms": statistics.median(t["median_ms"] for t in measured) if measured else 0.0,
        "p99_ms": max((t["p99_ms"] for t in measured), default=0.0),
        "max_ms": max((t["max_ms"] for t in measured), default=0.0),
        "limit_ms": limit_ms,
        "allowance_ms": allowance_ms,
    }
    seats = [
        {
            "seat": seat,
            "deals_played": results[seat].deals_played,
            "final_stack": team.final_stack,
            "profit": team.profit,
            "faults": len(team.faults),
            "disqualified": team.disqualified,
            "decisions": team.decisions,
            "timing": team.timing,
            "help_files": len(helps[seat]),
            "clean": team.built and not team.faults,
        }
        for seat, team in teams.items()
    ]
    reasons = _verdict_reasons(teams, len(most_helps), limits.help_files, limit_ms + allowance_ms)
    return {
        "program": str(program),
        "team": program.stem,
        "language": language,
        "isolation": first_isolation(results),
        "opponents": [p.team for p in rivals],
        "seats_tried": list(teams),
        "deals_per_seat": config.deals,
        "rules": {
            "seats": SEATS,
            "small_blind": config.rules.small_blind,
            "big_blind": config.rules.big_blind,
            "stack": config.rules.starting_stack,
            "time_limit_s": config.time_limit_s,
            "max_faults": config.max_faults,
        },
        "seats": seats,
        "deals_played": sum(r.deals_played for r in results.values()),
        "build": {"ok": first.built, "output": first.build_output},
        "decisions": sum(t.decisions for t in teams.values()),
        "timing": timing,
        "help_files": {"used": len(most_helps), "limit": limits.help_files, "names": most_helps},
        "faults": faults,
        "profit": sum(t.profit for t in teams.values()),
        "disqualified": any(t.disqualified for t in teams.values()),
        "verdict": "pass" if not reasons else "fail",
        "reasons": reasons,
    }


def first_isolation(results: dict[int, TableResult]) -> str:
    """The sandbox isolation the tables ran with."""
    return next(iter(results.values())).isolation


def _verdict_reasons(
    teams: dict[int, TeamResult], help_files: int, help_limit: int, limit_ms: float
) -> list[str]:
    """Why the program would not survive the contest (empty when it would), seat by seat."""
    reasons = []
    if not all(team.built for team in teams.values()):
        return ["the program does not build"]
    for seat, team in teams.items():
        if team.disqualified:
            reasons.append(f"seat {seat}: disqualified from the table after {len(team.faults)} faults")
        elif team.faults:
            kinds = sorted({fault.kind.value for fault in team.faults})
            reasons.append(f"seat {seat}: {len(team.faults)} fault(s): {', '.join(kinds)}")
        if team.timing["max_ms"] > limit_ms:
            reasons.append(
                f"seat {seat}: a decision took {team.timing['max_ms']:.0f} ms, over the {limit_ms:.0f} ms limit"
            )
    if help_files > help_limit:
        reasons.append(f"{help_files} help files kept, the limit is {help_limit}")
    return reasons


def run(args: argparse.Namespace) -> int:
    """Print the report; 0 on pass, 1 on fail."""
    console = Console(stderr=args.json)
    config = check_config(args)
    if args.out is not None:
        report = check_program(
            args.program, config, seats=args.seats, out=args.out, against=args.against, console=console
        )
    else:
        with tempfile.TemporaryDirectory(prefix="arena-check-") as folder:
            report = check_program(
                args.program, config, seats=args.seats, out=Path(folder), against=args.against, console=console
            )
    if args.json:
        print(json.dumps(report, indent=2))
    else:
        print_report(console, report, out=args.out)
    return 0 if report["verdict"] == "pass" else 1


def print_report(console: Console, report: dict[str, Any], *, out: Path | None = None) -> None:
    """The report as a team reads it."""
    console.rule(f"arena check {report['program']} ({report['language']}, sandbox: {report['isolation']})")
    build = report["build"]
    console.print(f"[bold]build[/bold]: {'ok' if build['ok'] else '[red]failed[/red]'}")
    if build["output"].strip():
        console.print(build["output"].rstrip(), markup=False, highlight=False)
    rules = report["rules"]
    console.print(
        f"[bold]tables[/bold]: {rules['seats']} seats, blinds {rules['small_blind']}/{rules['big_blind']}, "
        f"stacks {rules['stack']}, disqualified after {rules['max_faults']} faults; "
        f"{report['deals_per_seat']} deals in each of seats {', '.join(map(str, report['seats_tried']))} "
        f"against {', '.join(report['opponents'])}",
        highlight=False,
    )
    for seat in report["seats"]:
        state = "clean" if seat["clean"] else "disqualified" if seat["disqualified"] else f"{seat['faults']} fault(s)"
        console.print(
            f"  seat {seat['seat']}: {seat['deals_played']} deals, profit {seat['profit']:+d}, "
            f"{seat['decisions']} decisions, {state}",
            highlight=False,
        )
    timing = report["timing"]
    allowance = (
        f" + {timing['allowance_ms']:.0f} ms {report['language']} start-up allowance"
        if timing["allowance_ms"] >= 1
        else ""
    )
    console.print(
        f"[bold]decision time[/bold] over {report['decisions']} decisions: "
        f"median {timing['median_ms']:.1f} ms, p99 {timing['p99_ms']:.1f} ms, max {timing['max_ms']:.1f} ms "
        f"(limit {timing['limit_ms']:.0f} ms{allowance})",
        highlight=False,
    )
    helps = report["help_files"]
    names = f" ({', '.join(helps['names'])})" if helps["names"] else ""
    console.print(f"[bold]help files[/bold]: {helps['used']} of {helps['limit']} allowed", end="")
    console.print(names, highlight=False, markup=False)
    console.print(f"[bold]faults[/bold]: {len(report['faults'])}")
    for number, fault in enumerate(report["faults"], 1):
        _print_fault(console, number, fault, report["team"], out)
    verdict = report["verdict"]
    style = "green" if verdict == "pass" else "red"
    console.print(f"\n[bold {style}]verdict: {verdict.upper()}[/bold {style}]")
    for reason in report["reasons"]:
        console.print(f"  - {reason}", highlight=False, markup=False)


def _print_fault(console: Console, number: int, fault: dict[str, Any], team: str, out: Path | None) -> None:
    if fault["kind"] == "build_failed":
        console.print(f"\n[red]fault {number}[/red]: {fault['reason']}", highlight=False)
        return  # the compiler's output is printed once, under "build"
    console.print(f"\n[red]fault {number}[/red]: ", end="")
    console.print(
        f"seat {fault['seat']}, deal {fault['deal']}, {fault['stage']}, decision {fault['decision']}: "
        f"{fault['kind']}: {fault['reason']}",
        highlight=False,
        markup=False,
        soft_wrap=True,
    )
    console.print(f"your cards {fault['cards']}; stacks before the deal {fault['stacks']}", highlight=False)
    # Files and output exactly as they were: never wrapped, never read as markup.
    exact = {"markup": False, "highlight": False, "soft_wrap": True}
    for name in (INPUT_FILE, MONEY_FILE, DEAL_FILE):
        text = fault["inputs"].get(name, "")
        if text:
            console.print(f"{name} it was given:", style="dim")
            console.print(text.rstrip(), **exact)
    for stream in ("stdout", "stderr"):
        if fault[stream].strip():
            console.print(f"what it printed ({stream}):", style="dim")
            console.print(fault[stream].rstrip(), **exact)
    if out is not None:
        console.print(
            f"rerun it: arena replay {out} --table seat{fault['seat']} --deal {fault['deal']} --team {team} "
            f"--decision {fault['decision']}",
            style="dim",
            highlight=False,
        )
