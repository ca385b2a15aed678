"""A 1000-deal Code'em table of six compiled C programs, against the bare cost of its process starts.

    python benchmarks/bench_table.py [--deals 1000] [--languages]

Reference, measured in the same run: ``subprocess.run`` of the same compiled program, bare (no
sandbox, no files), times the number of program runs the table made. The ratio is the whole arena
(engine, files, sandbox, events, deal files) per program run against a bare process start.
With ``--languages`` it also plays the six sample bots (one per language) and reports where the time
goes per language (median and p99 wall ms per decision).
"""

from __future__ import annotations

import argparse
import json
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from arena.games.codem.table import PlayerSpec, TableConfig, run_table  # noqa: E402

BOT = ROOT / "bots" / "codem" / "Tight.c"
SIX = ["Caller.py", "Tight.c", "Raiser.cpp", "Bluffer.pl", "Tracker.rb", "Equity.java"]


def bare_run_ms(workdir: Path, samples: int = 300) -> float:
    """Median ms of a bare subprocess.run of the compiled bot, given the files of a real decision."""
    binary = workdir / "Tight"
    subprocess.run(["gcc", "-O2", "-o", str(binary), str(BOT), "-lm"], check=True)
    times = []
    for _ in range(samples):
        start = time.perf_counter()
        subprocess.run([str(binary)], cwd=workdir, check=False)
        times.append((time.perf_counter() - start) * 1000)
    return statistics.median(times)


def c_table(deals: int, tmp: Path) -> None:
    programs = tmp / "programs"
    programs.mkdir()
    players = []
    for i in range(1, 7):
        target = programs / f"C{i}.c"
        shutil.copyfile(BOT, target)
        players.append(PlayerSpec(team=f"C{i}", program=target))
    out = tmp / "table"
    start = time.perf_counter()
    result = run_table(players, out, TableConfig(deals=deals, seed=1))
    wall = time.perf_counter() - start
    runs = sum(t.decisions for t in result.teams)
    sample_dir = out / "teams" / "C1"
    bare = bare_run_ms(sample_dir)
    reference = runs * bare / 1000
    print(
        f"six C programs, {result.deals_played} deals: {wall:.1f} s wall, {runs} program runs "
        f"({wall / runs * 1000:.2f} ms per run); isolation {result.isolation}"
    )
    print(f"reference: bare subprocess.run {bare:.2f} ms x {runs} runs = {reference:.1f} s")
    print(
        f"ratio arena/bare: {wall / reference:.2f}x   goal: table under 30 s -> "
        f"{'met' if wall < 30 else 'NOT met'}"
    )


def language_table(deals: int, tmp: Path) -> None:
    players = [PlayerSpec(team=Path(n).stem, program=ROOT / "bots" / "codem" / n) for n in SIX]
    start = time.perf_counter()
    result = run_table(players, tmp / "six", TableConfig(deals=deals, seed=1, time_limit_s=5))
    wall = time.perf_counter() - start
    print(f"\nsix sample bots (one per language), {result.deals_played} deals: {wall:.1f} s wall")
    print(f"{'team':<10}{'runs':>8}{'median ms':>11}{'p99 ms':>9}{'cpu ms':>9}{'share':>8}")
    total = sum(t.decisions * t.timing["median_ms"] for t in result.teams) or 1
    for t in result.teams:
        share = t.decisions * t.timing["median_ms"] / total
        print(
            f"{t.team:<10}{t.decisions:>8}{t.timing['median_ms']:>11.1f}{t.timing['p99_ms']:>9.1f}"
            f"{t.timing['cpu_median_ms']:>9.1f}{share:>8.0%}"
        )
    print(json.dumps({"wall_s": round(wall, 1), "deals": result.deals_played}))


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--deals", type=int, default=1000)
    parser.add_argument("--languages", action="store_true", help="also time the six-language sample table")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        c_table(args.deals, Path(tmp))
        if args.languages:
            language_table(args.deals, Path(tmp))


if __name__ == "__main__":
    main()
