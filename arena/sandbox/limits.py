"""Resource limits of one sandbox: validated once at the edge, trusted inside."""

from __future__ import annotations

from typing import Literal

import pydantic

WALL_CAP_FACTOR = 5.0
WALL_CAP_SLACK_S = 1.0
IDLE_SLACK_S = 0.5  # on the CPU clock a decision may be idle for its limit and this much (docs/sandbox.md)


class Limits(pydantic.BaseModel, frozen=True):
    """What one team program may use per run (times) and in total (files, memory, processes).

    ``cpu_time_s`` defaults to the wall limit rounded up to whole seconds plus one, so the wall clock
    is the binding limit and CPU time only stops a program that spins in many threads.
    """

    wall_time_s: float = pydantic.Field(default=1.0, gt=0)
    cpu_time_s: float | None = pydantic.Field(default=None, gt=0)
    memory_mb: int = pydantic.Field(default=512, ge=16)
    max_processes: int = pydantic.Field(default=32, ge=1)
    file_size_mb: int = pydantic.Field(default=16, ge=1)
    help_files: int = pydantic.Field(default=15, ge=0)
    help_bytes_mb: int = pydantic.Field(default=16, ge=0)
    folder_depth: int = pydantic.Field(default=8, ge=1)
    output_bytes: int = pydantic.Field(default=64 * 1024, ge=0)
    # What ``wall_time_s`` limits: the wall clock, or the decision's CPU time (all its processes and
    # threads, from its cgroup) with a wall-clock cap of 5 x the limit + 1 s (docs/sandbox.md).
    clock: Literal["wall", "cpu"] = "wall"

    def wall_cap_s(self, limit_s: float) -> float:
        """The wall-clock cap of a run limited to ``limit_s`` (the limit itself on the wall clock)."""
        return limit_s if self.clock == "wall" else WALL_CAP_FACTOR * limit_s + WALL_CAP_SLACK_S

    def idle_allowance_s(self, limit_s: float) -> float:
        """How long a decision on the CPU clock may be idle: neither running nor waiting for a CPU, memory
        or the disk (sleeping, blocked on a read). More is a timeout, counted like any fault."""
        return limit_s + IDLE_SLACK_S

    def cpu_seconds(self, wall_time_s: float) -> int:
        """The RLIMIT_CPU value (whole seconds) for a run with the given wall limit."""
        if self.cpu_time_s is not None:
            return max(1, int(-(-self.cpu_time_s // 1)))
        return int(-(-wall_time_s // 1)) + 1
