"""The check queue: every upload is checked as ``arena check`` checks it, one child process per check.

``--jobs J`` worker threads take the next queued upload each (``ContestStore.claim_next``: teams take
turns, oldest first within a team), run
:func:`check_upload` in a fresh process (spawned, killed with the server even by ``kill -9``), and wait
for it. The child calls the very library ``arena check`` calls (``check_program`` then
``render_report``) and writes its progress (building, seat N of K) and then its verdict and full report
to the database itself. A check the server was running when it stopped is still marked ``checking``; the
server queues it again when it starts (``requeue_interrupted``), and an attempt number keeps a late
answer of an old attempt from overwriting the new one.
"""

from __future__ import annotations

import multiprocessing
import os
import signal
import threading
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path

from arena.atomic import fresh_folder
from arena.contest.folder import ContestFolder
from arena.contest.settings import ContestSettings, read_settings
from arena.contest.state import ContestStore, SubmissionRecord
from arena.errors import ArenaError
from arena.games.codem.check import check_program, render_report
from arena.games.codem.table import TableConfig
from arena.sandbox.inside.prctl import die_with_parent
from arena.tournament.host import TournamentSettings

POLL_S = 1.0
"""How often an idle worker looks for work it was not woken for (an upload made by another process)."""


def check_config(settings: ContestSettings) -> TableConfig:
    """The check tables' configuration: the tournament's rules, time limit and fault limit."""
    rules = TournamentSettings(
        time_limit_s=settings.tournament.time_limit_s, max_faults=settings.tournament.max_faults
    )
    return TableConfig(
        deals=settings.check.deals,
        time_limit_s=rules.time_limit_s,
        max_faults=rules.max_faults,
        rules=rules.rules(),
    )


class _Progress:
    """Turns the check's callbacks into the status line a team reads (seat N of K)."""

    def __init__(self, store: ContestStore, submission: int, attempt: int, deals: int) -> None:
        self.store, self.submission, self.attempt, self.deals = store, submission, attempt, deals
        self.seats: list[int] = []
        self.shown = ""

    def say(self, text: str) -> None:
        if text != self.shown:
            self.shown = text
            self.store.set_progress(self.submission, self.attempt, text)

    def start(self, seats: list[int], opponents: list[str]) -> None:
        self.seats = seats
        self.say(f"building, then seat {seats[0]} (1 of {len(seats)})")

    def deal(self, played: int) -> None:
        index = min(played // self.deals, len(self.seats) - 1)
        self.say(f"seat {self.seats[index]} ({index + 1} of {len(self.seats)})")


def check_upload(root: Path, submission: int, attempt: int) -> None:
    """Check one upload and record its verdict and report (runs in the check's own process)."""
    folder = ContestFolder(root)
    store = ContestStore(folder.database)
    try:
        record = store.submission(submission)
        if record is None:
            return
        settings = read_settings(folder.settings)
        out = folder.check_dir(submission)
        fresh_folder(out)  # an interrupted attempt's tables, perhaps still written by its last processes
        progress = _Progress(store, submission, attempt, settings.check.deals)
        progress.say("building")
        program = folder.upload_dir(submission) / record.filename
        try:
            report = check_program(
                program,
                check_config(settings),
                seats=settings.check.seats,
                out=out,
                seed=settings.check.seed,
                on_start=progress.start,
                on_deal=progress.deal,
            )
        except ArenaError as error:
            store.finish_check(submission, attempt, "fail", f"not checked: {error}\n")
            return
        shown = replace(report, program=record.filename)  # the team's file name, not the server's path
        store.finish_check(submission, attempt, report.verdict.value, render_report(shown))
    finally:
        store.close()


class CheckQueue:
    """Worker threads checking queued uploads, each check in a child process."""

    def __init__(
        self,
        folder: ContestFolder,
        *,
        jobs: int = 1,
        on_checked: Callable[[SubmissionRecord], None] | None = None,
    ) -> None:
        if jobs < 1:
            raise ArenaError(f"--jobs must be at least 1, got {jobs}")
        self.folder = folder
        self.jobs = jobs
        self.on_checked = on_checked
        self._wake = threading.Event()
        self._stop = threading.Event()
        self._threads: list[threading.Thread] = []
        self._children: set[multiprocessing.process.BaseProcess] = set()
        self._lock = threading.Lock()
        self.requeued: list[int] = []

    def start(self) -> None:
        """Queue again the checks a stopped server left running, then start the workers."""
        store = ContestStore(self.folder.database)
        try:
            self.requeued = store.requeue_interrupted()
        finally:
            store.close()
        for number in range(self.jobs):
            thread = threading.Thread(target=self._work, name=f"check-{number + 1}", daemon=True)
            thread.start()
            self._threads.append(thread)

    def wake(self) -> None:
        """An upload was recorded: a waiting worker takes it now."""
        self._wake.set()

    def stop(self) -> None:
        """Stop the workers and the checks they run (those are queued again at the next start)."""
        self._stop.set()
        self._wake.set()
        with self._lock:
            for child in self._children:
                if child.pid is not None:
                    _kill_group(child.pid)
        for thread in self._threads:
            thread.join(timeout=10)

    def _work(self) -> None:
        store = ContestStore(self.folder.database)
        try:
            while not self._stop.is_set():
                record = store.claim_next()
                if record is None:
                    self._wake.wait(POLL_S)
                    self._wake.clear()
                    continue
                self._run(store, record)
        finally:
            store.close()

    def _run(self, store: ContestStore, record: SubmissionRecord) -> None:
        context = multiprocessing.get_context("spawn")
        child = context.Process(
            target=_child_main,
            args=(os.getpid(), str(self.folder.root), record.id, record.attempt),
            daemon=False,
        )
        with self._lock:
            if self._stop.is_set():
                return
            child.start()
            self._children.add(child)
        try:
            while child.is_alive() and not self._stop.is_set():
                child.join(POLL_S)
        finally:
            with self._lock:
                self._children.discard(child)
        if self._stop.is_set():
            return  # left 'checking': queued again at the next start
        done = store.submission(record.id)
        if done is not None and done.attempt == record.attempt and done.status.value == "checking":
            report = f"the check stopped before its end (exit code {child.exitcode}); it is arena's fault\n"
            store.finish_check(record.id, record.attempt, "fail", report)
            done = store.submission(record.id)
        if done is not None and self.on_checked is not None:
            self.on_checked(done)


def _child_main(server: int, root: str, submission: int, attempt: int) -> None:
    """The check process: killed with the server (even by ``kill -9``, even one that came while this
    process started), in its own process group, so stopping the server stops everything it started."""
    die_with_parent(server)
    os.setpgid(0, 0)
    check_upload(Path(root), submission, attempt)


def _kill_group(pid: int) -> None:
    try:
        os.killpg(pid, signal.SIGKILL)
    except ProcessLookupError:
        pass
    except PermissionError:
        os.kill(pid, signal.SIGKILL)
