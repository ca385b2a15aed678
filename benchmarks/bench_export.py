"""Export speed: a 1000-deal six-seat table in each format, against references measured in the same run.

The table is played on the engine by seeded random players (folds, calls, raises and all-ins; a seat that
busts buys in again so all six play every deal) and written as ``events.jsonl`` and ``results.json``,
exactly as ``arena table`` writes them. Each round times, interleaved so all see the same machine load:

* reading the table: ``read_table`` (reading and parsing ``events.jsonl`` into events), the reference;
* each format rendered from the events: PHH (every card), PokerStars (one team's view, and all six),
  ACPC;
* pokerkit's own ``HandHistory.dumps`` of the same hands (loaded once beforehand), a second reference.

Printed: seconds per 100 deals (median of the rounds) and each figure's ratio to reading the table.
The goal is well under a second per 100 deals for every format.

    python benchmarks/bench_export.py [--deals N] [--rounds R]
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from pokerkit import HandHistory

from arena.cards import shuffled_deck
from arena.engines.nlhe import CheckCall, Deal, Fold, RaiseTo, TableRules, next_dealer
from arena.engines.nlhe.events import event_to_dict
from arena.exports.acpc import render_acpc
from arena.exports.logs import TableLog, read_table
from arena.exports.phh import render_phh
from arena.exports.pokerstars import render_pokerstars

GOAL_S_PER_100 = 1.0
TEAMS = ("Pr0001", "Pr0002", "Pr0003", "Pr0004", "Pr0005", "Pr0006")


def write_table(folder: Path, deals: int, seed: int = 1) -> None:
    """Play ``deals`` deals with random players and write them as ``run_table`` does."""
    rng = random.Random(seed)
    rules = TableRules(seats=6)
    stacks = [rules.starting_stack] * 6
    dealer = 1
    with (folder / "events.jsonl").open("w") as out:
        for number in range(1, deals + 1):
            stacks = [chips or rules.starting_stack for chips in stacks]  # a busted seat buys in again
            deal = Deal(
                rules=rules,
                deal_number=number,
                dealer=dealer,
                stacks=stacks,
                deck=shuffled_deck(seed + number),
            )
            while not deal.is_over:
                roll = rng.random()
                if roll < 0.3 and not deal.can_check():
                    deal.apply(Fold())
                elif roll < 0.85 or not deal.can_raise():
                    deal.apply(CheckCall())
                elif roll < 0.97:
                    deal.apply(RaiseTo(deal.min_raise_to()))
                else:
                    deal.apply(RaiseTo(deal.max_raise_to()))
            out.write(json.dumps({"deal": number, "events": [event_to_dict(e) for e in deal.events]}) + "\n")
            stacks = list(deal.final_stacks)
            dealer = next_dealer(stacks, dealer)
    teams = [{"team": team, "seat": seat} for seat, team in enumerate(TEAMS, 1)]
    (folder / "results.json").write_text(json.dumps({"teams": teams}))


def timed(work: Callable[[], object]) -> float:
    start = time.perf_counter()
    work()
    return time.perf_counter() - start


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=1000)
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as scratch:
        folder = Path(scratch) / "table001"
        folder.mkdir()
        write_table(folder, args.deals)
        log: TableLog = read_table(folder)
        histories = list(HandHistory.loads_all(render_phh(log)))
        work: dict[str, Callable[[], object]] = {
            "read events.jsonl (reference)": lambda: read_table(folder),
            "PHH, every card": lambda: render_phh(log),
            "PokerStars, one team's view": lambda: render_pokerstars(log, team=TEAMS[0]),
            "PokerStars, all six views": lambda: [render_pokerstars(log, team=t) for t in TEAMS],
            "ACPC": lambda: render_acpc(log),
            "pokerkit HandHistory.dumps (reference)": lambda: [hh.dumps() for hh in histories],
        }
        times: dict[str, list[float]] = {name: [] for name in work}
        for _ in range(args.rounds):
            for name, job in work.items():
                times[name].append(timed(job))
    per_100 = {name: statistics.median(values) * 100 / args.deals for name, values in times.items()}
    reference = per_100["read events.jsonl (reference)"]
    print(
        f"{args.deals} deals, six seats, median of {args.rounds} interleaved rounds; "
        f"load {os.getloadavg()[0]:.2f}"
    )
    print(f"{'':42} {'s / 100 deals':>14} {'x reading':>10}")
    for name, seconds in per_100.items():
        print(f"{name:42} {seconds:14.4f} {seconds / reference:10.2f}")
    slowest = max(seconds for name, seconds in per_100.items() if "reference" not in name)
    verdict = "within" if slowest < GOAL_S_PER_100 else "OVER"
    print(f"slowest format {slowest:.4f} s per 100 deals: {verdict} the goal of {GOAL_S_PER_100} s")
    return 0 if slowest < GOAL_S_PER_100 else 1


if __name__ == "__main__":
    sys.exit(main())
