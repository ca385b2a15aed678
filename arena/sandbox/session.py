"""A persistent program in a sandbox: lines or bytes to its stdin, lines or replies from its stdout."""

from __future__ import annotations

import dataclasses
import os
import select
import signal
import time
from typing import Any, Protocol

from arena.errors import SandboxError
from arena.sandbox.inside import record
from arena.sandbox.inside.record import Reply
from arena.sandbox.judge import Judge
from arena.sandbox.limits import Limits
from arena.sandbox.result import RunResult

SESSION_GRACE_S = 0.2


class Host(Protocol):
    """What a session needs of its sandbox (:class:`arena.sandbox.sandbox.Sandbox`)."""

    limits: Limits
    judge: Judge
    cut: bool  # the helper's channel is out of step: it cannot be asked
    sessions: list[Session]

    def request_run(self, request: dict[str, Any]) -> Reply:
        """Ask the helper; its answer is a decision's reply."""
        ...


class Session:
    """A persistent program: write lines to its stdin, read lines from its stdout."""

    def __init__(
        self, sandbox: Host, session_id: int, stdin_w: int, stdout_r: int, stderr_r: int, pidfd: int
    ) -> None:
        self.sandbox = sandbox
        self.session_id = session_id
        self.stdin_w, self.stdout_r, self.stderr_r, self.pidfd = stdin_w, stdout_r, stderr_r, pidfd
        os.set_blocking(stdout_r, False)
        os.set_blocking(stderr_r, False)
        self.buffer = bytearray()
        self.stderr = bytearray()
        self.started = time.monotonic()
        self.eof = False
        self.result: RunResult | None = None
        self.machinery = False  # arena's own server (fork server, runner), not a program
        self._poller = select.poll()  # the program's output streams, for read_line
        self._poller.register(stdout_r, select.POLLIN)
        self._poller.register(stderr_r, select.POLLIN)

    @property
    def alive(self) -> bool:
        """True while the program runs (its pidfd is not yet readable)."""
        if self.result is not None:
            return False
        return not select.select([self.pidfd], [], [], 0)[0]

    def send_line(self, line: str, timeout_s: float | None = None) -> None:
        """Write one line to the program (a newline is added); a closed pipe is ignored here.

        With ``timeout_s``, a program that does not take the line in that time (it stopped reading and
        its pipe is full) raises ``TimeoutError`` instead of blocking the arena.
        """
        if self.stdin_w < 0:
            return
        data = line.encode() + b"\n"
        try:
            if timeout_s is None:
                os.write(self.stdin_w, data)
            else:
                self._write_within(data, time.monotonic() + timeout_s)
        except TimeoutError:
            raise
        except OSError:  # it closed its input: nothing more reaches it
            self.close_stdin()

    def _write_within(self, data: bytes, deadline: float) -> None:
        """Write ``data`` whole, each part once the pipe has room; ``TimeoutError`` at ``deadline``."""
        room = select.poll()
        room.register(self.stdin_w, select.POLLOUT)
        view = memoryview(data)
        while view:
            left = deadline - time.monotonic()
            if left <= 0 or not room.poll(left * 1000):
                raise TimeoutError("the program did not read its input in time")
            view = view[os.write(self.stdin_w, view[: select.PIPE_BUF]) :]

    def close_stdin(self) -> None:
        """Close the program's stdin (it stopped reading, or it is done); sends are ignored from here."""
        if self.stdin_w >= 0:
            os.close(self.stdin_w)
            self.stdin_w = -1

    def send_bytes(self, data: bytes) -> bool:
        """Write ``data`` to the program whole; False when its stdin is closed."""
        if self.stdin_w < 0:
            return False
        try:
            view = memoryview(data)
            while view:
                view = view[os.write(self.stdin_w, view) :]
        except OSError:
            self.close_stdin()
            return False
        return True

    def read_bytes(self, count: int, timeout_s: float) -> bytes | None:
        """The next ``count`` bytes of the program's output, or None on timeout or end of output."""
        deadline = time.monotonic() + timeout_s
        poller = select.poll()
        poller.register(self.stdout_r, select.POLLIN)
        while len(self.buffer) < count:
            remaining = deadline - time.monotonic()
            if self.eof or remaining <= 0:
                return None
            for fd, _ in poller.poll(remaining * 1000):
                self._drain(fd)
        data = bytes(self.buffer[:count])
        del self.buffer[:count]
        return data

    def read_line(self, timeout_s: float) -> str | None:
        """The next line the program printed, or None on timeout or end of output."""
        deadline = time.monotonic() + timeout_s
        cap = self.sandbox.limits.output_bytes
        poller = self._poller
        while True:
            newline = self.buffer.find(b"\n")
            if newline >= 0:
                line = bytes(self.buffer[:newline])
                del self.buffer[: newline + 1]
                return line.decode(errors="replace").rstrip("\r")
            if self.eof or len(self.buffer) > cap:
                return None
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                return None
            for fd, _ in poller.poll(remaining * 1000):
                self._drain(fd)

    def read_reply(self, timeout_s: float) -> Reply | None:
        """The next decision's reply arena's machinery printed (:mod:`arena.sandbox.inside.record`), or
        None on
        timeout or end of output; ``SandboxError`` when what it printed is not one."""
        deadline = time.monotonic() + timeout_s
        while True:
            try:
                reply = record.parse(self.buffer)
            except ValueError as error:
                raise SandboxError(f"arena's machinery answered nonsense ({error})") from error
            if reply is not None or self.eof:
                return reply
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                return None
            for fd, _ in self._poller.poll(remaining * 1000):
                self._drain(fd, cap=False)

    @property
    def overlong(self) -> bool:
        """True when the program printed more than the output cap without ending its line."""
        return len(self.buffer) > self.sandbox.limits.output_bytes and b"\n" not in self.buffer

    def _drain(self, fd: int, *, cap: bool = True) -> None:
        try:
            chunk = os.read(fd, 1 << 20 if not cap else 65536)
        except BlockingIOError:
            return
        if fd == self.stdout_r:
            if not chunk:
                self.eof = True
            self.buffer += chunk
        elif len(self.stderr) < self.sandbox.limits.output_bytes:
            self.stderr += chunk

    def close(self) -> RunResult:
        """End the program (closing its stdin first, then killing it after a short grace) and measure it."""
        if self.result is not None:
            return self.result
        self.close_stdin()
        if self.sandbox.cut:  # the helper cannot be asked: the program ends with the sandbox, killed
            reply = Reply("exited", signal=signal.SIGKILL)
        else:
            request = {"op": "end", "id": self.session_id, "grace": SESSION_GRACE_S}
            reply = self.sandbox.request_run(request)
        while True:
            try:
                chunk = os.read(self.stderr_r, 65536)
            except BlockingIOError:
                break
            if not chunk or len(self.stderr) >= self.sandbox.limits.output_bytes:
                break
            self.stderr += chunk
        for fd in (self.stdout_r, self.stderr_r, self.pidfd):
            os.close(fd)
        wall_us = round((time.monotonic() - self.started) * 1e6)
        reply = dataclasses.replace(
            reply, wall_us=wall_us, stdout=bytes(self.buffer), stderr=bytes(self.stderr)
        )
        self.result = self.sandbox.judge.result(reply, 0.0)
        self.sandbox.sessions.remove(self)
        return self.result
