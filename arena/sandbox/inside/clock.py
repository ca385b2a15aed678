"""The clocks a decision is judged by: its CPU time (every process and thread) and a wall-clock cap.

Shared by the sandbox helper and the Python fork server (standard library only: both import it inside
the sandbox). The CPU time is the decision cgroup's ``cpu.stat`` ``usage_usec``; it cannot grow faster
than the machine's CPUs do, so the waiter sleeps until the earliest moment the budget could be spent,
reads the clock again, and so on: a handful of wake-ups per decision, never a polling loop.

:func:`next_wait` is the Python road's one owner of that wait; on the runner's road ``clock.c`` is (the
runner has it compiled in, and the fork server calls its shared object through :class:`Compiled`).
"""

from __future__ import annotations

import ctypes
import os

MIN_WAIT_S = 0.002
# Every CPU of the machine, not this process's: a program may widen its affinity past a pinned table's CPU.
CPUS = max(1, os.cpu_count() or 1)


def cgroup_cpu_us(fd: int) -> int:
    """``usage_usec`` of a cgroup's ``cpu.stat``, read through an open descriptor."""
    for line in os.pread(fd, 4096, 0).decode().splitlines():
        key, _, value = line.partition(" ")
        if key == "usage_usec":
            return int(value)
    return 0


def next_wait(now: float, deadline: float, budget_ms: float | None, used_ms: float) -> tuple[str, float]:
    """The verdict (``"timeout"`` or ``"cpu"``, 0) once a limit is reached, else ("", seconds to wait).

    ``deadline`` is the wall cap (monotonic seconds); ``budget_ms`` the CPU budget (None: wall clock only).
    """
    remaining = deadline - now
    if remaining <= 0:
        return "timeout", 0.0
    if budget_ms is None:
        return "", remaining
    left_ms = budget_ms - used_ms
    if left_ms <= 0:
        return "cpu", 0.0
    return "", min(remaining, max(left_ms / 1000 / CPUS, MIN_WAIT_S))


class Compiled:
    """``clock.c``'s ``arena_next_wait`` from the runner's shared object: the runner road's wait."""

    VERDICTS = ("", "timeout", "cpu")  # CLOCK_GO_ON, CLOCK_TIMEOUT, CLOCK_CPU

    def __init__(self, path: str) -> None:
        self.call = ctypes.CDLL(path, use_errno=True).arena_next_wait
        longlong = ctypes.c_longlong
        self.call.argtypes = [longlong, longlong, longlong, longlong, ctypes.POINTER(longlong)]
        self.call.restype = ctypes.c_int
        self.wait_us = longlong(0)

    def next_wait(
        self, now: float, deadline: float, budget_ms: float | None, used_ms: float
    ) -> tuple[str, float]:
        """What :func:`next_wait` answers, in the runner's C (the same units)."""
        budget_us = -1 if budget_ms is None else round(budget_ms * 1000)
        now_us, deadline_us, used_us = round(now * 1e6), round(deadline * 1e6), round(used_ms * 1000)
        verdict = self.call(now_us, deadline_us, budget_us, used_us, ctypes.byref(self.wait_us))
        if verdict:
            return self.VERDICTS[verdict], 0.0
        return "", self.wait_us.value / 1e6
