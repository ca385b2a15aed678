"""Formats for large fields measured: simulated contests of 1,000 teams with known true strengths.

    python benchmarks/bench_formats.py [--teams 1000] [--contests 200] [--spread 10] [--cores 100]
                                       [--noise-tables 60] [--cpu-deals 60] [--progress K]
                                       [--formats round-robin,swiss,groups] [--table-cpu S,S]
                                       [--value adjusted|chips] [--noise S] [--budget TABLES]
                                       [--round-tables N]

The hour on 100 cores is measured with ``--formats swiss --round-tables 100 --budget 4000`` (every round
one wave of the cluster; docs/tournament.md, "Large fields").

1. The noise: ``--noise-tables`` engine tables of six equal scripted policies, 1000 deals each
   (``arena.tournament.scripted.table_noise``): the standard deviation of a team's profit per deal at a
   table, the luck the statistical table model adds (``arena.tournament.simulate``), in chips and in the
   luck-adjusted value at the same tables; the contests use the one ``--value`` names (``adjusted``, what a
   swiss or groups tournament rates teams by), or ``--noise`` as an earlier run measured it.
2. The CPU of a real table: six sample programs (``sample_tables/``: Python, C, C++, Perl, Ruby and Java,
   or C in Java's place)
   at a real sandboxed table in a child process, played for ``--cpu-deals`` + 10 deals and for 10 deals;
   the difference (everything the child and its sandboxes used: builds, start-up and imports cancel)
   scaled to 1000 deals is the CPU of a table.
3. ``--contests`` contests of ``--teams`` teams, true strengths normal with standard deviation
   ``--spread`` chips a deal, for round-robin (its table count, Schönheim's bound) and each new format
   with its default budget: how often the six finalists are exactly the six strongest teams, Kendall's
   tau of the whole ranking against the true order, the tables played (and their ratio to round-robin's),
   and the wall time on ``--cores`` worker cores: each round's tables in waves of ``--cores``, a wave
   taking one table's CPU (a round waits for its results before the next is planned).
"""

from __future__ import annotations

import argparse
import math
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
MIXES = {
    "six languages": ["Pr0001.py", "Pr0002.c", "Pr0003.cpp", "Pr0004.pl", "Pr0005.rb", "Pr0006.java"],
    "no Java": ["Pr0001.py", "Pr0002.c", "Pr0003.cpp", "Pr0004.pl", "Pr0005.rb", "Pr0008.c"],
}
SET_UP_DEALS = 10


def child_table(deals: int, out: Path, samples: list[str]) -> None:
    """Play one table of six sample programs for ``deals`` deals."""
    from arena.games.codem.table import PlayerSpec, TableConfig, run_table

    programs = out / "programs"
    programs.mkdir(parents=True)
    players = []
    for name in samples:
        target = programs / name
        shutil.copyfile(ROOT / "sample_tables" / name, target)
        players.append(PlayerSpec(team=target.stem, program=target))
    config = TableConfig(deals=deals, seed=1, time_limit_s=5.0, build_cache=out / "builds")
    result = run_table(players, out / "table", config)
    print(result.deals_played)


def table_cpu(deals: int, samples: list[str]) -> tuple[float, int]:
    """CPU seconds of a ``deals``-deal table of ``samples`` (child + descendants) and the deals played."""
    with tempfile.TemporaryDirectory() as folder:
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        done = subprocess.run(
            [sys.executable, __file__, "--child-table", str(deals), folder, ",".join(samples)],
            check=True,
            capture_output=True,
            text=True,
            env={**os.environ, "PYTHONPATH": str(ROOT)},
        )
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return cpu, int(done.stdout.split()[-1])


def wall_hours(rounds: list[int], table_s: float, cores: int) -> float:
    """Each round in waves of ``cores`` tables, a wave one table long."""
    return sum(math.ceil(tables / cores) for tables in rounds) * table_s / 3600


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--teams", type=int, default=1000)
    parser.add_argument("--contests", type=int, default=200)
    parser.add_argument("--spread", type=float, default=10.0)
    parser.add_argument("--cores", type=int, default=100)
    parser.add_argument("--noise-tables", type=int, default=60)
    parser.add_argument("--cpu-deals", type=int, default=60)
    parser.add_argument(
        "--formats", default="round-robin,swiss,groups", help="which formats to simulate (comma-separated)"
    )
    parser.add_argument(
        "--table-cpu",
        metavar="S,S",
        help="the seconds of a table per mix, as an earlier run measured them (skips step 2)",
    )
    parser.add_argument(
        "--value", choices=("adjusted", "chips"), default="adjusted", help="whose noise the contests use"
    )
    parser.add_argument("--noise", type=float, help="the noise a deal, as an earlier run measured it")
    parser.add_argument(
        "--budget", type=int, help="the most tables of swiss or groups (default: a fifth of RR)"
    )
    parser.add_argument(
        "--round-tables", type=int, help="swiss: tables in every round after the first (default: n/6 in legs)"
    )
    parser.add_argument("--progress", type=int, default=0, metavar="K", help="a line every K contests")
    parser.add_argument(
        "--first", type=int, default=0, metavar="C", help="the first contest's number (split a run in parts)"
    )
    parser.add_argument("--child-table", nargs=3, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child_table:
        child_table(int(args.child_table[0]), Path(args.child_table[1]), args.child_table[2].split(","))
        return

    from arena.tournament.formats import Format, default_budget, round_robin_tables
    from arena.tournament.scripted import table_noise
    from arena.tournament.simulate import normal_field, simulate

    if args.noise is not None:
        noise = args.noise
        print(f"noise as measured before: {noise:.3f} a deal ({args.value})")
    else:
        started = time.process_time()
        noises = {
            value: table_noise(args.noise_tables, 1000, seed=2026, adjusted=value == "adjusted")
            for value in ("chips", "adjusted")
        }
        print(
            f"noise: {noises['chips']:.3f} chips a deal, {noises['adjusted']:.3f} adjusted (one team at a "
            f"1000-deal table of six equal scripted policies, {args.noise_tables} tables, "
            f"{time.process_time() - started:.1f} s CPU); the contests use {args.value}",
            flush=True,
        )
        noise = noises[args.value]

    table_s: dict[str, float] = {}
    if args.table_cpu:
        table_s = dict(zip(MIXES, (float(s) for s in args.table_cpu.split(",")), strict=True))
        print(f"table CPU as measured before: {table_s}")
    for mix, samples in MIXES.items() if not table_s else ():
        long_cpu, long_deals = table_cpu(args.cpu_deals + SET_UP_DEALS, samples)
        short_cpu, short_deals = table_cpu(SET_UP_DEALS, samples)
        per_deal = (long_cpu - short_cpu) / max(1, long_deals - short_deals)
        table_s[mix] = 1000 * per_deal
        print(
            f"table CPU ({mix}: {', '.join(samples)}): {long_cpu:.1f} s for {long_deals} deals, "
            f"{short_cpu:.1f} s for {short_deals}: {per_deal * 1000:.1f} ms a deal, "
            f"{table_s[mix]:.0f} s a 1000-deal table",
            flush=True,
        )
    load = os.getloadavg()[0]
    rr_tables = round_robin_tables(args.teams)
    budget = args.budget or default_budget(args.teams)
    print(
        f"{args.contests} contests of {args.teams} teams, strengths normal (sd {args.spread} chips a deal); "
        f"round-robin {rr_tables} tables, budget {budget}; load average {load:.1f}"
    )
    header = f"{'format':<12} {'top six exact':>13} {'tau':>6} {'tables':>8} {'max':>6} {'x RR':>6} "
    print(header + f"{'rounds':>6} " + " ".join(f"{'h ' + mix:>16} {'max':>5}" for mix in MIXES))
    for format in (Format(name) for name in args.formats.split(",")):
        exact, taus, tables, rounds = 0, [], [], []
        hours: dict[str, list[float]] = {mix: [] for mix in MIXES}
        for done, contest in enumerate(range(args.first, args.first + args.contests)):
            strengths = normal_field(args.teams, args.spread, seed=contest)
            outcome = simulate(
                format, strengths, noise, seed=contest, budget=budget, round_tables=args.round_tables
            )
            exact += outcome.top_six_exact
            taus.append(outcome.kendall_tau)
            tables.append(outcome.tables)
            played = [rr_tables] if format is Format.ROUND_ROBIN else outcome.rounds
            rounds.append(len(played))
            for mix, seconds in table_s.items():
                hours[mix].append(wall_hours(played, seconds, args.cores))
            if (args.progress and (done + 1) % args.progress == 0) or done + 1 == args.contests:
                label = format if done + 1 == args.contests else f"  {done + 1}"
                print(row(label, exact / (done + 1), taus, tables, rr_tables, rounds, hours), flush=True)


def row(
    label: str,
    exact: float,
    taus: list[float],
    tables: list[int],
    rr_tables: int,
    rounds: list[int],
    hours: dict[str, list[float]],
) -> str:
    """One line of the figures (a format's, or a running one every ``--progress`` contests)."""
    mean_tables = statistics.fmean(tables)
    return (
        f"{label:<12} {exact:>13.1%} {statistics.fmean(taus):>6.3f} {mean_tables:>8.0f} "
        f"{max(tables):>6} {mean_tables / rr_tables:>6.3f} {statistics.fmean(rounds):>6.1f} "
        + " ".join(f"{statistics.fmean(h):>16.2f} {max(h):>5.2f}" for h in hours.values())
    )


if __name__ == "__main__":
    main()
