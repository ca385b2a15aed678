"""The helper's processes: the next run's made ahead (waiting for its program), sessions, arena's machinery.

``Spawner`` forks them: a program's goes through the start sequence (``start.py``) before its exec, arena's
machinery (the runner, the fork server) takes its own uid outside the decision's cgroup and limits.
Standard library only: the sandbox helper loads it from beside itself (``helper.py``), handing in what it
needs from beside it (``start.py``, ``prctl.py``, its ``privileges.Privileges``).
"""

from __future__ import annotations

import contextlib
import json
import os
import resource
import select
import signal
import time
import types
from typing import Any

PREPARED_ANSWER_S = 5.0  # a prepared process that has not started its program by then was stopped
MACHINERY_FDS = ("cpu", "kill", "events")  # after the cgroup.procs descriptors, from fd 3 on, in this order
DEFAULT_SIGNALS = (signal.SIGINT, signal.SIGPIPE, signal.SIGXFSZ)


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


class Spawner:
    """Forks the helper's processes, with the sandbox's settings from ``init``."""

    def __init__(self, settings: dict[str, Any], cgroup_fds: dict[str, list[int]], privileges: Any) -> None:
        """``settings``: ``cwd``, ``env``, ``rlimits`` (RLIMIT_* and value pairs), and the ``start`` and
        ``prctl`` modules loaded beside the helper."""
        self.cwd: str = settings["cwd"]
        self.env: dict[str, str] = settings["env"]
        self.rlimits: list[tuple[int, int]] = settings["rlimits"]
        self.start: types.ModuleType = settings["start"]
        self.prctl: types.ModuleType = settings["prctl"]
        self.cgroup_fds, self.privileges = cgroup_fds, privileges

    def spawn(
        self, argv: list[str], fds: tuple[int, int, int], *, machinery: bool = False, owner: Any = None
    ) -> tuple[int, str]:
        """Start ``argv`` with ``fds`` as its stdin, stdout and stderr; return (pid, "") or (-1, reason).

        A program is in the decision's cgroup and under every limit before its first instruction: the
        forked child moves itself and sets them before ``execve``, and any failure is reported, never
        swallowed (the run is then not started). ``machinery`` (the fork server, the runner) stays in arena's
        cgroup with no CPU limit, and is given the run cgroup's descriptors to place each decision it forks;
        ``owner`` is the machinery uid it runs as instead of the sandbox's, and the capabilities it keeps
        (``privileges.Owner``).
        """
        err_r, err_w = os.pipe2(os.O_CLOEXEC)
        if machinery:
            count = len(self.cgroup_fds.get("procs", []))
            argv = [*argv, "--cgroup-fds=" + ",".join(str(3 + n) for n in range(count))]
            for offset, name in enumerate(MACHINERY_FDS):
                if self.cgroup_fds.get(name):
                    argv.append(f"--{name}-fd={3 + count + offset}")
        pid = os.fork()
        if pid == 0:
            try:
                self.become(fds, self.default_cpu(), machinery, owner)
                os.execve(self.resolve(argv[0]), argv, self.env)
            except BaseException as error:
                _fail(err_w, f"{argv[0]}: {error}")
        os.close(err_w)
        message = b""
        while True:
            chunk = os.read(err_r, 4096)
            if not chunk:
                break
            message += chunk
        os.close(err_r)
        if message:
            os.waitpid(pid, 0)
            return -1, message.decode(errors="replace")
        return pid, ""

    def become(self, fds: tuple[int, int, int], cpu: int | None, machinery: bool, owner: Any = None) -> None:
        """In the forked child: a program's start sequence (``start.py``: session, decision cgroup, OOM score,
        limits, folder, the team's identity, no capability), or arena's machinery's (its own session and
        uid, outside the decision's cgroup and limits); then the standard fds."""
        for number in DEFAULT_SIGNALS:
            signal.signal(number, signal.SIG_DFL)  # the helper ignores some; a program must not inherit that
        procs = self.cgroup_fds.get("procs", [])
        if not machinery:
            self.start.start(self.plan(cpu), self.prctl)
        else:
            os.setsid()
            os.chdir(self.cwd)  # before dropping root: the fallback's folder may sit below a private parent
            if owner is not None:
                self.privileges.become_machinery(owner)
            elif self.privileges.uid is not None and os.getuid() == 0:
                self.privileges.become_user()
        for target, fd in enumerate(fds):
            os.dup2(fd, target)
        if machinery:  # inheritable: the fork server and the runner move each decision they start into the
            # decision's cgroup, read its CPU clock, and (the runner) end it with cgroup.kill
            for offset, fd in enumerate(procs):
                os.dup2(fd, 3 + offset)
            for offset, name in enumerate(MACHINERY_FDS):
                for fd in self.cgroup_fds.get(name, [])[:1]:
                    os.dup2(fd, 3 + len(procs) + offset)

    def plan(self, cpu: int | None) -> Any:
        """A program's start (``start.Plan``): the exact limits (the helper's own allow for itself), with
        ``RLIMIT_CPU`` at ``cpu`` (None: a prepared process takes it with its program)."""
        limits = [(which, value) for which, value in self.rlimits if which != resource.RLIMIT_CPU]
        if cpu is not None:
            limits.append((resource.RLIMIT_CPU, cpu))
        uid, gid = self.privileges.uid, self.privileges.gid
        team = (uid, gid) if uid is not None and gid is not None else None
        return self.start.Plan(tuple(self.cgroup_fds.get("procs", [])), tuple(limits), team, self.cwd)

    def default_cpu(self) -> int | None:
        """The sandbox's own ``RLIMIT_CPU`` value (a run may ask for another)."""
        return dict(self.rlimits).get(resource.RLIMIT_CPU)

    def prepare(self) -> Prepared:
        """Fork the next run's process now: in the decision's cgroup, under every limit, waiting for argv.

        Everything a program needs before its first instruction is done ahead, off the decision's clock
        (and outside its CPU time); a run then costs a pipe write and an exec.
        """
        in_r, in_w = os.pipe2(os.O_CLOEXEC)
        out_r, out_w = os.pipe2(os.O_CLOEXEC)
        err_r, err_w = os.pipe2(os.O_CLOEXEC)
        control_r, control_w = os.pipe2(os.O_CLOEXEC)
        problem_r, problem_w = os.pipe2(os.O_CLOEXEC)
        pid = os.fork()
        if pid == 0:
            try:
                for fd in (in_w, out_r, err_r, control_w, problem_r):
                    os.close(fd)  # the helper's ends: its own copy of control_w would keep it waiting forever
                self.become((in_r, out_w, err_w), None, False)
                with os.fdopen(control_r, "rb") as control:
                    request = json.loads(control.read() or b"null")
                if request is None:
                    os._exit(0)  # not needed after all
                if request["cpu"] is not None:  # the last limit, before the program's first instruction
                    self.start.limit_cpu(request["cpu"])
                # This process becomes the program (cgroups, limits, score, filter, user, pipes, session are
                # in place): the helper's own child, whose parent a program sees as PID 1 in the namespaces,
                # and can neither stop nor kill. The problem pipe closes at exec.
                argv = request["argv"]
                os.execve(self.resolve(argv[0]), argv, self.env)
            except BaseException as error:
                _fail(problem_w, str(error))
        for fd in (in_r, out_w, err_w, control_r, problem_w):
            os.close(fd)
        return Prepared(pid, control_w, problem_r, in_w, out_r, err_r)

    def resolve(self, name: str) -> str:
        """The program's path: as given with a slash, else the first executable of that name on PATH."""
        if "/" in name:
            return name
        for folder in self.env.get("PATH", "/usr/bin:/bin").split(":"):
            candidate = os.path.join(folder, name)
            if os.access(candidate, os.X_OK):
                return candidate
        raise FileNotFoundError(f"{name} not found on PATH")


def _fail(fd: int, reason: str) -> None:
    """In a forked child that could not become its program: tell the helper why on ``fd``, exit 127."""
    try:
        os.write(fd, reason.encode())
    finally:
        os._exit(127)
