"""The ``arena`` command: parses arguments, calls the library, prints. No game logic lives here.

Each sub-command is a module of this package exposing ``register(subparsers)``, which adds its parser
and sets ``handler`` to a function ``(args) -> int`` (the exit code).

Every ordinary mistake ends as ONE line on stderr and an exit code, never a traceback:

====  ==========================================================================================
code  meaning
====  ==========================================================================================
0     done (``check``: PASS)
1     done, and what was played failed (``check``: FAIL; a program faulted in ``headsup``/``twocard``)
2     a usage or configuration error, a bad or missing file, a damaged database
130   interrupted by SIGINT (Ctrl-C); a tournament resumes with the same command
141   the output pipe was closed by the reader (``arena ... | head``)
143   terminated by SIGTERM; a tournament resumes with the same command
====  ==========================================================================================
"""

from __future__ import annotations

import argparse
import contextlib
import importlib
import os
import signal
import sqlite3
import sys
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from types import FrameType
from typing import NoReturn

import pydantic

from arena import __version__, untrusted
from arena.cli.options import describe_validation
from arena.cli.say import HOLD
from arena.errors import ArenaError, Terminated
from arena.sandbox.cgroup import remove_leftovers

COMMAND_MODULES = (
    "table",
    "check",
    "replay",
    "rules_kit",
    "doctor",
    "tournament",
    "headsup",
    "twocard",
    "export",
    "view",
    "decks",
    "contest",
    "cluster",
)
_ORDINARY = (ArenaError, pydantic.ValidationError, OSError, UnicodeDecodeError, sqlite3.DatabaseError)
EXIT_ERROR = 2
EXIT_INTERRUPTED = 130
AGAIN_S = 0.05  # how soon an interrupt Python dropped is raised again
EXIT_BROKEN_PIPE = 141
EXIT_TERMINATED = 143


class OneLineParser(argparse.ArgumentParser):
    """An argument parser whose errors are one line: what is wrong and where to read more."""

    def error(self, message: str) -> NoReturn:
        """Print ``PROG: error: MESSAGE (see PROG --help)`` and exit 2."""
        self.exit(EXIT_ERROR, f"{self.prog}: error: {message} (see {self.prog} --help)\n")


def build_parser() -> argparse.ArgumentParser:
    """The top-level parser with every sub-command registered."""
    parser = OneLineParser(
        prog="arena",
        description="Tournament server for poker-playing programs (Code'em Poker, "
        "TwoCardDraw, heads-up hold'em).",
    )
    parser.add_argument("--version", action="version", version=f"arena {__version__}")
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)
    for name in COMMAND_MODULES:
        try:
            module = importlib.import_module(f"arena.cli.{name}")
        except ModuleNotFoundError as error:
            if error.name != f"arena.cli.{name}":
                raise
            continue
        module.register(subparsers)
    return parser


@contextmanager
def _signals_as_exceptions() -> Iterator[list[int]]:
    """SIGINT raises KeyboardInterrupt and SIGTERM raises Terminated; the list names the signals seen.

    A Ctrl-C reaches the whole process group, so a sandbox helper may die of it first and the command
    would see "the helper is gone": an error after a signal is reported as the interrupt it is.

    The handlers found are kept: a signal ignored when arena starts stays ignored (a command started in
    the background by a shell, or under ``nohup``), and a handler of the program that called :func:`main`
    runs first, then arena stops. They are put back afterwards.

    Where Python cannot raise (an at-fork callback while a subprocess starts, a ``__del__``), it only
    prints the exception and drops it; the command would then go on. Such a drop is heard through
    ``sys.unraisablehook`` and the exception raised again :data:`AGAIN_S` later (SIGALRM), until it lands.
    """
    seen: list[int] = []
    found = {number: signal.getsignal(number) for number in (signal.SIGINT, signal.SIGTERM)}

    def stop(number: int) -> None:
        if HOLD.active:  # a line is being printed: it raises once the line is out
            HOLD.pending.append(number)
            return
        raise Terminated() if number == signal.SIGTERM else KeyboardInterrupt()

    def interrupt(number: int, frame: FrameType | None) -> None:
        seen.append(number)
        earlier = found[signal.Signals(number)]
        if callable(earlier) and earlier is not signal.default_int_handler:
            earlier(number, frame)
        stop(number)

    def again(_number: int, _frame: FrameType | None) -> None:
        if seen:
            stop(seen[-1])

    def dropped(unraisable: sys.UnraisableHookArgs) -> None:
        if seen and isinstance(unraisable.exc_value, KeyboardInterrupt):
            signal.setitimer(signal.ITIMER_REAL, AGAIN_S)  # nothing here may raise: it too would be dropped
        else:
            hook(unraisable)

    for number, handler in found.items():
        if handler is not signal.SIG_IGN:
            signal.signal(number, interrupt)
    alarm = signal.signal(signal.SIGALRM, again)
    hook, sys.unraisablehook = sys.unraisablehook, dropped
    try:
        yield seen
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        sys.unraisablehook = hook
        for number, handler in {**found, signal.SIGALRM: alarm}.items():
            if handler is not None:  # None: set from outside Python, which cannot be put back
                signal.signal(number, handler)


def _error_line(error: BaseException) -> str:
    """The one line an ordinary failure prints (what and where)."""
    match error:
        case ArenaError():
            return str(error)
        case pydantic.ValidationError():
            return describe_validation(error)
        case OSError(filename=str() | bytes() as name) if error.strerror:
            return f"{os.fsdecode(name)}: {error.strerror}"
        case UnicodeDecodeError():
            return f"a file is not UTF-8 text ({error.reason} at byte {error.start})"
        case sqlite3.DatabaseError():
            return f"the tournament database is damaged or not a database ({error})"
        case _:
            return f"{type(error).__name__}: {error}"


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; return the exit code (errors become one line on stderr)."""
    parser = build_parser()
    try:
        args = parser.parse_args(argv)
    except SystemExit as done:  # --help, --version, or a usage error already printed as one line
        return done.code if isinstance(done.code, int) else EXIT_ERROR
    with _signals_as_exceptions() as signals:
        try:
            if args.command != "doctor":  # doctor reports them first, then removes them
                remove_leftovers()
            return int(args.handler(args) or 0)
        except KeyboardInterrupt as interrupt:
            terminated = isinstance(interrupt, Terminated) or signal.SIGTERM in signals
            return _interrupted(args.command, terminated=terminated)
        except BrokenPipeError:
            _silence_stdout()
            return EXIT_BROKEN_PIPE
        except _ORDINARY as error:
            if signals:
                return _interrupted(args.command, terminated=signal.SIGTERM in signals)
            _print_error(f"arena {args.command}: error: {_error_line(error)}")
            return EXIT_ERROR


def _interrupted(command: str, *, terminated: bool) -> int:
    what = "terminated (SIGTERM)" if terminated else "interrupted (Ctrl-C)"
    resume = "; run the same command again to resume" if command == "tournament" else ""
    _print_error(f"arena {command}: {what}{resume}")
    return EXIT_TERMINATED if terminated else EXIT_INTERRUPTED


def _print_error(line: str) -> None:
    with contextlib.suppress(OSError):  # stderr gone too: the exit code still tells
        print(untrusted.printable(line), file=sys.stderr, flush=True)  # a file name may hold escapes


def _silence_stdout() -> None:
    """After a reader closed the pipe, send what Python still flushes at exit nowhere."""
    with contextlib.suppress(OSError, ValueError):
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
