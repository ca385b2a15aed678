"""Command-line options several commands share: the table rules a tournament plays by."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # the library is imported when a command runs, so ``arena --help`` stays quick
    from arena.tournament.host import TournamentSettings

RULE_DEFAULTS = {"time_limit": 1.0, "max_faults": 10, "blinds": (5, 10), "stack": 1500}


def blinds(text: str) -> tuple[int, int]:
    """``SB/BB`` as two integers (their sizes are checked with the other settings)."""
    small, slash, big = text.partition("/")
    try:
        if not slash:
            raise ValueError
        return int(small), int(big)
    except ValueError:
        raise argparse.ArgumentTypeError(f"blinds {text!r} are not SB/BB, e.g. 5/10") from None


def add_rule_options(parser: argparse.ArgumentParser, *, what: str) -> None:
    """``--time-limit``, ``--max-faults``, ``--blinds`` and ``--stack``, with the tournament's defaults."""
    parser.add_argument(
        "--time-limit",
        type=float,
        default=RULE_DEFAULTS["time_limit"],
        metavar="T",
        help=f"wall seconds per decision (default 1, {what})",
    )
    parser.add_argument(
        "--max-faults",
        type=int,
        default=RULE_DEFAULTS["max_faults"],
        metavar="K",
        help=f"faults after which a program is disqualified from a table (default 10, {what})",
    )
    parser.add_argument(
        "--blinds",
        type=blinds,
        default=RULE_DEFAULTS["blinds"],
        metavar="SB/BB",
        help=f"small and big blind (default 5/10, {what})",
    )
    parser.add_argument(
        "--stack",
        type=int,
        default=RULE_DEFAULTS["stack"],
        metavar="CHIPS",
        help=f"every seat's starting stack (default 1500, {what})",
    )


def folder(text: str) -> Path:
    """An option naming a folder to write in: absent (it is made) or a folder, never an existing file."""
    path = Path(text)
    if path.exists() and not path.is_dir():
        raise argparse.ArgumentTypeError(f"{path} is a file, not a folder")
    return path


def rule_settings(
    args: argparse.Namespace, *, duplicate: bool = False, format: str = "round-robin"
) -> TournamentSettings:
    """The tournament's settings from :func:`add_rule_options`' options (validated once, there)."""
    from arena.tournament.formats import Format
    from arena.tournament.host import TournamentSettings

    small, big = args.blinds
    return TournamentSettings(
        deals=args.deals,
        seed=args.seed,
        duplicate=duplicate,
        time_limit_s=args.time_limit,
        max_faults=args.max_faults,
        small_blind=small,
        big_blind=big,
        stack=args.stack,
        format=Format(format),
    )
