"""One sandbox per team per table: a helper started once, then a bare process start per run."""

from __future__ import annotations

import os
import subprocess
from collections.abc import Callable, Collection, Sequence
from pathlib import Path
from typing import Any, TypeVar

from arena.errors import ConfigError, SandboxError
from arena.sandbox import copies, isolation, roads, startup, tree
from arena.sandbox.cgroup import SandboxCgroup
from arena.sandbox.inside.record import Reply
from arena.sandbox.judge import Judge
from arena.sandbox.limits import Limits
from arena.sandbox.result import RunResult
from arena.sandbox.runner_client import Runner, runner_binary, runner_library
from arena.sandbox.session import Session

T = TypeVar("T")


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
        """Open the sandbox, one step of :mod:`arena.sandbox.startup` after another (docs/sandbox.md
        "Start-up"); :meth:`close` undoes them in reverse."""
        self.cgroup = startup.make_cgroup(self.limits)
        self.judge = Judge(self.limits, self.cgroup)
        runner_files = None
        if self.runner_binary is not None and self.runner_library is not None:
            runner_files = (self.runner_binary, self.runner_library)
        launched = startup.launch_helper(
            self.isolation_level, self.workdir, self.limits, runner_files, self.cgroup
        )
        self.process, self.channel = launched.process, launched.channel
        box = startup.find_box(launched, self.workdir)
        self.box, self.helper_pid, self.folder = box, box.helper_pid, box.folder
        self.uid, self.machinery_uid = startup.pick_uids()
        runner = self.has_runner and self.uid is not None
        options = startup.start_options(self._rlimits(), self.uid, library=False)  # the runner's own
        request = {
            "uid": self.uid,
            "gid": self.uid,
            "cwd": box.inner_dir,
            "scratch": box.scratch,
            "env": startup.program_env(box.inner_dir),
            "output_bytes": self.limits.output_bytes,
            "rlimits": self._rlimits(),
            "runner": startup.runner_argv(self.limits, options) if runner else None,
            "runner_library": isolation.RUNNER_LIBRARY_PATH if runner and self.runner_library else None,
            "machinery_uid": self.machinery_uid,
        }
        header = startup.init_helper(launched, request, self.cgroup)
        self.helper_oom_protected = bool(header.get("oom_protected"))
        if runner:
            self.runner = Runner(self._session(header, machinery=True))
        self._fill_folder()

    def _fill_folder(self) -> None:
        """The team folder's contents: in the box, copied in from ``workdir`` as the team's; without one,
        ``workdir`` itself, opened to the program's uid (as root)."""
        if self.isolation_level == isolation.NAMESPACES:
            self.dropped += copies.copy_in(self.workdir, self.folder, self._copy_caps(), self.uid)
        elif os.geteuid() == 0:
            os.chmod(self.workdir, 0o1777)
            copies.give_to_program(self.workdir, self.uid, self.limits.folder_depth)

    def _rlimits(self) -> dict[str, int]:
        return startup.rlimits(self.limits, self.uid, self.cgroup)

    def _copy_caps(self) -> tree.Caps:
        return copies.copy_caps(self.limits, len(self.build_products))

    def _copy_out(self, source: int | None = None) -> None:
        """Copy the team folder's regular files and folders into ``workdir``, within caps, links unfollowed.

        Called once every process of the sandbox has ended, so nothing changes the tree meanwhile;
        ``source``, the team folder opened before its helper ended, is read (and closed) instead.
        """
        origin = self.folder if source is None else source
        self.dropped += copies.copy_out(origin, self.workdir, self._copy_caps(), self.compiled)

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
                startup.end_helper(self.helper_process, self.channel)
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
            startup.end_helper(self.helper_process, self.channel)
            if self.helper_process.stderr is not None:
                self.helper_process.stderr.close()
            self._remove_cgroup()

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

    def request_run(self, request: dict[str, Any], payload: bytes = b"") -> Reply:
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
            raise SandboxError(f"{error}: {startup.helper_stderr(self.helper_process)}") from error
        self.cut = False
        return reply

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
        does (:mod:`arena.sandbox.roads`). ``wall_clock`` judges ``wall_time_s`` on the wall clock whatever
        the sandbox's clock (a build); ``output_bytes`` replaces the limits' cap.
        """
        if not argv:
            raise ConfigError("nothing to run: empty command")
        if self.closed:
            raise SandboxError("the sandbox is closed")
        limit = wall_time_s if wall_time_s is not None else self.limits.wall_time_s
        cap = output_bytes if output_bytes is not None else self.limits.output_bytes
        clocks = roads.Clocks(limit, wall_clock, cap)
        if not stdin and self._runner_usable():
            return roads.on_runner(self, argv, clocks, arenas_files)
        return roads.on_helper(self, argv, clocks, stdin)

    @property
    def has_runner(self) -> bool:
        """True when one-shot runs go through arena's compiled runner (built; a decision cgroup to kill)."""
        return self.runner_binary is not None and self.cgroup is not None and self.cgroup.can_kill

    def _runner_usable(self) -> bool:
        return self.runner is not None and all(  # its cgroup.kill would end a program's session
            session.machinery for session in self.sessions
        )

    def start_options(self, *, team: bool) -> list[str]:
        """What arena's machinery needs to start a program as a cold one starts (see
        :func:`arena.sandbox.startup.start_options`); with ``team``, as the team's uid."""
        library = self.runner is not None and self.runner_library is not None
        return startup.start_options(self._rlimits(), self.uid if team else None, library=library)

    def sweep(self) -> float:
        """End the decision: every process that is not a live session's; return the decision's CPU ms.

        The CPU time is the decision cgroup's since the last run or sweep (0 without a cgroup).
        """
        header, _, _ = self._request({"op": "sweep"})
        return float(header.get("cpu_ms", 0.0))

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
