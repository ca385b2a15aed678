"""The tournament's one SQLite database: teams, builds, tables, seats, deals, faults and results.

WAL journal; the schema's version is SQLite's ``user_version`` (:data:`SCHEMA_VERSION`), and a store
written by an older arena is brought up to date when it is opened for writing (:func:`migrate`). A table's
outcome (its deals, faults, results and its ``done`` mark) is written in one
transaction, so after a crash at any moment a table is either wholly recorded or not at all. Deal events
are stored zlib-compressed as the JSON lines ``run_table`` wrote, so every file can be rendered again.
"""

from __future__ import annotations

import json
import sqlite3
import zlib
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from enum import StrEnum, unique
from pathlib import Path
from typing import Any

from arena.engines.nlhe.events import event_from_dict
from arena.engines.nlhe.luck import deal_luck
from arena.errors import ConfigError
from arena.faults import FaultKind
from arena.games.codem.results import TableResult
from arena.runfolder.layout import DB_NAME, results_path, table_dir
from arena.tournament.schedule import TableJob

SCHEMA_VERSION = 1
"""0: arena before the store kept a version (no decision times); 1: each result row's decision times."""

DealRecord = tuple[int, list[dict[str, Any]], list[int]]
"""One played deal as the store takes it: its number, its events (as dicts) and each seat's profit."""


@unique
class TableKind(StrEnum):
    """Which part of the tournament a table belongs to."""

    ROUND = "round"
    FINAL = "final"


@unique
class TableStatus(StrEnum):
    """How far a scheduled table got."""

    PENDING = "pending"
    DONE = "done"
    FAILED = "failed"


SCHEMA = """
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS notes (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS teams (
    team TEXT PRIMARY KEY, program TEXT NOT NULL, language TEXT NOT NULL, sha256 TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS tables (
    name TEXT PRIMARY KEY, kind TEXT NOT NULL, grp INTEGER NOT NULL, rotation INTEGER NOT NULL,
    seed INTEGER NOT NULL, deals INTEGER NOT NULL, status TEXT NOT NULL DEFAULT 'pending',
    deals_played INTEGER NOT NULL DEFAULT 0, error TEXT NOT NULL DEFAULT '', position INTEGER NOT NULL);
CREATE TABLE IF NOT EXISTS seats (
    table_name TEXT NOT NULL REFERENCES tables(name), seat INTEGER NOT NULL, team TEXT NOT NULL,
    PRIMARY KEY (table_name, seat));
CREATE TABLE IF NOT EXISTS builds (
    table_name TEXT NOT NULL, team TEXT NOT NULL, built INTEGER NOT NULL, reason TEXT NOT NULL,
    PRIMARY KEY (table_name, team));
CREATE TABLE IF NOT EXISTS deals (
    table_name TEXT NOT NULL, deal INTEGER NOT NULL, events BLOB NOT NULL, profits TEXT NOT NULL,
    adjusted TEXT, PRIMARY KEY (table_name, deal));
CREATE TABLE IF NOT EXISTS faults (
    table_name TEXT NOT NULL, idx INTEGER NOT NULL, team TEXT NOT NULL, kind TEXT NOT NULL,
    reason TEXT NOT NULL, deal INTEGER NOT NULL, stage TEXT NOT NULL, stderr TEXT NOT NULL,
    details TEXT NOT NULL DEFAULT '{}', PRIMARY KEY (table_name, idx));
CREATE TABLE IF NOT EXISTS results (
    table_name TEXT NOT NULL, team TEXT NOT NULL, seat INTEGER NOT NULL, final_stack INTEGER NOT NULL,
    profit INTEGER NOT NULL, faults INTEGER NOT NULL, disqualified INTEGER NOT NULL,
    built INTEGER NOT NULL, decisions INTEGER NOT NULL, PRIMARY KEY (table_name, team));
"""

TIMING_COLUMNS = {
    "median_ms": "REAL NOT NULL DEFAULT 0",
    "p99_ms": "REAL NOT NULL DEFAULT 0",
    "max_ms": "REAL NOT NULL DEFAULT 0",
    "cpu_median_ms": "REAL NOT NULL DEFAULT 0",
    "peak_memory_kb": "INTEGER NOT NULL DEFAULT 0",
    "allowance_ms": "REAL NOT NULL DEFAULT 0",
}
"""A result row's decision times (``TeamResult.timing``), added to ``results`` by version 1."""


@dataclass(frozen=True, slots=True)
class TeamRow:
    """A registered team and the program it was registered with."""

    team: str
    program: str
    language: str
    sha256: str


@dataclass(frozen=True, slots=True)
class TableRow:
    """A scheduled table and how far it got."""

    name: str
    kind: TableKind
    group: int
    rotation: int
    seed: int
    deals: int
    status: TableStatus
    deals_played: int
    teams: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class DecisionTimes:
    """A team's decision times at one table, as ``results.json`` holds them under ``timing`` (ms)."""

    median_ms: float = 0.0
    p99_ms: float = 0.0
    max_ms: float = 0.0
    cpu_median_ms: float = 0.0
    peak_memory_kb: int = 0
    allowance_ms: float = 0.0

    @classmethod
    def from_timing(cls, timing: dict[str, Any]) -> DecisionTimes:
        """From a ``timing`` dict (a value it lacks is 0)."""
        return cls(
            median_ms=float(timing.get("median_ms", 0)),
            p99_ms=float(timing.get("p99_ms", 0)),
            max_ms=float(timing.get("max_ms", 0)),
            cpu_median_ms=float(timing.get("cpu_median_ms", 0)),
            peak_memory_kb=int(timing.get("peak_memory_kb", 0)),
            allowance_ms=float(timing.get("allowance_ms", 0)),
        )

    def values(self) -> tuple[float | int, ...]:
        """In :data:`TIMING_COLUMNS` order."""
        return tuple(getattr(self, key) for key in TIMING_COLUMNS)


@dataclass(frozen=True, slots=True)
class ResultRow:
    """One team's outcome at one finished table."""

    table_name: str
    team: str
    seat: int
    final_stack: int
    profit: int
    faults: int
    disqualified: bool
    built: bool
    decisions: int
    times: DecisionTimes = DecisionTimes()


class Store:
    """Access to ``RUN_DIR/tournament.sqlite``; one writer (the tournament's main process)."""

    def __init__(self, run_dir: Path) -> None:
        run_dir.mkdir(parents=True, exist_ok=True)
        self.path = run_dir / DB_NAME
        if self.path.exists() and self.path.stat().st_size == 0:
            raise ConfigError(f"{self.path} is empty (0 bytes), not a tournament database; {_LEFT_ALONE}")
        try:
            self.conn = sqlite3.connect(self.path, isolation_level=None, timeout=30)
            _require_ours(self.conn, self.path)
            self.conn.execute("PRAGMA journal_mode=WAL")
            self.conn.execute("PRAGMA synchronous=NORMAL")
            self.conn.execute("PRAGMA foreign_keys=ON")
            with self.transaction() as conn:
                migrate(conn, run_dir)
        except sqlite3.DatabaseError as error:
            raise ConfigError(f"{self.path} is damaged or not a database ({error}); {_LEFT_ALONE}") from None

    @classmethod
    def open_read_only(cls, run_dir: Path) -> Store:
        """A reader beside the writer (the viewer): no schema set-up, and SQLite refuses any write."""
        path = run_dir / DB_NAME
        if not path.is_file():
            raise ConfigError(f"{run_dir} holds no {DB_NAME}")
        store = cls.__new__(cls)
        store.path = path
        store.conn = sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro", uri=True, timeout=30)
        return store

    def close(self) -> None:
        """Close the connection."""
        self.conn.close()

    @contextmanager
    def transaction(self) -> Iterator[sqlite3.Connection]:
        """``BEGIN IMMEDIATE`` ... ``COMMIT``; rolled back on any exception."""
        self.conn.execute("BEGIN IMMEDIATE")
        try:
            yield self.conn
        except BaseException:
            self.conn.execute("ROLLBACK")
            raise
        self.conn.execute("COMMIT")

    # -- set-up -----------------------------------------------------------------------------------

    def meta(self) -> dict[str, Any]:
        """The tournament's settings as stored (empty before the first run)."""
        rows = self.conn.execute("SELECT key, value FROM meta").fetchall()
        return {key: json.loads(value) for key, value in rows}

    def initialise(
        self,
        settings: dict[str, Any],
        teams: Sequence[TeamRow],
        jobs: Sequence[TableJob],
        *,
        defaults: dict[str, Any] | None = None,
    ) -> None:
        """Record settings, teams and schedule once; on a later run, check they are unchanged.

        ``defaults`` stand for settings a run recorded by an older arena did not store (what it played by).
        """
        stored = self.meta()
        if stored:
            self._check_same({**(defaults or {}), **stored}, settings, teams)
            return
        with self.transaction() as conn:
            conn.executemany(
                "INSERT INTO meta (key, value) VALUES (?, ?)",
                [(k, json.dumps(v, sort_keys=True)) for k, v in settings.items()],
            )
            conn.executemany(
                "INSERT INTO teams VALUES (?, ?, ?, ?)",
                [(t.team, t.program, t.language, t.sha256) for t in teams],
            )
            self._insert_tables(conn, TableKind.ROUND, settings["deals"], jobs)

    def note(self, key: str) -> Any:
        """A value kept beside the settings (e.g. what the final was played with), None when unset."""
        row = self.conn.execute("SELECT value FROM notes WHERE key = ?", (key,)).fetchone()
        return json.loads(row[0]) if row else None

    def set_note(self, key: str, value: Any) -> None:
        """Keep ``value`` (JSON) under ``key``."""
        with self.transaction() as conn:
            text = json.dumps(value, sort_keys=True)
            conn.execute("INSERT OR REPLACE INTO notes (key, value) VALUES (?, ?)", (key, text))

    def discard_table(self, name: str) -> None:
        """Forget a table wholly (schedule, seats and outcome): the final played again with ``--again``."""
        with self.transaction() as conn:
            for table in ("deals", "faults", "results", "builds", "seats"):
                conn.execute(f"DELETE FROM {table} WHERE table_name = ?", (name,))
            conn.execute("DELETE FROM tables WHERE name = ?", (name,))

    def add_table(self, kind: TableKind, deals: int, job: TableJob) -> None:
        """Schedule one more table (the final) unless it is already scheduled."""
        if self.conn.execute("SELECT 1 FROM tables WHERE name = ?", (job.name,)).fetchone():
            return
        with self.transaction() as conn:
            self._insert_tables(conn, kind, deals, [job])

    def _insert_tables(
        self, conn: sqlite3.Connection, kind: TableKind, deals: int, jobs: Sequence[TableJob]
    ) -> None:
        start = conn.execute("SELECT COUNT(*) FROM tables").fetchone()[0]
        conn.executemany(
            "INSERT INTO tables (name, kind, grp, rotation, seed, deals, position) "
            "VALUES (?, ?, ?, ?, ?, ?, ?)",
            [(j.name, kind, j.group, j.rotation, str(j.seed), deals, start + i) for i, j in enumerate(jobs)],
        )
        conn.executemany(
            "INSERT INTO seats VALUES (?, ?, ?)",
            [(j.name, seat, team) for j in jobs for seat, team in enumerate(j.teams, start=1)],
        )

    def _check_same(self, stored: dict[str, Any], settings: dict[str, Any], teams: Sequence[TeamRow]) -> None:
        changed = sorted(k for k in settings if stored.get(k) != settings[k])
        if changed:
            details = ", ".join(f"{k} was {stored.get(k)!r}, now {settings[k]!r}" for k in changed)
            raise ConfigError(f"{self.path.parent} holds a tournament with other settings ({details})")
        known = {row.team: row for row in self.teams()}
        current = {row.team: row for row in teams}
        if set(known) != set(current):
            added = sorted(set(current) - set(known))
            gone = sorted(set(known) - set(current))
            raise ConfigError(
                f"{self.path.parent} holds a tournament of other teams (new: {added or 'none'}, "
                f"missing: {gone or 'none'})"
            )
        edited = sorted(t for t in known if known[t].sha256 != current[t].sha256)
        if edited:
            raise ConfigError(f"programs changed since the tournament started: {', '.join(edited)}")

    # -- queries ----------------------------------------------------------------------------------

    def teams(self) -> list[TeamRow]:
        """Registered teams in name order."""
        rows = self.conn.execute("SELECT team, program, language, sha256 FROM teams ORDER BY team")
        return [TeamRow(*row) for row in rows]

    def tables(self, kind: TableKind | None = TableKind.ROUND) -> list[TableRow]:
        """Scheduled tables of one kind (all when ``kind`` is None) in schedule order."""
        where, params = ("WHERE kind = ?", (kind,)) if kind else ("", ())
        rows = self.conn.execute(
            "SELECT name, kind, grp, rotation, seed, deals, status, deals_played FROM tables "
            f"{where} ORDER BY position",
            params,
        ).fetchall()
        seats: dict[str, list[str]] = {}
        for name, team in self.conn.execute("SELECT table_name, team FROM seats ORDER BY table_name, seat"):
            seats.setdefault(name, []).append(team)
        return [
            TableRow(n, TableKind(k), g, r, int(s), d, TableStatus(st), p, tuple(seats.get(n, ())))
            for n, k, g, r, s, d, st, p in rows
        ]

    def results(self, kind: TableKind = TableKind.ROUND) -> list[ResultRow]:
        """Every team's outcome at every finished table of one kind (a store read as an older arena left it
        has no decision times: they read as 0)."""
        columns = _columns(self.conn, "results")
        times = ", ".join(f"r.{c}" if c in columns else "0" for c in TIMING_COLUMNS)
        rows = self.conn.execute(
            "SELECT r.table_name, r.team, r.seat, r.final_stack, r.profit, r.faults, r.disqualified, "
            f"r.built, r.decisions, {times} FROM results r JOIN tables t ON t.name = r.table_name "
            "WHERE t.kind = ? ORDER BY t.position, r.seat",
            (kind,),
        )
        return [
            ResultRow(n, t, s, f, p, fa, bool(d), bool(b), dec, DecisionTimes(*timing))
            for n, t, s, f, p, fa, d, b, dec, *timing in rows
        ]

    def deal_profits(self, table_name: str) -> list[tuple[int, list[int]]]:
        """``(deal, profit of each seat)`` for every deal of a finished table, in deal order."""
        rows = self.conn.execute(
            "SELECT deal, profits FROM deals WHERE table_name = ? ORDER BY deal", (table_name,)
        )
        return [(deal, json.loads(profits)) for deal, profits in rows]

    def deal_values(self, table_name: str) -> list[tuple[int, list[int], list[float]]]:
        """``(deal, chips won, luck-adjusted value)`` per seat for every deal of a finished table, in deal
        order; a deal recorded before arena stored the adjusted value gets it from its events now."""
        # read-only: an old run as it is
        adjusted_column = "adjusted" if "adjusted" in _columns(self.conn, "deals") else "NULL"
        rows = self.conn.execute(
            f"SELECT deal, profits, {adjusted_column}, events FROM deals WHERE table_name = ? ORDER BY deal",
            (table_name,),
        )
        values = []
        for deal, profits, adjusted, blob in rows:
            if adjusted is None:
                values.append((deal, json.loads(profits), adjusted_values(json.loads(zlib.decompress(blob)))))
            else:
                values.append((deal, json.loads(profits), json.loads(adjusted)))
        return values

    def deal_events(self, table_name: str) -> Iterator[tuple[int, list[dict[str, Any]]]]:
        """``(deal, event dicts)`` for every deal of a finished table, in deal order."""
        rows = self.conn.execute(
            "SELECT deal, events FROM deals WHERE table_name = ? ORDER BY deal", (table_name,)
        )
        for deal, blob in rows:
            yield deal, json.loads(zlib.decompress(blob))

    def faults(self, kind: TableKind = TableKind.ROUND) -> list[dict[str, Any]]:
        """The faults at tables of one kind: table, team, kind, reason, deal, stage, seat, decision."""
        keys = ("table", "team", "kind", "reason", "deal", "stage", "seat", "decision")
        return [{key: fault[key] for key in keys} for fault in self.fault_records(kind)]

    def fault_records(self, kind: TableKind | None = TableKind.ROUND) -> list[dict[str, Any]]:
        """Every recorded fault in full (``Fault.to_dict()`` plus its ``table``), in play order."""
        rows = self.conn.execute(
            "SELECT f.table_name, f.team, f.kind, f.reason, f.deal, f.stage, f.stderr, f.details "
            "FROM faults f JOIN tables t ON t.name = f.table_name "
            "WHERE ? IS NULL OR t.kind = ? ORDER BY t.position, f.idx",
            (kind, kind),
        )
        keys = ("table", "team", "kind", "reason", "deal", "stage", "stderr")
        records = []
        for *values, details in rows:
            record = {"seat": 0, "decision": 0, **dict(zip(keys, values, strict=True)), **json.loads(details)}
            records.append(record)
        return records

    def table_errors(self) -> dict[str, str]:
        """The error of every table whose run raised (status ``failed``)."""
        rows = self.conn.execute("SELECT name, error FROM tables WHERE status = 'failed'")
        return dict(rows.fetchall())

    def builds(self) -> list[tuple[str, str, bool, str]]:
        """``(table, team, built, reason)`` for every build recorded."""
        rows = self.conn.execute(
            "SELECT table_name, team, built, reason FROM builds ORDER BY table_name, team"
        )
        return [(t, team, bool(b), r) for t, team, b, r in rows]

    # -- recording --------------------------------------------------------------------------------

    def record_table(self, name: str, result: TableResult, deals: Sequence[DealRecord]) -> None:
        """Write one finished table atomically: its deals (with each seat's luck-adjusted value, computed
        before the write lock is taken), builds, faults, results and ``done`` mark."""
        rows = [
            (
                name,
                deal,
                zlib.compress(json.dumps(events, separators=(",", ":")).encode()),
                json.dumps(profits),
                json.dumps(adjusted_values(events)),
            )
            for deal, events, profits in deals
        ]
        with self.transaction() as conn:
            status = conn.execute("SELECT status FROM tables WHERE name = ?", (name,)).fetchone()
            if status is None:
                raise ConfigError(f"table {name} is not in the schedule")
            if status[0] == TableStatus.DONE:
                return
            for table in ("deals", "faults", "results", "builds"):
                conn.execute(f"DELETE FROM {table} WHERE table_name = ?", (name,))
            conn.executemany("INSERT INTO deals VALUES (?, ?, ?, ?, ?)", rows)
            index = 0
            for team in result.teams:
                build_faults = [f for f in team.faults if f.kind is FaultKind.BUILD_FAILED]
                reason = build_faults[0].reason if build_faults else ""
                conn.execute(
                    "INSERT INTO builds VALUES (?, ?, ?, ?)", (name, team.team, int(team.built), reason)
                )
                conn.execute(
                    f"INSERT INTO results ({', '.join(RESULT_COLUMNS)}) "
                    f"VALUES ({', '.join('?' * len(RESULT_COLUMNS))})",
                    (
                        name,
                        team.team,
                        team.seat,
                        team.final_stack,
                        team.profit,
                        len(team.faults),
                        int(team.disqualified),
                        int(team.built),
                        team.decisions,
                        *DecisionTimes.from_timing(team.timing).values(),
                    ),
                )
                for fault in team.faults:
                    core = ("team", "kind", "reason", "deal", "stage", "stderr")
                    details = {k: v for k, v in fault.to_dict().items() if k not in core}
                    conn.execute(
                        "INSERT INTO faults VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                        (
                            name,
                            index,
                            team.team,
                            fault.kind.value,
                            fault.reason,
                            fault.deal,
                            fault.stage,
                            fault.stderr,
                            json.dumps(details),
                        ),
                    )
                    index += 1
            conn.execute(
                "UPDATE tables SET status = ?, deals_played = ?, error = '' WHERE name = ?",
                (TableStatus.DONE, result.deals_played, name),
            )

    def record_failure(self, name: str, error: str) -> None:
        """Mark a table whose run raised (it is retried by the next run)."""
        with self.transaction() as conn:
            conn.execute(
                "UPDATE tables SET status = ?, error = ? WHERE name = ? AND status != ?",
                (TableStatus.FAILED, error, name, TableStatus.DONE),
            )


_LEFT_ALONE = "it is left as it is: move it away to start a new tournament in this folder"


def _require_ours(conn: sqlite3.Connection, path: Path) -> None:
    """A database that holds tables must hold a tournament's (a new, empty one gets the schema)."""
    names = {row[0] for row in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
    if names and "meta" not in names:
        conn.close()
        raise ConfigError(f"{path} is an SQLite database but not a tournament's; {_LEFT_ALONE}")


@contextmanager
def stored_deals(run_dir: Path) -> Iterator[Callable[[str, str], list[tuple[str, Iterable[Any]]]] | None]:
    """For ``arena verify``: a table's deals as the database holds them (None when RUN_DIR has none)."""
    if not (run_dir / DB_NAME).is_file():
        yield None
        return
    store = Store(run_dir)

    def records(_stage: str, table: str) -> list[tuple[str, Iterable[Any]]]:
        done = any(t.name == table and t.status == TableStatus.DONE for t in store.tables(None))
        return [(DB_NAME, store.deal_events(table))] if done else []

    try:
        yield records
    finally:
        store.close()


def adjusted_values(events: Sequence[dict[str, Any]]) -> list[float]:
    """Each seat's luck-adjusted result of a deal given as event dicts (``arena.engines.nlhe.luck``),
    to the hundredth of a chip."""
    luck = deal_luck([event_from_dict(event) for event in events])
    return [round(value, 2) for value in luck.adjusted]


def _statements() -> list[str]:
    return [s.strip() for s in SCHEMA.split(";") if s.strip()]


RESULT_COLUMNS = (
    "table_name",
    "team",
    "seat",
    "final_stack",
    "profit",
    "faults",
    "disqualified",
    "built",
    "decisions",
    *TIMING_COLUMNS,
)


def _columns(conn: sqlite3.Connection, table: str) -> set[str]:
    return {row[1] for row in conn.execute(f"PRAGMA table_info({table})")}


def migrate(conn: sqlite3.Connection, run_dir: Path) -> None:
    """Create the schema, or bring a store an older arena wrote up to :data:`SCHEMA_VERSION` (inside the
    caller's transaction); a store of a newer arena is refused. Each step adds only what is missing, so
    it is run on every store, whatever its version says."""
    version = conn.execute("PRAGMA user_version").fetchone()[0]
    if version > SCHEMA_VERSION:
        raise ConfigError(
            f"{run_dir / DB_NAME} is of a newer arena (schema {version}; this one knows up to "
            f"{SCHEMA_VERSION}); {_LEFT_ALONE}"
        )
    for statement in _statements():
        conn.execute(statement)
    _to_version_1(conn, run_dir)
    conn.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")


def _to_version_1(conn: sqlite3.Connection, run_dir: Path) -> None:
    """Version 0 to 1: the columns older stores lack (faults' decision details, deals' adjusted values,
    results' decision times), the times filled from each played table's ``results.json`` where it is."""
    if "details" not in _columns(conn, "faults"):  # from before faults carried their decision
        conn.execute("ALTER TABLE faults ADD COLUMN details TEXT NOT NULL DEFAULT '{}'")
    if "adjusted" not in _columns(conn, "deals"):  # from before luck was taken out
        conn.execute("ALTER TABLE deals ADD COLUMN adjusted TEXT")
    missing = [column for column in TIMING_COLUMNS if column not in _columns(conn, "results")]
    for column in missing:
        conn.execute(f"ALTER TABLE results ADD COLUMN {column} {TIMING_COLUMNS[column]}")
    if not missing:
        return
    assignments = ", ".join(f"{column} = ?" for column in TIMING_COLUMNS)
    for (table,) in conn.execute("SELECT DISTINCT table_name FROM results").fetchall():
        for team, timing in _recorded_times(run_dir, table).items():
            conn.execute(
                f"UPDATE results SET {assignments} WHERE table_name = ? AND team = ?",
                (*timing.values(), table, team),
            )


def _recorded_times(run_dir: Path, table: str) -> dict[str, DecisionTimes]:
    """Each team's decision times as the table's ``results.json`` holds them (none when it is gone or
    unreadable: the times stay 0)."""
    try:
        teams = json.loads(results_path(table_dir(run_dir, table)).read_text())["teams"]
        return {str(t["team"]): DecisionTimes.from_timing(t.get("timing") or {}) for t in teams}
    except (OSError, ValueError, KeyError, TypeError, AttributeError):
        return {}
