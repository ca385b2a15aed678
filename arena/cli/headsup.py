"""``arena headsup PROGRAM``: play heads-up hold'em against the Monte-Carlo opponent Bob."""

from __future__ import annotations

import argparse
from pathlib import Path

import pydantic
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

from arena.cli.decks import add_deck_options, check_deck_options
from arena.cli.options import describe_validation, folder, refuse_other_run, require_program
from arena.cli.say import say
from arena.decks.commitment import reveal
from arena.errors import ConfigError
from arena.games.headsup.judge import HandRecord, JudgeConfig
from arena.games.headsup.match import STAGE, HeadsUpSettings, MatchReport, open_decks, play_headsup
from arena.games.headsup.player import HeadsUpInterface
from arena.sandbox.isolation import LEVELS

PROGRESS_EVERY = 50


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add the ``headsup`` sub-command."""
    parser = subparsers.add_parser(
        "headsup",
        help="play heads-up hold'em against Bob (the line protocol, texas.h or Python)",
        description="Judge a program on the heads-up line protocol (lines), a texas.h C++ program (texas) "
        "or a Python module "
        "defining make_decision(state) (python) against Bob, the 100-rollout Monte-Carlo opponent.",
    )
    parser.add_argument("program", type=Path, help="the player's source file")
    parser.add_argument("--hands", type=int, default=10_000, help="hands to play, G (default 10000)")
    add_deck_options(parser)
    parser.add_argument("--rate-budget", type=int, default=3_000_000, help="total RATE rollouts allowed")
    parser.add_argument(
        "--time-limit",
        type=float,
        default=10.0,
        metavar="SECONDS",
        help="the player's CPU time for the whole match (default 10)",
    )
    parser.add_argument(
        "--interface",
        choices=[i.value for i in HeadsUpInterface],
        default=None,
        help="how the program talks (guessed from the file when not given)",
    )
    parser.add_argument(
        "--out",
        type=folder,
        default=None,
        metavar="DIR",
        help="folder for results.json and the per-hand log hands.jsonl",
    )
    parser.add_argument(
        "--isolation",
        default="auto",
        choices=LEVELS,
        help="sandbox isolation: auto, namespaces or rlimits-only",
    )
    parser.set_defaults(handler=run)


def _settings(args: argparse.Namespace) -> HeadsUpSettings:
    try:
        return HeadsUpSettings(
            hands=args.hands,
            seed=args.seed,
            deck_key=args.deck_key,
            rate_budget=args.rate_budget,
            time_limit_s=args.time_limit,
            interface=HeadsUpInterface(args.interface) if args.interface else None,
            isolation=args.isolation,
        )
    except pydantic.ValidationError as error:
        raise ConfigError(describe_validation(error)) from None


def run(args: argparse.Namespace) -> int:
    """Play the match with a progress bar, print the figures; exit 1 when the program faulted."""
    settings = _settings(args)
    require_program(args.program)
    check_deck_options(args)
    if args.reveal_at_end and args.out is None:
        raise ConfigError("--reveal-at-end publishes the key of a run folder: give one with --out DIR")
    if args.out is not None:
        refuse_other_run(args.out, "arena headsup")
    console = Console(stderr=True)
    decks = open_decks(settings, args.out)
    say(console, decks.describe())
    say(console, f"headsup: {args.program.name} against Bob, {settings.hands} hands")
    with Progress(
        TextColumn("[bold]headsup[/] {task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TextColumn("W {task.fields[w]:+.2f}"),
        TimeElapsedColumn(),
        console=console,
        transient=True,
    ) as progress:
        task = progress.add_task(args.program.name, total=settings.hands, w=0.0)
        total = [0, 0]

        def on_hand(hand: HandRecord) -> None:
            total[0] += hand.delta
            total[1] += 1
            if total[1] % PROGRESS_EVERY == 0 or total[1] == settings.hands:
                progress.update(task, completed=total[1], w=total[0] / total[1])

        report = play_headsup(args.program, settings, args.out, on_hand=on_hand, decks=decks)
    _print(report, args.out)
    if args.reveal_at_end and args.out is not None:
        for line in reveal(args.out, [STAGE]):
            print(line)
    return 0 if report.scored else 1


def _decks(config: JudgeConfig) -> str:
    return f"seed {config.seed}" if config.secret is None else "secret deck key"


def _print(report: MatchReport, out: Path | None) -> None:
    out_ = report.outcome
    w = report.w
    lines = [
        f"program        {report.program} ({report.interface.value})",
        f"hands          {len(out_.deltas)} of {out_.config.hands} ({_decks(out_.config)})",
        f"W              {w.mean:.3f}  95% CI [{w.low:.3f}, {w.high:.3f}]",
        f"points         {report.points}"
        + ("" if report.scored else "  (not scored: the match did not finish within the rules)"),
        f"Bob call rate  {report.call_rate:.3f} ({out_.calls} calls of {out_.raises} raises)",
        f"RATE rollouts  {out_.rate_used} of {out_.config.rate_budget} ({out_.rate_queries} queries)",
        f"player time    {report.player_cpu_s:.2f} s CPU of {report.time_limit_s:g} s "
        f"({out_.think_s:.2f} s waited on replies, at most {out_.config.reply_wait_s:g} s for one)",
        f"judge time     {report.judge_cpu_s:.2f} s CPU "
        f"({report.judge_cpu_s / max(1, len(out_.deltas)) * 1e3:.3f} ms a hand)",
    ]
    if report.fault is not None:
        f = report.fault
        where = f"hand {f.deal}" + (f", {f.stage}" if f.stage else "")
        lines.append(f"fault          {f.kind.value} at {where}: {f.reason}")
    if out is not None:
        lines.append(f"files          {out / 'results.json'}, {out / 'hands.jsonl'}")
    print("\n".join(lines))
