"""Following a table as it is played: new deals as server-sent events, woken by the run folder's changes.

A ``watchdog`` observer watches the table's folder (and, in a tournament, ``tables/``, where a table's
hidden folder is renamed into place when it is committed). Each change wakes the stream, which reads the
complete lines appended to ``events.jsonl`` since the last deal it sent. With no change for
:data:`HEARTBEAT_S` seconds the stream sends a comment line (keeping proxies from closing it) and looks
once more, so a file system without change notification still gets its deals, only later.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator, Awaitable, Callable
from pathlib import Path
from typing import Any

from watchdog.events import FileSystemEvent, FileSystemEventHandler
from watchdog.observers import Observer
from watchdog.observers.api import ObservedWatch

from arena.viewer.codem_pages import deal_payload
from arena.viewer.runs import Run, RunKind, TableInfo, TableState
from arena.viewer.tables import TableLog

HEARTBEAT_S = 10.0


class _Wake(FileSystemEventHandler):
    """Sets an asyncio event from watchdog's thread."""

    def __init__(self, loop: asyncio.AbstractEventLoop, wake: asyncio.Event) -> None:
        self.loop = loop
        self.wake = wake

    def on_any_event(self, event: FileSystemEvent) -> None:
        self.loop.call_soon_threadsafe(self.wake.set)


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


class _Watcher:
    """A watchdog observer on the table's current folder (it moves when a tournament commits the
    table) and, in a tournament, on the run folder and ``tables/``."""

    def __init__(self, handler: _Wake, run: Run) -> None:
        self.handler = handler
        self.observer = Observer()
        self.folder: Path | None = None
        self.watch: ObservedWatch | None = None
        if run.kind is RunKind.TOURNAMENT:
            # The run folder: the database's commits (a table done or failed); tables/: a table's hidden
            # folder created, or renamed into place.
            for folder in (run.folder, run.folder / "tables"):
                if folder.is_dir():
                    self.observer.schedule(handler, str(folder))
        self.observer.start()

    def follow_folder(self, folder: Path | None) -> None:
        if folder is None or folder == self.folder or not folder.is_dir():
            return
        if self.watch is not None:
            self.observer.unschedule(self.watch)
        self.watch = self.observer.schedule(self.handler, str(folder))
        self.folder = folder

    def stop(self) -> None:
        self.observer.stop()
        self.observer.join()


async def follow(
    run: Run, name: str, *, after: int, disconnected: Callable[[], Awaitable[bool]]
) -> AsyncIterator[str]:
    """Server-sent events for table ``name``: ``deal`` for each deal after ``after`` as it is written,
    then ``end`` once the table is over."""
    wake = asyncio.Event()
    watcher = _Watcher(_Wake(asyncio.get_running_loop(), wake), run)
    sent = after
    try:
        while not await disconnected():
            wake.clear()  # before reading: a change made while we read wakes the next wait
            info = await asyncio.to_thread(run.table, name)
            watcher.follow_folder(info.folder)
            log = await asyncio.to_thread(run.log, info)
            while log is not None and sent < log.deals:
                sent += 1
                payload = await asyncio.to_thread(deal_payload, info, log, sent)
                yield sse("deal", {**payload, "summary": deal_summary(payload)})
            if _over(info, log):
                yield sse("end", {"deals": sent, "status": info.status.value})
                return
            try:
                await asyncio.wait_for(wake.wait(), timeout=HEARTBEAT_S)
            except TimeoutError:
                yield ": still here\n\n"
    finally:
        watcher.stop()


def _over(info: TableInfo, log: TableLog | None) -> bool:
    """Played, failed, or (a single table) its ``results.json`` written."""
    if info.status in (TableState.PLAYED, TableState.FAILED):
        return True
    return log is not None and log.results() is not None
