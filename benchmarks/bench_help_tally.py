"""The help-file tally: ``team_folder.police`` on a clean folder of 15 help files against one decision.

    python benchmarks/bench_help_tally.py [--decisions N]

Issue 24 item 3 asks that counting help files have one owner. arena's runner used to count a clean team
folder itself (C, inside the sandbox) so the arena could skip policing it; this measures whether that
shortcut is worth a second owner. In a namespaced sandbox opened once (as root, the runner's road) holding
15 help files (12 files, 3 folders) of the program's uid, a small compiled C program is run through
``Sandbox.run``, once naming the arena's files (the runner counts the folder) and once not (it does not),
interleaved decision by decision so both see the same load; between decisions ``police`` looks at the same
folder from the arena's side, with the runner's tally (``tally.c`` through its shared object, as on the
runner's road) and with its own Python walk (as with ``ARENA_NO_RUNNER=1``). Printed: the medians of each,
in microseconds (``police``: this process's CPU; decisions: wall), and each one's ratio to a decision.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

from arena.languages import build_program
from arena.sandbox import Limits, open_sandbox, tree
from arena.sandbox.runner_client import NO_RUNNER
from arena.sandbox.team_folder import police

PROGRAM = r"""
#include <stdio.h>
int main(void) {
    FILE *out = fopen("outputf.txt", "w");
    if (!out) return 1;
    fputs("0\n", out);
    return fclose(out) != 0;
}
"""
ARENAS = ("inputf.txt", "outputf.txt", "deal.txt")


def place_help_files(folder: Path, uid: int | None) -> None:
    """12 files and 3 folders of the program's, as a team would leave them."""
    for index in range(12):
        where = folder / f"notes{index % 4}" if index % 4 else folder
        where.mkdir(exist_ok=True)
        (where / f"help{index}.txt").write_text("x" * 1000)
    for path in [folder / name for name in os.listdir(folder) if name not in ARENAS]:
        for part in [path, *(path.iterdir() if path.is_dir() else ())]:
            if uid is not None and not part.name.startswith("program"):
                os.chown(part, uid, uid)


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--decisions", type=int, default=300)
    args = parser.parse_args()
    if os.geteuid() != 0:
        print("run as root: the runner's road needs it", file=sys.stderr)
        return 2
    limits = Limits(wall_time_s=5.0)
    with tempfile.TemporaryDirectory() as scratch, open_sandbox(Path(scratch) / "team", limits) as sandbox:
        if not sandbox.has_runner:
            print("no runner here (ARENA_NO_RUNNER, no C compiler or no cgroup v2)", file=sys.stderr)
            return 2
        source = Path(scratch) / "submissions" / "program.c"
        source.parent.mkdir()
        source.write_text(PROGRAM)
        built = build_program(source, sandbox.workdir, sandbox)
        assert built.ok, built.output
        for name in ARENAS:
            (sandbox.folder / name).write_text("1\n")
            (sandbox.folder / name).chmod(0o666)  # the arena's, writable by the program (outputf.txt)
        place_help_files(sandbox.folder, sandbox.uid)
        protected = set(ARENAS) | set(built.products)
        counted, uncounted, in_c, in_python = [], [], [], []
        for _ in range(args.decisions):
            for names, times in ((protected, counted), ((), uncounted)):
                started = time.perf_counter()
                run = sandbox.run(built.run_argv, arenas_files=names)
                times.append((time.perf_counter() - started) * 1e6)
                assert run.ok, run.describe()
                assert (run.help_files is not None) == bool(names), run.help_files
            for road, times in (("", in_c), ("1", in_python)):
                os.environ[NO_RUNNER] = road
                root = tree.open_folder(sandbox.folder)
                try:
                    started = time.process_time()
                    found = police(root, limits, protected=protected, program_uid=sandbox.uid)
                    times.append((time.process_time() - started) * 1e6)
                finally:
                    os.close(root)
                    os.environ.pop(NO_RUNNER)
                assert found.kept == 15 and not found.breaches, found
    decision, count, c, python = (statistics.median(times) for times in (uncounted, counted, in_c, in_python))
    print(f"decision (runner, no count)   {decision:9.0f} us  wall, median of {args.decisions}")
    print(f"decision (runner counts)      {count:9.0f} us  wall: the count costs {count - decision:+.0f} us")
    print(f"police, tally.c               {c:9.0f} us  CPU of the arena's process")
    print(f"police, Python walk           {python:9.0f} us  CPU of the arena's process")
    print(f"runner's count / decision     {(count - decision) / decision:9.3f}")
    print(f"police tally.c / decision     {c / decision:9.3f}")
    print(f"police Python walk / decision {python / decision:9.3f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
