"""SIGTERM cleans up like Ctrl-C; the next start removes what SIGKILL left."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from arena.sandbox import cgroup

from support.sandbox import needs_namespaces

pytestmark = needs_namespaces

ROOT = Path(__file__).parents[2]
BOTS = ROOT / "bots" / "codem"


def start_table(out: Path) -> subprocess.Popen[bytes]:
    command = [sys.executable, "-m", "arena", "table", "--deals", "100000", "--out", str(out)]
    command += [str(BOTS / "Tight.c"), str(BOTS / "Caller.py"), str(BOTS / "Raiser.cpp")]
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    return subprocess.Popen(command, cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)


def wait_until_playing(process: subprocess.Popen[bytes], out: Path) -> None:
    """Until the table has recorded a deal (its sandboxes are open), waiting on the process meanwhile."""
    events = out / "events.jsonl"
    for _ in range(600):
        if events.exists() and events.stat().st_size > 0:
            return
        try:
            process.wait(timeout=0.1)
        except subprocess.TimeoutExpired:
            continue
        pytest.fail(f"the table ended early: {process.stderr.read().decode() if process.stderr else ''}")
    pytest.fail("the table did not start")


def cgroups_of(pid: int) -> list[Path]:
    where = cgroup.hierarchies()
    parents = [parent for parent in [where.unified, *where.v1.values()] if parent is not None]
    return [child for parent in parents for child in parent.glob(f"{cgroup.PREFIX}{pid}-*")]


@pytest.mark.slow
@pytest.mark.skipif(not cgroup.SandboxCgroup.available(), reason="no writable cgroup hierarchy")
def test_sigterm_cleans_up_and_the_next_start_removes_what_sigkill_left(tmp_path: Path) -> None:
    terminated = start_table(tmp_path / "terminated")
    wait_until_playing(terminated, tmp_path / "terminated")
    assert cgroups_of(terminated.pid)
    terminated.send_signal(signal.SIGTERM)
    assert terminated.wait(timeout=120) == 143  # 128 + SIGTERM, as the interrupts rule says
    assert cgroups_of(terminated.pid) == []

    killed = start_table(tmp_path / "killed")
    wait_until_playing(killed, tmp_path / "killed")
    killed.kill()
    killed.wait()
    left = cgroups_of(killed.pid)
    assert left and all(path in cgroup.leftovers() for path in left)
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    command = [sys.executable, "-m", "arena", "doctor", "--json"]
    doctor = subprocess.run(command, cwd=ROOT, env=env, capture_output=True, check=False)
    reported = json.loads(doctor.stdout)["leftovers"]
    # every arena command removes what a killed run left, so an arena that another test starts meanwhile
    # may remove some before doctor looks: doctor names nothing but the killed run's cgroups, and
    # afterwards none is left
    assert set(reported) <= {str(path) for path in left}
    assert cgroups_of(killed.pid) == []
