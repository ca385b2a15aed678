"""One decision on the helper's road: a prepared process given its program, watched under the decision's
clocks and output cap, killed when over, ended with everything it started, and described in the one reply
record. Also the decision cgroup's CPU clock and its ``cgroup.kill``, which the helper's sweep uses.

Standard library only: the sandbox helper loads it from beside itself (``helper.py``), handing in the
modules it needs from beside it (``clock.py``, ``record.py``, ``cleanup.py``).
"""

from __future__ import annotations

import os
import select
import signal
import time
import types
from collections.abc import Callable
from typing import Any

READ_CHUNK = 65536


class Decision:
    """The decision cgroup's descriptors (``procs``, ``cpu``, ``kill``, ``events``) and its CPU clock."""

    def __init__(self, cgroup_fds: dict[str, list[int]], modules: types.SimpleNamespace) -> None:
        self.cgroup_fds = cgroup_fds
        self.clock, self.record, self.cleanup = modules.clock, modules.record, modules.cleanup
        self.cpu_mark_us = self.cgroup_cpu_us()

    def cgroup_cpu_us(self) -> int:
        """CPU time used so far by everything that ran in the decision cgroup (0 without one)."""
        return sum(self.clock.cgroup_cpu_us(fd) for fd in self.cgroup_fds.get("cpu", []))

    def cpu_ms(self) -> float:
        """CPU time of the decision cgroup since the last call (every process and thread of the decision)."""
        now = self.cgroup_cpu_us()
        used, self.cpu_mark_us = now - self.cpu_mark_us, now
        return used / 1000

    def kill(self) -> None:
        """``cgroup.kill`` the decision's cgroup and wait until nothing in it runs (daemons, threads, all)."""
        kill, events = self.cgroup_fds.get("kill", []), self.cgroup_fds.get("events", [])
        if not kill or b"populated 0" in os.pread(events[0], 4096, 0):
            return  # nothing of the decision is left (the usual case): no kill to wait for
        os.write(kill[0], b"1")
        poller = select.poll()
        poller.register(events[0], select.POLLPRI)
        for _ in range(self.cleanup.SWEEP_ROUNDS):
            if b"populated 0" in os.pread(events[0], 4096, 0):
                return
            self.cleanup.reap_all(block=False)
            poller.poll(10)

    def run(
        self,
        prepared: Any,
        argv: list[str],
        stdin: bytes,
        clocks: tuple[float, int | None, float | None, int],
        end: Callable[[], None],
    ) -> Any:
        """Run one program to completion in the ``prepared`` process, under its clocks; measure it; ``end``
        whatever it left (the helper's sweep); its ``Reply``.

        ``clocks``: ``wall``, the wall-clock cap; ``cpu``, its ``RLIMIT_CPU``; ``budget_ms`` (when the
        decision cgroup can measure it) the CPU time every process and thread of the decision may use
        together before it is ended as ``cpu``; ``cap`` the bytes it may print on each of stdout and stderr
        before it is ended as ``output``.
        """
        wall, cpu, budget_ms, cap = clocks
        if not self.cgroup_fds.get("cpu"):
            budget_ms = None
        in_w, out_r, errp_r = prepared.stdin_w, prepared.stdout_r, prepared.stderr_r
        if not stdin:
            os.close(in_w)
            in_w = -1
        self.cpu_ms()  # the decision's CPU clock starts here
        started = time.monotonic()
        pid, problem = prepared.launch(argv, cpu)
        if pid < 0:
            for fd in (out_r, errp_r, in_w):
                if fd >= 0:
                    os.close(fd)
            return self.record.Reply("not_started", detail=problem)
        pidfd = os.pidfd_open(pid)
        outputs = {out_r: bytearray(), errp_r: bytearray()}
        total = 0
        reason = ""
        poller = select.poll()
        poller.register(pidfd, select.POLLIN)
        for fd in outputs:
            os.set_blocking(fd, False)
            poller.register(fd, select.POLLIN)
        pending = memoryview(stdin)
        if in_w >= 0:
            os.set_blocking(in_w, False)
            poller.register(in_w, select.POLLOUT)
        deadline = started + wall
        exited = False
        while not exited:
            used_ms = (self.cgroup_cpu_us() - self.cpu_mark_us) / 1000 if budget_ms is not None else 0.0
            reason, wait_s = self.clock.next_wait(time.monotonic(), deadline, budget_ms, used_ms)
            if reason:
                break
            for fd, events in poller.poll(wait_s * 1000 + 1):
                if fd == pidfd:
                    exited = True
                elif fd == in_w:
                    try:
                        written = os.write(in_w, pending[:READ_CHUNK])
                        pending = pending[written:]
                    except (BrokenPipeError, BlockingIOError):
                        pending = pending[:0]
                    if not pending or events & (select.POLLERR | select.POLLHUP):
                        poller.unregister(in_w)
                        os.close(in_w)
                        in_w = -1
                else:
                    total += drain(fd, outputs, poller, cap)
            if total > cap:
                reason = "output"
                break
        if not exited:
            os.kill(pid, signal.SIGKILL)
        _, status, usage = os.wait4(pid, 0)
        wall_ms = (time.monotonic() - started) * 1000
        for fd in outputs:
            total += drain(fd, outputs, None, cap)
        if not reason and total > cap:
            reason = "output"
        for fd in (*outputs, pidfd, in_w):
            if fd >= 0:
                os.close(fd)
        end()
        cpu_us = round(self.cpu_ms() * 1000)  # every process of the decision
        out, err = outputs[out_r][:cap], outputs[errp_r][:cap]
        return self.record.ended(status, usage, wall_ms, reason, cpu_us=cpu_us, out=out, err=err)


def drain(fd: int, outputs: dict[int, bytearray], poller: select.poll | None, cap: int) -> int:
    """Read what is available from one output pipe; keep at most the cap plus one chunk."""
    count = 0
    while True:
        try:
            chunk = os.read(fd, READ_CHUNK)
        except BlockingIOError:
            return count
        if not chunk:
            if poller is not None:
                poller.unregister(fd)
            return count
        count += len(chunk)
        if len(outputs[fd]) <= cap:
            outputs[fd] += chunk
        if poller is not None:
            return count
