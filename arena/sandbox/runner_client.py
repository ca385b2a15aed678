"""The arena's end of its compiled runner (``runner.c``): built once with the C compiler, one per sandbox.

The runner does a one-shot decision's work inside the sandbox (start the program with a vfork-style child
that takes the decision's cgroup and every limit before it execs, watch its clocks and output, end the
decision) for a small fraction of the CPU the Python helper spends on it. It is used where the namespaced
sandbox and a decision cgroup that can be killed as one are available; elsewhere, or when no C compiler is
installed, the helper runs decisions itself; ``ARENA_NO_RUNNER=1`` asks for the helper's road anyway (CI
runs the hostile and red-team suites both ways).

The binary is cached per source and compiler in ``/var/lib/arena/runner/`` (root's, not writable by
anyone else) and bound read-only into each sandbox at ``isolation.RUNNER_PATH``. The start sequence a program
goes through before its first instruction (``start.c``), the CPU-clock wait (``clock.c``) and the end of a
decision's ``/tmp`` and SysV IPC objects (``scratch.c``) are compiled into the runner and, as a shared object
(:func:`runner_library`, bound at ``isolation.RUNNER_LIBRARY_PATH``), loaded on the runner's road by the
Python fork server (start, clock) and the helper's sweep (scratch): a warm decision starts, is timed and is
cleared in the same C as a cold one.
"""

from __future__ import annotations

import ctypes
import functools
import os
from collections.abc import Collection, Sequence
from pathlib import Path
from typing import Protocol

from arena.compiled import ROOT_CACHE, build_flags, compiled
from arena.errors import SandboxError
from arena.sandbox.inside.record import Reply
from arena.sandbox.result import RunResult

SOURCE = Path(__file__).with_name("inside") / "runner.c"
# the start sequence, the CPU-clock wait, the end of a decision's /tmp and IPC objects and the help-file
# tally, in the runner and in the shared object
PARTS = tuple(SOURCE.with_name(f"{part}.c") for part in ("start", "clock", "scratch", "tally"))
HEADERS = tuple(SOURCE.with_name(f"{part}.h") for part in ("start", "clock", "scratch", "tally"))
CACHE = ROOT_CACHE / "runner"
START_TIMEOUT_S = 10.0
REPLY_GRACE_S = 5.0
NO_RUNNER = "ARENA_NO_RUNNER"


def _runner_road() -> bool:
    """Whether the runner's road may be taken: arena is root and ``ARENA_NO_RUNNER=1`` is not set."""
    return os.geteuid() == 0 and os.environ.get(NO_RUNNER) != "1"


def runner_binary(cache: Path = CACHE) -> Path | None:
    """The compiled runner for this source and compiler (built on first use); None without a C compiler.

    Only root runs sandboxes with a runner: the binary is bound into them from root's cache. None too when
    ``ARENA_NO_RUNNER=1`` is set (the helper's road, selectable).
    """
    if not _runner_road():
        return None
    return compiled(SOURCE, build_flags("executable"), cache, PARTS, HEADERS)


def runner_library(cache: Path = CACHE) -> Path | None:
    """The shared object of the runner's parts used on the runner's road (the fork server's ``start.c`` for
    each child and ``clock.c`` for each wait, the helper's ``scratch.c`` for each sweep; built on first use
    beside the runner); None when the runner's road is not taken (see :func:`runner_binary`)."""
    if not _runner_road():
        return None
    # the hardened build even under ARENA_SANITIZE: the fork server cannot preload the ASan runtime (CI's
    # sanitized runner covers start.c, compiled into it)
    flags = build_flags("shared", hardened=True)
    return compiled(PARTS[0], flags, cache, PARTS[1:], HEADERS, name="runner-library")


class Tally:
    """``tally.c``'s ``arena_count_help_files`` from the runner's shared object, for the arena's own policing
    (``team_folder.police``): the same count of a clean team folder as the runner's."""

    def __init__(self, path: Path) -> None:
        self.call = ctypes.CDLL(str(path), use_errno=True).arena_count_help_files
        self.call.argtypes = [ctypes.c_int, ctypes.c_long, ctypes.c_longlong, ctypes.c_long]
        self.call.argtypes += [ctypes.c_char_p, ctypes.c_size_t, ctypes.c_longlong]
        self.call.restype = ctypes.c_long

    def count(self, fd: int, rules: tuple[int, int, int], arenas: Collection[str], team: int) -> int | None:
        """The help files and folders in the open folder ``fd`` under ``rules`` (entries, bytes, depth) when
        none is broken, else None (the arena polices the folder)."""
        names = b"".join(os.fsencode(name) + b"\0" for name in arenas)
        count = int(self.call(fd, *rules, names, len(names), team))
        return count if count >= 0 else None


def runner_tally() -> Tally | None:
    """The runner's help-file tally on the runner's road (see :func:`runner_binary`); else None."""
    if not _runner_road():
        return None
    return _loaded_tally()


@functools.cache
def _loaded_tally() -> Tally | None:
    """Built and loaded once per process: the check of the build is a compiler run."""
    path = runner_library()
    return Tally(path) if path is not None else None


class Pipes(Protocol):
    """What the runner's end needs of its session (``sandbox.Session``; no import of it: no cycle)."""

    eof: bool

    def read_line(self, timeout_s: float) -> str | None: ...

    def read_reply(self, timeout_s: float) -> Reply | None: ...

    def send_bytes(self, data: bytes) -> bool: ...

    def close(self) -> RunResult: ...


class Runner:
    """The arena's end of one sandbox's runner: a decision per request, over the session's pipes."""

    def __init__(self, session: Pipes) -> None:
        self.session = session
        self._last: tuple[tuple[str, ...], frozenset[str], str, bytes] | None = None  # see _names
        line = session.read_line(START_TIMEOUT_S)
        if line != "ready":
            problem = session.close().stderr.decode(errors="replace").strip()
            raise SandboxError(f"arena's runner did not start: {problem or line}")

    def run(
        self,
        argv: Sequence[str],
        wall_s: float,
        budget_ms: float | None,
        cpu_s: int | None,
        out_cap: int,
        arenas_files: Collection[str] = (),
    ) -> Reply:
        """One decision's reply (:mod:`arena.sandbox.inside.record`). ``arenas_files`` name the arena's own
        files in
        the team folder (never help files).

        Raises :class:`SandboxError` when the runner does not answer in time or answers nonsense.
        """
        budget_us = -1 if budget_ms is None else int(budget_ms * 1000)
        cpu = -1 if cpu_s is None else cpu_s
        sizes, tail = self._names(argv, arenas_files)
        head = f"{int(wall_s * 1e6)} {budget_us} {cpu} {out_cap} {sizes}\n".encode()
        if not self.session.send_bytes(head + tail):
            raise self._gone()
        reply = self.session.read_reply(wall_s + REPLY_GRACE_S)
        if reply is None:
            if self.session.eof:
                raise self._gone()
            raise SandboxError("arena's runner stopped answering")
        return reply

    def _names(self, argv: Sequence[str], arenas_files: Collection[str]) -> tuple[str, bytes]:
        """The request's sizes field and its NUL-separated argv and names, encoded once while they repeat."""
        argv = tuple(argv)
        if self._last is None or self._last[0] != argv or self._last[1] != arenas_files:
            blob = b"".join(os.fsencode(item) + b"\0" for item in argv)
            names = b"".join(os.fsencode(name) + b"\0" for name in arenas_files)
            self._last = (argv, frozenset(arenas_files), f"{len(blob)} {len(names)}", blob + names)
        return self._last[2], self._last[3]

    def _gone(self) -> SandboxError:
        """The error of a runner that ended, with what it left on stderr: what failed (arena's failure)."""
        problem = self.session.close().stderr.decode(errors="replace").strip()
        return SandboxError(
            f"arena's runner is gone ({problem[-500:]})" if problem else "arena's runner is gone"
        )
