"""``arena twocard value|generate|play``: TwoCardDraw strategies, their values, and players."""

from __future__ import annotations

import argparse
import json
import random
from pathlib import Path

import numpy as np
import pydantic
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

from arena.cli.decks import add_deck_options, check_deck_options
from arena.cli.options import (
    at_least_one,
    describe_validation,
    folder,
    new_file,
    refuse_other_run,
    require_program,
)
from arena.cli.say import say
from arena.cli.terminal_tables import fitting_table
from arena.decks.commitment import reveal
from arena.engines.twocard.generator import generate
from arena.engines.twocard.rules import HANDS, OUTCOMES
from arena.engines.twocard.strategy import check_bets, read_strategy, write_strategy
from arena.engines.twocard.value import NEAR_PERFECT_MISTAKE, Policy, best_response
from arena.errors import ConfigError
from arena.games.twocard.judge import DEFAULT_HANDS, DEFAULT_TIME_S, overall_score
from arena.games.twocard.match import STAGE, TwoCardInterface, TwoCardSettings, open_decks, play_match


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add the ``twocard`` sub-command and its three actions."""
    parser = subparsers.add_parser(
        "twocard",
        help="TwoCardDraw: strategy values, the strategy generator, and players",
        description="TwoCardDraw against a server playing a fixed probabilistic strategy "
        "read from a strategy file (format in docs/twocard.md).",
    )
    actions = parser.add_subparsers(dest="action", metavar="ACTION", required=True)

    value = actions.add_parser(
        "value",
        help="exact value of a strategy and the best response to it",
        description="Print what "
        "the strategy wins per hand against a perfect opponent who knows it (TwoCardDraw's value), exactly.",
    )
    value.add_argument("file", type=Path, metavar="FILE", help="strategy file")
    value.add_argument("--policy", action="store_true", help="also print the best-response policy")
    value.add_argument(
        "--mistake",
        type=float,
        default=0.0,
        metavar="P",
        help="opponent makes each wrong choice with probability P "
        f"(TwoCardDraw's generator uses {NEAR_PERFECT_MISTAKE})",
    )
    value.add_argument(
        "--json", action="store_true", help="print JSON (value and, with --policy, the policy)"
    )
    value.set_defaults(handler=run_value)

    gen = actions.add_parser(
        "generate",
        help="generate a server strategy by TwoCardDraw's improvement method",
        description="Start from distributions uniform on the simplex (within the five constraints) and "
        "improve one situation at a time, keeping a change only if it raises the value against a "
        "near-perfect opponent. Bets default to a seeded draw within TwoCardDraw's limits.",
    )
    gen.add_argument("--seed", type=int, required=True, metavar="S")
    gen.add_argument(
        "--iterations",
        type=at_least_one,
        required=True,
        metavar="N",
        help="the statement uses 10,000 to 200,000",
    )
    gen.add_argument("--bet1", type=int, metavar="A", help="first-round bet, 1..5")
    gen.add_argument("--bet2", type=int, metavar="B", help="second-round bet, bet1..3*bet1")
    gen.add_argument(
        "-o", "--output", type=new_file, required=True, metavar="FILE", help="strategy file to write"
    )
    gen.set_defaults(handler=run_generate)

    play = actions.add_parser(
        "play",
        help="play a program against server strategies (one test case per strategy file)",
        description="Play PROGRAM against each strategy, scored as the statement says: profit + 10,000, "
        "floored at 0, averaged over test cases; shown beside the best achievable expected profit "
        "(-value x hands).",
    )
    play.add_argument("program", type=Path, metavar="PROGRAM")
    play.add_argument("--strategy", type=Path, nargs="+", required=True, metavar="FILE")
    play.add_argument("--hands", type=int, default=DEFAULT_HANDS, metavar="N", help="hands per test case")
    add_deck_options(play)
    play.add_argument(
        "--interface",
        choices=[i.value for i in TwoCardInterface],
        help="how the program is called (default: guessed)",
    )
    play.add_argument("--out", type=folder, metavar="DIR", help="folder for results.json and the hand logs")
    play.add_argument(
        "--time-limit",
        type=float,
        default=DEFAULT_TIME_S,
        metavar="T",
        help=f"seconds of the player's own time per test case (default {DEFAULT_TIME_S:g}, "
        "as in the statement)",
    )
    play.add_argument(
        "--give-strategy",
        action="store_true",
        help="copy each test case's strategy file into the player's folder as strategy.txt",
    )
    play.add_argument("--json", action="store_true", help="print results.json instead of a table")
    play.set_defaults(handler=run_play)


def _policy_rows(policy: Policy) -> list[dict[str, object]]:
    """The policy as readable rows: one per situation where it says what to do for each hand."""
    rows: list[dict[str, object]] = [{"call": "new_hand", "choice": _by_hand(policy.open1)}]
    for bets in (1, 2, 3):
        rows.append({"call": f"round1 bets={bets}", "choice": _by_hand(policy.respond1[bets])})
    for o in OUTCOMES:
        rows.append({"call": f"draw bets={o.bets} first={o.first}", "choice": _by_hand(policy.draw[o])})
    for o in OUTCOMES:
        for d1 in range(3):
            for d2 in range(3):
                where = f"bets1={o.bets} first={o.first} you_drew={d1} drew={d2}"
                rows.append({"call": f"round2 {where} bets2=0", "choice": _by_hand(policy.open2[o, d1, d2])})
                for bets in (1, 2, 3):
                    choice = _by_hand(policy.respond2[o, d1, d2, bets])
                    rows.append({"call": f"round2 {where} bets2={bets}", "choice": choice})
    return rows


def _by_hand(values: np.ndarray) -> dict[str, int]:
    return {f"{a}{b}": int(v) for (a, b), v in zip(HANDS, values, strict=True)}


def run_value(args: argparse.Namespace) -> int:
    """``arena twocard value``."""
    if not 0 <= args.mistake < 0.5:
        raise ConfigError(f"--mistake {args.mistake} must be in [0, 0.5)")
    strategy = read_strategy(args.file)
    result = best_response(strategy, mistake=args.mistake)
    if args.json:
        data: dict[str, object] = {
            "file": str(args.file),
            "bet1": strategy.bet1,
            "bet2": strategy.bet2,
            "mistake": args.mistake,
            "value": result.value,
        }
        if args.policy:
            data["policy"] = _policy_rows(result.policy)
        print(json.dumps(data, indent=2))
        return 0
    console = Console()
    console.print(f"{args.file}: bets {strategy.bet1}/{strategy.bet2}")
    console.print(f"value {result.value:.8f} per hand (a perfect opponent wins {-result.value:.8f})")
    if args.policy:
        console.print("best response: the choice for each of your hands", highlight=False)
        print(f"{'situation':<52}" + "".join(f"{a}{b:<2}" for a, b in HANDS))
        for row in _policy_rows(result.policy):
            choice = row["choice"]
            assert isinstance(choice, dict)
            print(f"{row['call']!s:<52}" + "".join(f"{v:<3}" for v in choice.values()))
    return 0


def run_generate(args: argparse.Namespace) -> int:
    """``arena twocard generate``."""
    if args.iterations < 0:
        raise ConfigError(f"--iterations {args.iterations} must be >= 0")
    if (args.bet1 is None) != (args.bet2 is None):
        raise ConfigError("give both --bet1 and --bet2, or neither")
    if args.bet1 is None:
        draw = random.Random(args.seed)
        args.bet1 = draw.randint(1, 5)
        args.bet2 = draw.randint(args.bet1, 3 * args.bet1)
    check_bets(args.bet1, args.bet2)
    if not args.output.parent.is_dir():
        raise ConfigError(f"-o {args.output}: the folder {args.output.parent} does not exist")
    console = Console(stderr=True)
    columns = (
        TextColumn("[bold]generate"),
        BarColumn(),
        MofNCompleteColumn(),
        TextColumn("near-perfect value {task.fields[value]:+.5f}"),
        TimeRemainingColumn(),
    )
    with Progress(*columns, console=console) as progress:
        task = progress.add_task("generate", total=args.iterations, value=float("nan"))
        step = max(1, args.iterations // 500)

        def report(i: int, value: float) -> None:
            if i % step == 0 or i == args.iterations:
                progress.update(task, completed=i, value=value)

        result = generate(args.bet1, args.bet2, args.iterations, args.seed, on_iteration=report)
    write_strategy(result.strategy, args.output)
    print(
        f"{args.output}: bets {args.bet1}/{args.bet2}, {args.iterations} iterations "
        f"({result.accepted} improvements), value {result.value:.8f} "
        f"(near-perfect value {result.near_perfect_value:.8f})"
    )
    return 0


def run_play(args: argparse.Namespace) -> int:
    """``arena twocard play``: exit 1 when the program faulted or did not build (as ``arena headsup``)."""
    try:
        config = TwoCardSettings(
            hands=args.hands,
            seed=args.seed,
            deck_key=args.deck_key,
            time_limit_s=args.time_limit,
            give_strategy=args.give_strategy,
            interface=TwoCardInterface(args.interface) if args.interface else None,
        )
    except pydantic.ValidationError as error:
        raise ConfigError(describe_validation(error)) from None
    if args.out is not None:
        refuse_other_run(args.out, "arena twocard play")
    strategies = [(path, read_strategy(path)) for path in args.strategy]
    require_program(args.program)
    check_deck_options(args)
    if args.reveal_at_end and args.out is None:
        raise ConfigError("--reveal-at-end publishes the key of a run folder: give one with --out DIR")
    console = Console(stderr=True)
    decks = open_decks(config, args.out, len(strategies))
    say(console, decks.describe())
    columns = (
        TextColumn("[bold]{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeRemainingColumn(),
    )
    with Progress(*columns, console=console) as progress:
        names = [f"case {number} {path.name}" for number, (path, _) in enumerate(strategies, 1)]
        bars = [progress.add_task(name, total=config.hands) for name in names]
        result = play_match(
            args.program,
            strategies,
            config,
            out_dir=args.out,
            on_hand=lambda case, hands: progress.update(bars[case - 1], completed=hands),
            decks=decks,
        )
    if args.reveal_at_end:
        for line in reveal(args.out, [STAGE]):
            say(console, line)
    faulted = 1 if any(case.fault is not None for case in result.cases) or not result.cases else 0
    if args.json:
        print(json.dumps(result.to_dict(), indent=2))
        return faulted
    rows = [
        (
            str(case.case),
            Path(case.strategy).name,
            f"{case.bet1}/{case.bet2}",
            f"{case.value:.5f}",
            f"{case.profit:+d}",
            f"{case.best_expected_profit:+.0f}",
            f"{case.share:.0%}" if case.share is not None else "-",
            f"{case.score:.0f}",
            f"{case.time_s:.2f}",
        )
        for case in result.cases
    ]
    headers = ("case", "strategy", "bets", "value", "profit", "best\nexpected", "share", "score", "time\n(s)")
    title = f"{args.program.name} ({result.interface}): {len(result.cases)} test case(s)"
    table = fitting_table(title, headers, rows)
    out = Console()
    out.print(table)
    for case in result.cases:
        if case.fault is not None:
            out.print(  # the reason quotes the program: text, never markup
                f"case {case.case}: fault {case.fault.kind} at hand {case.fault.deal}: {case.fault.reason}",
                markup=False,
                highlight=False,
            )
    if result.build_output and not result.cases:
        out.print(result.build_output, markup=False, highlight=False)
    out.print(f"score {overall_score(result.cases):.2f} (average of the test cases)")
    if args.out is not None:
        out.print(f"results in {args.out / 'results.json'}")
    return faulted
