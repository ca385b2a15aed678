"""What reclaiming a closed sandbox's page cache costs: its close, and the next table's first decisions.

    python benchmarks/bench_sandbox_close.py [--rounds 5] [--compare OLD_TREE] [--languages c,python,java]

When a sandbox closes, every page still charged to its memory cgroup is reclaimed (issue 24,
docs/sandbox.md): what it brought into the page cache of the shared system files leaves with it. For
each language (the house bots ``Tight.c``, ``Caller.py`` on the warm start as tables run it, ``Equity.java``)
a child process, with a tree on ``PYTHONPATH``, opens a player (built once, through a build cache), plays
two decisions, and measures:

- ``close ms`` / ``close CPU ms``: the wall time and this process's CPU time of closing a sandbox;
- ``cache MB``: the page cache charged to a sandbox just before it closes (what it brought in);
- ``beside``: the first decision of a second sandbox opened while the first is still open (whatever the
  first brought into the cache is there);
- ``after``: the first decision of a sandbox opened right after the first closed (what it brought in was
  reclaimed, unless something else on the machine keeps those pages cached).

Every child starts with the language's runtime (the JDK's folder, the Python prefix) dropped from the page
cache by this script (``posix_fadvise(DONTNEED)``, as root: pages another process maps stay), so that the
sandboxes bring those pages in themselves, as the first tables of a tournament do: the worst case. A first
decision is timed from the transport's creation (a Python fork server's start included) to its answer.

``--compare OLD_TREE`` (e.g. ``git worktree add --detach /tmp/old main``) runs the same children with the
old tree too, in a rotating order every round; the medians of both are printed side by side.
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
from contextlib import ExitStack
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
PROGRAMS = {
    "c": ROOT / "bots" / "codem" / "Tight.c",
    "python": ROOT / "bots" / "codem" / "Caller.py",
    "java": ROOT / "bots" / "codem" / "Equity.java",
}
INPUTS = {
    "inputf.txt": "1          2          3          15",
    "deals_money.txt": "Deal          1\n" + "".join(f"{seat}{1500:>16}\n" for seat in range(1, 7)),
    "deal.txt": "Dealer         1\nStage          Pre_Flop\nMain_Pot       15\n\nPre_Flop\n",
}
FIGURES = ("close_ms", "close_cpu_ms", "cache_mb", "beside_ms", "after_ms")


# ---- the child: one tree, one language --------------------------------------------------------


def _self_cpu_ms() -> float:
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return (usage.ru_utime + usage.ru_stime) * 1000


def _cache_mb(sandbox: Any) -> float:
    """The page cache charged to the sandbox's memory cgroup now (v1 ``total_cache``, v2 ``file``)."""
    cgroup = sandbox.cgroup
    if cgroup is None or cgroup.memory_run is None:
        return 0.0
    text = (cgroup.memory_run.parent / "memory.stat").read_text()
    for line in text.splitlines():
        key, _, value = line.partition(" ")
        if key in ("total_cache", "file"):
            return int(value) / 2**20
    return 0.0


def child(language: str, scratch: Path) -> None:
    """Open players of one language, time their first decisions and their closes; print JSON."""
    from arena.sandbox import Limits
    from arena.seats import open_player

    program, cache, limits = PROGRAMS[language], scratch / "cache", Limits(wall_time_s=10)
    figures: dict[str, float] = {}

    def first_decision(stack: ExitStack, name: str) -> Any:
        player = open_player(stack, name, program, scratch / name, limits, build_cache=cache)
        assert player.built, player.build.output
        start = time.perf_counter()
        files = player.file_transport(warm_python=True)
        stack.callback(getattr(files, "close", lambda: None))  # the fork server, before its sandbox
        reply = files.exchange(INPUTS)
        elapsed = (time.perf_counter() - start) * 1000
        assert reply.ok, reply.run.describe()
        files.exchange(INPUTS)
        return player.sandbox, elapsed

    def closed(stack: ExitStack, sandbox: Any) -> None:
        figures["cache_mb"] = _cache_mb(sandbox)
        wall, cpu = time.perf_counter(), _self_cpu_ms()
        stack.close()
        figures["close_ms"] = (time.perf_counter() - wall) * 1000
        figures["close_cpu_ms"] = _self_cpu_ms() - cpu

    with ExitStack() as build:  # the build cache filled, the compiler's pages gone with its sandbox
        first_decision(build, "build")
    with ExitStack() as first:
        sandbox, _ = first_decision(first, "first")
        with ExitStack() as beside:
            _, figures["beside_ms"] = first_decision(beside, "beside")
        closed(first, sandbox)
    with ExitStack() as after:
        _, figures["after_ms"] = first_decision(after, "after")
    print(json.dumps(figures))


def runtime_folders(language: str) -> list[Path]:
    """Where the language's runtime lives (nothing for C: its libc is mapped by every process)."""
    if language == "java":
        java = shutil.which("java")
        return [Path(java).resolve().parents[1]] if java else []
    if language == "python":
        return [Path(sys.executable).resolve().parents[1]]
    return []


def evict(folders: list[Path]) -> None:
    """Drop the regular files under ``folders`` from the page cache (pages someone maps stay)."""
    for folder in folders:
        for path in folder.rglob("*"):
            if not path.is_file() or path.is_symlink():
                continue
            try:
                fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW)
            except OSError:
                continue
            try:
                os.posix_fadvise(fd, 0, 0, os.POSIX_FADV_DONTNEED)
            finally:
                os.close(fd)


# ---- the parent ---------------------------------------------------------------------------------


def measured(tree: Path, language: str, scratch: Path) -> dict[str, float]:
    """One child's figures, with ``tree`` on its PYTHONPATH."""
    folder = Path(tempfile.mkdtemp(dir=scratch))
    folder.chmod(0o711)
    env = dict(os.environ, PYTHONPATH=str(tree))
    command = [sys.executable, __file__, "--child", language, str(folder)]
    done = subprocess.run(command, env=env, capture_output=True, text=True, check=False, timeout=600)
    if done.returncode != 0:
        raise SystemExit(f"{' '.join(command)} failed:\n{done.stderr[-2000:]}")
    figures: dict[str, float] = json.loads(done.stdout.strip().splitlines()[-1])
    return figures


def main() -> None:
    if len(sys.argv) > 1 and sys.argv[1] == "--child":
        child(sys.argv[2], Path(sys.argv[3]))
        return
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--compare", type=Path, help="another checkout to run the same children with")
    parser.add_argument("--languages", default="c,python,java")
    args = parser.parse_args()
    trees = {"this tree": ROOT}
    if args.compare is not None:
        trees = {"old tree": args.compare.resolve(), "this tree": ROOT}
    print(f"load average at the start: {' '.join(f'{x:.1f}' for x in os.getloadavg())}")
    shared = "/dev/shm" if Path("/dev/shm").is_dir() else None
    with tempfile.TemporaryDirectory(prefix="bench-sandbox-close-", dir=shared) as scratch:
        Path(scratch).chmod(0o711)
        for language in args.languages.split(","):
            found: dict[str, list[dict[str, float]]] = {name: [] for name in trees}
            for n in range(args.rounds):
                names = list(trees)[n % len(trees) :] + list(trees)[: n % len(trees)]
                for name in names:
                    evict(runtime_folders(language))
                    found[name].append(measured(trees[name], language, Path(scratch)))
            print(f"\n{language} ({PROGRAMS[language].name}), medians of {args.rounds} rounds")
            print(f"{'tree':>10} " + " ".join(f"{figure:>12}" for figure in FIGURES))
            for name, rows in found.items():
                medians = [statistics.median(row[figure] for row in rows) for figure in FIGURES]
                print(f"{name:>10} " + " ".join(f"{value:>12.1f}" for value in medians))
    print(f"load average at the end: {' '.join(f'{x:.1f}' for x in os.getloadavg())}")


if __name__ == "__main__":
    main()
