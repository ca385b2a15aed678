"""Issue 24 item 3: a program's start sequence has one owner on each road.

On the runner's road ``start.c`` starts every program, cold (the runner) or warm (the fork server's child,
through the shared object); on the helper's road ``start.py`` does, for both. Either way a warm decision
must begin exactly as a cold one: same uid, gid and groups, no capability, ``no_new_privs``, the same
limits, cgroup and OOM score, a session of its own.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from arena.sandbox import Limits, RunStatus, isolation, open_sandbox
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
        through_c = f"--start-library={isolation.START_LIBRARY_PATH}" in warm_transport.server_argv
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
