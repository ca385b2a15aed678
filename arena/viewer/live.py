"""Following a table as it is played: new deals as server-sent events, woken by the run folder's changes.

One ``watchdog`` observer (:class:`FolderWatch`) watches the table's folder and, in a tournament, the run
folder and ``tables/``, where a table's hidden folder is renamed into place when it is committed. Each
change wakes the stream, which reads the complete lines appended to ``events.jsonl`` since the last deal
it sent. With no change for :data:`HEARTBEAT_S` seconds the stream sends a comment line (keeping proxies
from closing it) and looks once more, so a file system without change notification still gets its deals,
only later.
"""

from __future__ import annotations

import asyncio
import json
import threading
from collections.abc import AsyncIterator, Awaitable, Callable
from functools import partial
from pathlib import Path
from typing import Any

from watchdog.events import FileSystemEvent, FileSystemEventHandler
from watchdog.observers import Observer
from watchdog.observers.api import BaseObserver, ObservedWatch

from arena.viewer.codem_pages import deal_payload
from arena.viewer.runs import Run, RunKind, TableInfo, TableState
from arena.viewer.secret import RECORD, Mode, Viewing
from arena.viewer.tables import TableLog

HEARTBEAT_S = 10.0


def sse(event: str, data: dict[str, Any]) -> str:
    """One server-sent event (JSON on a single ``data:`` line)."""
    return f"event: {event}\ndata: {json.dumps(data, separators=(',', ':'))}\n\n"


def deal_summary(payload: dict[str, Any]) -> dict[str, Any]:
    """What the live page's deal list shows of a deal: the pot and its winners' names."""
    last = payload["steps"][-1]
    winners = sorted({w for pot in last["pots"] for w in pot["winners"]})
    names = payload["names"]
    return {
        "pot": sum(pot["amount"] for pot in last["pots"]),
        "winners": [names[w - 1] if w <= len(names) else f"seat {w}" for w in winners],
        "showdown": any(pot["hand"] for pot in last["pots"]),
    }


class FolderWatch:
    """One watchdog observer for the whole app: each folder is watched once, however many streams
    follow it (Linux allows a user 128 inotify instances; an observer per stream would run out).

    :meth:`subscribe` calls ``wake`` (from watchdog's thread) on every change in the folder until
    :meth:`unsubscribe`. A folder that cannot be watched (no inotify left, a file system without it)
    is left to the streams' heartbeat.
    """

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._observer: BaseObserver | None = None
        self._watches: dict[Path, tuple[ObservedWatch, set[Callable[[], None]]]] = {}

    def subscribe(self, folder: Path, wake: Callable[[], None]) -> None:
        with self._lock:
            if folder in self._watches:
                self._watches[folder][1].add(wake)
                return
            if self._observer is None:
                self._observer = Observer()
                self._observer.daemon = True
                self._observer.start()
            wakes = {wake}
            try:
                watch = self._observer.schedule(_Dispatch(wakes), str(folder))
            except OSError:
                return
            self._watches[folder] = (watch, wakes)

    def unsubscribe(self, folder: Path, wake: Callable[[], None]) -> None:
        with self._lock:
            entry = self._watches.get(folder)
            if entry is None:
                return
            watch, wakes = entry
            wakes.discard(wake)
            if not wakes and self._observer is not None:
                self._observer.unschedule(watch)
                del self._watches[folder]

    def stop(self) -> None:
        """Stop the observer (the app is shutting down)."""
        with self._lock:
            observer, self._observer = self._observer, None
            self._watches.clear()
        if observer is not None:
            observer.stop()
            observer.join()


BROADCAST = Viewing(Mode.BROADCAST)


class _Dispatch(FileSystemEventHandler):
    """Calls every subscriber of one folder."""

    def __init__(self, wakes: set[Callable[[], None]]) -> None:
        self.wakes = wakes

    def on_any_event(self, event: FileSystemEvent) -> None:
        for wake in list(self.wakes):
            wake()


async def follow(
    run: Run,
    name: str,
    *,
    after: int,
    disconnected: Callable[[], Awaitable[bool]],
    watch: FolderWatch,
    public: bool = False,
) -> AsyncIterator[str]:
    """Server-sent events for table ``name``: ``deal`` for each deal after ``after`` as it is written
    (if ``public``, as the broadcast shows it: no faults, no hole card the showdown did not show), then
    ``end`` once the table is over. Woken by ``watch`` on the
    table's folder (it moves when a tournament commits the table) and, in a tournament, on the run
    folder (the database's commits) and ``tables/`` (a hidden folder made or renamed)."""
    loop = asyncio.get_running_loop()
    event = asyncio.Event()

    def wake() -> None:
        loop.call_soon_threadsafe(event.set)

    fixed = [run.folder, run.folder / "tables"] if run.kind is RunKind.TOURNAMENT else []
    for folder in fixed:
        if folder.is_dir():
            watch.subscribe(folder, wake)
    followed: Path | None = None
    sent = after
    try:
        while not await disconnected():
            event.clear()  # before reading: a change made while we read wakes the next wait
            info = await asyncio.to_thread(run.table, name)
            if info.folder is not None and info.folder != followed and info.folder.is_dir():
                if followed is not None:
                    watch.unsubscribe(followed, wake)
                followed = info.folder
                watch.subscribe(followed, wake)
            log = await asyncio.to_thread(run.log, info)
            while log is not None and sent < log.deals:
                sent += 1
                viewing = BROADCAST if public else RECORD  # the public never gets a card not shown
                payload = await asyncio.to_thread(
                    partial(deal_payload, upto=-1, public=public), info, log, sent, viewing
                )
                yield sse("deal", {**payload, "summary": deal_summary(payload)})
            if _over(info, log):
                yield sse("end", {"deals": sent, "status": info.status.value})
                return
            try:
                await asyncio.wait_for(event.wait(), timeout=HEARTBEAT_S)
            except TimeoutError:
                yield ": still here\n\n"
    finally:
        for watched in [*fixed, followed]:
            if watched is not None:
                watch.unsubscribe(watched, wake)


def _over(info: TableInfo, log: TableLog | None) -> bool:
    """Played, failed, or (a single table) its ``results.json`` written."""
    if info.status in (TableState.PLAYED, TableState.FAILED):
        return True
    return log is not None and log.results() is not None
