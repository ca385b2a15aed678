"""Containment of processes and kernel state: what a decision starts ends with it; limits hold from the start.

Programs are in ``tests/programs/attacks/``. Each runs in a real namespaced sandbox, as a team's decision.
"""

from __future__ import annotations

import errno
import os
from collections.abc import Iterator
from pathlib import Path

import pytest

from arena.sandbox import Limits, RunStatus, Sandbox, cgroup, open_sandbox
from arena.sandbox.inside.seccomp import DENIED
from arena.transports import FileTransport
from arena.transports.warm import WarmPythonTransport

from support.sandbox import PROGRAMS, TINY, build, needs_namespaces, processes_of

pytestmark = needs_namespaces

CONTAIN = PROGRAMS / "attacks"
needs_cgroup_kill = pytest.mark.skipif(
    cgroup.hierarchies().unified is None, reason="no cgroup v2 hierarchy (cgroup.kill) on this machine"
)


@pytest.fixture
def sandbox(tmp_path: Path) -> Iterator[Sandbox]:
    with open_sandbox(tmp_path / "team", Limits(wall_time_s=10)) as opened:
        yield opened


BUSY = "import time\nend = time.process_time() + 0.3\nwhile time.process_time() < end:\n    pass\n" + (
    "open('outputf.txt', 'w').write('0\\n')\n"
)


def counter(sandbox: Sandbox) -> str:
    path = sandbox.folder / "counter.txt"
    return path.read_text() if path.exists() else ""


def assert_nothing_counts_after(sandbox: Sandbox, first: str) -> None:
    """Another decision that computes for 0.3 s of CPU: a survivor would have counted meanwhile."""
    busy = sandbox.workdir.parent / "busy.py"
    busy.write_text(BUSY)
    reply = FileTransport(sandbox, build(sandbox, busy).run_argv).exchange({"inputf.txt": "1"})
    assert reply.run.ok, reply.run.describe()
    assert counter(sandbox) == first


@needs_cgroup_kill
@pytest.mark.parametrize("how", ["fork", "double_fork", "setsid", "thread", "clone_parent"])
def test_nothing_a_cold_decision_starts_outlives_it(sandbox: Sandbox, how: str) -> None:
    transport = FileTransport(sandbox, build(sandbox, CONTAIN / "outlive.c").run_argv)
    (sandbox.folder / "mode.txt").write_text(how)
    reply = transport.exchange({"inputf.txt": "1"})
    assert reply.text == "0\n"
    assert processes_of(sandbox) == []
    assert_nothing_counts_after(sandbox, counter(sandbox))


@needs_cgroup_kill
def test_a_sibling_of_a_warm_decision_made_with_clone_parent_ends_with_it(sandbox: Sandbox) -> None:
    """The child a warm decision gives the fork server (``CLONE_PARENT``) is in the decision's cgroup."""
    transport = WarmPythonTransport(sandbox, build(sandbox, CONTAIN / "outlive_warm.py").run_argv)
    replies = [transport.exchange({"inputf.txt": "1"}) for _ in range(2)]
    assert [reply.text for reply in replies] == ["0\n", "0\n"]
    assert transport.failures == 0  # the server itself is untouched
    assert_nothing_counts_after(sandbox, counter(sandbox))
    transport.close()
    left = processes_of(sandbox)
    keys = ("uids", "ppid", "status", "cmdline")
    assert left == [], [(p.pid, *(p.info[key] for key in keys)) for p in left]


def test_the_seccomp_filter_denies_each_call_and_allows_fork(sandbox: Sandbox) -> None:
    transport = FileTransport(sandbox, build(sandbox, CONTAIN / "denied_syscalls.c").run_argv)
    reply = transport.exchange({"inputf.txt": "1"})
    assert reply.run.ok, reply.run.describe()
    errors = dict(line.split() for line in reply.run.stdout.decode().splitlines())
    expected = {name: str(errno.EPERM) for name in errors}
    expected.update(clone3=str(errno.ENOSYS), fork="0")  # ENOSYS: the C library falls back to clone
    assert errors == expected
    flagged = {"unshare_pid", "clone3", "clone_newns", "clone_newpid", "clone_newuser", "fork"}
    plain_calls = set(errors) - flagged
    assert plain_calls <= set(DENIED)
    assert {"keyctl", "add_key", "request_key", "unshare", "setns", "mount", "ptrace", "bpf"} <= plain_calls
    assert {"io_uring_setup", "perf_event_open"} <= plain_calls


def test_every_limit_is_in_force_at_the_first_instruction(sandbox: Sandbox) -> None:
    transport = FileTransport(sandbox, build(sandbox, CONTAIN / "limits_at_start.c").run_argv)
    limits = sandbox.limits
    seen = {transport.exchange({"inputf.txt": "1"}).run.stdout.decode().strip() for _ in range(60)}
    cpu = limits.cpu_seconds(limits.wall_time_s)
    assert seen == {
        f"cpu {cpu} fsize {limits.file_size_mb << 20} nproc {limits.max_processes} core 0 oom 1000"
        " below_zero denied"
    }


def test_ipc_objects_are_removed_after_every_decision(sandbox: Sandbox, tmp_path: Path) -> None:
    transport = FileTransport(sandbox, build(sandbox, CONTAIN / "ipc_leftovers.c").run_argv)
    assert transport.exchange({"inputf.txt": "1"}).run.ok
    lister = tmp_path / "list_ipc.py"
    lister.write_text(
        "tables = [open(f'/proc/sysvipc/{kind}').read() for kind in ('shm', 'msg', 'sem')]\n"
        "print([len(table.splitlines()) - 1 for table in tables])\n"
    )
    listed = FileTransport(sandbox, build(sandbox, lister).run_argv).exchange({"inputf.txt": "1"})
    assert listed.run.stdout.decode().strip() == "[0, 0, 0]"


def test_sandbox_uids_are_never_reused(tmp_path: Path) -> None:
    uids = []
    for number in range(3):
        with open_sandbox(tmp_path / f"team{number}", Limits()) as opened:
            uids.append(opened.uid)
    assert len(set(uids)) == 3 and uids == sorted(uids)


def test_a_program_filling_memory_and_tmpfs_never_takes_the_helper(tmp_path: Path) -> None:
    hog = tmp_path / "hog.py"
    hog.write_text(
        "import os\n"
        "block = b'x' * (1 << 20)\n"
        "for number in range(5):\n"
        "    with open(f'/tmp/fill{number}', 'wb') as fill:\n"
        "        for _ in range(12):\n"
        "            fill.write(block)\n"
        "kept = [bytearray(1 << 20) for _ in range(400)]\n"
    )
    with open_sandbox(tmp_path / "team", Limits(memory_mb=128, wall_time_s=10)) as opened:
        if opened.cgroup is None or not opened.cgroup.has_memory:
            pytest.skip("no memory cgroup here")
        transport = FileTransport(opened, build(opened, hog).run_argv)
        assert transport.exchange({"inputf.txt": "1"}).run.status is RunStatus.MEMORY_LIMIT
        clean = FileTransport(opened, build(opened, TINY / "warm_memory.py").run_argv)
        assert clean.exchange({"inputf.txt": "1 2 3 4"}).run.status is not RunStatus.NOT_STARTED
        assert opened.process.poll() is None  # the helper lives on


def test_leftover_cgroups_of_dead_owners_are_removed_and_live_ones_kept(tmp_path: Path) -> None:
    where = cgroup.hierarchies()
    parent = where.unified or next(iter(where.v1.values()), None)
    if parent is None or not os.access(parent, os.W_OK):
        pytest.skip("no writable cgroup hierarchy")
    with open_sandbox(tmp_path / "live", Limits()) as live:
        assert live.cgroup is not None
        dead_owner = os.fork()
        if dead_owner == 0:
            os._exit(0)
        os.waitpid(dead_owner, 0)
        dead = parent / f"{cgroup.PREFIX}{dead_owner}-{'0' * 12}"
        (dead / cgroup.RUN_LEAF).mkdir(parents=True)
        assert dead in cgroup.leftovers()
        removed = cgroup.remove_leftovers()
        assert dead in removed and not dead.exists()
        assert all(live.cgroup.name not in path.name for path in removed)
        assert live.run(["/bin/true"]).ok
