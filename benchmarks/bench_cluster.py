"""Tables on a Dask cluster against local worker processes: tables per second, overhead per table.

Run: ``python benchmarks/bench_cluster.py`` (``--teams``, ``--deals``, ``--rounds`` to choose).

The same tournament (small Perl teams, as in ``bench_scale.py``, so the arena's own cost shows) is
played four ways in one run: ``--jobs 1`` and ``--jobs 2`` (the reference, local worker processes), and
on a real ``dask scheduler`` with one and with two ``dask worker`` processes (``--nthreads 1`` each,
on this machine). The cluster's overhead per table is its extra wall time per table over the local run
with the same parallelism, as a share of the local time per table: the cost of sending programs,
deal reports and the packed table folder, and of the scheduler's round trips. Programs are built once
before timing (a warm-up tournament; each worker's first), so every way times playing. Each way is
timed ``--rounds`` times, alternating, and the median is printed. Last comes a projection of a 1000-deal
tournament for 200 and 1,000 teams from the measured time per table.
"""

from __future__ import annotations

import argparse
import os
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import distributed

from arena.tournament.host import TournamentSettings, run_tournament
from arena.tournament.schedule import plan_tournament

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_scale import make_programs

ROOT = Path(__file__).resolve().parent.parent


def start_cluster(folder: Path, workers: int) -> tuple[str, list[subprocess.Popen]]:
    """A scheduler and ``workers`` single-threaded workers on 127.0.0.1, each its own process group."""
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    folder.mkdir(parents=True)
    scheduler_file = folder / "scheduler.json"
    processes = [
        subprocess.Popen(
            [sys.executable, "-m", "distributed.cli.dask_scheduler", "--host", "127.0.0.1", "--port", "0",
             "--no-dashboard", "--scheduler-file", str(scheduler_file)],
            env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True,
        )
    ]  # fmt: skip
    while not scheduler_file.exists():  # the scheduler writes its address there once it listens
        try:
            processes[0].wait(timeout=0.2)
            raise SystemExit("the dask scheduler exited before it listened")
        except subprocess.TimeoutExpired:
            pass
    with distributed.Client(scheduler_file=str(scheduler_file), timeout="60s") as client:
        address = client.scheduler.address
        for i in range(workers):
            processes.append(
                subprocess.Popen(
                    [sys.executable, "-m", "distributed.cli.dask_worker", address, "--nthreads", "1",
                     "--no-nanny", "--no-dashboard", "--local-directory", str(folder / f"w{i}")],
                    env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True,
                )
            )  # fmt: skip
        client.wait_for_workers(workers, timeout=120)
    return address, processes


def stop(processes: list[subprocess.Popen]) -> None:
    for process in processes:
        if process.poll() is None:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait()


def timed(submissions: Path, settings: TournamentSettings, builds: Path, **where: object) -> float:
    """Wall seconds of one whole tournament in a fresh run folder whose build cache is ``builds``.

    A cluster worker keeps its build cache from one tournament to the next, so the local runs are given
    the build cache of a warm-up run too: both sides then time playing, not compiling.
    """
    with tempfile.TemporaryDirectory(prefix="bench-cluster-run-") as run:
        run_dir = Path(run) / "run"
        run_dir.mkdir()
        shutil.copytree(builds, run_dir / "builds", symlinks=True)
        started = time.perf_counter()
        report = run_tournament(submissions, run_dir, settings, **where)  # type: ignore[arg-type]
        elapsed = time.perf_counter() - started
    assert report.complete, report.failures
    return elapsed


def main() -> None:
    formatter = argparse.RawDescriptionHelpFormatter
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=formatter)
    parser.add_argument("--teams", type=int, default=12)
    parser.add_argument("--deals", type=int, default=300)
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    settings = TournamentSettings(deals=args.deals, seed=1, time_limit_s=5)
    load = os.getloadavg()[0]
    with tempfile.TemporaryDirectory(prefix="bench-cluster-") as scratch:
        folder = Path(scratch)
        submissions = folder / "submissions"
        make_programs(submissions, args.teams)
        tables = len(plan_tournament([f"T{i + 1:03d}" for i in range(args.teams)], seed=1))
        warm = folder / "warm-up"
        run_tournament(submissions, warm, settings, jobs=2)
        builds = warm / "builds"
        clusters = {n: start_cluster(folder / f"cluster{n}", n) for n in (1, 2)}
        try:
            for n in (1, 2):  # each worker builds the programs once, untimed
                timed(submissions, settings, builds, scheduler=clusters[n][0])
            times: dict[str, list[float]] = {}
            for _ in range(args.rounds):
                for n in (1, 2):
                    times.setdefault(f"--jobs {n}", []).append(timed(submissions, settings, builds, jobs=n))
                    address = clusters[n][0]
                    times.setdefault(f"cluster, {n} worker(s)", []).append(
                        timed(submissions, settings, builds, scheduler=address)
                    )
        finally:
            for _, processes in clusters.values():
                stop(processes)
    median = {way: statistics.median(values) for way, values in times.items()}
    print(f"{args.teams} teams, {tables} tables of {args.deals} deals, {args.rounds} rounds, "
          f"load average at start {load:.2f}")  # fmt: skip
    print(f"{'way':<24}{'wall s':>9}{'tables/s':>10}")
    for way, seconds in median.items():
        print(f"{way:<24}{seconds:9.2f}{tables / seconds:10.3f}")
    for n in (1, 2):
        local, remote = median[f"--jobs {n}"], median[f"cluster, {n} worker(s)"]
        per_table = (remote - local) / tables
        share = per_table / (local * n / tables)
        print(f"overhead per table with {n} worker(s): {per_table * 1000:+.0f} ms, "
              f"{share:+.1%} of a table's own time (ratio cluster/local {remote / local:.3f})")  # fmt: skip
    table_s = median["--jobs 1"] / tables * 1000 / args.deals
    print(f"projection at {table_s:.1f} s per 1000-deal table of these programs:")
    for teams in (200, 1000):
        count = len(plan_tournament([f"T{i:04d}" for i in range(teams)], seed=1))
        hours = count * table_s / 3600
        print(f"  {teams} teams: {count} tables, {hours:.1f} worker-hours; "
              f"{hours / 16:.2f} h on 16 worker processes, {hours / 64:.2f} h on 64")  # fmt: skip


if __name__ == "__main__":
    main()
