"""The helper's processes made ahead: the next run's, waiting for its program, and a session just started.

Standard library only: the sandbox helper loads it from beside itself (``helper.py``).
"""

from __future__ import annotations

import contextlib
import json
import os
import select
import signal
import time

PREPARED_ANSWER_S = 5.0  # a prepared process that has not started its program by then was stopped


class Started:
    """A persistent process just started: its session number and the ends passed to the arena."""

    def __init__(self, session: int, fds: tuple[int, int, int, int]) -> None:
        self.session, self.fds = session, fds


class Prepared:
    """A forked process ready to start the next run's program: its pid and the helper's pipe ends."""

    def __init__(self, pid: int, control_w: int, problem_r: int, *pipes: int) -> None:
        stdin_w, stdout_r, stderr_r = pipes
        self.pid, self.control_w, self.problem_r = pid, control_w, problem_r
        self.stdin_w, self.stdout_r, self.stderr_r = stdin_w, stdout_r, stderr_r

    def launch(self, argv: list[str], cpu: int | None) -> tuple[int, str]:
        """Hand it ``argv``; (its pid, now the program's, "") once started, or (-1, why it did not start)."""
        message = b""
        try:
            os.write(self.control_w, json.dumps({"argv": argv, "cpu": cpu}).encode())
        except BrokenPipeError:
            message = b"the prepared process is gone"
        os.close(self.control_w)
        poller = select.poll()
        poller.register(self.problem_r, select.POLLIN)
        deadline = time.monotonic() + PREPARED_ANSWER_S
        started = False
        while (left := deadline - time.monotonic()) > 0 and poller.poll(left * 1000):
            chunk = os.read(self.problem_r, 4096)
            if not chunk:
                started = not message  # the problem pipe closed at exec, with nothing said
                break
            message += chunk
        os.close(self.problem_r)
        if started:
            return self.pid, ""
        if not message and time.monotonic() >= deadline:  # stopped by a program (it runs as the team's
            # user, and a warm decision runs while it waits) or stuck: end it, never wait for it
            message = f"the prepared process did not start it within {PREPARED_ANSWER_S:.0f} s".encode()
        self.end()
        return -1, f"{argv[0]}: {message.decode(errors='replace') or 'the prepared process is gone'}"

    def reap(self) -> None:
        """Collect the prepared process (it exits once its program is started; the program is ours then)."""
        with contextlib.suppress(ChildProcessError):
            os.waitpid(self.pid, 0)

    def end(self) -> None:
        """Kill and collect it: it runs as the team's user, so a program may have stopped it (SIGSTOP),
        and a stopped process never exits by itself."""
        with contextlib.suppress(ProcessLookupError):
            os.kill(self.pid, signal.SIGKILL)
        self.reap()

    def discard(self) -> None:
        """Let go of it without a run (the next request is not a run)."""
        os.close(self.control_w)
        for fd in (self.problem_r, self.stdin_w, self.stdout_r, self.stderr_r):
            os.close(fd)
        self.end()
