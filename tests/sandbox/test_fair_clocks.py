"""Fair clocks: a decision is judged on its CPU time, the same for every language and whatever else runs.

A fixed amount of work in each of the six languages is run alone and beside a CPU hog (four spinning threads
in another team's sandbox, as at another table), in ``SPELLS`` alternating spells of ``WITHIN`` decisions
each, so that load drifting around the test (another test worker, say) falls on both conditions alike. The
verdicts are the same (within the limit, and over it for twenty times the work), the least CPU time of each
condition's decisions stays within ``TOLERANCE``, and so does each language's start-up allowance, measured in
its sandbox at build time (one sandbox built alone, one beside the hog). The least, as ``timeit`` reports:
the same Python work takes 127-210 ms of CPU from one spell to the next here, with no hog, so a median of
three compared noise (CI once failed on 198 ms alone against 297 ms beside the hog); contention would raise
every decision of a condition, the least included.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass, field
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
SPELLS = 3  # alone, then beside the hog, three times over
WITHIN = 3  # decisions within the limit, per language, condition and spell


@dataclass
class Seat:
    """One language's sandbox with its built program, and what its decisions measured."""

    transport: FileTransport
    rounds: int
    allowance_ms: float
    cpu_ms: list[float] = field(default_factory=list)
    verdicts: list[RunStatus] = field(default_factory=list)

    def decide(self, work: int) -> None:
        """One decision doing ``work`` times the language's rounds."""
        run = self.transport.exchange({"inputf.txt": str(self.rounds * work)}).run
        self.verdicts.append(run.status)
        if work == 1:
            self.cpu_ms.append(run.cpu_ms)


def seat(stack: ExitStack, folder: Path, extension: str) -> Seat:
    """A sandbox for the language's work, open until ``stack`` closes."""
    sandbox = stack.enter_context(open_sandbox(folder, Limits(wall_time_s=LIMIT_S, clock="cpu")))
    built = build(sandbox, FAIR / f"Work.{extension}")
    transport = FileTransport(sandbox, built.run_argv, wall_time_s=LIMIT_S + built.startup_ms / 1000)
    return Seat(transport, ROUNDS[extension], built.startup_ms)


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
    with ExitStack() as stack:
        alone = {extension: seat(stack, tmp_path / f"alone-{extension}", extension) for extension in ROUNDS}
        with hog(tmp_path / "hog-build"):
            crowded = {
                extension: seat(stack, tmp_path / f"crowded-{extension}", extension) for extension in ROUNDS
            }
        for spell in range(SPELLS):
            for _ in range(WITHIN):
                for one in alone.values():
                    one.decide(1)
            with hog(tmp_path / f"hog-{spell}"):
                for _ in range(WITHIN):
                    for one in crowded.values():
                        one.decide(1)
                if spell == SPELLS - 1:
                    for one in crowded.values():
                        one.decide(OVER)
        for one in alone.values():
            one.decide(OVER)
    report = {  # allowance alone, beside the hog; least CPU ms alone, beside the hog
        extension: (
            alone[extension].allowance_ms,
            crowded[extension].allowance_ms,
            min(alone[extension].cpu_ms),
            min(crowded[extension].cpu_ms),
        )
        for extension in ROUNDS
    }
    print(report)
    for extension in ROUNDS:
        verdicts = (extension, alone[extension].verdicts, crowded[extension].verdicts)
        expected = [RunStatus.OK] * (SPELLS * WITHIN) + [RunStatus.CPU_LIMIT]
        assert verdicts == (extension, expected, expected), report
        allowance_alone, allowance_crowded, cpu_alone, cpu_crowded = report[extension]
        assert abs(cpu_crowded - cpu_alone) <= TOLERANCE * cpu_alone + ABSOLUTE_MS, report
        assert abs(allowance_crowded - allowance_alone) <= TOLERANCE * allowance_alone + ABSOLUTE_MS, report
