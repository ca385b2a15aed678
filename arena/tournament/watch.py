"""Watch a submissions folder: check each new or changed program once its writes stop, report beside it.

The Code'em timeline promises teams to learn of their programs' errors before the contest. A program saved in
several writes produces several file-system events; each event restarts the program's quiet timer, and
the check runs once the timer runs out, so a program is checked once, after its last write. A file whose
bytes did not change since its last check is not checked again.

Every file gets its report ``<file name>.report.txt``, always: a file the tournament would not play
(by :mod:`arena.languages.filenames`) says why; a second program of one team says which; a check that
itself fails says so instead of ending the watcher's thread.

Nothing a team puts in the folder is followed: a program is queued by its name in the folder (never
resolved), read once with ``O_NOFOLLOW`` (a link, or a file swapped for one, is reported "not checked"),
and the checker gets a private copy of the bytes read, so the report goes beside the name in the folder
and holds only what the team itself wrote.
"""

from __future__ import annotations

import hashlib
import os
import stat
import tempfile
import threading
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from watchdog.events import FileSystemEvent, FileSystemEventHandler
from watchdog.observers import Observer
from watchdog.observers.api import BaseObserver

from arena import untrusted
from arena.atomic import write_atomically
from arena.errors import ArenaError
from arena.games.codem.check import check_program, render_report
from arena.games.codem.table import TableConfig
from arena.languages.filenames import REPORT_SUFFIX, name_problem

Checker = Callable[[Path], str]
CHECK_DEALS = 50
CHECK_SEATS = 3
MAX_PROGRAM_BYTES = 16 * 1024 * 1024


@dataclass(frozen=True)
class Checked:
    """One finished check: the program, the digest checked and where the report went."""

    program: Path
    digest: str
    report: Path


def report_path(program: Path) -> Path:
    """``<file name>.report.txt`` beside the file (``Bot.c.report.txt``: one per file, even per team)."""
    return program.with_name(program.name + REPORT_SUFFIX)


def is_watched(path: Path) -> bool:
    """Every file of the folder but hidden ones (editors' drafts) and the watcher's own reports."""
    return not path.name.startswith(".") and not path.name.endswith(REPORT_SUFFIX)


def read_program(program: Path) -> bytes | None:
    """The bytes of a regular file at ``program`` itself, never through a link; None if it is not one."""
    try:
        handle = os.open(program, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC)
    except OSError:
        return None
    with os.fdopen(handle, "rb") as source:
        if not stat.S_ISREG(os.fstat(source.fileno()).st_mode):
            return None
        return source.read(MAX_PROGRAM_BYTES + 1)


def not_checked(program: Path, why: str) -> str:
    """The report of a file that was not checked."""
    return f"program: {untrusted.name(program.name)}\nresult: not checked: {untrusted.printable(why)}\n"


def check_in_process(program: Path) -> str:
    """Check a program as ``arena check`` does; the report as it prints it (or why it was not checked)."""
    try:
        with tempfile.TemporaryDirectory(prefix="arena-watch-") as folder:
            config = TableConfig(deals=CHECK_DEALS)
            report = check_program(program, config, seats=CHECK_SEATS, out=Path(folder), seed=None)
    except ArenaError as error:
        return not_checked(program, str(error))
    return render_report(report)


class SubmissionWatcher(FileSystemEventHandler):
    """Debounces file-system events per program and checks each program after its last write."""

    def __init__(
        self,
        folder: Path,
        *,
        checker: Checker | None = None,
        quiet_s: float = 1.0,
        on_checked: Callable[[Checked], None] | None = None,
        jobs: int = 1,
        on_start: Callable[[Path], None] | None = None,
    ) -> None:
        self.folder = folder.resolve()
        self.checker = checker or check_in_process
        self.quiet_s = quiet_s
        self.on_checked = on_checked
        self.on_start = on_start
        self._lock = threading.Lock()
        self._timers: dict[Path, threading.Timer] = {}
        self._checked: dict[Path, str] = {}
        self._slots = threading.BoundedSemaphore(jobs)
        self._program_locks: dict[Path, threading.Lock] = {}

    # -- events -----------------------------------------------------------------------------------

    def on_any_event(self, event: FileSystemEvent) -> None:
        """A created, modified, closed or moved-in program restarts its quiet timer."""
        if event.is_directory or event.event_type in ("deleted", "opened", "closed_no_write"):
            return
        target = getattr(event, "dest_path", "") or event.src_path
        path = Path(str(target))
        if path.parent.resolve() == self.folder and is_watched(path):
            self.touch(self.folder / path.name)  # the name in the folder: a link is never resolved

    def touch(self, program: Path) -> None:
        """(Re)start the quiet timer of one program."""
        with self._lock:
            previous = self._timers.pop(program, None)
            if previous is not None:
                previous.cancel()
            timer = threading.Timer(self.quiet_s, self._quiet, args=(program,))
            timer.daemon = True
            self._timers[program] = timer
            timer.start()

    def _quiet(self, program: Path) -> None:
        with self._lock:
            if self._timers.get(program) is not threading.current_thread():
                return
            del self._timers[program]
        self.check(program)

    # -- checks -----------------------------------------------------------------------------------

    def check(self, program: Path) -> Checked | None:
        """Check one program unless its bytes were already checked; write its report. Up to ``jobs``
        programs are checked at once, one program only once at a time."""
        program = self.folder / program.name
        with self._lock:
            program_lock = self._program_locks.setdefault(program, threading.Lock())
        with program_lock, self._slots:
            if not (program.is_symlink() or program.is_file()):
                return None
            data = read_program(program)
            digest = "not a regular file" if data is None else hashlib.sha256(data).hexdigest()
            with self._lock:
                if self._checked.get(program) == digest:
                    return None
            if self.on_start is not None:
                self.on_start(program)
            text = self._report_text(program, data)
            report = report_path(program)
            write_atomically(report, text)
            with self._lock:
                self._checked[program] = digest
            done = Checked(program, digest, report)
        if self.on_checked is not None:
            self.on_checked(done)
        return done

    def _report_text(self, program: Path, data: bytes | None) -> str:
        """The check's report on ``data`` (the program's bytes), or why it was not checked; never raises."""
        problem = name_problem(program)
        if problem is None and data is None:
            problem = "not a regular file"
        if problem is None and data is not None and len(data) > MAX_PROGRAM_BYTES:
            problem = f"larger than {MAX_PROGRAM_BYTES // (1024 * 1024)} MB"
        if problem is not None or data is None:
            return not_checked(program, f"the tournament will not play this file: {problem}")
        twins = sorted(
            p.name
            for p in self.folder.iterdir()
            if p != program and p.stem == program.stem and is_watched(p) and name_problem(p) is None
        )
        if twins:
            return not_checked(
                program,
                f"team {program.stem} has two programs ({program.name} and {', '.join(twins)}); "
                "the tournament stops with an error until one is removed",
            )
        try:
            with tempfile.TemporaryDirectory(prefix="arena-watch-copy-") as private:
                copy = Path(private) / program.name
                copy.write_bytes(data)
                return self.checker(copy)
        except Exception as error:  # a report per file, always: the watcher's thread goes on
            return not_checked(program, f"the check itself failed ({type(error).__name__}: {error})")

    def check_stale(self) -> None:
        """At start: check files whose report is missing or older than the file."""
        for program in sorted(self.folder.iterdir()):
            if not ((program.is_symlink() or program.is_file()) and is_watched(program)):
                continue
            report = report_path(program)
            stale = not report.exists() or report.lstat().st_mtime < program.lstat().st_mtime
            if stale:
                self.touch(program)

    def pending(self) -> list[Path]:
        """Programs whose quiet timer is running."""
        with self._lock:
            return sorted(self._timers)

    def cancel(self) -> None:
        """Stop every running timer."""
        with self._lock:
            for timer in self._timers.values():
                timer.cancel()
            self._timers.clear()


def start_watching(watcher: SubmissionWatcher) -> BaseObserver:
    """Start an observer that feeds ``watcher`` the folder's events."""
    observer = Observer()
    observer.schedule(watcher, str(watcher.folder), recursive=False)
    observer.start()
    return observer


def watch(
    folder: Path,
    *,
    quiet_s: float,
    on_checked: Callable[[Checked], None],
    stop: threading.Event,
    jobs: int = 1,
    on_start: Callable[[Path], None] | None = None,
) -> None:
    """Watch ``folder`` until ``stop`` is set, checking up to ``jobs`` programs at once (``on_start``
    hears of each check as it begins)."""
    watcher = SubmissionWatcher(folder, quiet_s=quiet_s, on_checked=on_checked, jobs=jobs, on_start=on_start)
    observer = start_watching(watcher)
    try:
        watcher.check_stale()
        stop.wait()
    finally:
        observer.stop()
        observer.join()
        watcher.cancel()
