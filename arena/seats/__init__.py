"""Opening a player for any game, and the one rule that turns how a run ended into a fault.

Every game opens its players here (:func:`open_player`): a sandbox around the team's folder, the build
(through a tournament's build cache when one is given, or a game's own build for programs it wraps in a
driver), the start-up allowance, and the transport the game speaks (:meth:`Player.file_transport`, with
the warm start for Python programs, or :meth:`Player.line_transport`). The games keep only what is theirs:
which files a program is given and how its answer is read.

Two rules live here and nowhere else (docs/sandbox.md, "From a run to a fault"):

* **How a run ended becomes a fault kind** (:func:`run_fault_kind`). A clean exit is no fault; the
  wall limit is ``timeout``; the sandbox's CPU limit is ``cpu_limit`` in every game (the kind names the
  limit that stopped the program; the CPU limit only binds a program that spins in many threads, as it is
  set above the wall limit); the memory, output and file-size limits are ``memory_limit``,
  ``output_limit``, ``file_size_limit``; a program that could not be started is ``not_started``; any
  other end (a non-zero exit, a signal) is a ``crash``. A game whose own time rule is counted in CPU time
  (heads-up: the thinking time of the whole match) judges that rule itself, and breaking it is that
  game's ``timeout``.
* **What a fault keeps of stderr** (:func:`kept_stderr`): the last 2,000 characters. A crash's message
  and traceback end what a program prints, and a program that floods stderr is shown where it stopped.

A file rule broken during a run (:func:`breach_kind`, from the transport's typed
:class:`~arena.sandbox.team_folder.BreachKind`) is ``help_file_limit`` for the help-file count, size and
folder-depth limits, and ``sandbox_violation`` for anything kept that is not a regular file or folder.
Stderr is kept escaped (:func:`arena.untrusted.printable`): no control character reaches a person.
"""

from __future__ import annotations

import signal
import tempfile
from collections.abc import Callable, Collection
from contextlib import ExitStack
from dataclasses import dataclass
from pathlib import Path

from arena import untrusted
from arena.errors import ConfigError
from arena.faults import Fault, FaultKind
from arena.languages import PYTHON, BuildResult, build_program, language_for
from arena.sandbox import Limits, RunResult, RunStatus, Sandbox, open_sandbox
from arena.sandbox.isolation import namespaces_available
from arena.sandbox.team_folder import Breach, BreachKind, given_files
from arena.transports.files import FileTransport
from arena.transports.lines import LineTransport
from arena.transports.warm import WarmPythonTransport


def check_team_name(team: str, program: Path) -> None:
    """Refuse a team name that is not one folder name: ``teams/<team>/`` must be a folder of its own.

    ``arena table`` names a team after its file, so a program ``...py`` would be team ``..`` (the table's
    folder) and ``..py`` team ``.`` (every team's folder). A name holding a line break, a control character
    or a text-direction mark would forge lines in logs and exports and act on terminals: refused too. Any
    other text is a name (the viewer and the terminal show it as text).
    """
    if team in ("", ".", "..") or "/" in team or "\0" in team:
        raise ConfigError(
            f"{untrusted.name(team)!r} (from {untrusted.name(str(program))}) is not a team name: "
            "a team's name must be usable as one folder name"
        )
    if untrusted.name(team) != team:
        raise ConfigError(
            f"{untrusted.name(team)!r} (from {untrusted.name(str(program))}) is not a team name: "
            "it holds a line break, a control character or a text-direction mark, which every log, "
            "export and report would carry; rename the file"
        )


STDERR_KEPT = 2000

_RUN_FAULTS = {
    RunStatus.TIMEOUT: FaultKind.TIMEOUT,
    RunStatus.CPU_LIMIT: FaultKind.CPU_LIMIT,
    RunStatus.MEMORY_LIMIT: FaultKind.MEMORY_LIMIT,
    RunStatus.OUTPUT_LIMIT: FaultKind.OUTPUT_LIMIT,
    RunStatus.FILE_SIZE_LIMIT: FaultKind.FILE_SIZE_LIMIT,
    RunStatus.NOT_STARTED: FaultKind.NOT_STARTED,
}

Build = Callable[[Sandbox], BuildResult]


def run_fault_kind(run: RunResult) -> FaultKind | None:
    """The fault a run's end makes (None for a clean exit)."""
    if run.status is RunStatus.OK:
        return FaultKind.SANDBOX_VIOLATION if run.violations else None
    return _RUN_FAULTS.get(run.status, FaultKind.CRASH)


SIGNAL_CAUSES = {
    signal.SIGSEGV: "a bad memory access: an index out of range, a null or freed pointer, or a stack "
    "overflow from deep recursion",
    signal.SIGFPE: "an integer division or remainder by zero",
    signal.SIGILL: "an illegal instruction: at -O2 often an integer division by zero or other undefined "
    "behaviour the compiler turned into a trap",
    signal.SIGABRT: "abort(): a failed assert, an uncaught C++ exception, or the C library finding the "
    "heap corrupted (a double free, a write past an allocation)",
    signal.SIGBUS: "a misaligned memory access or one past the end of a mapped file",
    signal.SIGKILL: "killed from outside the program, usually for going past a memory or time limit",
}
"""What a death by each signal usually means, for the fault's reason."""


def run_reason(run: RunResult) -> str:
    """How a run ended, in words; a death by signal also says what that signal usually means."""
    reason = run.describe()
    if run.status is RunStatus.SIGNALED and run.signal in SIGNAL_CAUSES:
        reason += f" (usually {SIGNAL_CAUSES[signal.Signals(run.signal)]})"
    return reason


def kept_stderr(stderr: bytes | str) -> str:
    """The part of a program's stderr a fault keeps: its last 2,000 characters."""
    text = stderr.decode("utf-8", "surrogateescape") if isinstance(stderr, bytes) else stderr
    return untrusted.printable(text[-STDERR_KEPT:])


def run_fault(team: str, run: RunResult, *, stage: str, deal: int = 0) -> Fault | None:
    """The fault of a run that did not end cleanly, with its reason and stderr (None for a clean run)."""
    kind = run_fault_kind(run)
    if kind is None:
        return None
    reason = f"the program {run_reason(run)}"
    return Fault(team, kind, reason, deal=deal, stage=stage, stderr=kept_stderr(run.stderr))


_BREACH_FAULTS = {
    BreachKind.TOO_MANY: FaultKind.HELP_FILE_LIMIT,
    BreachKind.TOO_LARGE: FaultKind.HELP_FILE_LIMIT,
    BreachKind.TOO_DEEP: FaultKind.HELP_FILE_LIMIT,
    BreachKind.NOT_A_FILE: FaultKind.SANDBOX_VIOLATION,
}


def breach_kind(breach: Breach) -> FaultKind:
    """The fault kind of a file rule the transport found broken after a run."""
    return _BREACH_FAULTS[breach.kind]


@dataclass(frozen=True)
class Player:
    """A team's program, built in its own open sandbox, ready for a transport (or not built)."""

    team: str
    program: Path
    sandbox: Sandbox
    build: BuildResult

    @property
    def built(self) -> bool:
        """Whether the program built (a player that did not build sits out)."""
        return self.build.ok

    @property
    def wall_time_s(self) -> float:
        """The per-run wall limit: the sandbox's plus the runtime's own measured start (fair time)."""
        return self.sandbox.limits.wall_time_s + self.build.startup_ms / 1000

    def file_transport(
        self,
        *,
        protected: Collection[str] = (),
        output_name: str = "outputf.txt",
        warm_python: bool = False,
    ) -> FileTransport:
        """One process per decision; Python programs through the fork server when ``warm_python``."""
        python = language_for(self.program) is PYTHON
        protected = {*self.build.products, *protected}
        if warm_python and python:
            # A warm decision pays no interpreter start, so it gets no start-up allowance (fair clocks).
            return WarmPythonTransport(
                self.sandbox,
                self.build.run_argv,
                output_name=output_name,
                protected=protected,
                wall_time_s=self.sandbox.limits.wall_time_s,
                cold_wall_time_s=self.wall_time_s,
            )
        return FileTransport(
            self.sandbox,
            self.build.run_argv,
            output_name=output_name,
            protected=protected,
            wall_time_s=self.wall_time_s,
        )

    def line_transport(self) -> LineTransport:
        """One session for the whole match, lines on stdin and stdout."""
        return LineTransport(self.sandbox, self.build.run_argv)


def open_player(
    stack: ExitStack,
    team: str,
    program: Path,
    workdir: Path,
    limits: Limits,
    *,
    build_cache: Path | None = None,
    build: Build | None = None,
    isolation: str = "auto",
) -> Player:
    """Open a sandbox on ``workdir`` (closed with ``stack``) and build ``program`` in it.

    ``build`` replaces the language's own build for games that wrap a program in a driver (heads-up's
    ``texas`` interface, TwoCardDraw's class interface); otherwise the program is built by
    :func:`~arena.languages.build_program`, through ``build_cache`` when given. Files already in
    ``workdir`` (a finalist's help files) are in the sandbox from the start.
    """
    sandbox = stack.enter_context(open_sandbox(workdir, limits, isolation=isolation))
    if build is None:
        return Player(team, program, sandbox, build_program(program, workdir, sandbox, cache=build_cache))
    return Player(team, program, sandbox, build(sandbox))


def trial_build(program: Path, limits: Limits | None = None) -> BuildResult:
    """Build ``program`` in a throwaway sandbox: whether it builds, and what its compiler said."""
    with tempfile.TemporaryDirectory(prefix="arena-build-") as scratch, ExitStack() as stack:
        return open_player(stack, program.stem, program, Path(scratch), limits or Limits()).build


def namespaces_sandbox() -> tuple[bool, str]:
    """Whether this machine can seat players in the namespaces sandbox, and the probe's word on it."""
    return namespaces_available()


def check_given_help_files(folder: Path, limits: Limits | None = None) -> None:
    """Help files prepared for a player (the final's): only regular files and folders, no link, within the
    help-file count, size and depth limits; anything else is a ConfigError naming the file."""
    given_files(folder, limits or Limits())
