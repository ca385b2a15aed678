"""Process and kernel-state attacks at a real Code'em table, beside honest programs (issue 12, items 2, 5, 6).

Each attacker plays a real table through :func:`support.hostile.play_hostile`, which checks that the
table completes with ``results.json``, that a canary tree outside the run is unchanged, and that no
process, cgroup, mount, key or SysV IPC object of the table's sandboxes remains. Attackers that answer
like ``Caller.py`` are compared with a table where ``Caller.py`` sits in their seat: the honest teams'
stacks must be the same (a survivor slowing them into timeouts would change them).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from arena.faults import FaultKind
from arena.sandbox import cgroup
from arena.sandbox.limits import Limits

from support.hostile import ROOT, play_hostile
from support.sandbox import PROGRAMS, needs_namespaces

pytestmark = needs_namespaces

CONTAIN = PROGRAMS / "attacks"
CALLER = ROOT / "bots" / "codem" / "Caller.py"


@pytest.mark.slow
@pytest.mark.skipif(cgroup.hierarchies().unified is None, reason="no cgroup v2 (cgroup.kill) here")
@pytest.mark.parametrize("attacker", ["outlive.c", "outlive_warm.py"])
def test_survivors_of_every_kind_end_with_their_decision(tmp_path: Path, attacker: str) -> None:
    """fork, double fork, setsid, a thread, clone(CLONE_PARENT) cold and warm: harmless, and nothing left."""
    outcome = play_hostile(CONTAIN / attacker, tmp_path, deals=10, baseline=CALLER)
    assert outcome.faults == ()


def test_denied_system_calls_are_harmless_at_a_table(tmp_path: Path) -> None:
    """keyrings, namespaces, mounts, ptrace, io_uring, perf, bpf: every call fails, the program plays on."""
    outcome = play_hostile(CONTAIN / "denied_syscalls.c", tmp_path, baseline=CALLER)
    assert outcome.faults == ()


def test_sysv_ipc_objects_do_not_outlive_a_decision(tmp_path: Path) -> None:
    outcome = play_hostile(CONTAIN / "ipc_leftovers.c", tmp_path, baseline=CALLER)
    assert outcome.faults == ()


def test_a_program_exhausting_its_memory_gets_a_fault_and_the_table_goes_on(tmp_path: Path) -> None:
    """A 128 MB limit is met with a small part of the 1 s CPU limit even beside other work (at 512 MB, CI
    spent 1.18 s of CPU touching 470 MB and the CPU limit came first: the test judged the machine)."""
    hog = tmp_path / "programs" / "MemoryHog.py"
    hog.parent.mkdir()
    hog.write_text(
        "block = b'x' * (1 << 20)\n"
        "for number in range(5):\n"
        "    with open(f'/tmp/fill{number}', 'wb') as fill:\n"
        "        for _ in range(4):\n"
        "            fill.write(block)\n"
        "kept = [bytearray(1 << 20) for _ in range(2000)]\n"
    )
    limits = Limits(clock="cpu", memory_mb=128)
    outcome = play_hostile(
        hog, tmp_path / "run", deals=3, config=lambda table: table.model_copy(update={"limits": limits})
    )
    assert outcome.faults and {fault.kind for fault in outcome.faults} == {FaultKind.MEMORY_LIMIT}
    assert all("ran out of memory (limit 128 MB)" in fault.reason for fault in outcome.faults)
