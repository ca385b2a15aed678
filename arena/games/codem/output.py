"""A Code'em table's folder, written as the table plays, every file rendered from the events (what each
file holds and where: ``arena/runfolder/layout.py``).
"""

from __future__ import annotations

import json
import shutil
from collections.abc import Sequence
from datetime import UTC, datetime
from pathlib import Path
from types import TracebackType

from arena.engines.nlhe.events import Event, event_to_dict
from arena.faults import Fault
from arena.games.codem.results import TableResult
from arena.runfolder.layout import (
    DEALS_DIR,
    EVENTS,
    FAULTS,
    RESULTS,
    SEATS,
    TIMES,
    deal_file,
    team_dir,
)


def utc_text(moment: datetime) -> str:
    """A moment as ``times.jsonl`` holds it: ISO 8601 in UTC, to the second (``2026-11-27T22:11:03Z``)."""
    return moment.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


class TableFolder:
    """The output folder of one table; ``events.jsonl`` stays open while the table plays."""

    def __init__(self, out_dir: Path) -> None:
        self.out_dir = out_dir
        out_dir.mkdir(parents=True, exist_ok=True)
        (out_dir / DEALS_DIR).mkdir(exist_ok=True)
        for name in (EVENTS, FAULTS, TIMES):
            (out_dir / name).write_text("")
        self._events = (out_dir / EVENTS).open("a")

    def write_seats(self, teams: Sequence[str]) -> None:
        """``seats.json``: who sits where, before the first deal (a viewer following the table names the
        seats from it)."""
        (self.out_dir / SEATS).write_text(json.dumps(list(teams)) + "\n")

    def team_folder(self, team: str) -> Path:
        """A new empty ``teams/<team>/`` (whatever an earlier run left there is removed)."""
        folder = team_dir(self.out_dir, team)
        if folder.exists():
            shutil.rmtree(folder)
        folder.mkdir(parents=True)
        return folder

    def write_fault(self, fault: Fault) -> None:
        """Append one fault to ``faults.jsonl``."""
        with (self.out_dir / FAULTS).open("a") as out:
            out.write(json.dumps(fault.to_dict()) + "\n")

    def write_deal(
        self, number: int, events: Sequence[Event], final_text: str, *, started: datetime | None = None
    ) -> None:
        """The deal's final ``deal.txt``, its line of ``events.jsonl`` and, given when it started, its line
        of ``times.jsonl`` (it ended now)."""
        deal_file(self.out_dir, number).write_text(final_text)
        if started is not None:
            times = {"deal": number, "started": utc_text(started), "ended": utc_text(datetime.now(UTC))}
            with (self.out_dir / TIMES).open("a") as out:
                out.write(json.dumps(times) + "\n")
        self._events.write(json.dumps({"deal": number, "events": [event_to_dict(e) for e in events]}) + "\n")
        self._events.flush()  # whole lines on disk deal by deal, for anyone following the table

    def write_results(self, result: TableResult) -> None:
        """``results.json``."""
        (self.out_dir / RESULTS).write_text(json.dumps(result.to_dict(), indent=2) + "\n")

    def close(self) -> None:
        """Close ``events.jsonl``."""
        self._events.close()

    def __enter__(self) -> TableFolder:
        return self

    def __exit__(
        self, kind: type[BaseException] | None, error: BaseException | None, trace: TracebackType | None
    ) -> None:
        self.close()
