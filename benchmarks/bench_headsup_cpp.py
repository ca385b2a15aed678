"""Heads-up: arena's judge against a C++ interactor written to statement 001's rules, on the same player.

    python benchmarks/bench_headsup_cpp.py [--hands 10000] [--rounds 3] [--player bots/headsup/example2.cpp]

Both judges play the same texas.h player (built once with arena's ``texas_driver.cpp``, as arena builds
it, ``g++ -O2``), interleaved in one process, the order swapped every round:

* arena: :func:`arena.games.headsup.match.play_headsup` in this process (sandbox, build, line session,
  judge, per-hand log); the package is imported and its tables built by a warm-up match first;
* C++: ``benchmarks/headsup_interactor.cpp`` (built here with ``g++ -O2``) starting the bare player,
  run twice: as started by default (the scheduler spreads the interactor and the player over the
  CPUs) and pinned to one CPU (``c++ 1cpu``: the best it can do, as arena pins a match, see
  ``arena/sandbox/cores.py``).

Each side plays a match of ``--hands`` hands and one of ``--short`` hands; the difference takes out
what does not grow with the hands (arena: the sandbox, the player's build; C++: the player's start), so
the judged figure is per hand played (the set-up, a build under load, varies by seconds: use 2,000 hands
or more). CPU counts everything: this process (``RUSAGE_SELF``) and every
reaped child (``RUSAGE_CHILDREN``: the sandbox helper, the player, the interactor). The load average is
printed with every round. The two judges draw different random streams, so their W differ within noise.
"""

from __future__ import annotations

import argparse
import os
import re
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from arena.games.headsup.match import HeadsUpSettings, play_headsup  # noqa: E402
from arena.games.headsup.player import TEXAS  # noqa: E402

INTERACTOR = Path(__file__).resolve().parent / "headsup_interactor.cpp"


def _cpu() -> tuple[float, float]:
    """(this process's CPU, reaped children's CPU) in seconds."""
    own = resource.getrusage(resource.RUSAGE_SELF)
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime, children.ru_utime + children.ru_stime


def _load() -> float:
    return os.getloadavg()[0]


def build(player: Path, tmp: Path) -> tuple[Path, Path]:
    """The interactor and the bare player, compiled with ``g++ -O2`` (arena's flags for C++)."""
    interactor = tmp / "interactor"
    subprocess.run(["g++", "-O2", "-pipe", "-std=c++17", "-o", interactor, INTERACTOR], check=True)
    folder = tmp / "player"
    folder.mkdir()
    for name in ("texas.h", "texas_driver.cpp"):
        (folder / name).write_bytes(TEXAS.joinpath(name).read_bytes())
    shutil.copyfile(player, folder / "player.cpp")
    binary = folder / "player"
    subprocess.run(
        ["g++", "-O2", "-pipe", "-std=c++17", "-o", binary, "player.cpp", "texas_driver.cpp", "-lm"],
        cwd=folder,
        check=True,
    )
    return interactor, binary


def run_arena(player: Path, hands: int, seed: int) -> tuple[float, float, float]:
    """(wall s, all CPU s, W) of one arena match."""
    cpu0 = sum(_cpu())
    start = time.perf_counter()
    report = play_headsup(player, HeadsUpSettings(hands=hands, seed=seed, time_limit_s=60))
    wall = time.perf_counter() - start
    if not report.scored:
        raise SystemExit(f"arena's match did not finish: {report.fault}")
    return wall, sum(_cpu()) - cpu0, report.w.mean


def _one_cpu() -> None:
    """In the interactor's process before it starts: run on the CPU this process is on now."""
    os.sched_setaffinity(0, {sorted(os.sched_getaffinity(0))[0]})


def run_cpp(
    interactor: Path, binary: Path, hands: int, seed: int, *, pinned: bool = False
) -> tuple[float, float, float]:
    """(wall s, all CPU s, W) of one match under the C++ interactor (on one CPU when ``pinned``)."""
    cpu0 = sum(_cpu())
    start = time.perf_counter()
    done = subprocess.run(
        [interactor, str(hands), str(seed), binary],
        capture_output=True,
        text=True,
        cwd=binary.parent,
        preexec_fn=_one_cpu if pinned else None,
    )
    wall = time.perf_counter() - start
    found = re.search(r"W=(\S+)", done.stderr)
    if done.returncode != 0 or found is None:
        raise SystemExit(f"the C++ interactor failed: {done.stderr.strip()}")
    return wall, sum(_cpu()) - cpu0, float(found.group(1))


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--hands", type=int, default=10_000)
    parser.add_argument("--short", type=int, default=10, help="hands of the match subtracted (set-up)")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--player", type=Path, default=ROOT / "bots" / "headsup" / "example2.cpp")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="bench-headsup-cpp-") as scratch:
        interactor, binary = build(args.player, Path(scratch))
        run_arena(args.player, 50, args.seed)  # warm-up: imports, the evaluator's tables, caches
        sides = ("arena", "c++", "c++ 1cpu")
        ratios: dict[str, list[tuple[float, float]]] = {side: [] for side in sides[1:]}
        print(
            f"{'round':>5} {'load':>5} {'side':>8} {'wall s':>8} {'CPU s':>8} {'W':>8}  "
            f"(per {args.hands} hands, minus a {args.short}-hand match)"
        )
        for n in range(args.rounds):
            load = _load()
            seed = args.seed + n
            order = sides[n % 3 :] + sides[: n % 3]  # rotated, so no side always runs first
            figures: dict[str, tuple[float, float, float]] = {}
            for side in order:
                if side == "arena":
                    long_wall, long_cpu, w = run_arena(args.player, args.hands, seed)
                    short_wall, short_cpu, _ = run_arena(args.player, args.short, seed)
                else:
                    pinned = side == "c++ 1cpu"
                    long_wall, long_cpu, w = run_cpp(interactor, binary, args.hands, seed, pinned=pinned)
                    short_wall, short_cpu, _ = run_cpp(interactor, binary, args.short, seed, pinned=pinned)
                figures[side] = (long_wall - short_wall, long_cpu - short_cpu, w)
            for side in sides:
                wall, cpu, w = figures[side]
                print(f"{n + 1:>5} {load:>5.1f} {side:>8} {wall:>8.2f} {cpu:>8.2f} {w:>8.3f}")
            if min(figure[0] for figure in figures.values()) <= 0:
                print("      the set-up varied more than the match took: use more --hands (2,000 or more)")
            for side in sides[1:]:
                wall_ratio = figures["arena"][0] / figures[side][0]
                cpu_ratio = figures["arena"][1] / figures[side][1]
                ratios[side].append((wall_ratio, cpu_ratio))
                print(f"{'':>11} arena/{side:<8} {wall_ratio:>6.2f}x {cpu_ratio:>7.2f}x")
        for side in sides[1:]:
            walls = [wall for wall, _ in ratios[side]]
            cpus = [cpu for _, cpu in ratios[side]]
            print(
                f"arena / {side}, median of {args.rounds} paired rounds: "
                f"wall {statistics.median(walls):.2f}x, CPU {statistics.median(cpus):.2f}x"
            )
        print(f"(goal: wall at most 1.0x the C++ interactor); load average now {_load():.1f}")


if __name__ == "__main__":
    main()
