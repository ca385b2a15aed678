"""The one reader of a table's recorded deals (``events.jsonl``) and faults (``faults.jsonl``).

Each line of ``events.jsonl`` is one deal, ``{"deal": N, "events": [...]}``, written whole as the deal
ends. A table still being played grows under its readers, so only complete lines are read: a last line
without its newline is being written and waits. :func:`complete_lines` reads from a byte offset and tells
where it stopped, so a follower (the live viewer) reads each line once.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from arena.engines.nlhe.events import Event, event_from_dict
from arena.errors import FormatError
from arena.runfolder.layout import EVENTS, FAULTS


@dataclass(frozen=True, slots=True)
class DealLine:
    """One deal as ``events.jsonl`` records it: its number and its events as the line holds them."""

    deal: int
    records: list[dict[str, Any]]

    def events(self) -> list[Event]:
        """The deal's events, typed."""
        return [event_from_dict(record) for record in self.records]

    def profits(self) -> list[int]:
        """Each seat's chips won (negative: lost) in the deal, from its first and last event's stacks."""
        before, after = self.records[0]["stacks"], self.records[-1]["stacks"]
        return [end - start for start, end in zip(before, after, strict=True)]


def complete_lines(path: Path, start: int = 0) -> tuple[list[tuple[int, bytes]], int]:
    """``(offset, line)`` of every complete, non-blank line of ``path`` from byte ``start``, and the offset
    after the last complete line (where to start next time). A missing file has none."""
    try:
        with path.open("rb") as source:
            source.seek(start)
            chunk = source.read()
    except FileNotFoundError:
        return [], start
    end = chunk.rfind(b"\n") + 1
    lines, position = [], start
    for raw in chunk[:end].splitlines(keepends=True):
        if raw.strip():
            lines.append((position, raw))
        position += len(raw)
    return lines, start + end


def parse_deal(raw: bytes | str, where: str = "events.jsonl") -> DealLine:
    """One line of ``events.jsonl``; a line that is not a deal's record is a :class:`FormatError`."""
    try:
        value = json.loads(raw)
    except ValueError as error:
        message = error.msg if isinstance(error, json.JSONDecodeError) else str(error)
        raise FormatError(f"{where}: not JSON ({message})") from None
    try:
        return DealLine(int(value["deal"]), list(value["events"]))
    except (ValueError, KeyError, TypeError) as error:
        raise FormatError(f"{where}: not a deal's record ({error!r})") from None


def deal_lines(path: Path) -> Iterator[DealLine]:
    """The deals recorded in an ``events.jsonl`` (complete lines, streamed, in file order)."""
    if not path.is_file():
        return
    with path.open("rb") as source:
        for number, raw in enumerate(source, 1):
            if raw.endswith(b"\n") and raw.strip():
                yield parse_deal(raw, f"{path} line {number}")


def table_deals(folder: Path) -> Iterator[DealLine]:
    """The deals recorded in a table folder."""
    return deal_lines(folder / EVENTS)


def typed_deals(folder: Path) -> Iterator[tuple[int, list[Event]]]:
    """``(deal, typed events)`` of every deal recorded in a table folder."""
    for line in table_deals(folder):
        yield line.deal, line.events()


def deal_at(path: Path, offset: int) -> DealLine:
    """The deal whose line starts at byte ``offset`` of an ``events.jsonl`` (from :func:`complete_lines`)."""
    with path.open("rb") as source:
        source.seek(offset)
        return parse_deal(source.readline(), f"{path} at byte {offset}")


def find_deal(folder: Path, deal: int) -> DealLine | None:
    """Deal number ``deal`` of a table folder, None when it was not recorded."""
    return next((line for line in table_deals(folder) if line.deal == deal), None)


def json_lines(path: Path) -> Iterator[Any]:
    """The JSON values of the complete lines of ``path``, streamed (none when it is missing)."""
    if not path.is_file():
        return
    with path.open("rb") as source:
        for raw in source:
            if raw.endswith(b"\n") and raw.strip():
                yield json.loads(raw)


def table_faults(folder: Path) -> list[dict[str, Any]]:
    """Every fault recorded in a table folder's ``faults.jsonl`` so far, as its lines hold them."""
    return [json.loads(raw) for _offset, raw in complete_lines(folder / FAULTS)[0]]
