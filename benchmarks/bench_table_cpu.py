"""CPU per decision at a Code'em table against CPU per bare ``posix_spawn`` of the same program.

    python benchmarks/bench_table_cpu.py [--deals 300] [--rounds 3] [--python-deals 40]
                                         [--compare OLD_TREE]

A table of six copies of one program (``bots/codem/Tight.c``; then ``bots/codem/Caller.py`` with the
warm start) is played in a child process, and everything it costs is counted: the child's own CPU,
its sandbox helpers', the builds' and every program run's (``RUSAGE_CHILDREN`` of this process: all
reaped descendants); the table process's own CPU (``arena ms``: engine, files, events, its side of
the sandbox's socket) is printed beside it. The table is played twice, ``--deals`` + 10 deals and 10
deals, and the difference taken, which removes the interpreter start, the imports, the sandboxes and
the builds; the remainder is divided by the difference in program runs.

The reference, in another child process: the same compiled program (for Python: a fresh interpreter
with arena's flags on the script) started with ``os.posix_spawn`` and waited for, in a folder holding a
real decision's files, as many times as the table ran it (again that many + 10 and 10, subtracted); once
as a program is started by default (``bare``: the scheduler may run the child on another CPU) and once
with the child and its starter on one CPU (``bare 1cpu``), as arena runs a table (arena/sandbox/cores.py).

``--compare OLD_TREE`` also plays the tables with another checkout on ``PYTHONPATH`` (e.g. ``git
archive main | tar -x -C /tmp/old``): the old and the new tree (in a rotating order) and then the
reference run every round, so a paired ratio is not skewed by load that changes between runs. The
load average (1 minute) is printed with every round. Wall times are timed inside the children, from
the end of the set-up deals (or the first start) to the last deal (or start).
"""

from __future__ import annotations

import argparse
import json
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
SET_UP_DEALS = 10
PROGRAMS = {"c": ROOT / "bots" / "codem" / "Tight.c", "python": ROOT / "bots" / "codem" / "Caller.py"}


# ---- child processes --------------------------------------------------------------------------


def child_table(program: Path, deals: int, out: Path) -> None:
    """Play one table of six copies of ``program``; print its program runs as JSON."""
    from arena.games.codem.table import PlayerSpec, TableConfig, run_table

    programs = out / "programs"
    programs.mkdir(parents=True)
    players = []
    for i in range(1, 7):
        target = programs / f"P{i}{program.suffix}"
        shutil.copyfile(program, target)
        players.append(PlayerSpec(team=f"P{i}", program=target))
    marks: dict[int, float] = {}

    def mark(number: int) -> None:
        marks[number] = time.perf_counter()

    result = run_table(players, out / "table", TableConfig(deals=deals, seed=1, time_limit_s=5), on_deal=mark)
    played = marks[deals] - marks[SET_UP_DEALS] if deals > SET_UP_DEALS else 0.0
    own = resource.getrusage(resource.RUSAGE_SELF)
    print(
        json.dumps(
            {
                "runs": sum(t.decisions for t in result.teams),
                "wall_after_set_up": played,
                "own_cpu": own.ru_utime + own.ru_stime,
            }
        )
    )


def child_bare(argv: list[str], folder: Path, count: int, one_cpu: bool) -> None:
    """Start ``argv`` in ``folder`` ``count`` times with posix_spawn, one after another (all on one CPU
    when ``one_cpu``, as arena pins a table)."""
    if one_cpu:
        os.sched_setaffinity(0, {min(os.sched_getaffinity(0))})
    os.chdir(folder)
    env = dict(os.environ)
    start = time.perf_counter()
    for _ in range(count):
        pid = os.posix_spawn(argv[0], argv, env)
        os.waitpid(pid, 0)
    print(json.dumps({"runs": count, "wall": time.perf_counter() - start}))


# ---- measuring ----------------------------------------------------------------------------------


def _children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def measured(command: list[str], tree: Path) -> tuple[float, float, dict]:
    """(wall s, CPU s of the child and all it reaped, its JSON line) of one child run."""
    env = dict(os.environ, PYTHONPATH=str(tree))
    cpu = _children_cpu()
    start = time.perf_counter()
    done = subprocess.run(command, env=env, capture_output=True, text=True, check=False)
    wall = time.perf_counter() - start
    if done.returncode != 0:
        raise SystemExit(f"{' '.join(command)} failed:\n{done.stderr[-2000:]}")
    return wall, _children_cpu() - cpu, json.loads(done.stdout.strip().splitlines()[-1])


def table_cost(tree: Path, program: Path, deals: int, scratch: Path) -> tuple[float, float, int, Path, float]:
    """(wall s, CPU s, program runs) of ``deals`` deals after set-up, a team folder of the long table, and
    the CPU s of the table's own process (arena's side of the sandbox, without helpers and programs).

    The same seed plays the same first deals, so the short table's runs are the long one's first runs;
    the wall time is the long table's own, measured from the end of its set-up deals to its last deal.
    """
    figures = []
    for n in (deals + SET_UP_DEALS, SET_UP_DEALS):
        out = Path(tempfile.mkdtemp(dir=scratch))
        script = [sys.executable, __file__, "--child-table", str(program), str(n), str(out)]
        figures.append((*measured(script, tree), out))
    (long_wall, long_cpu, long_json, long_out), (short_wall, short_cpu, short_json, _) = figures
    runs = long_json["runs"] - short_json["runs"]
    del long_wall, short_wall  # builds and sandbox starts vary too much under load: timed in the child
    played = long_json["wall_after_set_up"]
    own = long_json["own_cpu"] - short_json["own_cpu"]
    return played, long_cpu - short_cpu, runs, long_out / "table" / "teams" / "P1", own


def bare_cost(argv: list[str], folder: Path, runs: int, one_cpu: bool) -> tuple[float, float]:
    """(wall s, CPU s) of ``runs`` bare starts after set-up."""
    figures = []
    for n in (runs + SET_UP_DEALS, SET_UP_DEALS):
        pinned = "1" if one_cpu else "0"
        script = [sys.executable, __file__, "--child-bare", str(folder), str(n), pinned, "--", *argv]
        _, cpu, reported = measured(script, ROOT)
        figures.append((reported["wall"], cpu))
    return figures[0][0] - figures[1][0], figures[0][1] - figures[1][1]


def bare_command(language: str, team_folder: Path, scratch: Path) -> tuple[list[str], Path]:
    """The bare reference's argv and folder: a copy of a team folder holding a real decision's files."""
    folder = Path(tempfile.mkdtemp(dir=scratch))
    for name in ("inputf.txt", "deals_money.txt", "deal.txt"):
        shutil.copyfile(team_folder / name, folder / name)
    if language == "c":
        binary = folder / "Tight"
        subprocess.run(["gcc", "-O2", "-o", binary, PROGRAMS["c"], "-lm"], check=True)
        return [str(binary)], folder
    shutil.copyfile(PROGRAMS["python"], folder / "Caller.py")
    return [str(Path(sys.executable).resolve()), "-E", "-s", "-B", "Caller.py"], folder


def compare(language: str, deals: int, rounds: int, trees: dict[str, Path], scratch: Path) -> None:
    program = PROGRAMS[language]
    print(f"\n{language}: six copies of {program.name}, {deals} deals (minus set-up), per decision")
    print(
        f"{'round':>5} {'load':>5} {'side':>10} {'runs':>6} {'CPU ms':>8} {'wall ms':>8} "
        f"{'CPU x':>7} {'wall x':>7} {'arena ms':>9}"
    )
    references = ("bare", "bare 1cpu")  # as a program is started by default, and on one CPU as arena's are
    ratios: dict[tuple[str, str], list[tuple[float, float]]] = {
        (name, reference): [] for name in trees for reference in references
    }
    argv: list[str] | None = None
    folder = scratch
    for n in range(rounds):
        load = os.getloadavg()[0]
        names = list(trees)
        names = names[n % len(names) :] + names[: n % len(names)]
        tables = {side: table_cost(trees[side], program, deals, scratch) for side in names}
        if argv is None:
            argv, folder = bare_command(language, next(iter(tables.values()))[3], scratch)
        runs = max(t[2] for t in tables.values())
        bare: dict[str, tuple[float, float]] = {}
        for reference in references:
            wall, cpu = bare_cost(argv, folder, runs, reference == "bare 1cpu")
            bare[reference] = (cpu / runs * 1000, wall / runs * 1000)
            label = f"{n + 1:>5} {load:>5.1f}" if reference == references[0] else f"{'':>5} {'':>5}"
            print(f"{label} {reference:>10} {runs:>6} {bare[reference][0]:>8.3f} {bare[reference][1]:>8.3f}")
        for name in trees:
            wall, cpu, table_runs, _, own = tables[name]
            cpu_ms, wall_ms = cpu / table_runs * 1000, wall / table_runs * 1000
            for reference in references:
                ratios[name, reference].append((cpu_ms / bare[reference][0], wall_ms / bare[reference][1]))
            cpu_x, wall_x = ratios[name, "bare"][-1]
            cpu_1, wall_1 = ratios[name, "bare 1cpu"][-1]
            print(
                f"{'':>5} {'':>5} {name:>10} {table_runs:>6} {cpu_ms:>8.3f} {wall_ms:>8.3f} "
                f"{cpu_x:>6.2f}x {wall_x:>6.2f}x {own / table_runs * 1000:>9.3f}   "
                f"(1cpu: {cpu_1:.2f}x {wall_1:.2f}x)"
            )
    for (name, reference), pairs in ratios.items():
        cpu = statistics.median(p[0] for p in pairs)
        wall = statistics.median(p[1] for p in pairs)
        print(
            f"{language} {name}: table / {reference}, median of {rounds} rounds: CPU {cpu:.2f}x, "
            f"wall {wall:.2f}x (goal: at most 1.3x)"
        )


def main() -> None:
    if len(sys.argv) > 1 and sys.argv[1] == "--child-table":
        child_table(Path(sys.argv[2]), int(sys.argv[3]), Path(sys.argv[4]))
        return
    if len(sys.argv) > 1 and sys.argv[1] == "--child-bare":
        child_bare(sys.argv[6:], Path(sys.argv[2]), int(sys.argv[3]), sys.argv[4] == "1")
        return
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--deals", type=int, default=300, help="deals of the C table after set-up")
    parser.add_argument("--python-deals", type=int, default=40, help="deals of the Python table (0: none)")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--compare", type=Path, help="another checkout to play the same tables with")
    args = parser.parse_args()
    trees = {"this tree": ROOT}
    if args.compare is not None:
        trees = {"old tree": args.compare.resolve(), "this tree": ROOT}
    print(f"load average at the start: {' '.join(f'{x:.1f}' for x in os.getloadavg())}")
    with tempfile.TemporaryDirectory(prefix="bench-table-cpu-") as scratch:
        compare("c", args.deals, args.rounds, trees, Path(scratch))
        if args.python_deals:
            compare("python", args.python_deals, args.rounds, trees, Path(scratch))
    print(f"load average at the end: {' '.join(f'{x:.1f}' for x in os.getloadavg())}")


if __name__ == "__main__":
    main()
