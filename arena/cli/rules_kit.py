"""``arena rules-kit DIR``: write the deal situations a team's parser must read right (see
:mod:`arena.games.codem.rules_kit`), one folder each, and say where they are."""

from __future__ import annotations

import argparse
from pathlib import Path

from arena.cli.options import folder
from arena.games.codem.rules_kit import write_kit


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add the ``rules-kit`` sub-command."""
    parser = subparsers.add_parser(
        "rules-kit",
        help="write deal situations a program's parser must read right, with the engine's verdicts",
        description="Write into DIR (new or empty) one folder per Code'em deal situation a program must "
        "read right (minimum raises, the turn and river minimum bet of 2 x the big blind, short all-ins, "
        "side pots, a short big blind, raising closed, heads-up blinds): the three input files the table "
        "would give the program, rendered by arena's own renderers, and situation.json and README.md "
        "listing the legal answers and what the engine does with each (or the fault it is).",
    )
    parser.add_argument("out", type=folder, metavar="DIR", help="the folder to write (new or empty)")
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    """Write the kit; 0."""
    out: Path = args.out
    names = write_kit(out)
    print(
        f"rules kit: {len(names)} situations in {out} (each: inputf.txt, deals_money.txt, deal.txt, "
        "situation.json, README.md)"
    )
    return 0
