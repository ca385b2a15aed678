"""Issue 24: a decision's CPU is judged in full, at any core count, and its idle wall time is bounded,
on both roads.

A pinned table's program ran 8 threads on the machine's other CPUs: the runner, counting only the CPUs
it was pinned to, first looked at the clock after the whole budget, and a run that exited ok was accepted
without comparing its CPU to the budget. And a program that slept just under the wall-clock cap at every
decision stretched a table 9.3 times without a fault: idleness (wall time neither running nor waiting for
a CPU, memory or the disk) past the limit + 0.5 s is now a timeout, counted toward disqualification.
"""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from arena.sandbox import Limits, RunStatus, open_sandbox
from arena.transports.files import FileTransport

from support.hostile import ATTACKS
from support.roads import road  # noqa: F401 (the fixture, used by name)
from support.sandbox import build, needs_namespaces

pytestmark = needs_namespaces

INPUTS = {"inputf.txt": "1          2          3          15", "deals_money.txt": "Deal 1\n", "deal.txt": ""}


@pytest.fixture
def pinned() -> Iterator[None]:
    """This process (and what it starts) on one CPU, as a Code'em table runs (arena/sandbox/cores.py)."""
    before = os.sched_getaffinity(0)
    os.sched_setaffinity(0, {min(before)})
    try:
        yield
    finally:
        os.sched_setaffinity(0, before)


@pytest.mark.slow
@pytest.mark.usefixtures("road")
def test_cpu_spent_on_other_cpus_is_judged_in_full(tmp_path: Path, pinned: None) -> None:
    """Every decision that used more than its budget is a CPU fault, however it spread its threads and
    whenever it exited (on a loaded machine the program may instead meet the wall cap first)."""
    limit_s = 1.4
    limits = Limits(wall_time_s=limit_s, clock="cpu")
    with open_sandbox(tmp_path / "team", limits, isolation="namespaces") as sandbox:
        built = build(sandbox, ATTACKS / "CpuSpread.c")
        transport = FileTransport(sandbox, built.run_argv, protected=built.products)
        replies = [transport.exchange(INPUTS) for _ in range(3)]
    for reply in replies:
        assert reply.run.status is not RunStatus.OK, reply.run.describe()
        if reply.run.cpu_ms > limit_s * 1000:
            assert reply.run.status is RunStatus.CPU_LIMIT, reply.run.describe()


@pytest.fixture
def hog(pinned: None) -> Iterator[None]:
    """A CPU-bound process outside every sandbox on the pinned CPU: programs there wait for their CPU."""
    spinner = subprocess.Popen([sys.executable, "-c", "while True: pass"])
    try:
        yield
    finally:
        spinner.kill()
        spinner.wait()


@pytest.mark.usefixtures("road")
def test_sleeping_near_the_wall_cap_at_every_decision_is_a_timeout(tmp_path: Path) -> None:
    limits = Limits(wall_time_s=0.2, clock="cpu")
    with open_sandbox(tmp_path / "team", limits, isolation="namespaces") as sandbox:
        built = build(sandbox, ATTACKS / "SleepUnderCap.c")
        transport = FileTransport(sandbox, built.run_argv, protected=built.products)
        replies = [transport.exchange(INPUTS) for _ in range(2)]
    for reply in replies:
        assert reply.run.status is RunStatus.TIMEOUT, reply.run.describe()
        assert reply.run.describe().startswith("was idle (sleeping or blocked) for 1.")
        assert reply.run.describe().endswith("more than the 0.7 s a decision may be idle")


@pytest.mark.usefixtures("road", "hog")
def test_waiting_for_a_busy_cpu_is_not_idleness(tmp_path: Path) -> None:
    """The control of the idle rule: beside a CPU hog on its one CPU, a program that never sleeps waits for
    its CPU, and every decision is ok. How long it waits is the scheduler's (65 to 260 ms a decision here,
    less on a loaded machine than on a quiet one), so it is not asserted."""
    limits = Limits(wall_time_s=0.2, clock="cpu")
    with open_sandbox(tmp_path / "team", limits, isolation="namespaces") as sandbox:
        built = build(sandbox, ATTACKS / "BusyHonest.c")
        transport = FileTransport(sandbox, built.run_argv, protected=built.products)
        replies = [transport.exchange(INPUTS) for _ in range(3)]
    for reply in replies:
        assert reply.run.ok, reply.run.describe()
