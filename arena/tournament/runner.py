"""Play a tournament's tables in J worker processes and record each one atomically in the store.

A table is the unit of work. A worker plays it with ``run_table`` in a fresh hidden folder beside the
database; the main process (the store's only writer) then renames the folder into place and commits the
table's deals, faults and results in one transaction. Killed at any moment, the next run of the same
command skips the committed tables, discards hidden folders and plays the rest.
"""

from __future__ import annotations

import fcntl
import json
import multiprocessing
import os
import queue
import shutil
import signal
import tempfile
import threading
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from concurrent.futures.process import BrokenProcessPool
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from arena.errors import ArenaError, ConfigError
from arena.faults import Fault
from arena.games.codem.results import TableResult
from arena.games.codem.table import PlayerSpec, TableConfig, run_table
from arena.sandbox.prctl import PR_SET_PDEATHSIG, prctl
from arena.tournament.progress import Progress
from arena.tournament.store import DealRecord, Store

TableRunner = Callable[..., TableResult]  # run_table, or a stand-in with its signature
TABLES_DIR = "tables"
LOCK_NAME = "tournament.lock"

_progress_queue: Any = None


@dataclass(frozen=True)
class TableTask:
    """A table to play: its name in the store, its players in seat order and its configuration."""

    name: str
    players: tuple[PlayerSpec, ...]
    config: TableConfig


@dataclass(frozen=True)
class TableOutcome:
    """What a worker hands back: the folder it played in and the table's result."""

    name: str
    folder: Path
    result: TableResult


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
def _workers_ignore_ctrl_c() -> Iterator[None]:
    """Ignore SIGINT while workers are spawned, so they start with it ignored (Ctrl-C is ours)."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    previous = signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)


def _die_with_parent(parent: int) -> None:
    """Ask Linux to kill this worker when the tournament process dies (kill -9 included)."""
    prctl(PR_SET_PDEATHSIG, signal.SIGKILL)
    if os.getppid() != parent:
        os._exit(1)


def _init_worker(progress: Any, parent: int) -> None:
    global _progress_queue
    _progress_queue = progress
    _die_with_parent(parent)


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
    return TableOutcome(task.name, folder, result)


def read_deals(folder: Path) -> list[DealRecord]:
    """``(deal, events, profit per seat)`` from a played table's ``events.jsonl``."""
    deals = []
    with (folder / "events.jsonl").open() as lines:
        for line in lines:
            record = json.loads(line)
            events = record["events"]
            start = next(e for e in events if e["kind"] == "deal_started")
            end = next(e for e in events if e["kind"] == "deal_ended")
            profits = [after - before for before, after in zip(start["stacks"], end["stacks"], strict=True)]
            deals.append((record["deal"], events, profits))
    return deals


def _clean_hidden(tables_dir: Path) -> None:
    for path in tables_dir.glob(".*"):
        shutil.rmtree(path, ignore_errors=True)


def _install(outcome: TableOutcome, tables_dir: Path) -> Path:
    target = tables_dir / outcome.name
    if target.exists():
        shutil.rmtree(target)
    outcome.folder.rename(target)
    return target


def execute(
    store: Store,
    run_dir: Path,
    tasks: Sequence[TableTask],
    *,
    jobs: int,
    progress: Progress,
    table_runner: TableRunner | None = None,
    label: str = "tables",
) -> list[str]:
    """Play ``tasks`` in ``jobs`` worker processes, committing each; return the failures' messages."""
    tables_dir = run_dir / TABLES_DIR
    tables_dir.mkdir(parents=True, exist_ok=True)
    _clean_hidden(tables_dir)
    if not tasks:
        return []
    runner = table_runner or run_table
    context = multiprocessing.get_context("spawn")
    progress_queue = context.Queue()
    failures: list[str] = []
    deals_seen: dict[str, int] = {}
    pool = ProcessPoolExecutor(
        max_workers=jobs, mp_context=context, initializer=_init_worker, initargs=(progress_queue, os.getpid())
    )
    progress.start(label, tables=len(tasks), deals=sum(t.config.deals for t in tasks))
    try:
        configured = {t.name: t.config.deals for t in tasks}
        with _workers_ignore_ctrl_c():
            pending: dict[Future[TableOutcome], str] = {
                pool.submit(play_table, task, tables_dir, runner): task.name for task in tasks
            }
        while pending:
            done, _ = wait(pending, timeout=0.2, return_when=FIRST_COMPLETED)
            _drain(progress_queue, progress, deals_seen)
            for future in done:
                name = pending.pop(future)
                _collect(future, name, store, tables_dir, failures, progress)
                progress.advance(tables=1, deals=configured[name] - deals_seen.get(name, 0))
                deals_seen[name] = configured[name]
    except BaseException:
        # Interrupted or broken: stop the tables being played now; the next run plays them again.
        for child in multiprocessing.active_children():
            child.kill()
        pool.shutdown(wait=False, cancel_futures=True)
        raise
    finally:
        progress.stop()
    pool.shutdown(wait=True)
    return failures


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
    except Exception as error:
        message = f"{name}: {type(error).__name__}: {error}"
        store.record_failure(name, message)
        failures.append(message)
        progress.warn(f"table failed {message}")
        return
    folder = _install(outcome, tables_dir)
    store.record_table(name, outcome.result, read_deals(folder))


def _drain(progress_queue: Any, progress: Progress, seen: dict[str, int]) -> None:
    while True:
        try:
            what, name, value = progress_queue.get_nowait()
        except queue.Empty:
            return
        if what == "fault":
            progress.fault(name, Fault.from_dict(value))
            continue
        number = value
        if number > seen.get(name, 0):
            progress.advance(deals=number - seen.get(name, 0))
            seen[name] = number
