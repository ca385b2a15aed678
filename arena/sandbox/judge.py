"""The one judge of a finished run: whoever watched it (the runner, the helper, the fork server, a session's
end), its reply (:mod:`arena.sandbox.inside.record`) becomes a :class:`RunResult` here and nowhere else."""

from __future__ import annotations

import signal

from arena.sandbox.cgroup import SandboxCgroup
from arena.sandbox.inside.record import Reply
from arena.sandbox.limits import Limits
from arena.sandbox.result import RunResult, RunStatus


class Judge:
    """Judges a sandbox's runs by its limits and what its cgroup saw (memory met, pressure stalls)."""

    def __init__(self, limits: Limits, cgroup: SandboxCgroup | None) -> None:
        self.limits = limits
        self.cgroup = cgroup
        self._oom_seen = (0, 0)  # OOM kills and memory-limit hits seen so far
        self._stall_seen = 0  # the decision cgroup's pressure stalls (µs) when the last decision ended

    @property
    def clock(self) -> str:
        """What a time limit limits here: ``cpu`` (if asked for and measurable by the cgroup) or ``wall``."""
        can_measure = self.cgroup is not None and self.cgroup.can_kill
        return "cpu" if self.limits.clock == "cpu" and can_measure else "wall"

    def clocks(self, limit_s: float, *, wall_clock: bool = False) -> tuple[float, float | None]:
        """Wall-clock cap and CPU budget (ms) (None on the wall clock) for the time limit ``limit_s``."""
        if self.clock == "cpu" and not wall_clock:
            return self.limits.wall_cap_s(limit_s), limit_s * 1000
        return limit_s, None

    def result(
        self, reply: Reply, wall: float, budget_ms: float | None = None, *, output_cap: int | None = None
    ) -> RunResult:
        """The run ``reply`` tells of, judged: the CPU budget in full, idleness, memory, the caps."""
        status_text = reply.status
        sig = reply.signal
        cpu_ms = reply.cpu_ms
        detail = reply.detail
        limits = self.limits
        out_of_memory = status_text != "ok" and self._memory_met()
        idle = self._idle_past(reply, budget_ms) if budget_ms is not None else ""  # read after every decision
        if status_text == "not_started":
            status = RunStatus.NOT_STARTED
        elif out_of_memory and status_text != "output":  # stopped on a clock while it thrashed at its limit
            status, detail = RunStatus.MEMORY_LIMIT, f"limit {limits.memory_mb} MB"
        elif status_text == "timeout":
            status = RunStatus.TIMEOUT
        elif status_text == "cpu" and budget_ms is not None:
            status, detail = RunStatus.CPU_LIMIT, f"{budget_ms / 1000:g} s"
        elif status_text == "output":
            cap = output_cap if output_cap is not None else limits.output_bytes
            status, detail = RunStatus.OUTPUT_LIMIT, f"{cap} bytes"
        elif budget_ms is not None and cpu_ms > budget_ms and status_text in ("ok", "exited"):
            # judged in full: a decision that ended on its own past its CPU budget (threads on other CPUs
            # between two looks at the clock) is over its limit all the same
            status, detail = RunStatus.CPU_LIMIT, f"{budget_ms / 1000:g} s"
        elif idle and status_text in ("ok", "exited"):
            status, detail = RunStatus.TIMEOUT, idle  # ended on its own, but slept or blocked too long
        elif status_text == "ok":
            status = RunStatus.OK
        elif sig == signal.SIGXFSZ:
            status, detail = RunStatus.FILE_SIZE_LIMIT, f"{limits.file_size_mb} MB"
        elif sig == signal.SIGXCPU or (sig == signal.SIGKILL and cpu_ms >= limits.cpu_seconds(wall) * 1000):
            status = RunStatus.CPU_LIMIT
        elif sig is not None:
            status = RunStatus.SIGNALED
        else:
            status = RunStatus.NONZERO_EXIT
        return RunResult(
            status=status,
            exit_code=reply.exit_code,
            signal=sig,
            wall_ms=reply.wall_ms,
            cpu_ms=cpu_ms,
            peak_memory_kb=reply.maxrss_kb,
            stdout=reply.stdout,
            stderr=reply.stderr,
            wall_limit_s=wall,
            limit_detail=detail,
            help_files=reply.help_files,
        )

    def _idle_past(self, reply: Reply, budget_ms: float) -> str:
        """Why a decision on the CPU clock was idle too long ("" when it was not), after it ended.

        Idle is wall time neither running (its CPU time) nor waiting for a CPU, memory or the disk (the
        decision cgroup's pressure stalls since the last decision ended: between decisions nothing of the
        team's runs there). A program beside a CPU hog waits, which is not idleness; one that sleeps is.
        """
        stall_us = self.cgroup.run_stall_us() if self.cgroup is not None else None
        if stall_us is None:
            return ""
        waited_ms = (stall_us - self._stall_seen) / 1000
        self._stall_seen = stall_us
        idle_ms = reply.wall_ms - reply.cpu_ms - waited_ms
        allowance_s = self.limits.idle_allowance_s(budget_ms / 1000)
        if idle_ms <= allowance_s * 1000:
            return ""
        return f"idle:{idle_ms / 1000:.2f} s, more than the {allowance_s:.3g} s a decision may be idle"

    def _memory_met(self) -> bool:
        """True when, since the last look, the OOM killer acted or the programs' memory met its limit.

        A decision killed on a clock (CPU or wall) after its memory met the limit was thrashing there (the
        kernel reclaiming what it could, on the decision's CPU): it is recorded as out of memory.
        """
        if self.cgroup is None:
            return False
        count = (self.cgroup.oom_kills(), self.cgroup.memory_hits())
        met = count[0] > self._oom_seen[0] or count[1] > self._oom_seen[1]
        self._oom_seen = count
        return met
