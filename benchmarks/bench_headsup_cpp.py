"""Heads-up: arena's judge against a C++ interactor written to statement 001's rules, on the same player.

    python benchmarks/bench_headsup_cpp.py [--hands 10000] [--rounds 3] [--player bots/headsup/example2.cpp]

Both judges play the same texas.h player (built once with arena's ``texas_driver.cpp``, as arena builds
it, ``g++ -O2``), interleaved in one process, the order swapped every round:

* arena: :func:`arena.games.headsup.match.play_headsup` in this process (sandbox, build, line session,
  judge, per-hand log); the package is imported and its tables built by a warm-up match first;
* C++: ``benchmarks/headsup_interactor.cpp`` (built here with ``g++ -O2``) starting the bare player.

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


def run_cpp(interactor: Path, binary: Path, hands: int, seed: int) -> tuple[float, float, float]:
    """(wall s, all CPU s, W) of one match under the C++ interactor."""
    cpu0 = sum(_cpu())
    start = time.perf_counter()
    done = subprocess.run(
        [interactor, str(hands), str(seed), binary], capture_output=True, text=True, cwd=binary.parent
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
        wall_ratios, cpu_ratios = [], []
        print(
            f"{'round':>5} {'load':>5} {'side':>6} {'wall s':>8} {'CPU s':>8} {'W':>8}  "
            f"(per {args.hands} hands, minus a {args.short}-hand match)"
        )
        for n in range(args.rounds):
            load = _load()
            seed = args.seed + n
            order = ["arena", "c++"] if n % 2 == 0 else ["c++", "arena"]
            figures: dict[str, tuple[float, float, float]] = {}
            for side in order:
                if side == "arena":
                    long_wall, long_cpu, w = run_arena(args.player, args.hands, seed)
                    short_wall, short_cpu, _ = run_arena(args.player, args.short, seed)
                else:
                    long_wall, long_cpu, w = run_cpp(interactor, binary, args.hands, seed)
                    short_wall, short_cpu, _ = run_cpp(interactor, binary, args.short, seed)
                figures[side] = (long_wall - short_wall, long_cpu - short_cpu, w)
            for side in ("arena", "c++"):
                wall, cpu, w = figures[side]
                print(f"{n + 1:>5} {load:>5.1f} {side:>6} {wall:>8.2f} {cpu:>8.2f} {w:>8.3f}")
            if min(figures["arena"][0], figures["c++"][0]) <= 0:
                print("      the set-up varied more than the match took: use more --hands (2,000 or more)")
            wall_ratios.append(figures["arena"][0] / figures["c++"][0])
            cpu_ratios.append(figures["arena"][1] / figures["c++"][1])
            print(f"{'':>5} {'':>5} {'ratio':>6} {wall_ratios[-1]:>7.2f}x {cpu_ratios[-1]:>7.2f}x")
        print(
            f"arena / C++ interactor, median of {args.rounds} paired rounds: wall "
            f"{statistics.median(wall_ratios):.2f}x, CPU {statistics.median(cpu_ratios):.2f}x "
            f"(goal: wall at most 1.0x); load average now {_load():.1f}"
        )


if __name__ == "__main__":
    main()
