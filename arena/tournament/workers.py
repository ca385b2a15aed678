"""Play a tournament's tables on a pool of workers and record each one atomically in the store.

A table is the unit of work. The pool is J local worker processes (:class:`LocalPool`) or a Dask cluster
(:class:`arena.tournament.cluster.ClusterPool`), the pool types in :mod:`arena.tournament.pool`. A local
worker plays a table with ``run_table`` in a fresh hidden folder beside the database; a cluster worker
plays it in its own folder and sends the folder back as an archive, unpacked here into a hidden folder.
Either way the main process (the only writer of the store and the run folder) then renames the folder
into place and commits the table's deals, faults and results in one transaction. Killed at any moment,
the next run of the same command skips the committed tables, discards hidden folders and plays the rest.
"""

from __future__ import annotations

import fcntl
import multiprocessing
import os
import queue
import shutil
import signal
import tempfile
import threading
from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from concurrent.futures.process import BrokenProcessPool
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from arena.errors import ArenaError, ConfigError, ProgramChanged
from arena.faults import Fault
from arena.games.codem.table import run_table
from arena.runfolder.layout import LOCK_NAME
from arena.runfolder.layout import tables_dir as run_tables_dir
from arena.runfolder.reader import table_deals
from arena.sandbox.inside.prctl import die_with_parent
from arena.tournament.pool import TableOutcome, TablePool, TableRunner, TableTask, unpack_table
from arena.tournament.progress import Progress
from arena.tournament.store import DealRecord, Store

_progress_queue: Any = None


@contextmanager
def run_lock(run_dir: Path) -> Iterator[None]:
    """Hold an exclusive lock on RUN_DIR so two arenas never write one tournament."""
    run_dir.mkdir(parents=True, exist_ok=True)
    fd = os.open(run_dir / LOCK_NAME, os.O_RDWR | os.O_CREAT, 0o644)
    try:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            raise ConfigError(f"another arena is running on {run_dir}") from None
        yield
    finally:
        os.close(fd)


@contextmanager
def _spawned_deaf_to_ctrl_c() -> Iterator[None]:
    """Spawn workers deaf to Ctrl-C, and hear it only once they are whole.

    SIGINT is blocked in this thread (the mask is inherited: a Ctrl-C sent to the terminal's process group
    waits in a new worker until its initializer ignores it), and a Ctrl-C that reaches the tournament
    meanwhile is noted and raised once the window ends: raised inside ``Process.start``, between the fork
    and the worker's start-up data, it would leave a worker that dies with a traceback. Never lost: the
    standard library's resource tracker is started behind the same mask."""
    heard: list[int] = []
    main = threading.current_thread() is threading.main_thread()
    handler = signal.signal(signal.SIGINT, lambda number, _frame: heard.append(number)) if main else None
    mask = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, mask)
        if main:
            signal.signal(signal.SIGINT, handler)
            if heard:
                signal.raise_signal(signal.SIGINT)


def _ignore_ctrl_c() -> None:
    """In a new worker: Ctrl-C is the tournament's to handle; ignored here (and by what the worker starts),
    then unblocked, which drops one that came while the worker started."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT})


def _init_worker(progress: Any, parent: int) -> None:
    global _progress_queue
    _ignore_ctrl_c()
    _progress_queue = progress
    die_with_parent(parent)  # the tournament process: kill -9 of it ends its workers


def _report_deal(name: str) -> Callable[[int], None]:
    def on_deal(number: int) -> None:
        if _progress_queue is not None:
            _progress_queue.put(("deal", name, number))

    return on_deal


def _report_fault(name: str) -> Callable[[Fault], None]:
    def on_fault(fault: Fault) -> None:
        if _progress_queue is not None:
            _progress_queue.put(("fault", name, fault.to_dict()))

    return on_fault


def play_table(task: TableTask, tables_dir: Path, table_runner: TableRunner) -> TableOutcome:
    """Worker side: play one table in a new hidden folder; return its result."""
    folder = Path(tempfile.mkdtemp(prefix=f".{task.name}.", dir=tables_dir))
    result = table_runner(
        list(task.players),
        folder,
        task.config,
        on_deal=_report_deal(task.name),
        on_fault=_report_fault(task.name),
    )
    return TableOutcome(task.name, result, folder=folder)


class LocalPool:
    """``jobs`` worker processes on this machine, each dying with the tournament process."""

    def __init__(self, jobs: int) -> None:
        context = multiprocessing.get_context("spawn")
        self.queue: Any = context.Queue()
        self._deals: list[tuple[str, int]] = []
        self._faults: list[tuple[str, Fault]] = []
        with _spawned_deaf_to_ctrl_c():
            self.pool = ProcessPoolExecutor(
                max_workers=jobs,
                mp_context=context,
                initializer=_init_worker,
                initargs=(self.queue, os.getpid()),
            )

    def submit(self, task: TableTask, tables_dir: Path, runner: TableRunner) -> Future[TableOutcome]:
        """Queue ``task`` for the next free worker process."""
        with _spawned_deaf_to_ctrl_c():
            return self.pool.submit(play_table, task, tables_dir, runner)

    def deals_played(self) -> list[tuple[str, int]]:
        """The workers' deal reports waiting in the queue."""
        self._drain()
        reports, self._deals = self._deals, []
        return reports

    def faults(self) -> list[tuple[str, Fault]]:
        """The workers' faults waiting in the queue."""
        self._drain()
        faults, self._faults = self._faults, []
        return faults

    def _drain(self) -> None:
        while True:
            try:
                what, name, value = self.queue.get_nowait()
            except queue.Empty:
                return
            if what == "fault":
                self._faults.append((name, Fault.from_dict(value)))
            else:
                self._deals.append((name, value))

    def poll(self, progress: Progress) -> None:
        """Nothing: local workers neither join nor leave."""

    def close(self, *, cancel: bool) -> None:
        """Wait for the workers to exit, or kill them when ``cancel``."""
        if cancel:
            for child in multiprocessing.active_children():
                child.kill()
            self.pool.shutdown(wait=False, cancel_futures=True)
        else:
            self.pool.shutdown(wait=True)


def read_deals(folder: Path) -> list[DealRecord]:
    """``(deal, events, profit per seat)`` from a played table's ``events.jsonl``."""
    return [(line.deal, line.records, line.profits()) for line in table_deals(folder)]


def _clean_hidden(tables_dir: Path) -> None:
    for path in tables_dir.glob(".*"):
        shutil.rmtree(path, ignore_errors=True)


def _install(outcome: TableOutcome, tables_dir: Path) -> Path:
    folder = outcome.folder
    if outcome.archive is not None:
        folder = Path(tempfile.mkdtemp(prefix=f".{outcome.name}.", dir=tables_dir))
        unpack_table(outcome.archive, folder)
    assert folder is not None, "an outcome has a folder or an archive"
    target = tables_dir / outcome.name
    if target.exists():
        shutil.rmtree(target)
    folder.rename(target)
    return target


def execute(
    store: Store,
    run_dir: Path,
    tasks: Sequence[TableTask],
    *,
    jobs: int = 1,
    scheduler: str | None = None,
    certs: Path | None = None,
    progress: Progress,
    table_runner: TableRunner | None = None,
    label: str = "tables",
) -> list[str]:
    """Play ``tasks`` in ``jobs`` local worker processes, or on the Dask cluster at ``scheduler``
    (``tls://`` with the client certificate in ``certs``, :mod:`arena.tournament.certs`).

    Each finished table is committed at once; the failures' messages are returned.
    """
    tables_dir = run_tables_dir(run_dir)
    tables_dir.mkdir(parents=True, exist_ok=True)
    _clean_hidden(tables_dir)
    if not tasks:
        return []
    runner = table_runner or run_table
    failures: list[str] = []
    deals_seen: dict[str, int] = {}
    pool = _open_pool(jobs, scheduler, certs, progress)
    progress.start(label, tables=len(tasks), deals=sum(t.config.deals for t in tasks))
    try:
        configured = {t.name: t.config.deals for t in tasks}
        by_name = {t.name: t for t in tasks}
        pending: dict[Future[TableOutcome], str] = {}
        waiting, playing = list(tasks), Counter[str]()  # teams at a grouped table being played
        while waiting or pending:
            for task in list(waiting):  # in table order, a grouped one once none of its teams is playing
                if not task.group or not any(playing[team] for team in _teams(task)):
                    waiting.remove(task)
                    playing.update(_teams(task))
                    pending[pool.submit(task, tables_dir, runner)] = task.name
            done, _ = wait(pending, timeout=0.2, return_when=FIRST_COMPLETED)
            _count_deals(pool.deals_played(), progress, deals_seen)
            for table, fault in pool.faults():
                progress.fault(table, fault)
            pool.poll(progress)
            for future in sorted(done, key=pending.__getitem__):  # in table order: the first failure is told
                name = pending.pop(future)
                playing.subtract(_teams(by_name[name]))
                _collect(future, name, store, tables_dir, failures, progress)
                progress.advance(tables=1, deals=configured[name] - deals_seen.get(name, 0))
                deals_seen[name] = configured[name]
    except BaseException:
        # Interrupted or broken: stop the tables being played now; the next run plays them again.
        pool.close(cancel=True)
        raise
    finally:
        progress.stop()
    pool.close(cancel=False)
    return failures


def _teams(task: TableTask) -> list[str]:
    """The teams a grouped table keeps from every other table while it is played (none for the others)."""
    return [player.team for player in task.players] if task.group else []


def _open_pool(jobs: int, scheduler: str | None, certs: Path | None, progress: Progress) -> TablePool:
    if scheduler is None:
        return LocalPool(jobs)
    from arena.tournament.cluster import ClusterPool  # Dask is imported only for a cluster run

    return ClusterPool(scheduler, progress, certs=certs)


def _collect(
    future: Future[TableOutcome],
    name: str,
    store: Store,
    tables_dir: Path,
    failures: list[str],
    progress: Progress,
) -> None:
    """Commit a finished table, or record why it failed (it is retried by the next run)."""
    try:
        outcome = future.result()
    except BrokenProcessPool as error:
        raise ArenaError(f"a worker process died while playing {name}: {error}") from error
    except ProgramChanged as error:
        raise ProgramChanged(f"{name} did not start: {error}; the tournament stops") from None
    except Exception as error:
        message = f"{name}: {type(error).__name__}: {error}"
        store.record_failure(name, message)
        failures.append(message)
        progress.warn(f"table failed {message}")
        return
    folder = _install(outcome, tables_dir)
    store.record_table(name, outcome.result, read_deals(folder))


def _count_deals(reports: list[tuple[str, int]], progress: Progress, seen: dict[str, int]) -> None:
    for name, number in reports:
        if number > seen.get(name, 0):
            progress.advance(deals=number - seen.get(name, 0))
            seen[name] = number
