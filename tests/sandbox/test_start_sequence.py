"""Issue 24 item 3: a program's start sequence and the CPU-clock wait have one owner on each road.

On the runner's road ``start.c`` starts every program, cold (the runner) or warm (the fork server's child,
through the shared object); on the helper's road ``start.py`` does, for both. Either way a warm decision
must begin exactly as a cold one: same uid, gid and groups, no capability, ``no_new_privs``, the same
limits, cgroup and OOM score, a session of its own. Likewise ``clock.c`` times every decision on the
runner's road and ``clock.py`` on the helper's: they must give the same verdicts and waits.
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from arena.compiled import build_flags, compiled
from arena.sandbox import Limits, RunStatus, isolation, open_sandbox
from arena.sandbox.inside import clock
from arena.sandbox.runner_client import HEADERS, PARTS
from arena.transports import FileTransport
from arena.transports.warm import WarmPythonTransport

from support.roads import road  # noqa: F401 (the fixture, used by name)
from support.sandbox import TINY, build, needs_namespaces, processes_of

pytestmark = [needs_namespaces, pytest.mark.native]

PROGRAM = TINY / "start_state.py"
INPUTS = {"inputf.txt": "1", "deal.txt": ""}


def _state(stdout: bytes) -> dict[str, str]:
    return dict(line.split("=", 1) for line in stdout.decode().splitlines())


@pytest.mark.usefixtures("road")
def test_a_warm_decision_starts_exactly_as_a_cold_one(tmp_path: Path) -> None:
    limits = Limits(wall_time_s=5.0)
    with open_sandbox(tmp_path / "team", limits, isolation="namespaces") as sandbox:
        argv = build(sandbox, PROGRAM).run_argv
        cold = FileTransport(sandbox, argv).exchange(INPUTS).run
        warm_transport = WarmPythonTransport(sandbox, argv, preload=(), wall_time_s=limits.wall_time_s)
        warm = warm_transport.exchange(INPUTS).run
        through_c = f"--runner-library={isolation.RUNNER_LIBRARY_PATH}" in warm_transport.server_argv
        assert through_c == sandbox.has_runner  # start.c's, as the runner's, on its road; else start.py's
        warm_transport.close()
        for run in (cold, warm):
            assert run.status is RunStatus.OK, run.describe()
        cold_state, warm_state = _state(cold.stdout), _state(warm.stdout)
        assert warm_state == cold_state
        no_capability = "0" * 16
        assert [cold_state[key] for key in ("CapInh", "CapPrm", "CapEff", "CapAmb")] == [no_capability] * 4
        if sandbox.uid is not None:
            assert cold_state["Uid"] == cold_state["Gid"] == " ".join([str(sandbox.uid)] * 4)
            assert cold_state["Groups"] == "" and cold_state["Max processes"].startswith(
                f"{limits.max_processes} "
            )
        assert (cold_state["NoNewPrivs"], cold_state["own session"], cold_state["oom_score_adj"]) == (
            "1",
            "True",
            "1000",
        )
        assert cold_state["Max file size"].startswith(f"{limits.file_size_mb << 20} ")
    assert processes_of(sandbox) == []


def test_the_runner_roads_clock_waits_as_the_python_roads(tmp_path: Path) -> None:
    """``clock.c`` (through the runner's shared object) and ``clock.py``: the same verdict and wait for
    generated clocks (on the microsecond grid both work on), limits reached or not, budget or none."""
    library = compiled(PARTS[0], build_flags("shared", hardened=True), tmp_path, PARTS[1:], HEADERS)
    if library is None:
        pytest.skip("no C compiler")
    in_c = clock.Compiled(str(library))
    draw = random.Random(24)
    verdicts = set()
    for _ in range(5000):
        now_us = draw.randrange(1, 10**9)
        deadline_us = now_us + draw.randrange(-2000, 3 * 10**6)
        budget_us = draw.choice([None, draw.randrange(0, 5 * 10**6)])
        used_us = draw.randrange(0, 6 * 10**6)
        budget_ms = None if budget_us is None else budget_us / 1000
        args = (now_us / 1e6, deadline_us / 1e6, budget_ms, used_us / 1000)
        (python_verdict, python_wait), (c_verdict, c_wait) = clock.next_wait(*args), in_c.next_wait(*args)
        assert c_verdict == python_verdict, args
        assert c_wait == pytest.approx(python_wait, abs=2e-6), args
        verdicts.add(c_verdict)
    assert verdicts == {"", "timeout", "cpu"}
