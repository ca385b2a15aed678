"""The player side of a TwoCardDraw test case: one method call in, one integer out, faults as values.

A seat answers TwoCardDraw's method calls (``init``, ``new_hand``, ``round1``, ``draw``, ``round2``,
``showdown``) for the judge. Three adapters reach a team program through the sandbox: the line
protocol on one session (:class:`LineSeat`, also used by the class-interface drivers), the file
protocol with one process per call (:class:`FileSeat`). :class:`ObjectSeat` answers in-process from a
Python object with those methods (tests, simulations). Every seat charges the player's own time to a
budget (the statement: 20 s per test case); running out, crashing or answering garbage raises
:class:`SeatFault`, which the judge records as the fault that ends the test case.
"""

from __future__ import annotations

import re
import time
from collections.abc import Callable
from typing import Any, Protocol

import psutil

from arena.faults import Fault, FaultKind
from arena.sandbox.result import RunResult
from arena.seats import breach_kind, run_fault

IGNORED_METHODS = frozenset({"init", "showdown"})  # the statement: any answer is ignored
INPUT_FILE = "inputf.txt"
OUTPUT_FILE = "outputf.txt"
# An answer is a plain integer: ASCII digits (no "1_0", no other scripts' digits), at most 12 of them.
_INTEGER = re.compile(r"[+-]?[0-9]{1,12}")


class SeatFault(Exception):
    """A player fault; carries the :class:`Fault` that ends the test case."""

    def __init__(self, fault: Fault) -> None:
        super().__init__(fault.reason)
        self.fault = fault


class Seat(Protocol):
    """What the judge needs from a player."""

    used_s: float

    def call(self, method: str, args: tuple[int, ...]) -> int:
        """The player's answer to one method call (raises :class:`SeatFault`)."""
        ...

    def close(self) -> None:
        """Stop the player and release its resources (a fault found here raises :class:`SeatFault`)."""
        ...


def call_line(method: str, args: tuple[int, ...]) -> str:
    """The text of one call, e.g. ``round2 1 3 1 0 2``."""
    return " ".join([method, *map(str, args)])


def parse_answer(method: str, args: tuple[int, ...], text: str | None, team: str) -> int:
    """The integer in an answer line; ``init``/``showdown`` answers are ignored (0)."""
    if method in IGNORED_METHODS:
        return 0
    if text is None or not text.strip():
        raise SeatFault(
            Fault(team, FaultKind.NO_ANSWER, f"no answer to '{call_line(method, args)}'", stage=method)
        )
    answer = text.strip()
    if _INTEGER.fullmatch(answer) is None:
        raise SeatFault(
            Fault(
                team,
                FaultKind.NOT_AN_INTEGER,
                f"answered {answer[:40]!r} to '{call_line(method, args)}', "
                "not an integer (ASCII digits, 12 at most)",
                stage=method,
            )
        )
    return int(answer)


def _run_fault(team: str, run: RunResult, stage: str) -> Fault:
    """The fault describing a failed run of the player (the seat layer's rule)."""
    fault = run_fault(team, run, stage=stage)
    assert fault is not None, "only a run that did not end cleanly is a fault"
    return fault


def _time_fault(team: str, budget_s: float, method: str, args: tuple[int, ...]) -> SeatFault:
    return SeatFault(
        Fault(
            team,
            FaultKind.TIMEOUT,
            f"used up its {budget_s:g} s of thinking time for the test case (at '{call_line(method, args)}')",
            stage=method,
        )
    )


class ObjectSeat:
    """An in-process player: a Python object with TwoCardDraw's methods, charged the time it takes."""

    def __init__(self, player: Any, *, team: str = "player", budget_s: float = float("inf")) -> None:
        self.player = player
        self.team = team
        self.budget_s = budget_s
        self.used_s = 0.0

    def call(self, method: str, args: tuple[int, ...]) -> int:
        """Call the method directly."""
        start = time.perf_counter()
        answer = getattr(self.player, method)(*args)
        self.used_s += time.perf_counter() - start
        if self.used_s > self.budget_s:
            raise _time_fault(self.team, self.budget_s, method, args)
        return 0 if method in IGNORED_METHODS else int(answer)

    def close(self) -> None:
        """Nothing to release."""


def _session_process(transport: Any) -> psutil.Process | None:
    """The program's process, found from the session's pidfd (None when it cannot be found)."""
    pidfd = getattr(getattr(transport, "session", None), "pidfd", None)
    if pidfd is None:
        return None
    try:
        with open(f"/proc/self/fdinfo/{pidfd}") as info:
            pid = next(int(line.split()[1]) for line in info if line.startswith("Pid:"))
        return psutil.Process(pid) if pid > 0 else None
    except (OSError, ValueError, StopIteration, psutil.Error):
        return None


def _cgroup_clock(transport: Any) -> Callable[[], float] | None:
    """The CPU seconds of everything in the transport's sandbox's programs' cgroup from now on (the
    program, its threads and every process it starts, waited for or not); None without cgroup v2."""
    cgroup = getattr(getattr(transport, "sandbox", None), "cgroup", None)
    if cgroup is None or cgroup.unified is None:
        return None
    mark = cgroup.run_cpu_us()
    return lambda: (cgroup.run_cpu_us() - mark) / 1e6


class LineSeat:
    """A program kept alive for the whole test case, one call line in and one answer line out.

    The player's own time is CPU time (the statement: "time spent in your code"), so the pipe round trips
    of a loaded machine are not charged to it: the CPU of its sandbox's programs' cgroup, so thinking in
    a child process or a thread is charged too; without cgroup v2, its process's own CPU (with the
    children it waited for); when that cannot be measured either, the wall time of each call. One call
    may never wait longer than what is left of the budget, so a program that sleeps or hangs is stopped.
    """

    def __init__(self, transport: Any, *, team: str, budget_s: float) -> None:
        self.transport = transport
        self.team = team
        self.budget_s = budget_s
        self.used_s = 0.0
        self._wall_s = 0.0
        self._cgroup_cpu_s = _cgroup_clock(transport)  # from before the start: the start is charged too
        self.transport.start()
        self._process = _session_process(transport) if self._cgroup_cpu_s is None else None

    def _cpu_s(self) -> float | None:
        if self._cgroup_cpu_s is not None:
            return self._cgroup_cpu_s()
        if self._process is None:
            return None
        try:
            times = self._process.cpu_times()
        except psutil.Error:
            return None
        return times.user + times.system + times.children_user + times.children_system

    def call(self, method: str, args: tuple[int, ...]) -> int:
        """Send the call line and wait for the answer within what is left of the budget."""
        remaining = self.budget_s - self.used_s
        start = time.perf_counter()
        try:
            self.transport.send(call_line(method, args), max(remaining, 0.001))
        except TimeoutError:  # it stopped reading its input for longer than its time left
            raise _time_fault(self.team, self.budget_s, method, args) from None
        except (BrokenPipeError, OSError):
            raise self._ended(method) from None
        answer = self.transport.receive(max(remaining, 0.001))
        waited = time.perf_counter() - start
        self._wall_s += waited
        cpu = self._cpu_s()
        self.used_s = max(self.used_s, cpu) if cpu is not None else self._wall_s
        if answer is None:
            if waited >= remaining or self.used_s >= self.budget_s:
                raise _time_fault(self.team, self.budget_s, method, args)
            raise self._ended(method)
        if self.used_s > self.budget_s:
            raise _time_fault(self.team, self.budget_s, method, args)
        return parse_answer(method, args, answer, self.team)

    def _ended(self, method: str) -> SeatFault:
        run = self.transport.close()
        if run.ok:
            reason = f"the program exited before answering '{method}'"
            return SeatFault(Fault(self.team, FaultKind.NO_ANSWER, reason, stage=method))
        return SeatFault(_run_fault(self.team, run, method))

    def close(self) -> None:
        """End the session (closing its input is the end of the test case)."""
        self.transport.close()


class FileSeat:
    """A program run once per call: the call line in ``inputf.txt``, the answer in ``outputf.txt``."""

    def __init__(self, transport: Any, *, team: str, budget_s: float) -> None:
        self.transport = transport
        self.team = team
        self.budget_s = budget_s
        self.used_s = 0.0

    def call(self, method: str, args: tuple[int, ...]) -> int:
        """One run of the program for this call."""
        reply = self.transport.exchange({INPUT_FILE: call_line(method, args) + "\n"})
        self.used_s += reply.run.wall_ms / 1000
        if not reply.run.ok:
            raise SeatFault(_run_fault(self.team, reply.run, method))
        if reply.violations:
            kind = breach_kind(reply.violations[0])
            reason = "; ".join(breach.reason for breach in reply.violations)
            raise SeatFault(Fault(self.team, kind, reason, stage=method))
        if self.used_s > self.budget_s:
            raise _time_fault(self.team, self.budget_s, method, args)
        text = reply.text.splitlines()[0] if reply.text and reply.text.strip() else None
        return parse_answer(method, args, text, self.team)

    def close(self) -> None:
        """Nothing stays running between calls."""
