"""The tournament and the final, started from the site: the same library calls as ``arena tournament``
and ``arena final``, each in a background process that writes its progress to the contest's database.

The tournament plays ``DIR/played/`` (each active team's latest upload before the final-code deadline,
copied when the organiser starts it) into ``DIR/tournament/``; when it ends, the finalists' log folders
are written (``write_finals_logs``) and the finalists' window opens. The final plays each finalist's
updated code when its check passed (else its initial code, as the statement says) with the help files
uploaded beside it. A run interrupted by a stopped server is marked failed; starting it again resumes it
(the tournament library resumes a run folder).
"""

from __future__ import annotations

import contextlib
import multiprocessing
import os
import signal
import threading
import time
import traceback
from pathlib import Path
from typing import Any

from arena.contest.folder import ContestFolder
from arena.contest.settings import read_settings
from arena.contest.state import ContestStore, RunStatus, stamp
from arena.errors import ArenaError
from arena.faults import Fault
from arena.sandbox.inside.prctl import die_with_parent
from arena.tournament.final import FinalOptions, run_final
from arena.tournament.finals_logs import write_finals_logs
from arena.tournament.host import TournamentSettings, run_tournament

TOURNAMENT = "tournament"
FINAL = "final"
WRITE_EVERY_S = 0.5


class StoreProgress:
    """A tournament ``Progress`` that keeps the counts in the contest's database (for the status calls)."""

    def __init__(self, store: ContestStore, stage: str) -> None:
        self.store, self.stage = store, stage
        self.state: dict[str, Any] = {"tables": 0, "tables_done": 0, "deals": 0, "deals_done": 0, "faults": 0}
        self.notes: list[str] = []
        self.written = 0.0

    def _write(self, *, now: bool = False) -> None:
        moment = time.monotonic()
        if now or moment - self.written >= WRITE_EVERY_S:
            self.written = moment
            self.store.stage_progress(self.stage, {**self.state, "notes": self.notes[-20:]})

    def note(self, message: str) -> None:
        self.notes.append(message)
        self._write(now=True)

    def warn(self, message: str) -> None:
        self.note(message)

    def start(self, label: str, *, tables: int, deals: int) -> None:
        self.state.update(tables=tables, deals=deals)
        self._write(now=True)

    def advance(self, *, tables: int = 0, deals: int = 0) -> None:
        self.state["tables_done"] += tables
        self.state["deals_done"] += deals
        self._write(now=tables > 0)

    def fault(self, table: str, fault: Fault) -> None:
        self.state["faults"] += 1
        self._write()

    def cluster(self, *, workers: int, in_flight: int) -> None:
        self.state.update(workers=workers, in_flight=in_flight)
        self._write()

    def stop(self) -> None:
        self._write(now=True)


def play_tournament(root: Path, deals: int, scheduler: str | None) -> None:
    """The tournament's process: play, write the finalists' folders, open their window."""
    folder = ContestFolder(root)
    settings = read_settings(folder.settings)
    options = settings.tournament
    tournament = TournamentSettings(
        deals=deals, seed=options.seed, time_limit_s=options.time_limit_s, max_faults=options.max_faults
    )
    with _stage(folder, TOURNAMENT) as (store, progress):
        report = run_tournament(
            folder.played,
            folder.tournament,
            tournament,
            jobs=options.jobs,
            scheduler=scheduler or options.scheduler,
            progress=progress,
        )
        if not report.complete:
            raise ArenaError(f"{len(report.failures)} table(s) failed: {report.failures[0]}")
        choice = write_finals_logs(folder.tournament, folder.finals_logs)
        store.set_note("finalists", ",".join(choice.finalists))
        if store.note("finalists_window_opens") is None:
            store.set_note("finalists_window_opens", stamp())


def play_final(root: Path, scheduler: str | None) -> None:
    """The final's process: the final table from the inputs the site prepared in ``DIR/final/``."""
    folder = ContestFolder(root)
    settings = read_settings(folder.settings)
    options = FinalOptions(
        help_files=folder.final / "help",
        programs_dir=folder.final / "programs",
        deals=settings.tournament.final_deals,
        scheduler=scheduler or settings.tournament.scheduler,
    )
    with _stage(folder, FINAL) as (_store, progress):
        run_final(folder.tournament, options, progress=progress)


class _stage:
    """The stage's bookkeeping: done when the body returns, failed (with the reason) when it raises."""

    def __init__(self, folder: ContestFolder, name: str) -> None:
        self.store = ContestStore(folder.database)
        self.name = name

    def __enter__(self) -> tuple[ContestStore, StoreProgress]:
        return self.store, StoreProgress(self.store, self.name)

    def __exit__(self, kind: type[BaseException] | None, error: BaseException | None, trace: Any) -> bool:
        try:
            if error is None:
                self.store.finish_stage(self.name, RunStatus.DONE)
            elif isinstance(error, ArenaError):
                self.store.finish_stage(self.name, RunStatus.FAILED, str(error))
            else:
                lines = traceback.format_exception_only(error)
                self.store.finish_stage(self.name, RunStatus.FAILED, f"arena failed: {lines[-1].strip()}")
        finally:
            self.store.close()
        return error is not None and isinstance(error, Exception)


def _child(target: str, server: int, root: str, *args: Any) -> None:
    die_with_parent(server)  # even a kill -9 that came while this process started
    os.setpgid(0, 0)
    if target == TOURNAMENT:
        play_tournament(Path(root), *args)
    else:
        play_final(Path(root), *args)


class StageRunner:
    """Starts the tournament or the final in a background process; at most one of them at a time."""

    def __init__(self, folder: ContestFolder, *, scheduler: str | None = None) -> None:
        self.folder = folder
        self.scheduler = scheduler
        self._lock = threading.Lock()
        self._running: multiprocessing.process.BaseProcess | None = None

    def recover(self) -> None:
        """Mark runs a stopped server left running as failed (starting them again resumes them)."""
        store = ContestStore(self.folder.database)
        try:
            store.interrupted_stages()
        finally:
            store.close()

    def busy(self) -> bool:
        with self._lock:
            return self._running is not None and self._running.is_alive()

    def start(self, stage: str, *args: Any) -> bool:
        """Start ``stage`` (``tournament`` with its deals, or ``final``); False when a run is going on."""
        with self._lock:
            if self._running is not None and self._running.is_alive():
                return False
            store = ContestStore(self.folder.database)
            try:
                if not store.start_stage(stage):
                    return False
            finally:
                store.close()
            context = multiprocessing.get_context("spawn")
            self._running = context.Process(
                target=_child,
                args=(stage, os.getpid(), str(self.folder.root), *args, self.scheduler),
                daemon=False,
            )
            started = threading.Event()
            # The process is started from a thread that lives as long as it does: Linux sends the parent-death
            # signal when the starting THREAD ends, and a request's pool thread may end while the run plays.
            threading.Thread(target=self._keep, args=(self._running, stage, started), daemon=True).start()
            started.wait()
            return True

    def _keep(
        self, process: multiprocessing.process.BaseProcess, stage: str, started: threading.Event
    ) -> None:
        """Start the run's process, wait for it; when it is gone without a word (killed), mark it failed."""
        try:
            process.start()
        except OSError:
            started.set()
            self._mark_failed(stage, "the run's process could not start")
            return
        started.set()
        process.join()
        self._mark_failed(stage, f"the run stopped (exit code {process.exitcode})")

    def _mark_failed(self, stage: str, why: str) -> None:
        """Mark ``stage`` failed with ``why`` unless its process already said how it ended."""
        store = ContestStore(self.folder.database)
        try:
            if store.stage(stage).status is RunStatus.RUNNING:
                store.finish_stage(stage, RunStatus.FAILED, why)
        finally:
            store.close()

    def stop(self) -> None:
        """Stop a run going on (it resumes when started again)."""
        with self._lock:
            process = self._running
        if process is not None and process.is_alive() and process.pid is not None:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(process.pid, signal.SIGTERM)
            process.join(timeout=10)
            if process.is_alive():
                os.killpg(process.pid, signal.SIGKILL)
