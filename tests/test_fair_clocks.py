"""Fair clocks: a decision is judged on its CPU time, the same for every language and whatever else runs.

A fixed amount of work in each of the six languages is run alone and then beside a CPU hog (four spinning
threads in another team's sandbox, as at another table): the verdicts are the same (within the limit, and
over it for twenty times the work), the least CPU time of ``WITHIN`` decisions stays within ``TOLERANCE``,
and so does each language's start-up allowance, measured in its sandbox at build time. The least, as
``timeit`` reports: one Python process here can take 25-50% more CPU than the next for the same work, alone
(page faults and cache luck), so a median of three compared its own noise; contention would raise the least.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

from arena.sandbox import Limits, RunResult, RunStatus, cgroup, open_sandbox
from arena.transports import FileTransport

from support.sandbox import PROGRAMS, build, needs_namespaces

pytestmark = [
    needs_namespaces,
    pytest.mark.slow,
    pytest.mark.skipif(cgroup.hierarchies().unified is None, reason="no cgroup v2 CPU clock here"),
]

FAIR = PROGRAMS / "fair"
LIMIT_S = 1.0
# Rounds of the same loop giving each language roughly 0.1-0.4 s of CPU here.
ROUNDS = {"c": 20_000_000, "cpp": 20_000_000, "java": 20_000_000}
ROUNDS.update(py=1_000_000, rb=5_000_000, pl=2_000_000)
OVER = 20  # twenty times the work goes over the limit in every language
TOLERANCE = 0.25  # relative, plus ABSOLUTE_MS
ABSOLUTE_MS = 30.0
WITHIN = 5  # decisions within the limit, per language and condition


def play(folder: Path, extension: str) -> tuple[float, list[float], list[RunStatus]]:
    """(start-up allowance ms, CPU ms of the decisions within the limit, every verdict)."""
    with open_sandbox(folder, Limits(wall_time_s=LIMIT_S, clock="cpu")) as sandbox:
        built = build(sandbox, FAIR / f"Work.{extension}")
        limit = LIMIT_S + built.startup_ms / 1000
        transport = FileTransport(sandbox, built.run_argv, wall_time_s=limit)
        rounds = ROUNDS[extension]
        within = [transport.exchange({"inputf.txt": str(rounds)}).run for _ in range(WITHIN)]
        over = transport.exchange({"inputf.txt": str(rounds * OVER)}).run
        return built.startup_ms, [run.cpu_ms for run in within], [run.status for run in [*within, over]]


@contextmanager
def hog(folder: Path) -> Iterator[None]:
    """Another team's program spinning four threads for as long as the block runs."""
    with open_sandbox(folder, Limits(wall_time_s=600, cpu_time_s=6000)) as sandbox:
        argv = build(sandbox, FAIR / "Hog.c").run_argv
        result: list[RunResult] = []
        runner = threading.Thread(target=lambda: result.append(sandbox.run(argv)))
        runner.start()
        try:
            yield
        finally:
            (sandbox.folder / "stop").write_text("")
            runner.join()
        assert result and result[0].ok and result[0].cpu_ms > 1000, "the hog did spin"


def test_verdicts_and_cpu_times_are_the_same_beside_a_cpu_hog(tmp_path: Path) -> None:
    alone = {extension: play(tmp_path / f"alone-{extension}", extension) for extension in ROUNDS}
    with hog(tmp_path / "hog"):
        crowded = {extension: play(tmp_path / f"crowded-{extension}", extension) for extension in ROUNDS}
    report = {  # allowance alone, beside the hog; least CPU ms alone, beside the hog
        extension: (
            alone[extension][0],
            crowded[extension][0],
            min(alone[extension][1]),
            min(crowded[extension][1]),
        )
        for extension in ROUNDS
    }
    print(report)
    for extension in ROUNDS:
        verdicts = (extension, alone[extension][2], crowded[extension][2])
        assert verdicts == (extension, [RunStatus.OK] * WITHIN + [RunStatus.CPU_LIMIT], verdicts[1]), report
        assert verdicts[2] == verdicts[1], (verdicts, report)
        allowance_alone, allowance_crowded, cpu_alone, cpu_crowded = report[extension]
        assert abs(cpu_crowded - cpu_alone) <= TOLERANCE * cpu_alone + ABSOLUTE_MS, report
        assert abs(allowance_crowded - allowance_alone) <= TOLERANCE * allowance_alone + ABSOLUTE_MS, report
