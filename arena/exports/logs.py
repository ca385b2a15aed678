"""What an export reads: the recorded deals of a table, or the hands of a heads-up match, from a run folder.

A run folder (its layout: ``arena/runfolder/layout.py``) is one of
* a tournament or a final: ``tables/<name>/events.jsonl`` and ``results.json`` for each table;
* a single table (``arena table --out DIR``): ``events.jsonl`` and ``results.json`` in the folder itself;
  beside them, ``times.jsonl`` when each deal started (tables of older arenas have none);
* a heads-up match (``arena headsup --out DIR``): ``hands.jsonl`` and ``results.json``.

Everything else is rendered from these records; nothing here knows a format.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Any

from arena.engines.nlhe.events import BlindPosted, DealEnded, DealStarted, Event
from arena.engines.nlhe.rules import TableRules
from arena.errors import ConfigError, FormatError
from arena.runfolder.layout import HANDS, events_path, played_tables, results_path, times_path
from arena.runfolder.reader import deal_lines


@dataclass(frozen=True)
class TableLog:
    """One Code'em table: its name, the team in each seat (seat 1 first), its rules and its deals' events."""

    name: str
    teams: tuple[str, ...]
    rules: TableRules
    deals: tuple[tuple[Event, ...], ...]
    started: Mapping[int, datetime] = field(default_factory=dict)

    def seat_of(self, team: str) -> int:
        """The seat (1-based) ``team`` sat in; ``ConfigError`` when it did not sit at this table."""
        if team not in self.teams:
            raise ConfigError(f"team {team!r} did not sit at table {self.name} ({', '.join(self.teams)})")
        return self.teams.index(team) + 1


@dataclass(frozen=True)
class HeadsUpLog:
    """A heads-up match against Bob: the player's name and each hand as ``hands.jsonl`` records it."""

    name: str
    player: str
    hands: tuple[dict[str, Any], ...]


def _read_json_lines(path: Path) -> list[Any]:
    records = []
    with path.open(encoding="utf-8") as lines:
        for number, line in enumerate(lines, 1):
            if not line.strip():
                continue
            try:
                records.append(json.loads(line))
            except json.JSONDecodeError as error:
                raise FormatError(f"{path} line {number}: not JSON ({error.msg})") from None
    return records


def _teams(folder: Path, seats: int) -> tuple[str, ...]:
    """Team names by seat from the table's ``results.json`` (``seat1``... when it is missing)."""
    results = results_path(folder)
    if not results.is_file():
        return tuple(f"seat{seat}" for seat in range(1, seats + 1))
    teams = json.loads(results.read_text(encoding="utf-8")).get("teams", [])
    by_seat = {int(t["seat"]): str(t["team"]) for t in teams}
    return tuple(by_seat.get(seat, f"seat{seat}") for seat in range(1, seats + 1))


def infer_rules(deals: Sequence[Sequence[Event]]) -> TableRules:
    """The table's rules as its first deal shows them: seats, blinds (the first full posts), starting stack.

    ``run_table`` does not write its rules beside the events; every deal starts with the stacks of all
    seats and, in the first deal, every seat holds the starting stack and posts its whole blind.
    """
    start = deals[0][0]
    assert isinstance(start, DealStarted), start
    blinds = {e.blind: e.amount for e in deals[0] if isinstance(e, BlindPosted) and not e.all_in}
    defaults = TableRules()
    return TableRules(
        seats=len(start.stacks),
        small_blind=blinds.get("small", defaults.small_blind),
        big_blind=blinds.get("big", defaults.big_blind),
        starting_stack=max(start.stacks),
    )


def read_table(folder: Path, name: str | None = None) -> TableLog:
    """The table recorded in ``folder`` (its ``events.jsonl`` and ``results.json``)."""
    path = events_path(folder)
    deals: list[tuple[Event, ...]] = []
    for line in list(deal_lines(path)):  # every line read first: a damaged line is named as such
        where = f"{path} deal {line.deal}"
        try:
            events = tuple(line.events())
        except (KeyError, TypeError, ValueError) as error:
            raise FormatError(f"{where}: bad event ({error!r})") from None
        if not events or not isinstance(events[0], DealStarted) or not isinstance(events[-1], DealEnded):
            raise FormatError(f"{where}: a recorded deal runs from deal_started to deal_ended")
        deals.append(events)
    if not deals:
        raise FormatError(f"{path} holds no deal")
    rules = infer_rules(deals)
    return TableLog(name or folder.name, _teams(folder, rules.seats), rules, tuple(deals), _started(folder))


def _started(folder: Path) -> dict[int, datetime]:
    """When each deal started, from ``times.jsonl`` (a table of an older arena has none: no times)."""
    path = times_path(folder)
    if not path.is_file():
        return {}
    started = {}
    for record in _read_json_lines(path):
        try:
            started[int(record["deal"])] = datetime.strptime(record["started"], "%Y-%m-%dT%H:%M:%S%z")
        except (KeyError, TypeError, ValueError):
            raise FormatError(f"{path}: a line without its deal and start time") from None
    return started


def read_headsup(folder: Path) -> HeadsUpLog:
    """The heads-up match recorded in ``folder`` (its ``hands.jsonl`` and ``results.json``)."""
    results = results_path(folder)
    program = json.loads(results.read_text(encoding="utf-8")).get("program", "") if results.is_file() else ""
    player = Path(program).stem or "player"
    return HeadsUpLog(folder.name, player, tuple(_read_json_lines(folder / HANDS)))


def table_folders(run_dir: Path) -> list[tuple[str, Path]]:
    """``(name, folder)`` of every recorded table under RUN_DIR, in name order (a single table: itself)."""
    return played_tables(run_dir)


def is_headsup_run(run_dir: Path) -> bool:
    """Whether RUN_DIR holds a heads-up match."""
    return (run_dir / HANDS).is_file()
