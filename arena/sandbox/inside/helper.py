"""The sandbox helper: a small long-lived process that starts, watches and measures team programs.

It runs once per sandbox (one team at one table), inside the namespaces when isolation is available
(``ns`` mode, where it is PID 1 of the sandbox's PID namespace), or as a plain child of the arena
(``plain`` mode). It speaks to the arena over a Unix socket on fd 0 (``protocol.py``). This file is the loop
that ties the helper's parts, each loaded from beside it: the protocol, its privileges
(``privileges.py``), the processes it forks (``prepared.py``, through the start sequence ``start.py``), one
decision on its road (``decision.py``), and the end of a decision (``cleanup.py``).

Standard library only: it is run by the system interpreter with ``-I -S`` inside the sandbox.
"""

from __future__ import annotations

import contextlib
import dataclasses
import errno
import importlib.util
import os
import select
import signal
import socket
import sys
import types
from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from arena.sandbox.inside.prepared import Prepared, Started


class Helper:
    """The helper's state: its parts, configured by ``init``, and the live sessions."""

    def __init__(self, channel: socket.socket, mode: str) -> None:
        self.channel = protocol.Channel(channel)
        self.mode = mode
        self.sessions: dict[int, int] = {}
        self.machinery: set[int] = set()  # sessions that are arena's own (the fork server), not a program
        self.next_session = 1
        self.ready: Prepared | None = None
        self.output_bytes = 65536

    def serve(self) -> None:
        """Answer requests until the arena says quit or closes the socket."""
        runner = self.configure(*self.channel.receive_init())
        answer = {"ok": True, "pid": os.getpid(), "oom_protected": self.oom_protected}
        if runner is None or isinstance(runner, str):
            self.channel.reply({**answer, "runner_problem": runner})
        else:
            self.channel.send_session(runner.session, runner.fds, answer)
        while (request := self.channel.next_request()) is not None:
            op = request["op"]
            if op == "init":
                raise ValueError("init twice")
            elif op == "run":
                stdin = self.channel.read_exact(request["stdin_len"])
                self.channel.send(record.encode(self.run(request, stdin)))
                self.ready = self.spawner.prepare()  # the next run's, made while the arena reads this reply
            elif op == "start":
                self.start(request["argv"], machinery=request.get("machinery", False))
            elif op == "sweep":
                self.sweep(keep=self.sessions.values())
                ended_by = self.sweeper.ended_by
                self.channel.reply({"ok": True, "cpu_ms": self.decision.cpu_ms(), "ended_by": ended_by})
            elif op == "end":
                self.channel.send(record.encode(self.end(request["id"], request["grace"])))
            elif op == "quit":
                for pid in self.sessions.values():
                    with contextlib.suppress(PermissionError):  # the runner's input closes with the arena
                        os.kill(pid, signal.SIGKILL)
                self.sessions.clear()
                self.machinery.clear()
                self.sweep(keep=())
                self.channel.reply({"ok": True})

    def configure(self, request: dict[str, Any], cgroup_fds: dict[str, list[int]]) -> Started | str | None:
        """Take the sandbox's settings, drop root; the runner's session when asked to start it."""
        uid, gid = request.get("uid"), request.get("gid")
        self.privileges = privileges.Privileges(_PRCTL, uid, gid, request.get("machinery_uid"))
        self.output_bytes = request["output_bytes"]
        rlimits = [(start_sequence.RLIMIT_NAMES[name], value) for name, value in request["rlimits"].items()]
        settings = {"cwd": request["cwd"], "env": request["env"], "rlimits": rlimits, "start": start_sequence}
        self.spawner = prepared.Spawner({**settings, "prctl": _PRCTL}, cgroup_fds, self.privileges)
        privileges.join_fresh_session_keyring()
        self.oom_protected = self.privileges.protect_from_oom()
        install_seccomp_filter()  # before anything is started: the runner too runs under it
        runner = None
        owner = self.privileges.runner_owner()
        if request.get("runner") and owner is not None:
            # arena's runner, started while the helper may still give it an identity of its own
            runner = self.open_session(request["runner"], machinery=True, owner=owner)
        if self.mode == "ns" and uid is not None and os.getuid() == 0:
            self.privileges.drop_root(request["cwd"], rlimits)
        modules = types.SimpleNamespace(clock=clock, record=record, cleanup=cleanup)
        self.decision = decision.Decision(cgroup_fds, modules)
        scratch = request.get("scratch", "")
        library = request.get("runner_library")  # the runner's road: scratch.c ends every decision
        compiled = cleanup.Compiled(library) if library and runner is not None else None
        self.sweeper = cleanup.Sweeper(self.mode, uid, scratch, tree, self.privileges.become_user, compiled)
        return runner

    def run(self, request: dict[str, Any], stdin: bytes) -> Any:
        """One decision in the prepared process (``decision.Decision.run``), ended by the sweep."""
        ready = self.ready or self.spawner.prepare()
        self.ready = None
        cpu = request.get("cpu")
        cpu = cpu if cpu is not None else self.spawner.default_cpu()
        cap = request.get("output_bytes", self.output_bytes)
        clocks = request["wall"], cpu, request.get("budget_ms"), cap
        return self.decision.run(
            ready, request["argv"], stdin, clocks, lambda: self.sweep(self.sessions.values())
        )

    # -- persistent sessions
    def start(self, argv: list[str], *, machinery: bool) -> None:
        """Start a persistent process; arena's own (the fork server) under the machinery uid when there is
        one, keeping what it needs to give each decision it forks the team's uid and gid, and to end it."""
        owner = self.privileges.server_owner() if machinery else None
        started = self.open_session(argv, machinery=machinery, owner=owner)
        if isinstance(started, str):
            self.channel.reply({"ok": False, "detail": started})
        else:
            self.channel.send_session(started.session, started.fds, {"ok": True})

    def open_session(self, argv: list[str], *, machinery: bool, owner: Any = None) -> Started | str:
        """Start a persistent process; its session, or why it did not start."""
        in_r, in_w = os.pipe2(os.O_CLOEXEC)
        out_r, out_w = os.pipe2(os.O_CLOEXEC)
        err_r, err_w = os.pipe2(os.O_CLOEXEC)
        pid, problem = self.spawner.spawn(argv, (in_r, out_w, err_w), machinery=machinery, owner=owner)
        for fd in (in_r, out_w, err_w):
            os.close(fd)
        if pid < 0:
            for fd in (in_w, out_r, err_r):
                os.close(fd)
            return str(problem)
        session = self.next_session
        self.next_session += 1
        self.sessions[session] = pid
        if machinery:
            self.machinery.add(session)
        started: Started = prepared.Started(session, (in_w, out_r, err_r, os.pidfd_open(pid)))
        return started

    def end(self, session: int, grace: float) -> Any:
        """End a session's process after ``grace`` seconds (killed: reported as ended by the arena, ok)."""
        pid = self.sessions.pop(session)
        self.machinery.discard(session)
        ended_by_arena = False
        if pid in cleanup.REAPED:
            status, usage = cleanup.REAPED[pid]
        else:
            pidfd = os.pidfd_open(pid)
            ended_by_arena = not select.select([pidfd], [], [], grace)[0]
            if ended_by_arena:  # the runner, under arena's machinery uid, is not the helper's to kill: it
                with contextlib.suppress(PermissionError):  # ends when its input closes, as it has
                    os.kill(pid, signal.SIGKILL)
            os.close(pidfd)
            _, status, usage = os.wait4(pid, 0)
        cleanup.REAPED.clear()
        self.sweep(keep=self.sessions.values())
        reply = record.ended(status, usage, 0.0, "")
        if ended_by_arena:
            reply = dataclasses.replace(reply, status="ok", exit_code=None, signal=None)
        return reply

    # -- the end of a decision
    def sweep(self, keep: Iterable[int]) -> None:
        """End every process the programs left behind (daemons, fork bombs), except live sessions."""
        kept = set(keep)
        if self.ready is not None:  # the prepared process goes first: the next request is not a run
            self.ready.discard()
            self.ready = None
        if all(session in self.machinery for session in self.sessions):
            self.decision.kill()  # no program's session runs: everything in the decision's cgroup ends now
        for pid in [pid for pid in cleanup.REAPED if pid not in kept]:
            del cleanup.REAPED[pid]  # only a session's own end is asked for later
        self.sweeper.sweep(kept)


def _load_beside(name: str) -> types.ModuleType:
    """A module from a file beside this script, under a private name (arena is not importable here).

    In the namespaces every such file is bound beside it in ``/.arena``; run from arena's source (the
    rlimits-only level), ``tree.py``, which the arena uses too, is in the sandbox package above.
    """
    here = os.path.dirname(os.path.abspath(__file__))
    path = os.path.join(here, f"{name}.py")
    if not os.path.exists(path):
        path = os.path.join(os.path.dirname(here), f"{name}.py")
    spec = importlib.util.spec_from_file_location(f"_arena_{name}", path)
    assert spec is not None and spec.loader is not None, path
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up
    spec.loader.exec_module(module)
    return module


_PRCTL = _load_beside("prctl")  # the one prctl wrapper and its options (arena/sandbox/inside/prctl.py)
clock = _load_beside("clock")  # the decision's clocks, shared with the fork server
install_seccomp_filter = _load_beside("seccomp").install_seccomp_filter
protocol = _load_beside("protocol")  # the arena's socket
privileges = _load_beside("privileges")  # who the helper and what it starts run as
start_sequence = _load_beside("start")  # a program's start sequence on this road (start.c's on the runner's)
prepared = _load_beside("prepared")  # the processes the helper forks, the next run's made ahead
decision = _load_beside("decision")  # one decision on the helper's road
cleanup = _load_beside("cleanup")  # the end of a decision: strays, SysV IPC objects, /tmp
record = _load_beside("record")  # the one reply format (arena/sandbox/inside/record.py)
tree = _load_beside("tree")  # beneath a folder without following links (arena/sandbox/tree.py): empties /tmp


def main() -> None:
    mode = sys.argv[1]
    signal.signal(signal.SIGPIPE, signal.SIG_IGN)
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # as PID 1, a handled signal would reach it from inside
    privileges.Privileges.guard_helper(_PRCTL)
    channel = socket.socket(fileno=0)
    try:
        Helper(channel, mode).serve()
    except (EOFError, ConnectionError) as error:
        if getattr(error, "errno", None) not in (None, errno.EPIPE, errno.ECONNRESET):
            raise


if __name__ == "__main__":
    main()
