"""Issue 24 item 3: whatever watches a decision is out of the program's reach.

Arena's compiled runner runs under a machinery uid of its own (no program shares it or holds a capability
over it); the program takes the team's uid and gives up every capability before it execs. So a program
that stops, kills or traces its watcher cannot: the decision is judged as any other, with no rerun. On the
helper's road (``ARENA_NO_RUNNER=1``) the watcher is PID 1 of the sandbox, which the kernel shields.
On the warm road the fork server has arena's machinery uid too, on both roads (EPERM for every attempt);
without one (not root) a program that kills it loses that decision, never arena's.
"""

from __future__ import annotations

import errno
from pathlib import Path

import pytest

from arena.sandbox import Limits, RunStatus, open_sandbox
from arena.transports import FileTransport
from arena.transports.warm import WarmPythonTransport

from support.roads import road  # noqa: F401 (the fixture, used by name)
from support.sandbox import PROGRAMS, build, needs_namespaces, processes_of

pytestmark = [needs_namespaces, pytest.mark.native]

ATTACKER = PROGRAMS / "attacks" / "ReachWatcher.c"
SERVER_ATTACKER = PROGRAMS / "attacks" / "ReachServer.py"
INPUTS = {"inputf.txt": "1", "deal.txt": ""}


def _said(stdout: bytes) -> dict[str, int]:
    return {key: int(value) for key, value in (line.split() for line in stdout.decode().splitlines()[:-1])}


@pytest.mark.usefixtures("road")
def test_a_program_can_neither_stop_kill_nor_trace_its_watcher(tmp_path: Path) -> None:
    with open_sandbox(tmp_path / "team", Limits(wall_time_s=2.0), isolation="namespaces") as sandbox:
        transport = FileTransport(sandbox, build(sandbox, ATTACKER).run_argv)
        replies = [transport.exchange(INPUTS) for _ in range(3)]
        for reply in replies:
            assert reply.run.status is RunStatus.OK, reply.run.describe()
            assert reply.text == "0\n" and reply.run.stdout.endswith(b"done\n")
        said = _said(replies[0].run.stdout)
        assert said["others"] == 0, said  # nothing else in the sandbox took a signal from it
        if sandbox.has_runner:
            assert said["parent"] == 0
            assert (said["stop"], said["kill"], said["trace"]) == (errno.EPERM,) * 3, said
        else:  # the helper's road: its parent is PID 1, which ignores it
            assert said["parent"] == 1
    assert processes_of(sandbox) == []


@pytest.mark.usefixtures("road")
def test_a_warm_program_can_neither_stop_kill_nor_trace_its_fork_server(tmp_path: Path) -> None:
    """As root, on either road, the fork server has arena's machinery uid: every attempt gets EPERM, every
    decision is ok, and one server answers them all."""
    with open_sandbox(tmp_path / "team", Limits(wall_time_s=2.0), isolation="namespaces") as sandbox:
        if sandbox.machinery_uid is None:
            pytest.skip("no machinery uid when arena is not root (the server runs as arena's user)")
        transport = WarmPythonTransport(sandbox, build(sandbox, SERVER_ATTACKER).run_argv, preload=())
        replies = [transport.exchange(INPUTS) for _ in range(3)]
        for reply in replies:
            assert reply.run.status is RunStatus.OK, reply.run.describe()
            assert reply.text == "0\n" and reply.run.stdout.endswith(b"done\n")
        said = [_said(reply.run.stdout) for reply in replies]
        assert all((s["stop"], s["trace"], s["kill"]) == (errno.EPERM,) * 3 for s in said), said
        # kill(-1) says 0 when any other process exists, signalled or not: the server outliving it shows
        assert len({s["server"] for s in said}) == 1 and transport.failures == 0, said
        transport.close()
    assert processes_of(sandbox) == []


@pytest.mark.usefixtures("road")
def test_a_warm_program_that_kills_its_fork_server_loses_that_decision_and_no_more(tmp_path: Path) -> None:
    """As root (a machinery uid, on either road) the kill gets EPERM and the decision is judged as any other.
    Not root, the server is the programs' user's: no second budget, no incident, the decision is judged as
    killed and the next one gets a new server."""
    program = tmp_path / "killer.py"
    program.write_text(
        "import os, signal\n"
        "open('runs.txt', 'a').write('run\\n')\n"
        "open('outputf.txt', 'w').write('0\\n')\n"
        "if os.path.exists('armed') and not os.path.exists('fired'):\n"
        "    open('fired', 'w').close()\n"
        "    try:\n"
        "        os.kill(os.getppid(), signal.SIGKILL)\n"
        "    except PermissionError:\n"
        "        open('refused', 'w').close()\n"
        "    else:\n"
        "        while True:\n"
        "            pass\n"
    )
    with open_sandbox(tmp_path / "team", Limits(wall_time_s=5.0), isolation="namespaces") as sandbox:
        transport = WarmPythonTransport(sandbox, build(sandbox, program).run_argv, preload=())
        assert transport.exchange(INPUTS).run.ok
        (sandbox.folder / "armed").write_text("")
        attacked = transport.exchange(INPUTS).run
        if sandbox.machinery_uid is not None:  # as root, on either road
            assert attacked.ok and transport.failures == 0, attacked.describe()
            assert (sandbox.folder / "refused").stat().st_uid == sandbox.uid  # the team's file, as cold
        else:
            assert attacked.status is RunStatus.SIGNALED and transport.failures == 1, attacked.describe()
        after = transport.exchange(INPUTS)
        assert after.run.ok and after.text == "0\n"
        assert (sandbox.folder / "runs.txt").read_text() == "run\n" * 3  # never run twice
        transport.close()
    assert processes_of(sandbox) == []


@pytest.mark.slow  # not root, the decision runs to its wall cap and reply grace
@pytest.mark.usefixtures("road")
def test_a_warm_program_that_stops_its_fork_server_is_judged_on_its_clock(tmp_path: Path) -> None:
    """As root (a machinery uid, on either road) the stop gets EPERM: the decision is ok. Not root, a stopped
    server never answers: the decision is past its time, the server is replaced."""
    program = tmp_path / "stopper.py"
    program.write_text(
        "import os, signal\n"
        "open('outputf.txt', 'w').write('0\\n')\n"
        "if not os.path.exists('fired'):\n"
        "    open('fired', 'w').close()\n"
        "    try:\n"
        "        os.kill(os.getppid(), signal.SIGSTOP)\n"
        "    except PermissionError:\n"
        "        open('refused', 'w').close()\n"
    )
    with open_sandbox(tmp_path / "team", Limits(wall_time_s=0.5), isolation="namespaces") as sandbox:
        transport = WarmPythonTransport(sandbox, build(sandbox, program).run_argv, preload=())
        stopped = transport.exchange(INPUTS).run
        if sandbox.machinery_uid is not None:  # as root, on either road
            assert stopped.ok and transport.failures == 0, stopped.describe()
            assert (sandbox.folder / "refused").exists()
        else:
            assert stopped.status is RunStatus.TIMEOUT and transport.failures == 1, stopped.describe()
        assert transport.exchange(INPUTS).run.ok
        transport.close()
    assert processes_of(sandbox) == []
