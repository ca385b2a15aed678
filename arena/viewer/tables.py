"""One Code'em table's folder read lazily: an index of ``events.jsonl`` with a summary of each deal.

``events.jsonl`` holds one line per deal. :class:`TableLog` reads it once, keeping for each deal only the
byte offset of its line and a small :class:`DealSummary` (what the table page lists and charts), and on
each :meth:`TableLog.refresh` reads only the complete lines appended since: a table being played grows
under it. A deal's events are read again from their offset when its replay is asked for.
"""

from __future__ import annotations

import json
import os
import threading
from array import array
from collections import Counter, OrderedDict
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from arena.engines.nlhe.events import DealEnded, DealStarted, Event
from arena.games.codem.stats import PlayerStats
from arena.runfolder.layout import EVENTS, RESULTS, SEATS
from arena.runfolder.reader import complete_lines, deal_at, deal_lines, table_faults

KEPT_TABLES = 16
KEPT_RECORDS = 1024


@dataclass(frozen=True, slots=True)
class DealSummary:
    """What the table page shows of a deal without replaying it."""

    deal: int
    dealer: int
    stacks_before: tuple[int, ...]
    stacks_after: tuple[int, ...]
    pot: int
    pots: int
    showdown: bool
    all_in: bool
    winners: tuple[int, ...]
    board: int
    actions: int

    @property
    def side_pot(self) -> bool:
        """More than one pot was awarded."""
        return self.pots > 1


def summarise(line: dict[str, Any]) -> DealSummary:
    """The summary of one ``events.jsonl`` line, read from the event dicts directly (the fast path:
    no event objects are built)."""
    events = line["events"]
    start, end = events[0], events[-1]
    pot = pots = board = actions = 0
    all_in = False
    winners: set[int] = set()
    for event in events:
        kind = event["kind"]
        if kind == "action":
            actions += 1
            all_in = all_in or event["all_in"]
        elif kind == "pot_awarded":
            pot += event["amount"]
            pots += 1
            winners.update(event["winners"])
        elif kind == "street_started":
            board += len(event["board"])
        elif kind == "blind_posted":
            all_in = all_in or event["all_in"]
    return DealSummary(
        deal=line["deal"],
        dealer=start["dealer"],
        stacks_before=tuple(start["stacks"]),
        stacks_after=tuple(end["stacks"]),
        pot=pot,
        pots=pots,
        showdown=end["showdown"],
        all_in=all_in,
        winners=tuple(sorted(winners)),
        board=board,
        actions=actions,
    )


@dataclass
class TableLog:
    """The deals of one table folder, indexed as far as its ``events.jsonl`` has been written."""

    folder: Path
    offsets: list[int] = field(default_factory=list)
    summaries: list[DealSummary] = field(default_factory=list)
    _read_to: int = 0
    _inode: int = -1

    def refresh(self) -> TableLog:
        """Index the complete lines written since the last call (a partial last line waits)."""
        path = self.folder / EVENTS
        try:
            stat = path.stat()
        except FileNotFoundError:
            return self
        if stat.st_ino != self._inode or stat.st_size < self._read_to:
            self.offsets, self.summaries, self._read_to, self._inode = [], [], 0, stat.st_ino
        if stat.st_size == self._read_to:
            return self
        lines, self._read_to = complete_lines(path, self._read_to)
        for offset, raw in lines:
            self.offsets.append(offset)
            self.summaries.append(summarise(json.loads(raw)))
        return self

    @property
    def deals(self) -> int:
        """Deals indexed so far."""
        return len(self.offsets)

    def events(self, deal: int) -> list[Event]:
        """The events of deal ``deal`` (1-based, as indexed), read from its line."""
        if not 1 <= deal <= len(self.offsets):
            raise KeyError(deal)
        return deal_at(self.folder / EVENTS, self.offsets[deal - 1]).events()

    def line(self, deal: int) -> dict[str, Any]:
        """The JSON object of deal ``deal``'s line."""
        if not 1 <= deal <= len(self.offsets):
            raise KeyError(deal)
        line = deal_at(self.folder / EVENTS, self.offsets[deal - 1])
        return {"deal": line.deal, "events": line.records}

    def faults(self) -> list[dict[str, Any]]:
        """Every fault recorded at this table so far (``faults.jsonl``; complete lines only)."""
        return table_faults(self.folder)

    def fault_counts(self) -> Counter[int]:
        """Faults per deal."""
        return Counter(int(f.get("deal", 0)) for f in self.faults())

    def results(self) -> dict[str, Any] | None:
        """``results.json`` once the table is over, else None."""
        results: dict[str, Any] | None = read_json(self.folder / RESULTS)
        return results

    def seat_names(self) -> list[str]:
        """Team names in seat order, from ``results.json`` or, while the table plays, ``seats.json``."""
        results = self.results()
        if results is not None:
            return [t["team"] for t in sorted(results["teams"], key=lambda t: t["seat"])]
        seats = read_json(self.folder / SEATS)
        return [str(name) for name in seats] if isinstance(seats, list) else []


def read_json(path: Path) -> Any:
    """The JSON value in ``path``, or None when the file is missing or not (yet) whole JSON."""
    try:
        return json.loads(path.read_bytes())
    except (FileNotFoundError, json.JSONDecodeError, UnicodeDecodeError):
        return None


@dataclass(frozen=True)
class SeatRecords:
    """Over a table's deals so far: each seat's playing statistics (``stats[seat - 1]``) and its chips
    before the first deal and after every deal (``chips[seat - 1]``)."""

    stats: tuple[PlayerStats, ...]
    chips: tuple[array[int], ...]


def seat_records(folder: Path) -> SeatRecords:
    """The :class:`SeatRecords` of a table folder: one pass over its deals for all its seats (a team page
    needs one seat of each of its tables; the others' pages then cost nothing). The last
    :data:`KEPT_RECORDS` are kept, each until its ``events.jsonl`` changes."""
    path = folder / EVENTS
    try:
        stat = path.stat()
    except FileNotFoundError:
        return SeatRecords((), ())
    key = (os.fspath(path.resolve()), stat.st_ino, stat.st_size)
    with _lock:
        known = _records.pop(key, None)
    if known is None:
        known = _seat_records(path)
    with _lock:
        _records[key] = known
        while len(_records) > KEPT_RECORDS:
            _records.popitem(last=False)
    return known


def _seat_records(path: Path) -> SeatRecords:
    stats: list[PlayerStats] = []
    chips: list[array[int]] = []
    for line in deal_lines(path):
        events = line.events()
        start, end = events[0], events[-1]
        assert isinstance(start, DealStarted) and isinstance(end, DealEnded)
        if not stats:
            stats = [PlayerStats() for _ in start.stacks]
            chips = [array("i", [chips_before]) for chips_before in start.stacks]
        for seat, (seat_stats, seat_chips) in enumerate(zip(stats, chips, strict=True), start=1):
            seat_stats.add_deal(events, seat)
            seat_chips.append(end.stacks[seat - 1])
    return SeatRecords(tuple(stats), tuple(chips))


_lock = threading.Lock()
_records: OrderedDict[tuple[str, int, int], SeatRecords] = OrderedDict()
_logs: OrderedDict[str, TableLog] = OrderedDict()


def table_log(folder: Path) -> TableLog:
    """The (refreshed) log of ``folder``; the last :data:`KEPT_TABLES` opened stay indexed in memory."""
    key = os.fspath(folder.resolve())
    with _lock:
        log = _logs.pop(key, None) or TableLog(Path(key))
        _logs[key] = log
        while len(_logs) > KEPT_TABLES:
            _logs.popitem(last=False)
        return log.refresh()
