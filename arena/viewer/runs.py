"""What a run folder holds: a tournament (with its final), one Code'em table, a heads-up or a
TwoCardDraw match; and where each Code'em table's files are now.

A tournament's tables are read from its SQLite file through a read-only connection (the tournament may
still be writing it) and from their folders: a table being played sits in a hidden folder
``tables/.<name>.XXXX`` until it is committed and renamed to ``tables/<name>``.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from enum import StrEnum, unique
from pathlib import Path

from arena.errors import ConfigError
from arena.tournament.store import DB_NAME, Store, TableStatus
from arena.tournament.workers import LOCK_NAME
from arena.viewer.tables import EVENTS, SEATS, TableLog, read_json, table_log

SINGLE_TABLE = "table"
_SAFE_NAME = re.compile(r"[A-Za-z0-9_-]{1,64}")


@unique
class RunKind(StrEnum):
    """The kinds of run folder the viewer shows."""

    TOURNAMENT = "tournament"
    TABLE = "table"
    HEADSUP = "headsup"
    TWOCARD = "twocard"


@unique
class TableState(StrEnum):
    """Where a table stands, as a spectator sees it (the store knows no ``running``)."""

    PLAYED = "played"
    RUNNING = "running"
    PENDING = "pending"
    FAILED = "failed"


@dataclass(frozen=True, slots=True)
class TableInfo:
    """A Code'em table of the run: its teams in seat order, status, and the folder holding its files."""

    name: str
    kind: str
    teams: tuple[str, ...]
    status: TableState
    deals: int
    deals_played: int
    folder: Path | None
    error: str = ""


def run_kind(folder: Path) -> RunKind:
    """Recognise a run folder by the files its command writes; one clear error when it is none."""
    if folder.exists() and not folder.is_dir():
        raise ConfigError(f"{folder} is a file, not a run folder")
    if not folder.is_dir():
        raise ConfigError(f"run folder {folder} does not exist")
    if (folder / DB_NAME).is_file():
        return RunKind.TOURNAMENT
    if (folder / EVENTS).is_file() or (folder / SEATS).is_file():
        return RunKind.TABLE
    if (folder / "hands.jsonl").is_file():
        return RunKind.HEADSUP
    results = read_json(folder / "results.json")
    if (folder / "case_1").is_dir() or (isinstance(results, dict) and isinstance(results.get("cases"), list)):
        return RunKind.TWOCARD
    raise ConfigError(
        f"{folder} is not a run folder: it holds no {DB_NAME} (arena tournament), {EVENTS} (arena table), "
        "hands.jsonl (arena headsup) or case_1/ (arena twocard play)"
    )


class Run:
    """A run folder, read on demand (nothing is kept but the table indexes of :mod:`.tables`)."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self.kind = run_kind(folder)

    @contextmanager
    def store(self) -> Iterator[Store]:
        """A read-only connection to the tournament's database, closed after use."""
        store = Store.open_read_only(self.folder)
        try:
            yield store
        finally:
            store.close()

    def tables(self) -> list[TableInfo]:
        """Every Code'em table of the run in schedule order (the final last)."""
        if self.kind is RunKind.TABLE:
            log = table_log(self.folder)
            played = log.results() is not None
            return [
                TableInfo(
                    name=SINGLE_TABLE,
                    kind="table",
                    teams=tuple(log.seat_names()),
                    status=TableState.PLAYED if played else TableState.RUNNING,
                    deals=log.deals,
                    deals_played=log.deals,
                    folder=self.folder,
                )
            ]
        if self.kind is not RunKind.TOURNAMENT:
            return []
        with self.store() as store:
            rows = store.tables(None)
            errors = store.table_errors()
        tables_dir = self.folder / "tables"
        hidden = _hidden_folders(tables_dir)
        playing = bool(hidden) and tournament_running(self.folder)
        infos = []
        for row in rows:
            # A hidden folder is a table being played while an arena holds the run's lock; without the
            # lock it is what an interrupted or failed run left (its deals can still be read).
            done = row.status is TableStatus.DONE
            folder: Path | None = tables_dir / row.name if done else hidden.get(row.name)
            if done:
                status = TableState.PLAYED
            elif playing and row.name in hidden:
                status = TableState.RUNNING
            elif row.status is TableStatus.FAILED:
                status = TableState.FAILED
            else:
                status = TableState.PENDING
            infos.append(
                TableInfo(
                    name=row.name,
                    kind=row.kind.value,
                    teams=row.teams,
                    status=status,
                    deals=row.deals,
                    deals_played=row.deals_played,
                    folder=folder,
                    error=errors.get(row.name, ""),
                )
            )
        return infos

    def table(self, name: str) -> TableInfo:
        """One table by name (``KeyError`` when the run has none of that name)."""
        for info in self.tables():
            if info.name == name:
                return info
        raise KeyError(name)

    def log(self, info: TableInfo) -> TableLog | None:
        """The table's indexed deals, when its folder exists."""
        if info.folder is None or not info.folder.is_dir():
            return None
        return table_log(info.folder)

    def teams(self) -> list[str]:
        """Every team of the run, by name."""
        if self.kind is RunKind.TOURNAMENT:
            with self.store() as store:
                return [row.team for row in store.teams()]
        return sorted({team for info in self.tables() for team in info.teams})

    def team_slugs(self) -> dict[str, str]:
        """A file-name-safe name for each team's page: the team id itself when it is letters, digits,
        ``_`` and ``-`` (always so in a tournament), else ``team<N>``."""
        return {
            team: team if _SAFE_NAME.fullmatch(team) else f"team{index}"
            for index, team in enumerate(self.teams(), start=1)
        }


def tournament_running(run_dir: Path) -> bool:
    """Whether an arena holds the run's lock now: ``/proc/locks`` lists the locked file's device and
    inode (read, never taken: a viewer must not stand in a tournament's way)."""
    try:
        stat = (run_dir / LOCK_NAME).stat()
        locks = Path("/proc/locks").read_text()
    except FileNotFoundError:
        return False
    except OSError:
        return True
    wanted = f"{os.major(stat.st_dev):02x}:{os.minor(stat.st_dev):02x}:{stat.st_ino}"
    for line in locks.splitlines():
        fields = [field for field in line.split() if field != "->"]
        if len(fields) > 5 and fields[1] == "FLOCK" and fields[5] == wanted:
            return True
    return False


def _hidden_folders(tables_dir: Path) -> dict[str, Path]:
    """Tables being played now: ``tables/.<name>.XXXX``."""
    found: dict[str, Path] = {}
    if not tables_dir.is_dir():
        return found
    for path in sorted(tables_dir.glob(".*.*")):
        name = path.name[1:].rsplit(".", 1)[0]
        if path.is_dir() and name:
            found[name] = path
    return found
