"""Issue 24: a warm Python decision learns nothing from the decisions before it but the team's files.

The fork server kept each decision's stdout and stderr in its heap, so the next decision (forked from
it) read the previous one's output back (25 of 25); and a ``/dev/null`` description shared by every
decision carried status flags from one to the next.
"""

from __future__ import annotations

from pathlib import Path

from arena.sandbox import Limits, open_sandbox
from arena.transports.warm import WarmPythonTransport

from support.hostile import ATTACKS
from support.sandbox import build, needs_namespaces

pytestmark = needs_namespaces

INPUTS = {"inputf.txt": "1          2          3          15", "deals_money.txt": "Deal 1\n", "deal.txt": ""}
DECISIONS = 6


def test_no_output_or_descriptor_flag_reaches_the_next_warm_decision(tmp_path: Path) -> None:
    with open_sandbox(tmp_path / "team", Limits(wall_time_s=20), isolation="namespaces") as sandbox:
        transport = WarmPythonTransport(sandbox, build(sandbox, ATTACKS / "WarmMemory.py").run_argv)
        replies = [transport.exchange(INPUTS) for _ in range(DECISIONS)]
        assert transport.failures == 0
    seen = []
    for reply in replies:
        assert reply.run.ok, (reply.run.describe(), reply.run.stderr[-2000:])
        lines = dict(line.split(" ", 1) for line in reply.run.stdout.decode().splitlines())
        seen.append(lines)
    tokens = [lines["token"] for lines in seen]
    assert len(set(tokens)) == DECISIONS
    for lines in seen:
        assert lines["found"].strip() == "", "a decision found an earlier decision's output in its memory"
    assert len({lines["flags"] for lines in seen}) == 1, "stdin's flags carried from one decision to the next"
