"""The ``arena`` command: parses arguments, calls the library, prints. No game logic lives here.

Each sub-command is a module of this package exposing ``register(subparsers)``, which adds its parser
and sets ``handler`` to a function ``(args) -> int`` (the exit code).
"""

from __future__ import annotations

import argparse
import importlib
import signal
import sys
from collections.abc import Sequence
from types import FrameType

from arena import __version__
from arena.errors import ArenaError
from arena.sandbox.cgroup import remove_leftovers

COMMAND_MODULES = (
    "table",
    "check",
    "doctor",
    "tournament",
    "headsup",
    "twocard",
    "export",
    "view",
    "decks",
)


def build_parser() -> argparse.ArgumentParser:
    """The top-level parser with every sub-command registered."""
    parser = argparse.ArgumentParser(
        prog="arena",
        description="Tournament server for poker-playing programs (Code'em Poker, "
        "TwoCardDraw, heads-up hold'em).",
    )
    parser.add_argument("--version", action="version", version=f"arena {__version__}")
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)
    for name in COMMAND_MODULES:
        try:
            module = importlib.import_module(f"arena.cli.{name}")
        except ModuleNotFoundError as error:
            if error.name != f"arena.cli.{name}":
                raise
            continue
        module.register(subparsers)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; return the exit code (errors become one line on stderr)."""
    parser = build_parser()
    args = parser.parse_args(argv)
    signal.signal(signal.SIGTERM, _interrupt)
    try:
        if args.command != "doctor":  # doctor reports them first, then removes them
            remove_leftovers()
        return int(args.handler(args) or 0)
    except ArenaError as error:
        print(f"arena {args.command}: error: {error}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print(f"arena {args.command}: interrupted", file=sys.stderr)
        return 130


def _interrupt(signum: int, frame: FrameType | None) -> None:
    """SIGTERM ends a command as cleanly as Ctrl-C: sandboxes close, cgroups go, the run can resume."""
    raise KeyboardInterrupt
