"""``arena check PROGRAM``: a team tries its program where the tournament will put it.

The check itself is :mod:`arena.games.codem.check`; this module parses (the rules options are the
tournament's, validated by its settings; the deck options are every table's), shows a progress bar, prints
the report (or its JSON) and turns the verdict into the exit code: 0 on pass, 1 on fail.
"""

from __future__ import annotations

import argparse
import json
import tempfile
from pathlib import Path

from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn

from arena.cli.check_repeat import add_repeat_option, repeat_after_check
from arena.cli.decks import add_deck_options, check_deck_options
from arena.cli.options import add_rule_options, folder, require_program, rule_settings
from arena.cli.say import say
from arena.decks.commitment import reveal
from arena.errors import ConfigError
from arena.games.codem.check import (
    CHECK,
    HOUSE_BOTS,
    SEATS,
    CheckReport,
    Verdict,
    check_program,
    render_report,
)
from arena.games.codem.table import TableConfig


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add the ``check`` sub-command."""
    parser = subparsers.add_parser(
        "check",
        help="try a team program at six-seat tables, in several seats, and report what to fix",
        description="Build PROGRAM (<TeamId>.<ext>, named as docs/protocol.md says) in the sandbox and play "
        "it at six-seat Code'em tables under the tournament's rules, once in each of several seats (seat 1, "
        f"seat 6 and seats drawn at random) against the house bots ({', '.join(HOUSE_BOTS[:5])}) or the "
        "programs in --against DIR. Reports its build output, every fault with the seat, cards, stacks and "
        "the three input files it was given, its decision times and help files against the limits, and a "
        "verdict: PASS only if every seat played clean. The decks come from a secret key, as at a "
        "tournament (--out DIR keeps it, with commitment.json, for 'arena reveal' and 'arena verify'). "
        "Exit code 0 on pass, 1 on fail.",
    )
    parser.add_argument("program", type=Path, metavar="PROGRAM", help="the team program to check")
    parser.add_argument("--deals", type=int, default=50, metavar="N", help="deals in each seat (default 50)")
    parser.add_argument(
        "--seats",
        type=int,
        default=3,
        metavar="K",
        help=f"seats to try, 2 to {SEATS}: seat 1, seat {SEATS} and K-2 seats drawn from the deck key or "
        "--seed (default 3)",
    )
    parser.add_argument(
        "--against",
        type=Path,
        metavar="DIR",
        help="opponents: the programs in DIR (<TeamId>.<ext>), the house bots filling any seat left",
    )
    add_rule_options(parser, what="as the tournament")
    add_deck_options(parser)
    parser.add_argument("--out", type=folder, metavar="DIR", help="keep the tables' files in DIR/seat<N>/")
    parser.add_argument("--json", action="store_true", help="print the report as JSON")
    add_repeat_option(parser)
    parser.set_defaults(handler=run)


def check_config(args: argparse.Namespace) -> TableConfig:
    """The tables' configuration from the command line, validated by the tournament's own settings."""
    settings = rule_settings(args)
    return TableConfig(
        deals=settings.deals,
        time_limit_s=settings.time_limit_s,
        max_faults=settings.max_faults,
        rules=settings.rules(),
    )


def _check_with_progress(args: argparse.Namespace, out: Path, console: Console) -> CheckReport:
    config = check_config(args)
    columns = (TextColumn("[bold]check"), BarColumn(), MofNCompleteColumn(), TextColumn("deals"))
    with Progress(*columns, console=console, transient=True, disable=not console.is_terminal) as progress:
        task = progress.add_task("deals", total=None)

        def started(seats: list[int], opponents: list[str]) -> None:
            progress.update(task, total=config.deals * len(seats))
            say(
                progress.console,
                f"check {args.program.name}: seats {', '.join(map(str, seats))} of {SEATS}, "
                f"{config.deals} deals each, against {', '.join(opponents)}",
            )

        return check_program(
            args.program,
            config,
            seats=args.seats,
            out=out,
            against=args.against,
            seed=args.seed,
            deck_key=args.deck_key,
            on_start=started,
            on_deal=lambda n: progress.update(task, completed=n),
        )


def run(args: argparse.Namespace) -> int:
    """Print the report; 0 on pass, 1 on fail."""
    console = Console(stderr=args.json)
    require_program(args.program)
    check_deck_options(args)
    if args.out is not None:
        report = _check_with_progress(args, args.out, console)
        differs = repeat_after_check(args, args.out, check_config(args).time_limit_s, console)
        if args.reveal_at_end:
            for line in reveal(args.out, [CHECK]):
                say(console, line)
    else:
        if args.reveal_at_end:
            raise ConfigError("--reveal-at-end needs --out DIR, where the key is kept and revealed")
        with tempfile.TemporaryDirectory(prefix="arena-check-") as scratch:
            report = _check_with_progress(args, Path(scratch), console)
            differs = repeat_after_check(args, Path(scratch), check_config(args).time_limit_s, console)
    if args.json:
        print(json.dumps(report.to_dict(), indent=2))
    else:
        text = render_report(report, replay_from=args.out)
        console.print(text, markup=False, highlight=False, soft_wrap=True, end="")
    return 0 if report.verdict is Verdict.PASS and not differs else 1
