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
import errno
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

READ_CHUNK = 65536
SWEEP_ROUNDS = 1000


class Helper:
    """State of the helper: configuration from ``init`` and the live sessions."""

    def __init__(self, channel: socket.socket, mode: str) -> None:
        self.channel = channel
        self.reader = channel.makefile("rb", buffering=0)
        self.mode = mode
        self.uid: int | None = None
        self.gid: int | None = None
        self.cwd = "."
        self.env: dict[str, str] = {}
        self.rlimits: list[tuple[int, int]] = []
        self.output_bytes = 65536
        self.scratch = ""
        self.fast = False
        self.sessions: dict[int, int] = {}
        self.next_session = 1

    # -- protocol
    def serve(self) -> None:
        """Answer requests until the arena says quit or closes the socket."""
        while True:
            line = self.reader.readline()
            if not line:
                break
            request = json.loads(line)
            op = request["op"]
            if op == "init":
                self.configure(request)
                self.reply({"ok": True, "pid": os.getpid()})
            elif op == "run":
                stdin = self.read_exact(request["stdin_len"])
                self.reply(*self.run(request["argv"], stdin, request["wall"], request.get("cpu")))
            elif op == "start":
                self.start(request["argv"])
            elif op == "sweep":
                self.sweep(keep=self.sessions.values())
                self.reply({"ok": True})
            elif op == "end":
                self.reply(*self.end(request["id"], request["grace"]))
            elif op == "quit":
                for pid in self.sessions.values():
                    os.kill(pid, signal.SIGKILL)
                self.sessions.clear()
                self.sweep(keep=())
                self.reply({"ok": True})

    def read_exact(self, size: int) -> bytes:
        chunks = []
        while size > 0:
            chunk = self.reader.read(size)
            if not chunk:
                raise EOFError("arena closed the channel")
            chunks.append(chunk)
            size -= len(chunk)
        return b"".join(chunks)

    def reply(self, header: dict, stdout: bytes = b"", stderr: bytes = b"") -> None:
        header = {**header, "stdout_len": len(stdout), "stderr_len": len(stderr)}
        self.channel.sendall(json.dumps(header).encode() + b"\n" + stdout + stderr)

    def configure(self, request: dict) -> None:
        self.uid = request.get("uid")
        self.gid = request.get("gid")
        self.cwd = request["cwd"]
        self.env = request["env"]
        self.output_bytes = request["output_bytes"]
        self.scratch = request.get("scratch", "")
        names = {
            "cpu": resource.RLIMIT_CPU,
            "fsize": resource.RLIMIT_FSIZE,
            "nproc": resource.RLIMIT_NPROC,
            "core": resource.RLIMIT_CORE,
            "data": resource.RLIMIT_DATA,
            "stack": resource.RLIMIT_STACK,
        }
        self.rlimits = [(names[name], value) for name, value in request["rlimits"].items()]
        if self.mode == "ns" and self.uid is not None and os.getuid() == 0:
            self.become_sandbox_user()

    def become_sandbox_user(self) -> None:
        """In the namespaces: drop root for good, so each program starts with a bare ``posix_spawn``.

        The helper then shares the programs' real and effective uid but not their reach: as PID 1 of
        the namespace it ignores their signals; its saved uid (0) differs from theirs, so they cannot
        change its limits (prlimit); with ``dumpable`` off they can neither ptrace it nor open its /proc
        files. Each program's saved uid becomes its effective uid at exec, so programs hold nothing.
        Its own limits (except CPU, set per program) are inherited by every program it starts.
        """
        os.chdir(self.cwd)
        os.setgroups([])
        os.setresgid(self.gid, self.gid, self.gid)
        os.setresuid(self.uid, self.uid, 0)  # a saved uid of 0: programs may not prlimit or ptrace it
        drop_all_capabilities()  # a saved uid of 0 keeps them otherwise, and programs would inherit them
        set_dumpable(False)
        prctl(PR_SET_PDEATHSIG, signal.SIGKILL)  # a change of credentials cleared bubblewrap's setting
        for which, value in self.rlimits:
            if which == resource.RLIMIT_NPROC:
                value += 1  # the helper itself
            if which != resource.RLIMIT_CPU:
                resource.setrlimit(which, (value, value))
        self.fast = True

    # -- starting a program
    def spawn(
        self, argv: list[str], stdin_fd: int, stdout_fd: int, stderr_fd: int, cpu: int | None = None
    ) -> tuple[int, str]:
        """Start ``argv`` as the sandbox user; return (pid, "") or (-1, reason)."""
        if self.fast:
            return self.posix_spawn(argv, stdin_fd, stdout_fd, stderr_fd, cpu)
        err_r, err_w = os.pipe2(os.O_CLOEXEC)
        pid = os.fork()
        if pid == 0:
            try:
                self.become_program(stdin_fd, stdout_fd, stderr_fd, cpu)
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

    def posix_spawn(
        self, argv: list[str], stdin_fd: int, stdout_fd: int, stderr_fd: int, cpu: int | None
    ) -> tuple[int, str]:
        """The fast path (a vfork-style spawn): the helper already is the sandbox user with its limits."""
        actions = [
            (os.POSIX_SPAWN_DUP2, stdin_fd, 0),
            (os.POSIX_SPAWN_DUP2, stdout_fd, 1),
            (os.POSIX_SPAWN_DUP2, stderr_fd, 2),
        ]
        try:
            pid = os.posix_spawn(
                self.resolve(argv[0]),
                argv,
                self.env,
                file_actions=actions,
                setsid=True,
                setsigdef=DEFAULT_SIGNALS,
            )
        except OSError as error:
            return -1, f"{argv[0]}: {error}"
        limit = cpu if cpu is not None else dict(self.rlimits).get(resource.RLIMIT_CPU)
        try:
            if limit is not None:
                resource.prlimit(pid, resource.RLIMIT_CPU, (limit, limit))
            with open(f"/proc/{pid}/oom_score_adj", "w") as adjust:
                adjust.write("1000")  # under memory pressure the program goes first, never the helper
        except OSError:
            pass  # it has already exited (or exec made it undumpable): the OOM killer still picks the biggest
        return pid, ""

    def become_program(self, stdin_fd: int, stdout_fd: int, stderr_fd: int, cpu: int | None) -> None:
        """In the forked child: own session, limits, unprivileged user, standard fds, working folder."""
        signal.signal(signal.SIGPIPE, signal.SIG_DFL)  # Python ignores both; a program must not inherit that
        signal.signal(signal.SIGXFSZ, signal.SIG_DFL)
        os.setsid()
        with open("/proc/self/oom_score_adj", "w") as adjust:
            adjust.write("1000")  # under memory pressure the program goes first, never the helper
        for which, value in self.rlimits:
            if cpu is not None and which == resource.RLIMIT_CPU:
                value = cpu
            resource.setrlimit(which, (value, value))
        os.chdir(self.cwd)  # before dropping root: the fallback's folder may sit below a private parent
        if self.uid is not None and os.getuid() == 0:
            os.setgroups([])
            os.setresgid(self.gid, self.gid, self.gid)
            os.setresuid(self.uid, self.uid, self.uid)
        os.dup2(stdin_fd, 0)
        os.dup2(stdout_fd, 1)
        os.dup2(stderr_fd, 2)

    def resolve(self, name: str) -> str:
        if "/" in name:
            return name
        for folder in self.env.get("PATH", "/usr/bin:/bin").split(":"):
            candidate = os.path.join(folder, name)
            if os.access(candidate, os.X_OK):
                return candidate
        raise FileNotFoundError(f"{name} not found on PATH")

    # -- one-shot runs
    def run(self, argv: list[str], stdin: bytes, wall: float, cpu: int | None) -> tuple[dict, bytes, bytes]:
        """Run one program to completion under the wall limit; measure it; end whatever it left."""
        out_r, out_w = os.pipe2(os.O_CLOEXEC)
        errp_r, errp_w = os.pipe2(os.O_CLOEXEC)
        if stdin:
            in_r, in_w = os.pipe2(os.O_CLOEXEC)
        else:
            in_r, in_w = os.open(os.devnull, os.O_RDONLY | os.O_CLOEXEC), -1
        started = time.monotonic()
        pid, problem = self.spawn(argv, in_r, out_w, errp_w, cpu)
        for fd in (in_r, out_w, errp_w):
            os.close(fd)
        if pid < 0:
            for fd in (out_r, errp_r, in_w):
                if fd >= 0:
                    os.close(fd)
            return (
                {
                    "status": "not_started",
                    "detail": problem,
                    "wall_ms": 0.0,
                    "cpu_ms": 0.0,
                    "maxrss": 0,
                    "exit_code": None,
                    "signal": None,
                },
                b"",
                b"",
            )
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
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                reason = "timeout"
                break
            for fd, events in poller.poll(remaining * 1000 + 1):
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
                    total += self.drain(fd, outputs, poller)
            if total > self.output_bytes:
                reason = "output"
                break
        if not exited:
            os.kill(pid, signal.SIGKILL)
        _, status, usage = os.wait4(pid, 0)
        wall_ms = (time.monotonic() - started) * 1000
        for fd in outputs:
            total += self.drain(fd, outputs, None)
        if not reason and total > self.output_bytes:
            reason = "output"
        for fd in (*outputs, pidfd, in_w):
            if fd >= 0:
                os.close(fd)
        self.sweep(keep=self.sessions.values())
        header = self.describe(status, usage, wall_ms, reason)
        cap = self.output_bytes
        return header, bytes(outputs[out_r][:cap]), bytes(outputs[errp_r][:cap])

    def drain(self, fd: int, outputs: dict[int, bytearray], poller: select.poll | None) -> int:
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
            if len(outputs[fd]) <= self.output_bytes:
                outputs[fd] += chunk
            if poller is not None:
                return count

    @staticmethod
    def describe(status: int, usage: resource.struct_rusage, wall_ms: float, reason: str) -> dict:
        code = os.waitstatus_to_exitcode(status)
        return {
            "status": reason or ("ok" if code == 0 else "exited"),
            "exit_code": code if code >= 0 else None,
            "signal": -code if code < 0 else None,
            "wall_ms": wall_ms,
            "cpu_ms": (usage.ru_utime + usage.ru_stime) * 1000,
            "maxrss": usage.ru_maxrss,
        }

    # -- persistent sessions
    def start(self, argv: list[str]) -> None:
        in_r, in_w = os.pipe2(os.O_CLOEXEC)
        out_r, out_w = os.pipe2(os.O_CLOEXEC)
        err_r, err_w = os.pipe2(os.O_CLOEXEC)
        pid, problem = self.spawn(argv, in_r, out_w, err_w)
        for fd in (in_r, out_w, err_w):
            os.close(fd)
        if pid < 0:
            for fd in (in_w, out_r, err_r):
                os.close(fd)
            self.reply({"ok": False, "detail": problem})
            return
        pidfd = os.pidfd_open(pid)
        session = self.next_session
        self.next_session += 1
        self.sessions[session] = pid
        header = json.dumps({"ok": True, "id": session, "started": time.monotonic()}).encode() + b"\n"
        socket.send_fds(self.channel, [header], [in_w, out_r, err_r, pidfd])
        for fd in (in_w, out_r, err_r, pidfd):
            os.close(fd)

    def end(self, session: int, grace: float) -> tuple[dict, bytes, bytes]:
        pid = self.sessions.pop(session)
        ended_by_arena = False
        if pid in REAPED:
            status, usage = REAPED[pid]
        else:
            pidfd = os.pidfd_open(pid)
            ended_by_arena = not select.select([pidfd], [], [], grace)[0]
            if ended_by_arena:
                os.kill(pid, signal.SIGKILL)
            os.close(pidfd)
            _, status, usage = os.wait4(pid, 0)
        REAPED.clear()
        self.sweep(keep=self.sessions.values())
        header = self.describe(status, usage, 0.0, "")
        if ended_by_arena:
            header.update(status="ok", exit_code=None, signal=None, ended_by_arena=True)
        return header, b"", b""

    # -- cleanup
    def sweep(self, keep) -> None:
        """End every process the programs left behind (daemons, fork bombs), except live sessions."""
        keep = set(keep)
        for pid in [pid for pid in REAPED if pid not in keep]:
            del REAPED[pid]  # only a session's own end is asked for later
        if self.mode == "ns":
            if keep:
                self.kill_except(keep)
            else:
                self.kill_everything_in_namespace()
            self.clear_scratch()
        elif self.uid is not None and os.getuid() == 0:
            self.kill_sandbox_user(keep)

    def kill_everything_in_namespace(self) -> None:
        """As PID 1 of the namespace, ``kill(-1)`` reaches every other process in it, daemons included."""
        for _ in range(SWEEP_ROUNDS):
            try:
                os.kill(-1, signal.SIGKILL)
            except ProcessLookupError:
                return
            reap_all(block=True)

    def kill_except(self, keep: set[int]) -> None:
        for _ in range(SWEEP_ROUNDS):
            victims = [pid for pid in namespace_pids() if pid != 1 and not descends_from(pid, keep)]
            if not victims:
                return
            for pid in victims:
                with contextlib.suppress(ProcessLookupError):
                    os.kill(pid, signal.SIGKILL)
            reap_all(block=False)

    def kill_sandbox_user(self, keep: set[int]) -> None:
        """Without a PID namespace: signal every process of the sandbox's own uid until none is left.

        A child that becomes the sandbox user and calls ``kill(-1)`` stops a fork bomb in one sweep
        (it cannot fork faster than the kernel walks the list); the /proc scan confirms none is left.
        """
        if keep:
            return
        for _ in range(SWEEP_ROUNDS):
            if not self.user_pids():
                return
            pid = os.fork()
            if pid == 0:
                try:
                    os.setresgid(self.gid, self.gid, self.gid)
                    os.setresuid(self.uid, self.uid, self.uid)
                    os.kill(-1, signal.SIGKILL)
                finally:
                    os._exit(0)
            os.waitpid(pid, 0)
            reap_all(block=False)

    def user_pids(self) -> list[int]:
        found = []
        for name in os.listdir("/proc"):
            if name.isdigit():
                try:
                    if os.stat(f"/proc/{name}").st_uid == self.uid:
                        found.append(int(name))
                except FileNotFoundError:
                    pass
        return found

    def clear_scratch(self) -> None:
        """Empty the sandbox's /tmp so no state carries from one run to the next outside the team folder.

        As the sandbox's own user, without following links, whatever depth or modes the programs left.
        """
        if not self.scratch:
            return
        try:
            root = tree.open_folder(self.scratch)
        except OSError:
            return
        try:
            tree.empty(root)
        finally:
            os.close(root)


def namespace_pids() -> list[int]:
    return [int(name) for name in os.listdir("/proc") if name.isdigit()]


def descends_from(pid: int, roots: set[int]) -> bool:
    seen = 0
    while pid > 1 and seen < 64:
        if pid in roots:
            return True
        try:
            with open(f"/proc/{pid}/stat", "rb") as stat:
                pid = int(stat.read().rsplit(b")", 1)[1].split()[1])
        except (OSError, ValueError, IndexError):
            return False
        seen += 1
    return False


REAPED: dict[int, tuple[int, resource.struct_rusage]] = {}


def reap_all(*, block: bool) -> None:
    """Collect every exited child (as PID 1, orphans are ours too); keep how each ended, for sessions."""
    while True:
        try:
            pid, status, usage = os.wait4(-1, 0 if block else os.WNOHANG)
        except ChildProcessError:
            return
        if pid == 0:
            return
        REAPED[pid] = (status, usage)


DEFAULT_SIGNALS = (signal.SIGINT, signal.SIGPIPE, signal.SIGXFSZ)
LINUX_CAPABILITY_VERSION_3 = 0x20080522
LIBC = ctypes.CDLL(None, use_errno=True)


class CapHeader(ctypes.Structure):
    _fields_ = [("version", ctypes.c_uint32), ("pid", ctypes.c_int)]


class CapData(ctypes.Structure):
    _fields_ = [
        ("effective", ctypes.c_uint32),
        ("permitted", ctypes.c_uint32),
        ("inheritable", ctypes.c_uint32),
    ]


def _load_beside(name: str) -> types.ModuleType:
    """A module from a file beside this script, under a private name (arena is not importable here)."""
    path = os.path.join(os.path.dirname(os.path.abspath(__file__)), f"{name}.py")
    spec = importlib.util.spec_from_file_location(f"_arena_{name}", path)
    assert spec is not None and spec.loader is not None, path
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up
    spec.loader.exec_module(module)
    return module


_PRCTL = _load_beside("prctl")  # the one prctl wrapper and its options (arena/sandbox/prctl.py)
tree = _load_beside("tree")  # beneath a folder without following links (arena/sandbox/tree.py): empties /tmp
prctl = _PRCTL.prctl
PR_SET_PDEATHSIG = _PRCTL.PR_SET_PDEATHSIG
PR_SET_DUMPABLE = _PRCTL.PR_SET_DUMPABLE
PR_SET_NO_NEW_PRIVS = _PRCTL.PR_SET_NO_NEW_PRIVS
PR_CAP_AMBIENT = _PRCTL.PR_CAP_AMBIENT
PR_CAP_AMBIENT_CLEAR_ALL = _PRCTL.PR_CAP_AMBIENT_CLEAR_ALL


def drop_all_capabilities() -> None:
    """Empty the ambient, effective, permitted and inheritable capability sets of this process."""
    prctl(PR_CAP_AMBIENT, PR_CAP_AMBIENT_CLEAR_ALL)
    header = CapHeader(LINUX_CAPABILITY_VERSION_3, 0)
    data = (CapData * 2)()
    if LIBC.capset(ctypes.byref(header), data) != 0:
        raise OSError(ctypes.get_errno(), "capset failed")


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
    channel = socket.socket(fileno=0)
    try:
        Helper(channel, mode).serve()
    except (EOFError, ConnectionError) as error:
        if error.errno not in (None, errno.EPIPE, errno.ECONNRESET):
            raise


if __name__ == "__main__":
    main()
