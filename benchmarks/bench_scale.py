"""Tournament scale: time for 12, 40 and 100 teams with --jobs 1 and 2, and a table's memory over 1000 deals.

Run: ``python benchmarks/bench_scale.py`` (``--quick``: 12 and 40 teams, 200-deal memory table; ``--teams``,
``--deals``, ``--memory-deals`` to choose).
``python benchmarks/bench_scale.py --duplicate-ci sample_tables --deals 10`` measures instead how much
duplicate mode narrows the 95% confidence intervals: one duplicate tournament (each table replayed with the
seats rotated) against six ordinary tournaments of the same table length with other seeds, pooled.

The teams are small Perl programs (a caller, a card-strength raiser and a folder), so the arena's own
cost is visible next to the programs'. Reference, measured in the same run: starting the same number of
program processes bare (``subprocess.run`` of the same Perl program, in the same folder layout, one after
another), i.e. what the tournament costs if the arena added nothing but process start-ups. The ratio
printed is tournament wall time over that reference (below 1 with --jobs 2 means the cores overlap).
"""

from __future__ import annotations

import argparse
import multiprocessing
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import psutil

from arena.games.codem.table import PlayerSpec, TableConfig, run_table
from arena.tournament.host import TournamentSettings, run_tournament
from arena.tournament.store import Store

CALLER = 'open(my $o, ">", "outputf.txt") or exit 0; print $o "0\\n";\n'
RAISER = """open(my $i, "<", "inputf.txt") or exit 0;
my @f = split ' ', scalar <$i>;
my ($a, $b) = (($f[0] - 1) % 13, ($f[1] - 1) % 13);
open(my $o, ">", "outputf.txt") or exit 0;
print $o (($a == $b || $a + $b >= 20) ? "20\\n" : "0\\n");
"""
FOLDER = """open(my $d, "<", "deal.txt") or exit 0;
my $text = do { local $/; <$d> };
exit 0 if $text =~ /Stage\\s+Show_Down/;
open(my $o, ">", "outputf.txt") or exit 0;
print $o "-10\\n";
"""
KINDS = (CALLER, RAISER, FOLDER)


def make_programs(folder: Path, teams: int) -> list[Path]:
    """``teams`` Perl programs T001.pl ... cycling through the three kinds."""
    folder.mkdir(parents=True, exist_ok=True)
    paths = []
    for i in range(teams):
        path = folder / f"T{i + 1:03d}.pl"
        path.write_text(KINDS[i % len(KINDS)])
        paths.append(path)
    return paths


def bare_starts(programs: list[Path], runs: int, workdir: Path) -> float:
    """Seconds to start ``runs`` program processes bare, one after another, cycling through the programs."""
    workdir.mkdir(parents=True, exist_ok=True)
    (workdir / "inputf.txt").write_text("12          37          2          10\n")
    (workdir / "deal.txt").write_text("Dealer         1\nStage          Flop\nMain_Pot       30\n")
    start = time.perf_counter()
    for i in range(runs):
        subprocess.run(["perl", str(programs[i % len(programs)])], cwd=workdir, check=True)
    return time.perf_counter() - start


def tournament(teams: int, jobs: int, deals: int, root: Path) -> tuple[float, int, int]:
    """(wall seconds, tables, program runs) of a whole tournament."""
    submissions = root / f"sub{teams}"
    if not submissions.exists():
        make_programs(submissions, teams)
    run_dir = root / f"run{teams}j{jobs}"
    start = time.perf_counter()
    report = run_tournament(
        submissions,
        run_dir,
        TournamentSettings(deals=deals, seed=1, time_limit_s=5.0),
        jobs=jobs,
    )
    if report.failures:
        raise SystemExit(f"{len(report.failures)} tables failed, first: {report.failures[0]}")
    wall = time.perf_counter() - start
    store = Store(run_dir)
    runs = sum(r.decisions for r in store.results())
    tables = len(store.tables())
    store.close()
    return wall, tables, runs


def _table_memory(root: str, deals: int, samples: multiprocessing.Queue) -> None:
    # Two callers and four folders: the callers check every deal down to a showdown while the folders only
    # pay blinds, so the table lasts all its deals (a random walk of 10-chip pots cannot bust a caller).
    folder = Path(root) / "mem"
    folder.mkdir(parents=True, exist_ok=True)
    programs = []
    for i, source in enumerate((CALLER, FOLDER, FOLDER, CALLER, FOLDER, FOLDER), start=1):
        programs.append(folder / f"M{i}.pl")
        programs[-1].write_text(source)
    process = psutil.Process()
    marks = {1, deals // 10, deals // 4, deals // 2, 3 * deals // 4, deals}

    def on_deal(number: int) -> None:
        if number in marks:
            samples.put((number, process.memory_info().rss))

    config = TableConfig(deals=deals, seed=7, time_limit_s=5.0)
    players = [PlayerSpec(p.stem, p) for p in programs]
    run_table(players, Path(root) / "memtable", config, on_deal=on_deal)
    samples.put(None)


def table_memory(root: Path, deals: int) -> list[tuple[int, int]]:
    """RSS of a fresh process playing one table, sampled at deals 1 .. ``deals``."""
    context = multiprocessing.get_context("spawn")
    samples = context.Queue()
    worker = context.Process(target=_table_memory, args=(str(root), deals, samples))
    worker.start()
    found = []
    while (item := samples.get()) is not None:
        found.append(item)
    worker.join()
    return found


def duplicate_ci(submissions: Path, deals: int, jobs: int, root: Path) -> None:
    """Print mean CI half-widths of a duplicate tournament and of ordinary ones of the same cost.

    Same cost: six ordinary tournaments (seeds S..S+5) of the same table length, pooled per team, play as
    many tables and deals as one duplicate tournament (every table six times, seats rotated).
    """
    from arena.intervals import mean_interval
    from arena.tournament.standings import observations

    def run(label: str, settings: TournamentSettings) -> Store:
        run_tournament(submissions, root / label, settings, jobs=jobs)
        return Store(root / label)

    start = time.perf_counter()
    store = run("duplicate", TournamentSettings(deals=deals, seed=3, duplicate=True, time_limit_s=5.0))
    duplicate = observations(store, duplicate=True)
    per_deal_on_duplicate = observations(store, duplicate=False)
    store.close()
    print(f"duplicate tournament: {time.perf_counter() - start:.1f} s")
    start = time.perf_counter()
    ordinary: dict[str, list[float]] = {}
    for seed in range(3, 9):
        store = run(f"ordinary{seed}", TournamentSettings(deals=deals, seed=seed, time_limit_s=5.0))
        for team, values in observations(store, duplicate=False).items():
            ordinary.setdefault(team, []).extend(values)
        store.close()
    print(f"six ordinary tournaments: {time.perf_counter() - start:.1f} s")
    widths: dict[str, list[float]] = {"duplicate": [], "ordinary": [], "per-deal on duplicate data": []}
    print(f"{'team':<10} {'duplicate':>22} {'ordinary':>22}")
    for team in sorted(duplicate):
        d_mean, d_low, d_high = mean_interval(duplicate[team])
        o_mean, o_low, o_high = mean_interval(ordinary[team])
        widths["duplicate"].append((d_high - d_low) / 2)
        widths["ordinary"].append((o_high - o_low) / 2)
        _m, p_low, p_high = mean_interval(per_deal_on_duplicate[team])
        widths["per-deal on duplicate data"].append((p_high - p_low) / 2)
        d_half, o_half = (d_high - d_low) / 2, (o_high - o_low) / 2
        print(f"{team:<10} {d_mean:+9.2f} ± {d_half:7.2f}   {o_mean:+9.2f} ± {o_half:7.2f}")
    for label, values in widths.items():
        print(f"mean 95% half-width, {label}: {statistics.mean(values):.2f} chips/deal")
    ratio = statistics.mean(widths["duplicate"]) / statistics.mean(widths["ordinary"])
    print(f"ratio duplicate / ordinary: {ratio:.2f}")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="12 and 40 teams only, 200-deal memory table")
    parser.add_argument("--deals", type=int, default=3, help="deals per tournament table (default 3)")
    parser.add_argument(
        "--teams", type=int, nargs="*", help="team counts (default 12 40 100; none: memory only)"
    )
    parser.add_argument("--memory-deals", type=int, default=1000, help="deals of the memory table (0: skip)")
    parser.add_argument(
        "--duplicate-ci", type=Path, metavar="SUBMISSIONS", help="measure duplicate mode's CIs"
    )
    parser.add_argument("--jobs", type=int, default=2, help="jobs for --duplicate-ci (default 2)")
    parser.add_argument(
        "--jobs-list", type=int, nargs="+", default=[1, 2], help="jobs to compare (default 1 2)"
    )
    args = parser.parse_args()
    if args.duplicate_ci is not None:
        with tempfile.TemporaryDirectory() as tmp:
            duplicate_ci(args.duplicate_ci, args.deals, args.jobs, Path(tmp))
        return 0
    sizes = args.teams if args.teams is not None else (12, 40) if args.quick else (12, 40, 100)
    memory_deals = 200 if args.quick else args.memory_deals
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        if sizes:
            print(f"tournament scale, {args.deals} deals a table, Perl programs, {psutil.cpu_count()} cores")
            print(
                f"{'teams':>5} {'jobs':>4} {'tables':>6} {'runs':>6} {'wall s':>8} {'ms/run':>7} "
                f"{'bare s':>7} {'ratio':>6}"
            )
        for teams in sizes:
            bare_by_runs: dict[int, float] = {}
            walls: list[float] = []
            for jobs in args.jobs_list:
                wall, tables, runs = tournament(teams, jobs, args.deals, root)
                walls.append(wall)
                if runs not in bare_by_runs:
                    programs = make_programs(root / f"sub{teams}", teams)
                    bare_by_runs[runs] = bare_starts(programs, runs, root / "bare")
                bare = bare_by_runs[runs]
                print(
                    f"{teams:>5} {jobs:>4} {tables:>6} {runs:>6} {wall:>8.1f} {1000 * wall / runs:>7.2f} "
                    f"{bare:>7.1f} {wall / bare:>6.2f}"
                )
            if len(walls) == 2:
                fast, slow = args.jobs_list[1], args.jobs_list[0]
                print(f"{'':>5} --jobs {fast} is {walls[0] / walls[1]:.2f}x faster than --jobs {slow}")
        samples = table_memory(root, memory_deals) if memory_deals else []
    if not samples:
        return 0
    print(
        f"\none table of six Perl programs (2 callers, 4 folders), {memory_deals} deals: RSS of its process"
    )
    for deal, rss in samples:
        print(f"  after deal {deal:>5}: {rss / 2**20:7.1f} MiB")
    later = [rss for deal, rss in samples if deal >= memory_deals // 4]
    growth = (max(later) - min(later)) / 2**20
    print(
        f"growth from deal {memory_deals // 4} to {memory_deals}: {growth:.1f} MiB "
        f"(median {statistics.median(later) / 2**20:.1f} MiB)"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
