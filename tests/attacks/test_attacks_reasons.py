"""Issue 24: fault reasons that said the wrong thing, each on both roads (runner and Python helper).

A 15 MB ``outputf.txt`` was called "empty or missing", a 300 MB heads-up line "closed its output", and a
4 GB allocation at a 0.5 s CPU limit was recorded as ``cpu_limit``.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from arena.cards import FULL_DECK
from arena.engines.nlhe import Deal, TableRules
from arena.faults import FaultKind
from arena.games.codem.protocol import read_answer
from arena.sandbox import Limits, RunStatus, open_sandbox
from arena.transports.files import FileTransport

from support.headsup import both_ways
from support.hostile import ATTACKS
from support.roads import road  # noqa: F401 (the fixture, used by name)
from support.sandbox import HOSTILE, build, needs_namespaces

pytestmark = needs_namespaces

INPUTS = {"inputf.txt": "1          2          3          15", "deals_money.txt": "Deal 1\n", "deal.txt": ""}


@pytest.mark.usefixtures("road")
def test_a_15_mb_output_file_is_named_for_its_size(tmp_path: Path) -> None:
    with open_sandbox(tmp_path / "team", Limits(wall_time_s=10), isolation="namespaces") as sandbox:
        built = build(sandbox, ATTACKS / "BigOutputFile.py")
        reply = FileTransport(sandbox, built.run_argv, protected=built.products).exchange(INPUTS)
    assert reply.run.ok, reply.run.describe()
    assert reply.output_size == (15 << 20) + 3
    deal = Deal(rules=TableRules(seats=3), deal_number=1, dealer=3, stacks=[1500] * 3, deck=list(FULL_DECK))
    reading = read_answer(reply.text, deal, reply.output_size)
    assert reading.fault is FaultKind.NO_ANSWER
    assert reading.reason == "outputf.txt holds 15,728,643 bytes with no answer in the first 65,536"


@pytest.mark.usefixtures("road")
def test_4_gb_at_a_half_second_cpu_limit_is_a_memory_fault(tmp_path: Path) -> None:
    """A 128 MB limit is met within a tenth of the CPU limit even beside other work (touching 512 MB took
    up to 0.53 s of CPU under load, so the CPU limit came first and the test judged the machine's speed)."""
    limits = Limits(wall_time_s=0.5, clock="cpu", memory_mb=128)
    with open_sandbox(tmp_path / "team", limits, isolation="namespaces") as sandbox:
        built = build(sandbox, HOSTILE / "big_alloc.c")
        reply = FileTransport(sandbox, built.run_argv, protected=built.products).exchange(INPUTS)
    assert reply.run.status is RunStatus.MEMORY_LIMIT, reply.run.describe()
    assert reply.run.describe() == "ran out of memory (limit 128 MB)"


@pytest.mark.slow
def test_a_300_mb_heads_up_line_is_called_too_long(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A heads-up player's session runs on the helper's road only; the compiled and Python loops agree."""
    report = both_ways(ATTACKS / "HeadsUpLongLine.py", tmp_path, monkeypatch)
    assert report.fault is not None and report.fault.kind is FaultKind.PROTOCOL_ERROR, report.fault
    assert report.fault.reason == "the program printed a line longer than 65,536 bytes without ending it"
