"""The two roads a one-shot run takes to completion: arena's compiled runner, or the helper itself.

Both end in the same :class:`arena.sandbox.inside.record.Reply`, judged by the same
:class:`arena.sandbox.judge.Judge` (docs/sandbox.md "One way to run a decision").
"""

from __future__ import annotations

import dataclasses
from collections.abc import Collection, Sequence
from typing import Any, Protocol

from arena.sandbox.inside.record import Reply
from arena.sandbox.judge import Judge
from arena.sandbox.limits import Limits
from arena.sandbox.result import RunResult
from arena.sandbox.runner_client import Runner


@dataclasses.dataclass(frozen=True)
class Clocks:
    """What a run is judged by: its time limit, on the wall clock or the sandbox's, and its output cap."""

    limit: float
    wall_clock: bool
    cap: int


class Host(Protocol):
    """What a run needs of its sandbox (:class:`arena.sandbox.sandbox.Sandbox`)."""

    limits: Limits
    judge: Judge
    runner: Runner | None

    def request_run(self, request: dict[str, Any], payload: bytes = b"") -> Reply:
        """Ask the helper; its answer is a decision's reply."""
        ...

    def sweep(self) -> float:
        """End the decision: every process that is not a live session's."""
        ...


def on_helper(sandbox: Host, argv: Sequence[str], clocks: Clocks, stdin: bytes = b"") -> RunResult:
    """The helper starts the program from its prepared process, waits on its clocks and sweeps after it."""
    wall, budget_ms = sandbox.judge.clocks(clocks.limit, wall_clock=clocks.wall_clock)
    request = {"op": "run", "argv": list(argv), "stdin_len": len(stdin), "wall": wall}
    request.update(budget_ms=budget_ms, cpu=sandbox.limits.cpu_seconds(clocks.limit))
    request["output_bytes"] = clocks.cap
    reply = sandbox.request_run(request, stdin)
    return sandbox.judge.result(reply, wall, budget_ms, output_cap=clocks.cap)


def on_runner(sandbox: Host, argv: Sequence[str], clocks: Clocks, arenas_files: Collection[str]) -> RunResult:
    """One decision through arena's runner, out of the program's reach (its own uid, no capability of the
    program's over it). A runner that fails is arena's failure: :class:`SandboxError`, never a rerun and
    never the team's fault."""
    assert sandbox.runner is not None
    wall, budget_ms = sandbox.judge.clocks(clocks.limit, wall_clock=clocks.wall_clock)
    cpu = sandbox.limits.cpu_seconds(clocks.limit)
    reply = sandbox.runner.run(argv, wall, budget_ms, cpu, clocks.cap, arenas_files)
    if reply.dirty:
        sandbox.sweep()  # something the runner could not remove or kill: the helper's sweep ends it
    return sandbox.judge.result(reply, wall, budget_ms, output_cap=clocks.cap)
