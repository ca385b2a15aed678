"""One sandbox per team per table: a helper started once, then a bare process start per run."""

from __future__ import annotations

import dataclasses
import functools
import json
import logging
import os
import select
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Callable, Collection, Sequence
from pathlib import Path
from typing import Any, TypeVar

from arena.errors import ConfigError, SandboxError
from arena.sandbox import isolation, tree
from arena.sandbox.cgroup import SandboxCgroup
from arena.sandbox.channel import Channel
from arena.sandbox.inside import record
from arena.sandbox.inside.record import Reply
from arena.sandbox.judge import Judge
from arena.sandbox.limits import Limits
from arena.sandbox.result import RunResult
from arena.sandbox.runner_client import Runner, runner_binary, runner_library
from arena.sandbox.uids import next_sandbox_uid

T = TypeVar("T")
RLIMITS_ONLY_NAME = isolation.RLIMITS_ONLY
SCRATCH_MB = 64
TEAM_EXTRA_MB = 128
SESSION_GRACE_S = 0.2
NO_ENVIRONMENT: dict[str, str] = {}  # bubblewrap and the helper start with nothing of the arena's
COPY_EXTRA_ENTRIES = 16  # the protocol files, with room to spare
PAGE_CACHE_KEPT = (
    "no memory cgroup reclaims what a closed sandbox left in the page cache: "
    "a table can pass information to the next through it (docs/sandbox.md)"
)


@dataclasses.dataclass(frozen=True)
class _Clocks:
    """What a run is judged by: its time limit, on the wall clock or the sandbox's, and its output cap."""

    limit: float
    wall_clock: bool
    cap: int


class Sandbox:
    """Runs a team's programs in its folder under limits; see :func:`open_sandbox`."""

    def __init__(self, workdir: Path, limits: Limits, isolation_level: str) -> None:
        self.workdir = workdir
        self.limits = limits
        self.isolation_level = isolation_level
        self.cgroup: SandboxCgroup | None = None
        self.sessions: list[Session] = []
        self.closed = False
        self.cut = False  # a request was interrupted before its reply was read: the channel is out of step
        # Names (relative to the team folder) of the program and what its build made: never help files.
        self.build_products: set[str] = set()
        # Of those, what a compiler made (a binary, class files): left out of the copy out, since the
        # build cache keeps one copy for every table (a 15 MB binary is not copied at each).
        self.compiled: set[str] = set()
        # What the copies in and out left behind (links, FIFOs, past the caps), for the table to record.
        self.dropped: list[tree.Stray] = []
        self.process: subprocess.Popen[bytes] | None = None
        self.runner: Runner | None = None
        self.held: set[int] = set()  # descriptors a transport keeps open for the sandbox's life
        self.runner_binary = runner_binary() if isolation_level == isolation.NAMESPACES else None
        self.runner_library = runner_library() if self.runner_binary is not None else None
        try:
            self._start_helper()
        except BaseException:
            self._abandon()
            raise

    def _abandon(self) -> None:
        """A sandbox that could not open: end its helper if it started, remove its cgroups."""
        if self.process is not None and self.process.poll() is None:
            self.process.kill()
            self.process.wait()
        self._remove_cgroup()

    # -- life cycle
    def _start_helper(self) -> None:
        limits = self.limits
        if SandboxCgroup.available():
            try:
                self.cgroup = SandboxCgroup(limits.memory_mb << 20, limits.max_processes + 8)
            except OSError as error:
                raise SandboxError(f"could not make the sandbox's cgroups: {error}") from error
        if self.cgroup is None or self.cgroup.reclaim_knob is None:
            _page_cache_kept()
        self.judge = Judge(limits, self.cgroup)
        ours, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_STREAM)
        enter = self.cgroup.enter if self.cgroup is not None else None
        try:
            if self.isolation_level == isolation.NAMESPACES:
                info_r, info_w = os.pipe()
                argv = isolation.bwrap_argv(
                    team_bytes=(limits.help_bytes_mb + TEAM_EXTRA_MB) << 20,
                    scratch_bytes=SCRATCH_MB << 20,
                    info_fd=info_w,
                    runner=self.runner_binary,
                    library=self.runner_library,
                )
                self.process = subprocess.Popen(
                    argv,
                    stdin=theirs.fileno(),
                    stdout=subprocess.DEVNULL,
                    stderr=subprocess.PIPE,
                    pass_fds=(info_w,),
                    preexec_fn=enter,
                    env=NO_ENVIRONMENT,
                    close_fds=True,
                )
                os.close(info_w)
                with os.fdopen(info_r, "rb") as info:
                    text = info.read()
                helper_pid = int(json.loads(text)["child-pid"])
                self.folder = Path(f"/proc/{helper_pid}/root{isolation.TEAM_DIR}")
                self.helper_pid = helper_pid
                inner_dir, scratch = isolation.TEAM_DIR, isolation.SCRATCH_DIR
            else:
                self.workdir.mkdir(parents=True, exist_ok=True)
                _require_reachable(self.workdir)
                argv = [sys.executable, "-I", "-S", str(isolation.HELPER_SOURCE), "plain"]
                self.process = subprocess.Popen(
                    argv,
                    stdin=theirs.fileno(),
                    stdout=subprocess.DEVNULL,
                    stderr=subprocess.PIPE,
                    preexec_fn=enter,
                    env=NO_ENVIRONMENT,
                    close_fds=True,
                    cwd=self.workdir,
                )
                self.folder = self.workdir
                self.helper_pid = self.process.pid
                inner_dir, scratch = str(self.workdir), ""
        except (OSError, KeyError, ValueError) as error:
            raise SandboxError(f"could not start the sandbox helper: {error}") from error
        finally:
            theirs.close()
        self.channel = Channel(ours)
        as_root = os.geteuid() == 0
        self.uid = next_sandbox_uid() if as_root else None
        runner = self._runner_argv() if self.has_runner and self.uid is not None else None
        # arena's own uid for its machinery (the runner, the fork server), as root on both roads: no program's
        machinery_uid = next_sandbox_uid() if self.uid is not None else None
        self.machinery_uid = machinery_uid
        library = isolation.RUNNER_LIBRARY_PATH if runner and self.runner_library else None  # scratch.c's
        descriptors = self.cgroup.run_descriptors() if self.cgroup is not None else {}
        fds = [fd for group in descriptors.values() for fd in group]
        indexes, position = {}, 0
        for name, group in descriptors.items():
            indexes[name] = list(range(position, position + len(group)))
            position += len(group)
        try:
            self.channel.send(
                {
                    "op": "init",
                    "uid": self.uid,
                    "gid": self.uid,
                    "cwd": inner_dir,
                    "scratch": scratch,
                    "env": self._program_env(inner_dir),
                    "output_bytes": limits.output_bytes,
                    "rlimits": self._rlimits(),
                    "cgroup": indexes,
                    "runner": runner,
                    "runner_library": library,
                    "machinery_uid": machinery_uid,
                },
                fds=fds,
            )
        finally:
            for fd in fds:
                os.close(fd)
        try:
            header, _, _ = self.channel.receive()
            self.helper_oom_protected = bool(header.get("oom_protected"))
        except SandboxError as error:
            self.helper_process.wait()
            raise SandboxError(f"{error}: {self._helper_stderr()}") from error
        if header.get("runner_problem"):
            raise SandboxError(f"could not start arena's runner: {header['runner_problem']}")
        if runner is not None:
            self.runner = Runner(self._session(header, machinery=True))
        if self.isolation_level == isolation.NAMESPACES:
            self._copy_in()
        elif as_root:
            os.chmod(self.workdir, 0o1777)
            self._give_to_program(self.workdir)

    def _program_env(self, home: str) -> dict[str, str]:
        """The whole environment a program sees: nothing of the arena's."""
        return {"PATH": isolation.PROGRAM_PATH, "HOME": home, "LANG": "C.UTF-8", "TMPDIR": "/tmp"}

    def _rlimits(self) -> dict[str, int]:
        limits = self.limits
        values = {
            "cpu": limits.cpu_seconds(limits.wall_time_s),
            "fsize": limits.file_size_mb << 20,
            "core": 0,
        }
        if self.uid is not None:
            values["nproc"] = limits.max_processes
        if self.cgroup is None or not self.cgroup.has_memory:
            values["data"] = limits.memory_mb << 20
        return values

    def _copy_caps(self) -> tree.Caps:
        """What a team folder may hold when copied in or out: what its tmpfs can hold, help files and
        build products counted, in files and folders, depth and bytes read."""
        limits = self.limits
        return tree.Caps(
            entries=limits.help_files + len(self.build_products) + COPY_EXTRA_ENTRIES,
            depth=limits.folder_depth,
            bytes=(limits.help_bytes_mb + TEAM_EXTRA_MB) << 20,
        )

    def _copy_in(self) -> None:
        """Bring what the arena put in ``workdir`` (help files given) into the team folder, as the team's."""
        if not self.workdir.is_dir():
            return
        source, target = tree.open_folder(self.workdir), tree.open_folder(self.folder)
        try:
            self.dropped += tree.copy_tree(source, target, self._copy_caps(), owner=self.uid)
        finally:
            os.close(source)
            os.close(target)

    def _give_to_program(self, folder: Path) -> None:
        """Files carried in from earlier runs belong to this sandbox's uid (the folder stays root's)."""
        if self.uid is None:
            return
        root = tree.open_folder(folder)
        try:
            for entry in tree.scan(root, max_depth=self.limits.folder_depth).entries:
                os.chown(entry.path, self.uid, self.uid, dir_fd=root, follow_symlinks=False)
        finally:
            os.close(root)

    def _copy_out(self, source: int | None = None) -> None:
        """Copy the team folder's regular files and folders into ``workdir``, within caps, links unfollowed.

        Called once every process of the sandbox has ended, so nothing changes the tree meanwhile;
        ``source``, the team folder opened before its helper ended, is read (and closed) instead.
        """
        self.workdir.mkdir(parents=True, exist_ok=True)
        target = tree.open_folder(self.workdir)
        try:
            tree.empty(target)
            source = tree.open_folder(self.folder) if source is None else source
            try:
                self.dropped += tree.copy_tree(source, target, self._copy_caps(), skip=self.compiled)
            finally:
                os.close(source)
        finally:
            os.close(target)

    def close(self) -> None:
        """End every process this sandbox started; leave the team folder's contents in ``workdir``."""
        if self.closed:
            return
        self.runner = None
        for fd in self.held:
            os.close(fd)
        self.held.clear()
        try:
            for session in list(self.sessions):
                session.close()
        finally:
            self.closed = True
        try:
            namespaced = self.isolation_level == isolation.NAMESPACES
            if self.cut:  # no request can be trusted to get its own reply: end the helper by its channel,
                folder = tree.open_folder(self.folder) if namespaced else None  # its box's folder kept open
                self._end_helper()
                if folder is not None:
                    self._copy_out(folder)
            else:
                self._request({"op": "quit"})
                if namespaced:
                    self._copy_out()
        except (OSError, SandboxError) as error:
            # Closing never fails a table: what could not be copied out is recorded for it.
            self.dropped.append(tree.Stray("", f"the team folder could not be copied out ({error})"))
        finally:
            self._end_helper()
            if self.helper_process.stderr is not None:
                self.helper_process.stderr.close()
            self._remove_cgroup()

    def _end_helper(self) -> None:
        """Close the helper's channel, which ends it (and, as PID 1 of the box, all in it); wait for it."""
        self.channel.sock.close()
        try:
            self.helper_process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.helper_process.kill()
            self.helper_process.wait()

    @property
    def helper_process(self) -> subprocess.Popen[bytes]:
        """The helper's process (bubblewrap's, in the namespaces) once started."""
        assert self.process is not None, "the sandbox helper was never started"
        return self.process

    def hold(self, fd: int) -> int:
        """Keep ``fd`` (e.g. a protocol file's) open until the sandbox closes; return it."""
        self.held.add(fd)
        return fd

    def release(self, fd: int) -> None:
        """Close a descriptor given to :meth:`hold` before the sandbox closes."""
        self.held.discard(fd)
        os.close(fd)

    def _remove_cgroup(self) -> None:
        if self.cgroup is not None:
            self.cgroup.remove()

    def __enter__(self) -> Sandbox:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()

    # -- running
    def _request(self, request: dict[str, Any], payload: bytes = b"") -> tuple[dict[str, Any], bytes, bytes]:
        return self._ask(request, payload, self.channel.receive)

    def _request_run(self, request: dict[str, Any], payload: bytes = b"") -> Reply:
        """A request answered by a decision's reply (a run, a session's end)."""
        return self._ask(request, payload, self.channel.receive_reply)

    def _ask(self, request: dict[str, Any], payload: bytes, receive: Callable[[], T]) -> T:
        if self.closed and request["op"] != "quit":
            raise SandboxError("the sandbox is closed")
        if self.cut:
            raise SandboxError("an earlier request to the sandbox helper was interrupted before its reply")
        self.cut = True  # until the reply is read whole (a signal's exception may land in between)
        self.channel.send(request, payload)
        try:
            reply = receive()
        except SandboxError as error:
            raise SandboxError(f"{error}: {self._helper_stderr()}") from error
        self.cut = False
        return reply

    def _helper_stderr(self) -> str:
        if self.helper_process.poll() is None or self.helper_process.stderr is None:
            return "helper still running"
        return self.helper_process.stderr.read().decode(errors="replace").strip()[-2000:]

    def run(
        self,
        argv: Sequence[str],
        *,
        stdin: bytes = b"",
        wall_time_s: float | None = None,
        arenas_files: Collection[str] = (),
        wall_clock: bool = False,
        output_bytes: int | None = None,
    ) -> RunResult:
        """Run ``argv`` once to completion in the team folder; measure it; end whatever it left behind.

        In the namespaced sandbox with a decision cgroup, arena's compiled runner does it (see
        :mod:`arena.sandbox.runner_client`), and also counts the help files left in the team folder (besides
        ``arenas_files``, the arena's own) when they break no rule; otherwise, or with stdin, the helper
        does. ``wall_clock`` judges ``wall_time_s`` on
        the wall clock whatever the sandbox's clock (a build); ``output_bytes`` replaces the limits' cap.
        """
        if not argv:
            raise ConfigError("nothing to run: empty command")
        if self.closed:
            raise SandboxError("the sandbox is closed")
        limit = wall_time_s if wall_time_s is not None else self.limits.wall_time_s
        cap = output_bytes if output_bytes is not None else self.limits.output_bytes
        clocks = _Clocks(limit, wall_clock, cap)
        if not stdin and self._runner_usable():
            return self._run_on_runner(argv, clocks, arenas_files)
        return self._run_on_helper(argv, clocks, stdin)

    def _run_on_helper(self, argv: Sequence[str], clocks: _Clocks, stdin: bytes = b"") -> RunResult:
        wall, budget_ms = self.clocks(clocks.limit, wall_clock=clocks.wall_clock)
        request = {"op": "run", "argv": list(argv), "stdin_len": len(stdin), "wall": wall}
        request.update(budget_ms=budget_ms, cpu=self.limits.cpu_seconds(clocks.limit))
        request["output_bytes"] = clocks.cap
        return self.judge.result(self._request_run(request, stdin), wall, budget_ms, output_cap=clocks.cap)

    @property
    def has_runner(self) -> bool:
        """True when one-shot runs go through arena's compiled runner (built; a decision cgroup to kill)."""
        return self.runner_binary is not None and self.cgroup is not None and self.cgroup.can_kill

    def _runner_usable(self) -> bool:
        return self.runner is not None and all(  # its cgroup.kill would end a program's session
            session.machinery for session in self.sessions
        )

    def _run_on_runner(
        self, argv: Sequence[str], clocks: _Clocks, arenas_files: Collection[str]
    ) -> RunResult:
        """One decision through arena's runner, out of the program's reach (its own uid, no capability of
        the program's over it). A runner that fails is arena's failure: :class:`SandboxError`, never a
        rerun and never the team's fault."""
        assert self.runner is not None
        wall, budget_ms = self.clocks(clocks.limit, wall_clock=clocks.wall_clock)
        cpu = self.limits.cpu_seconds(clocks.limit)
        reply = self.runner.run(argv, wall, budget_ms, cpu, clocks.cap, arenas_files)
        if reply.dirty:
            self.sweep()  # something the runner could not remove or kill: the helper's sweep ends it
        return self.judge.result(reply, wall, budget_ms, output_cap=clocks.cap)

    def _runner_argv(self) -> list[str]:
        """The runner's command line: where the team folder and /tmp are, the rules, how programs start."""
        argv = [isolation.RUNNER_PATH, f"--cwd={isolation.TEAM_DIR}", f"--scratch={isolation.SCRATCH_DIR}"]
        limits = self.limits  # the help-file rules the runner counts by (team_folder.police enforces them)
        argv += [f"--help-files={limits.help_files}", f"--help-bytes={limits.help_bytes_mb << 20}"]
        argv.append(f"--folder-depth={limits.folder_depth}")
        return [*argv, *self.start_options(team=True)]

    def start_options(self, *, team: bool) -> list[str]:
        """What arena's machinery (the runner, the fork server) needs to start a program as a cold one
        starts: every limit but the CPU's (set per decision), and with ``team`` the team's uid and gid (the
        machinery runs under its own); the fork server also loads the runner's start sequence and clock
        (``--runner-library``) where the runner's road is taken."""
        rlimits = {name: value for name, value in self._rlimits().items() if name != "cpu"}
        options = [f"--rlimit={name}:{value}" for name, value in rlimits.items()]
        if team and self.uid is not None:
            options += [f"--uid={self.uid}", f"--gid={self.uid}"]
        if self.runner is not None and self.runner_library is not None:
            options.append(f"--runner-library={isolation.RUNNER_LIBRARY_PATH}")
        return options

    @property
    def clock(self) -> str:
        """What a time limit limits here: ``cpu`` (if asked for and measurable by the cgroup) or ``wall``."""
        return self.judge.clock

    def clocks(self, limit_s: float, *, wall_clock: bool = False) -> tuple[float, float | None]:
        """Wall-clock cap and CPU budget (ms) (None on the wall clock) for the time limit ``limit_s``."""
        return self.judge.clocks(limit_s, wall_clock=wall_clock)

    def sweep(self) -> float:
        """End the decision: every process that is not a live session's; return the decision's CPU ms.

        The CPU time is the decision cgroup's since the last run or sweep (0 without a cgroup).
        """
        header, _, _ = self._request({"op": "sweep"})
        return float(header.get("cpu_ms", 0.0))

    @property
    def scratch_inside(self) -> str:
        """The programs' ``/tmp`` as they see it (emptied after every decision in the namespaces)."""
        return isolation.SCRATCH_DIR

    @property
    def scratch_outside(self) -> Path:
        """The programs' ``/tmp`` as the arena reaches it."""
        if self.isolation_level == isolation.NAMESPACES:
            return Path(f"/proc/{self.helper_pid}/root{isolation.SCRATCH_DIR}")
        return Path(isolation.SCRATCH_DIR)

    @property
    def forkserver_path(self) -> str:
        """Where the Python fork server's script is, as programs in this sandbox see it."""
        if self.isolation_level == isolation.NAMESPACES:
            return isolation.FORKSERVER_PATH
        return str(isolation.FORKSERVER_SOURCE)

    def start(self, argv: Sequence[str], *, machinery: bool = False) -> Session:
        """Start a persistent process in the team folder; talk to it through the returned session.

        ``machinery`` is for arena's own servers (the Python fork server): no CPU limit, outside the
        programs' cgroup, handed the decision cgroup so that each decision it forks goes in there.
        """
        if not argv:
            raise ConfigError("nothing to start: empty command")
        header, _, _ = self._request({"op": "start", "argv": list(argv), "machinery": machinery})
        if not header.get("ok"):
            raise SandboxError(f"could not start {argv[0]}: {header.get('detail', '')}")
        return self._session(header, machinery=machinery)

    def _session(self, header: dict[str, Any], *, machinery: bool) -> Session:
        """The session the helper just started (its id in ``header``, its pipes and pidfd passed)."""
        stdin_w, stdout_r, stderr_r, pidfd = self.channel.take_fds(4)
        session = Session(self, header["id"], stdin_w, stdout_r, stderr_r, pidfd)
        session.machinery = machinery
        self.sessions.append(session)
        return session


class Session:
    """A persistent program: write lines to its stdin, read lines from its stdout."""

    def __init__(
        self, sandbox: Sandbox, session_id: int, stdin_w: int, stdout_r: int, stderr_r: int, pidfd: int
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
            reply = self.sandbox._request_run(request)
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


@functools.cache
def _page_cache_kept() -> None:
    """Say once per process that what a sandbox brings into the page cache outlives it here."""
    logging.getLogger("arena.sandbox").warning(PAGE_CACHE_KEPT)


def _require_reachable(workdir: Path) -> None:
    """Without a mount namespace the program reaches its folder by its real path: every parent must let it."""
    if os.geteuid() != 0:
        return
    for parent in workdir.resolve().parents:
        if not parent.stat().st_mode & 0o001:
            raise ConfigError(
                f"{workdir}: the {RLIMITS_ONLY_NAME} sandbox runs programs as an unprivileged user, "
                f"who cannot enter {parent} (make every parent of the team folder searchable by others)"
            )


def open_sandbox(workdir: Path, limits: Limits, *, isolation: str = "auto") -> Sandbox:
    """Open a sandbox for one team at one table (a context manager).

    ``isolation`` is ``"auto"`` (namespaces when this machine allows them, else rlimits only),
    ``"namespaces"`` (an error when unavailable) or ``"rlimits-only"`` (the explicit weaker fallback).
    """
    from arena.sandbox import isolation as levels

    if isolation not in levels.LEVELS:
        raise ConfigError(f"unknown isolation level {isolation!r}; choose one of {', '.join(levels.LEVELS)}")
    level = isolation
    if level in ("auto", levels.NAMESPACES):
        available, reason = levels.namespaces_available()
        if available:
            level = levels.NAMESPACES
        elif level == levels.NAMESPACES:
            raise SandboxError(f"namespaced isolation is not available: {reason}")
        else:
            level = levels.RLIMITS_ONLY
    return Sandbox(Path(workdir), limits, level)
