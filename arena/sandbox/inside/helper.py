"""The sandbox helper: a small long-lived process that starts, watches and measures team programs.

It runs once per sandbox (one team at one table), inside the namespaces when isolation is available
(``ns`` mode, where it is PID 1 of the sandbox's PID namespace), or as a plain child of the arena
(``plain`` mode). It speaks to the arena over a Unix socket on fd 0: a JSON request line (plus raw
stdin bytes), answered by a JSON header line followed by raw stdout/stderr bytes. For a persistent
session it sends the pipe ends and a pidfd back over the socket (SCM_RIGHTS) so the arena talks to the
program directly.

Standard library only: it is run by the system interpreter with ``-I -S`` inside the sandbox.
"""

from __future__ import annotations

import contextlib
import ctypes
import dataclasses
import errno
import fcntl
import importlib.util
import json
import os
import resource
import select
import signal
import socket
import sys
import time
import types
from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from arena.sandbox.inside.prepared import Prepared, Started

READ_CHUNK = 65536
HIGH_FD = 100


class Helper:
    """State of the helper: configuration from ``init`` and the live sessions."""

    def __init__(self, channel: socket.socket, mode: str) -> None:
        self.channel = channel
        self.reader = channel.makefile("rb", buffering=0)
        self.mode = mode
        self.uid: int | None = None
        self.gid: int | None = None
        self.machinery_uid: int | None = None  # arena's own uid (the runner's, the fork server's)
        self.kept_caps = 0  # what the helper keeps, unused, to give the fork server its identity
        self.cwd = "."
        self.env: dict[str, str] = {}
        self.rlimits: list[tuple[int, int]] = []
        self.output_bytes = 65536
        self.scratch = ""
        self.fast = False
        self.sessions: dict[int, int] = {}
        self.machinery: set[int] = set()  # sessions that are arena's own (the fork server), not a program
        self.next_session = 1
        self.cgroup_fds: dict[str, list[int]] = {}
        self.ready: Prepared | None = None
        self.cpu_mark_us = 0

    # -- protocol
    def serve(self) -> None:
        """Answer requests until the arena says quit or closes the socket."""
        runner = self.configure(self.receive_init())
        answer = {"ok": True, "pid": os.getpid(), "oom_protected": self.oom_protected}
        if runner is None or isinstance(runner, str):
            self.reply({**answer, "runner_problem": runner})
        else:
            self.send_session(runner, answer)
        while True:
            line = self.reader.readline()
            if not line:
                break
            request = json.loads(line)
            op = request["op"]
            if op == "init":
                raise ValueError("init twice")
            elif op == "run":
                stdin = self.read_exact(request["stdin_len"])
                clocks = request["wall"], request.get("cpu"), request.get("budget_ms")
                cap = request.get("output_bytes", self.output_bytes)
                self.channel.sendall(record.encode(self.run(request["argv"], stdin, *clocks, cap)))
                self.ready = self.prepare()  # the next run's process, made while the arena reads this reply
            elif op == "start":
                self.start(request["argv"], machinery=request.get("machinery", False))
            elif op == "sweep":
                self.sweep(keep=self.sessions.values())
                self.reply({"ok": True, "cpu_ms": self.decision_cpu_ms()})
            elif op == "end":
                self.channel.sendall(record.encode(self.end(request["id"], request["grace"])))
            elif op == "quit":
                for pid in self.sessions.values():
                    with contextlib.suppress(PermissionError):  # the runner's input closes with the arena
                        os.kill(pid, signal.SIGKILL)
                self.sessions.clear()
                self.machinery.clear()
                self.sweep(keep=())
                self.reply({"ok": True})

    def receive_init(self) -> dict[str, Any]:
        """The ``init`` request, with the descriptors of the decision's cgroup passed beside it."""
        data, fds, _, _ = socket.recv_fds(self.channel, 1 << 16, 16)
        while not data.endswith(b"\n"):
            more = self.channel.recv(1 << 16)
            if not more:
                raise EOFError("arena closed the channel")
            data += more
        request: dict[str, Any] = json.loads(data)
        high = [fcntl.fcntl(fd, fcntl.F_DUPFD_CLOEXEC, HIGH_FD) for fd in fds]  # clear of what children get
        for fd in fds:
            os.close(fd)
        self.cgroup_fds = {name: [high[i] for i in indexes] for name, indexes in request["cgroup"].items()}
        return request

    def read_exact(self, size: int) -> bytes:
        chunks = []
        while size > 0:
            chunk = self.reader.read(size)
            if not chunk:
                raise EOFError("arena closed the channel")
            chunks.append(chunk)
            size -= len(chunk)
        return b"".join(chunks)

    def reply(self, header: dict[str, Any], stdout: bytes = b"", stderr: bytes = b"") -> None:
        header = {**header, "stdout_len": len(stdout), "stderr_len": len(stderr)}
        self.channel.sendall(json.dumps(header).encode() + b"\n" + stdout + stderr)

    def configure(self, request: dict[str, Any]) -> Started | str | None:
        """Take the sandbox's settings, drop root; the runner's session when asked to start it."""
        self.uid = request.get("uid")
        self.gid = request.get("gid")
        self.machinery_uid = request.get("machinery_uid")
        self.cwd = request["cwd"]
        self.env = request["env"]
        self.output_bytes = request["output_bytes"]
        self.scratch = request.get("scratch", "")
        self.rlimits = [(_START.RLIMIT_NAMES[name], value) for name, value in request["rlimits"].items()]
        join_fresh_session_keyring()
        self.oom_protected = False
        if os.geteuid() == 0:
            # arena's machinery is never the OOM killer's victim (needs CAP_SYS_RESOURCE, which some
            # containers withhold even from root; the helper is outside the programs' memory cgroup anyway)
            with contextlib.suppress(PermissionError):
                write_oom_score_adj(OOM_NEVER)
                self.oom_protected = True
        install_seccomp_filter()  # before anything is started: the runner too runs under it
        runner = None
        if request.get("runner") and request.get("machinery_uid") is not None and os.getuid() == 0:
            # arena's runner, started while the helper may still give it an identity of its own
            runner = self.open_session(
                request["runner"], machinery=True, owner=(request["machinery_uid"], MACHINERY_CAPS)
            )
        if self.mode == "ns" and self.uid is not None and os.getuid() == 0:
            self.become_sandbox_user()
        self.cpu_mark_us = self.cgroup_cpu_us()
        self.sweeper = cleanup.Sweeper(self.mode, self.uid, self.scratch, tree, self.become_user)
        return runner

    def become_sandbox_user(self) -> None:
        """In the namespaces: drop root for good; every limit but CPU is set here and inherited.

        The helper then shares the programs' real and effective uid but not their reach: as PID 1 of
        the namespace it ignores their signals; its saved uid (0) differs from theirs, so they cannot
        change its limits (prlimit); with ``dumpable`` off they can neither ptrace it nor open its /proc
        files. Each program's saved uid becomes its effective uid at exec, so programs hold nothing.
        """
        os.chdir(self.cwd)
        self.become_user(saved_uid=0)  # a saved uid of 0: programs may not prlimit or ptrace it
        # A saved uid of 0 keeps every capability otherwise: all go but, with a machinery uid, the ones the
        # fork server is started with (permitted only: none is effective, and no program inherits them)
        self.kept_caps = capability_mask(SERVER_CAPS) if self.machinery_uid is not None else 0
        prctl(PR_CAP_AMBIENT, PR_CAP_AMBIENT_CLEAR_ALL)
        _PRCTL.set_capabilities(0, self.kept_caps, 0)
        set_dumpable(False)
        prctl(PR_SET_PDEATHSIG, signal.SIGKILL)  # a change of credentials cleared bubblewrap's setting
        for which, value in self.rlimits:
            if which == resource.RLIMIT_NPROC:
                value += 2  # the helper itself and the fork server
            if which != resource.RLIMIT_CPU:
                resource.setrlimit(which, (value, value))
        self.fast = True

    def become_user(self, saved_uid: int | None = None) -> None:
        """Take the sandbox's uid and gid (no supplementary groups); the saved uid too unless given."""
        uid, gid = self.uid, self.gid
        assert uid is not None and gid is not None, "no sandbox user to become"
        os.setgroups([])
        os.setresgid(gid, gid, gid)
        os.setresuid(uid, uid, uid if saved_uid is None else saved_uid)

    @staticmethod
    def become_machinery(uid: int, caps: tuple[int, ...]) -> None:
        """Take arena's machinery uid, keeping only ``caps`` (what a runner or a fork server needs) across
        its exec.

        No program shares that uid or holds a capability, so none can signal, stop or trace the process.
        """
        mask = capability_mask(caps)
        _PRCTL.set_capabilities(mask, mask, 0)  # effective now (root, or the helper's kept set)
        os.setgroups([])
        os.setresgid(uid, uid, uid)
        prctl(_PRCTL.PR_SET_KEEPCAPS, 1)
        os.setresuid(uid, uid, uid)
        _PRCTL.set_capabilities(mask, mask, mask)
        for cap in caps:
            prctl(PR_CAP_AMBIENT, _PRCTL.PR_CAP_AMBIENT_RAISE, cap)

    # -- starting a program
    def spawn(
        self,
        argv: list[str],
        stdin_fd: int,
        stdout_fd: int,
        stderr_fd: int,
        cpu: int | None = None,
        *,
        machinery: bool = False,
        owner: Owner | None = None,
    ) -> tuple[int, str]:
        """Start ``argv``; return (pid, "") or (-1, reason).

        A program is in the decision's cgroup and under every limit before its first instruction: the
        forked child moves itself and sets them before ``execve``, and any failure is reported, never
        swallowed (the run is then not started). ``machinery`` (the fork server, the runner) stays in arena's
        cgroup with no CPU limit, and is given the run cgroup's descriptors to place each decision it forks;
        ``owner`` is the machinery uid it runs as instead of the sandbox's, and the capabilities it keeps
        (the runner, the fork server).
        """
        err_r, err_w = os.pipe2(os.O_CLOEXEC)
        cpu = cpu if cpu is not None else self.default_cpu()
        if machinery:
            count = len(self.cgroup_fds.get("procs", []))
            argv = [*argv, "--cgroup-fds=" + ",".join(str(3 + n) for n in range(count))]
            for offset, name in enumerate(MACHINERY_FDS):
                if self.cgroup_fds.get(name):
                    argv.append(f"--{name}-fd={3 + count + offset}")
        pid = os.fork()
        if pid == 0:
            try:
                self.become_program(stdin_fd, stdout_fd, stderr_fd, cpu, machinery, owner)
                os.execve(self.resolve(argv[0]), argv, self.env)
            except BaseException as error:
                try:
                    os.write(err_w, f"{argv[0]}: {error}".encode())
                finally:
                    os._exit(127)
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

    def become_program(
        self,
        stdin_fd: int,
        stdout_fd: int,
        stderr_fd: int,
        cpu: int | None,
        machinery: bool,
        owner: Owner | None = None,
    ) -> None:
        """In the forked child: a program's start sequence (``start.py``: session, decision cgroup, OOM score,
        limits, folder, the team's identity, no capability), or arena's machinery's (its own session and
        uid, outside the decision's cgroup and limits); then the standard fds."""
        for number in DEFAULT_SIGNALS:
            signal.signal(number, signal.SIG_DFL)  # the helper ignores some; a program must not inherit that
        procs = self.cgroup_fds.get("procs", [])
        if not machinery:
            _START.start(self.plan(cpu), _PRCTL)
        else:
            os.setsid()
            os.chdir(self.cwd)  # before dropping root: the fallback's folder may sit below a private parent
            if owner is not None:
                self.become_machinery(*owner)
            elif self.uid is not None and os.getuid() == 0:
                self.become_user()
        os.dup2(stdin_fd, 0)
        os.dup2(stdout_fd, 1)
        os.dup2(stderr_fd, 2)
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
        team = (self.uid, self.gid) if self.uid is not None and self.gid is not None else None
        return _START.Plan(tuple(self.cgroup_fds.get("procs", [])), tuple(limits), team, self.cwd)

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
                self.become_program(in_r, out_w, err_w, None, False)
                with os.fdopen(control_r, "rb") as control:
                    request = json.loads(control.read() or b"null")
                if request is None:
                    os._exit(0)  # not needed after all
                if request["cpu"] is not None:  # the last limit, before the program's first instruction
                    _START.limit_cpu(request["cpu"])
                # This process becomes the program (cgroups, limits, score, filter, user, pipes, session are
                # in place): the helper's own child, whose parent a program sees as PID 1 in the namespaces,
                # and can neither stop nor kill. The problem pipe closes at exec.
                argv = request["argv"]
                os.execve(self.resolve(argv[0]), argv, self.env)
            except BaseException as error:
                try:
                    os.write(problem_w, f"{error}".encode())
                finally:
                    os._exit(127)
        for fd in (in_r, out_w, err_w, control_r, problem_w):
            os.close(fd)
        ready: Prepared = prepared.Prepared(pid, control_w, problem_r, in_w, out_r, err_r)
        return ready

    def discard_prepared(self) -> None:
        """End the prepared process (the next request is not a run), before anything else is swept."""
        if self.ready is not None:
            self.ready.discard()
            self.ready = None

    # -- the decision's cgroup
    def cgroup_cpu_us(self) -> int:
        """CPU time used so far by everything that ran in the decision cgroup (0 without one)."""
        return sum(cgroup_cpu_us(fd) for fd in self.cgroup_fds.get("cpu", []))

    def decision_cpu_ms(self) -> float:
        """CPU time of the decision cgroup since the last call (every process and thread of the decision)."""
        now = self.cgroup_cpu_us()
        used, self.cpu_mark_us = now - self.cpu_mark_us, now
        return used / 1000

    def kill_decision(self) -> None:
        """``cgroup.kill`` the decision's cgroup and wait until nothing in it runs (daemons, threads, all)."""
        kill, events = self.cgroup_fds.get("kill", []), self.cgroup_fds.get("events", [])
        if not kill or b"populated 0" in os.pread(events[0], 4096, 0):
            return  # nothing of the decision is left (the usual case): no kill to wait for
        os.write(kill[0], b"1")
        poller = select.poll()
        poller.register(events[0], select.POLLPRI)
        for _ in range(cleanup.SWEEP_ROUNDS):
            if b"populated 0" in os.pread(events[0], 4096, 0):
                return
            cleanup.reap_all(block=False)
            poller.poll(10)

    def resolve(self, name: str) -> str:
        if "/" in name:
            return name
        for folder in self.env.get("PATH", "/usr/bin:/bin").split(":"):
            candidate = os.path.join(folder, name)
            if os.access(candidate, os.X_OK):
                return candidate
        raise FileNotFoundError(f"{name} not found on PATH")

    # -- one-shot runs
    def run(
        self, argv: list[str], stdin: bytes, wall: float, cpu: int | None, budget_ms: float | None, cap: int
    ) -> Any:
        """Run one program to completion under its clocks; measure it; end whatever it left (a ``Reply``).

        ``wall`` is the wall-clock cap; ``budget_ms`` (when the decision cgroup can measure it) the CPU time
        every process and thread of the decision may use together before it is ended as ``cpu``; ``cap``
        the bytes it may print on each of stdout and stderr before it is ended as ``output``.
        """
        if not self.cgroup_fds.get("cpu"):
            budget_ms = None
        prepared = self.ready or self.prepare()
        self.ready = None
        in_w, out_r, errp_r = prepared.stdin_w, prepared.stdout_r, prepared.stderr_r
        if not stdin:
            os.close(in_w)
            in_w = -1
        self.decision_cpu_ms()  # the decision's CPU clock starts here
        started = time.monotonic()
        pid, problem = prepared.launch(argv, cpu if cpu is not None else self.default_cpu())
        if pid < 0:
            for fd in (out_r, errp_r, in_w):
                if fd >= 0:
                    os.close(fd)
            return record.Reply("not_started", detail=problem)
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
            reason, wait_s = next_wait(time.monotonic(), deadline, budget_ms, used_ms)
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
                    total += self.drain(fd, outputs, poller, cap)
            if total > cap:
                reason = "output"
                break
        if not exited:
            os.kill(pid, signal.SIGKILL)
        _, status, usage = os.wait4(pid, 0)
        wall_ms = (time.monotonic() - started) * 1000
        for fd in outputs:
            total += self.drain(fd, outputs, None, cap)
        if not reason and total > cap:
            reason = "output"
        for fd in (*outputs, pidfd, in_w):
            if fd >= 0:
                os.close(fd)
        self.sweep(keep=self.sessions.values())
        cpu_us = round(self.decision_cpu_ms() * 1000)  # every process of the decision
        return self.describe(
            status, usage, wall_ms, reason, cpu_us=cpu_us, out=outputs[out_r][:cap], err=outputs[errp_r][:cap]
        )

    def drain(self, fd: int, outputs: dict[int, bytearray], poller: select.poll | None, cap: int) -> int:
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

    @staticmethod
    def describe(
        status: int,
        usage: resource.struct_rusage,
        wall_ms: float,
        reason: str,
        *,
        cpu_us: int = 0,
        out: bytes | bytearray = b"",
        err: bytes | bytearray = b"",
    ) -> Any:
        """The ``Reply`` of a program that ended with wait ``status`` (the larger of its own CPU time and
        ``cpu_us``, the decision cgroup's)."""
        return record.ended(status, usage, wall_ms, reason, cpu_us=cpu_us, out=out, err=err)

    # -- persistent sessions
    def start(self, argv: list[str], *, machinery: bool) -> None:
        """Start a persistent process; arena's own (the fork server) under the machinery uid when there is
        one, keeping what it needs to give each decision it forks the team's uid and gid, and to end it."""
        owner = None
        if machinery and self.machinery_uid is not None and (os.getuid() == 0 or self.kept_caps):
            owner = (self.machinery_uid, SERVER_CAPS)
        started = self.open_session(argv, machinery=machinery, owner=owner)
        if isinstance(started, str):
            self.reply({"ok": False, "detail": started})
        else:
            self.send_session(started, {"ok": True})

    def open_session(self, argv: list[str], *, machinery: bool, owner: Owner | None = None) -> Started | str:
        """Start a persistent process; its session, or why it did not start."""
        in_r, in_w = os.pipe2(os.O_CLOEXEC)
        out_r, out_w = os.pipe2(os.O_CLOEXEC)
        err_r, err_w = os.pipe2(os.O_CLOEXEC)
        pid, problem = self.spawn(argv, in_r, out_w, err_w, machinery=machinery, owner=owner)
        for fd in (in_r, out_w, err_w):
            os.close(fd)
        if pid < 0:
            for fd in (in_w, out_r, err_r):
                os.close(fd)
            return problem
        session = self.next_session
        self.next_session += 1
        self.sessions[session] = pid
        if machinery:
            self.machinery.add(session)
        started: Started = prepared.Started(session, (in_w, out_r, err_r, os.pidfd_open(pid)))
        return started

    def send_session(self, started: Started, header: dict[str, Any]) -> None:
        """Answer with ``header`` and the session's id, passing its pipes and pidfd beside the line."""
        line = {**header, "id": started.session, "started": time.monotonic()}
        socket.send_fds(self.channel, [json.dumps(line).encode() + b"\n"], list(started.fds))
        for fd in started.fds:
            os.close(fd)

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
        reply = self.describe(status, usage, 0.0, "")
        if ended_by_arena:
            reply = dataclasses.replace(reply, status="ok", exit_code=None, signal=None)
        return reply

    # -- cleanup
    def sweep(self, keep: Iterable[int]) -> None:
        """End every process the programs left behind (daemons, fork bombs), except live sessions."""
        kept = set(keep)
        self.discard_prepared()
        if all(session in self.machinery for session in self.sessions):
            self.kill_decision()  # no program's session runs: everything in the decision's cgroup ends now
        for pid in [pid for pid in cleanup.REAPED if pid not in kept]:
            del cleanup.REAPED[pid]  # only a session's own end is asked for later
        self.sweeper.sweep(kept)


KEYCTL_JOIN_SESSION_KEYRING = 1
SYS_KEYCTL = {"x86_64": 250, "aarch64": 219}


OOM_NEVER = -1000


def write_oom_score_adj(value: int) -> None:
    """Set this process's ``oom_score_adj`` (-1000: never an OOM victim; 1000: the first one)."""
    with open("/proc/self/oom_score_adj", "w") as adjust:
        adjust.write(str(value))


def join_fresh_session_keyring() -> None:
    """Replace the session keyring inherited from whoever started arena by a new, empty one."""
    number = SYS_KEYCTL.get(os.uname().machine)
    if number is not None and LIBC.syscall(number, KEYCTL_JOIN_SESSION_KEYRING, None) < 0:
        raise OSError(ctypes.get_errno(), "could not join a fresh session keyring")


# What arena's runner keeps under its own uid: give a program the team's uid and gid, signal it, empty /tmp;
# the fork server: give each decision the team's uid and gid, end it.
CAP_FOWNER, CAP_KILL, CAP_SETGID, CAP_SETUID = 3, 5, 6, 7
MACHINERY_CAPS = (CAP_FOWNER, CAP_KILL, CAP_SETGID, CAP_SETUID)
SERVER_CAPS = (CAP_KILL, CAP_SETGID, CAP_SETUID)
Owner = tuple[int, tuple[int, ...]]  # a machinery process's uid and the capabilities it keeps
MACHINERY_FDS = ("cpu", "kill", "events")  # after the cgroup.procs descriptors, from fd 3 on, in this order
DEFAULT_SIGNALS = (signal.SIGINT, signal.SIGPIPE, signal.SIGXFSZ)
LIBC = ctypes.CDLL(None, use_errno=True)


def capability_mask(caps: Iterable[int]) -> int:
    return sum(1 << cap for cap in caps)


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
_CLOCK = _load_beside("clock")  # the decision's clocks, shared with the fork server
cgroup_cpu_us = _CLOCK.cgroup_cpu_us
next_wait = _CLOCK.next_wait
install_seccomp_filter = _load_beside("seccomp").install_seccomp_filter
cleanup = _load_beside("cleanup")  # the end of a decision: strays, SysV IPC objects, /tmp
prepared = _load_beside("prepared")  # the next run's process, made ahead; a session just started
_START = _load_beside("start")  # a program's start sequence on this road (start.c's on the runner's)
record = _load_beside("record")  # the one reply format (arena/sandbox/inside/record.py)
tree = _load_beside("tree")  # beneath a folder without following links (arena/sandbox/tree.py): empties /tmp
prctl = _PRCTL.prctl
PR_SET_PDEATHSIG = _PRCTL.PR_SET_PDEATHSIG
PR_SET_CHILD_SUBREAPER = 36
PR_SET_DUMPABLE = _PRCTL.PR_SET_DUMPABLE
PR_SET_NO_NEW_PRIVS = _PRCTL.PR_SET_NO_NEW_PRIVS
PR_CAP_AMBIENT = _PRCTL.PR_CAP_AMBIENT
PR_CAP_AMBIENT_CLEAR_ALL = _PRCTL.PR_CAP_AMBIENT_CLEAR_ALL
drop_all_capabilities = _PRCTL.drop_all_capabilities


def set_dumpable(flag: bool) -> None:
    """PR_SET_DUMPABLE: off makes this process's /proc entries root's and forbids ptrace by its uid."""
    prctl(PR_SET_DUMPABLE, int(flag))


def set_no_new_privs() -> None:
    """No setuid binary or file capability inside the sandbox can raise a program's privileges."""
    prctl(PR_SET_NO_NEW_PRIVS, 1)


def main() -> None:
    mode = sys.argv[1]
    signal.signal(signal.SIGPIPE, signal.SIG_IGN)
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # as PID 1, a handled signal would reach it from inside
    set_no_new_privs()
    prctl(PR_SET_CHILD_SUBREAPER, 1)  # orphans of a decision become the helper's children (plain mode)
    channel = socket.socket(fileno=0)
    try:
        Helper(channel, mode).serve()
    except (EOFError, ConnectionError) as error:
        if getattr(error, "errno", None) not in (None, errno.EPIPE, errno.ECONNRESET):
            raise


if __name__ == "__main__":
    main()
