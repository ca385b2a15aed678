"""``arena check --repeat``: the option and its run after the check (the work is
:mod:`arena.games.codem.repeat`), kept apart from ``check.py`` so the check's own module stays as it is."""

from __future__ import annotations

import argparse
from pathlib import Path

from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn

from arena.cli.say import say
from arena.games.codem.repeat import repeat_check
from arena.sandbox import Limits


def add_repeat_option(parser: argparse.ArgumentParser) -> None:
    """Add ``--repeat``."""
    parser.add_argument(
        "--repeat",
        action="store_true",
        help="then run every decision again, twice on identical input and help files, and report a program "
        "whose answers differ (nondeterminism); a difference fails the check",
    )


def repeat_after_check(args: argparse.Namespace, out: Path, time_limit_s: float, console: Console) -> bool:
    """With ``--repeat``, rerun the check's decisions in ``out`` and print what was found; True when the
    program answered differently somewhere (always False without ``--repeat``)."""
    if not args.repeat:
        return False
    columns = (TextColumn("[bold]repeat"), BarColumn(), MofNCompleteColumn(), TextColumn("runs"))
    with Progress(*columns, console=console, transient=True) as progress:
        task = progress.add_task("runs", total=None)
        report = repeat_check(
            out, args.program, Limits(wall_time_s=time_limit_s), on_decision=lambda: progress.advance(task)
        )
    for line in report.lines(args.program.stem):
        say(console, line)
    return bool(report.differences)
