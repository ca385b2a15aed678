"""Heads-up judge CPU per hand, for the texas.h statement's example1 and example2, against a plain-Python Bob.

Each player plays a real match (sandboxed program, line session) twice in the same run: with the
judge as shipped (vectorised ``arena.evaluator.rollouts`` for Bob and RATE), and with the readable
plain-Python rollouts of ``arena.games.headsup.reference`` as the same-run reference. The figure is the judge
process's own CPU time (``time.process_time``) per hand; the player's CPU is not in it.

    python benchmarks/bench_headsup.py [--hands N] [--reference-hands M] [--seed S]
"""

from __future__ import annotations

import argparse
from pathlib import Path

from rich.console import Console
from rich.table import Table

from arena.games.headsup.match import HeadsUpSettings, MatchReport, play_headsup
from arena.games.headsup.reference import naive_outcomes, naive_rates

BOTS = Path(__file__).resolve().parent.parent / "bots" / "headsup"
PLAYERS = ("example1.cpp", "example2.cpp")
GOAL_S = 10.0  # issue 5: a 10,000-hand match of example2 well under 10 s of judge CPU


def per_hand_ms(report: MatchReport) -> float:
    """The judge's CPU per played hand, in milliseconds."""
    return report.judge_cpu_s / max(1, len(report.outcome.deltas)) * 1000


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=10_000, help="hands per match with the shipped judge")
    parser.add_argument(
        "--reference-hands",
        type=int,
        default=500,
        help="hands per match with the plain-Python reference (it is slow)",
    )
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    console = Console()
    table = Table(title="heads-up judge CPU per hand")
    for column in (
        "player",
        "hands",
        "judge CPU s",
        "ms/hand",
        "Bob raises",
        "RATE rollouts",
        "reference ms/hand",
        "speed-up",
    ):
        table.add_column(column, justify="right")
    verdicts = []
    for name in PLAYERS:
        program = BOTS / name
        console.print(f"[bold]{name}[/]: {args.hands} hands with the shipped judge ...")
        fast = play_headsup(program, HeadsUpSettings(hands=args.hands, seed=args.seed, time_limit_s=60))
        console.print(f"[bold]{name}[/]: {args.reference_hands} hands with the plain-Python reference ...")
        slow = play_headsup(
            program,
            HeadsUpSettings(hands=args.reference_hands, seed=args.seed, time_limit_s=60),
            bob_outcomes=naive_outcomes,
            rates=naive_rates,
        )
        for report in (fast, slow):
            if not report.scored:
                raise SystemExit(f"{name}: the match did not finish: {report.fault}")
        ratio = per_hand_ms(slow) / per_hand_ms(fast)
        table.add_row(
            name,
            str(args.hands),
            f"{fast.judge_cpu_s:.2f}",
            f"{per_hand_ms(fast):.3f}",
            str(fast.outcome.raises),
            str(fast.outcome.rate_used),
            f"{per_hand_ms(slow):.3f}",
            f"{ratio:.1f}x",
        )
        projected = per_hand_ms(fast) * 10_000 / 1000
        verdicts.append(
            f"{name}: {projected:.2f} s of judge CPU projected for 10,000 hands "
            f"(goal: well under {GOAL_S:g} s)"
        )
    console.print(table)
    for line in verdicts:
        console.print(line)


if __name__ == "__main__":
    main()
