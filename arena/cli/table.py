"""``arena table PROGRAM... --out DIR``: one Code'em table of 2 to 6 programs."""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

from arena.cli.decks import add_deck_options, check_deck_options
from arena.cli.options import folder, refuse_other_run, require_program
from arena.cli.say import say
from arena.cli.terminal_tables import FittingTable, fitting_table
from arena.decks.commitment import reveal, start_single_table
from arena.games.codem.table import PlayerSpec, TableConfig, TableResult, run_table, validate_players

TABLE = "table"


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add the ``table`` sub-command."""
    parser = subparsers.add_parser(
        "table",
        help="run one Code'em Poker table of 2 to 6 team programs",
        description="Run one Code'em Poker table: each program, named <TeamId>.<ext> "
        "(.c .cpp .java .pl .rb .py), is built once and run once per decision in its own sandboxed "
        "folder. Writes teams/, deals/dealN.txt, events.jsonl, faults.jsonl and results.json into DIR, and "
        "commitment.json (the secret deck key's SHA-256) before the first card.",
    )
    parser.add_argument("programs", nargs="+", type=Path, metavar="PROGRAM", help="team programs, seat order")
    parser.add_argument("--out", required=True, type=folder, metavar="DIR", help="the table's folder")
    parser.add_argument("--deals", type=int, default=1000, metavar="N", help="deals to play (default 1000)")
    add_deck_options(parser)
    parser.add_argument(
        "--time-limit",
        type=float,
        default=1.0,
        metavar="T",
        help="seconds of CPU time per decision (default 1; docs/protocol.md, Time)",
    )
    parser.add_argument(
        "--max-faults",
        type=int,
        default=10,
        metavar="K",
        help="faults after which a team is disqualified from the table (default 10)",
    )
    parser.add_argument(
        "--no-warm-start",
        dest="warm_python",
        action="store_false",
        help="run Python programs with a fresh interpreter per decision instead of the equivalent, "
        "faster fork server (docs/sandbox.md)",
    )
    parser.add_argument("--json", action="store_true", help="print results.json instead of a table")
    parser.set_defaults(handler=run)


def results_table(result: TableResult) -> FittingTable:
    """A terminal table of the teams, best first (figures never cut)."""
    decks = "secret deck key" if result.seed is None else f"seed {result.seed}"
    rows = []
    for team in sorted(result.teams, key=lambda t: -t.final_stack):
        status = "build failed" if not team.built else "disqualified" if team.disqualified else "ok"
        rows.append(
            (
                str(team.seat),
                team.team,
                str(team.final_stack),
                f"{team.profit:+d}",
                str(len(team.faults)),
                status,
                f"{team.timing['median_ms']:.1f}",
                f"{team.timing['max_ms']:.1f}",
            )
        )
    headers = ("seat", "team", "final stack", "profit", "faults", "status", "median ms", "max ms")
    return fitting_table(f"Table ({decks}): {result.deals_played} deals", headers, rows)


def run(args: argparse.Namespace) -> int:
    """Play the table with a progress bar, then print the standings."""
    console = Console(stderr=args.json)
    for program in args.programs:
        require_program(program)
    players = [PlayerSpec(team=p.stem, program=p) for p in args.programs]
    check_deck_options(args)
    settings = {
        "deals": args.deals,
        "seed": args.seed or 0,
        "time_limit_s": args.time_limit,
        "max_faults": args.max_faults,
        "warm_python": args.warm_python,
    }
    TableConfig(**settings)  # bad values are one error line before a key is drawn or a file written
    validate_players(players)
    refuse_other_run(args.out, "arena table")
    decks = start_single_table(args.out, TABLE, key_file=args.deck_key, seed=args.seed)
    say(Console(stderr=True), decks.describe())
    config = TableConfig(**settings, table_secret=decks.secret(TABLE))
    with Progress(
        TextColumn("[bold]table"),
        BarColumn(),
        MofNCompleteColumn(),
        TextColumn("deals"),
        TimeRemainingColumn(),
        console=console,
        transient=True,
    ) as progress:
        task = progress.add_task("deals", total=args.deals)
        result = run_table(
            players,
            args.out,
            config,
            on_deal=lambda n: progress.update(task, completed=n),
            notify=lambda message: say(progress.console, message),
        )
    if args.json:
        print(json.dumps(result.to_dict(), indent=2))
    else:
        console.print(results_table(result))
        console.print(f"files written to {args.out}")
    if args.reveal_at_end:
        for line in reveal(args.out, [TABLE]):
            console.print(line, highlight=False, soft_wrap=True)
    return 0
