"""``arena reveal`` and ``arena verify``, and the deck options every table-playing command shares."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from rich.console import Console

from arena.decks.commitment import SEED_WARNING
from arena.errors import ConfigError


def add_deck_options(parser: argparse.ArgumentParser, *, seed: bool = True) -> None:
    """``--deck-key``, ``--reveal-at-end`` and (unless ``seed`` is False) ``--seed``."""
    parser.add_argument(
        "--deck-key",
        type=Path,
        metavar="FILE",
        help="the secret deck key, as hex (at least 32 bytes, e.g. 'openssl rand -hex 32'); default: a fresh "
        "key from the operating system. Either way its SHA-256 is written to commitment.json before the "
        "first card, and the key is kept where no program can read it",
    )
    parser.add_argument(
        "--reveal-at-end",
        action="store_true",
        help="publish the deck key (reveal.json, deck-key.txt) once every table is played, so anyone can "
        "check the decks with 'arena verify'",
    )
    if seed:
        parser.add_argument(
            "--seed",
            type=int,
            metavar="S",
            help=f"deal from a known seed instead of a secret key: {SEED_WARNING} "
            "(anyone who knows S knows every card)",
        )


def check_deck_options(args: argparse.Namespace) -> None:
    """One clear error for options that cannot go together, before anything is played; and a warning
    when this machine's sandbox cannot keep the key from the programs."""
    seeded = getattr(args, "seed", None) is not None
    if seeded and args.reveal_at_end:
        raise ConfigError("--reveal-at-end publishes a secret key; with --seed S there is none (S is known)")
    from arena.sandbox.isolation import RLIMITS_ONLY, namespaces_available

    available, reason = namespaces_available()
    if getattr(args, "isolation", None) == RLIMITS_ONLY:
        available, reason = False, f"--isolation {RLIMITS_ONLY}"
    if not seeded and not available:
        Console(stderr=True).print(
            f"warning: programs will run without namespaces ({reason}): as arena's own user they could read "
            "the deck key in the run folder; host contests where 'arena doctor' shows namespaces",
            markup=False,
            highlight=False,
            soft_wrap=True,
        )


def register(subparsers: Any) -> None:
    """Add ``reveal`` and ``verify``."""
    reveal = subparsers.add_parser(
        "reveal",
        help="publish a run's deck keys so anyone can verify its decks",
        description="Write RUN_DIR/reveal.json and RUN_DIR/deck-key.txt with the secret deck key of each "
        "stage of the run (tournament, final, table, check, headsup or twocard), after checking it against "
        "commitment.json. "
        "Once a key is revealed no more cards are dealt with it.",
    )
    reveal.add_argument("run_dir", type=Path, metavar="RUN_DIR", help="a run folder holding commitment.json")
    reveal.add_argument(
        "--stage",
        action="append",
        metavar="STAGE",
        help="reveal only this stage's key (tournament, final, table, check, headsup, twocard); repeatable",
    )
    reveal.set_defaults(handler=_reveal)

    verify = subparsers.add_parser(
        "verify",
        help="check every recorded deal of a run against its committed, revealed deck key",
        description="Recompute every table's decks from the revealed key (or the known seed), check the key "
        "and each table secret against commitment.json, and check every recorded deal (each table's "
        "events.jsonl, and the tournament database) card by card; a heads-up match's or TwoCardDraw test "
        "case's every hand (hands.jsonl), its cards and the opponent's draws. One line per table; exit "
        "code 1 when anything differs, naming the table and the deal.",
    )
    verify.add_argument("run_dir", type=Path, metavar="RUN_DIR", help="a run folder holding commitment.json")
    verify.set_defaults(handler=_verify)


def _reveal(args: argparse.Namespace) -> int:
    from arena.decks.commitment import reveal

    for line in reveal(args.run_dir, args.stage):
        print(line)
    return 0


def _verify(args: argparse.Namespace) -> int:
    from arena.decks.verify import verify_run
    from arena.games.headsup.verify import verify_hands
    from arena.games.twocard.verify import verify_cases
    from arena.tournament.store import stored_deals

    games = {"headsup": verify_hands, "twocard": verify_cases}
    with stored_deals(args.run_dir) as records:
        verdicts = verify_run(args.run_dir, other_records=records, games=games)
    for verdict in verdicts:
        print(verdict.line())
    failed = [v for v in verdicts if not v.ok]
    summary = f"{len(verdicts) - len(failed)} of {len(verdicts)} table(s) verified"
    print(summary + (f"; {len(failed)} FAILED" if failed else ""))
    return 1 if failed else 0
