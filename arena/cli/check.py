"""``arena check PROGRAM``: a team tries its program at a sandboxed table against house bots.

The check itself is :mod:`arena.games.codem.check`; this module parses, shows a progress bar, prints the
report (or its JSON) and turns the verdict into the exit code: 0 on pass, 1 on fail.
"""

from __future__ import annotations

import argparse
import json
import tempfile
from pathlib import Path

from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn

from arena.cli.decks import add_deck_options, check_deck_options
from arena.decks.commitment import reveal
from arena.errors import ConfigError
from arena.games.codem.check import CHECK, HOUSE_BOTS, CheckReport, Verdict, check_program, render_report


def register(subparsers: argparse._SubParsersAction) -> None:
    """Add the ``check`` sub-command."""
    parser = subparsers.add_parser(
        "check",
        help="try a team program at a sandboxed table against house bots and report what to fix",
        description="Build PROGRAM (<TeamId>.<ext>) in the sandbox, play it at a Code'em table against "
        f"house bots ({', '.join(HOUSE_BOTS)} from bots/codem/), and report its build output, every fault "
        "with the deal.txt it was given, its decision times and help files against the limits, and a "
        "verdict. The decks come from a secret key, as at a tournament (--out DIR keeps it, with "
        "commitment.json, for 'arena reveal' and 'arena verify'). Exit code 0 on pass, 1 on fail.",
    )
    parser.add_argument("program", type=Path, metavar="PROGRAM", help="the team program to check")
    parser.add_argument("--deals", type=int, default=50, metavar="N", help="deals to play (default 50)")
    add_deck_options(parser)
    parser.add_argument(
        "--time-limit", type=float, default=1.0, metavar="T", help="wall seconds per decision (default 1.0)"
    )
    parser.add_argument("--out", type=Path, metavar="DIR", help="keep the table's files in DIR")
    parser.add_argument("--json", action="store_true", help="print the report as JSON")
    parser.set_defaults(handler=run)


def _check_with_progress(args: argparse.Namespace, out: Path, console: Console) -> CheckReport:
    columns = (TextColumn("[bold]check"), BarColumn(), MofNCompleteColumn(), TextColumn("deals"))
    with Progress(*columns, console=console, transient=True) as progress:
        task = progress.add_task("deals", total=max(args.deals, 0))
        return check_program(
            args.program,
            deals=args.deals,
            seed=args.seed,
            time_limit_s=args.time_limit,
            out=out,
            on_deal=lambda n: progress.update(task, completed=n),
            deck_key=args.deck_key,
        )


def run(args: argparse.Namespace) -> int:
    """Print the report; 0 on pass, 1 on fail."""
    console = Console(stderr=args.json)
    check_deck_options(args)
    if args.out is not None:
        report = _check_with_progress(args, args.out, console)
        if args.reveal_at_end:
            for line in reveal(args.out, [CHECK]):
                console.print(line, highlight=False, soft_wrap=True)
    else:
        if args.reveal_at_end:
            raise ConfigError("--reveal-at-end needs --out DIR, where the key is kept and revealed")
        with tempfile.TemporaryDirectory(prefix="arena-check-") as folder:
            report = _check_with_progress(args, Path(folder), console)
    if args.json:
        print(json.dumps(report.to_dict(), indent=2))
    else:
        console.print(render_report(report), markup=False, highlight=False, soft_wrap=True, end="")
    return 0 if report.verdict is Verdict.PASS else 1
