"""The contest's state in SQLite (WAL): teams, uploads and their checks, announcements, mail, the audit log.

One connection per thread or process (SQLite's rule); every write is one short transaction, so a
``kill -9`` at any moment leaves the last committed state: an upload is recorded only after its file is
on disk, and a check interrupted while running is queued again when the server starts
(:meth:`ContestStore.requeue_interrupted`). The schema carries a version; a folder from another version
is refused with one line.
"""

from __future__ import annotations

import datetime as dt
import json
import sqlite3
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from enum import StrEnum, unique
from pathlib import Path
from typing import Any

from arena.errors import ConfigError

SCHEMA_VERSION = 1
SCHEMA = """
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS teams (
    team TEXT PRIMARY KEY, name TEXT NOT NULL, email TEXT NOT NULL, password_hash TEXT NOT NULL,
    organiser INTEGER NOT NULL DEFAULT 0, active INTEGER NOT NULL DEFAULT 1,
    disqualified INTEGER NOT NULL DEFAULT 0, reason TEXT NOT NULL DEFAULT '');
CREATE TABLE IF NOT EXISTS submissions (
    id INTEGER PRIMARY KEY, team TEXT NOT NULL, stage TEXT NOT NULL, filename TEXT NOT NULL,
    sha256 TEXT NOT NULL, size INTEGER NOT NULL, uploaded_at TEXT NOT NULL, help_files TEXT NOT NULL,
    status TEXT NOT NULL, verdict TEXT, report TEXT NOT NULL DEFAULT '', progress TEXT NOT NULL DEFAULT '',
    attempt INTEGER NOT NULL DEFAULT 0, checked_at TEXT);
CREATE INDEX IF NOT EXISTS submissions_team ON submissions (team, id);
CREATE TABLE IF NOT EXISTS announcements (
    id INTEGER PRIMARY KEY, posted_at TEXT NOT NULL, title TEXT NOT NULL, body TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS outbox (
    id INTEGER PRIMARY KEY, created_at TEXT NOT NULL, team TEXT NOT NULL, address TEXT NOT NULL,
    kind TEXT NOT NULL, subject TEXT NOT NULL, body TEXT NOT NULL, sent_at TEXT,
    error TEXT NOT NULL DEFAULT '', attempts INTEGER NOT NULL DEFAULT 0);
CREATE TABLE IF NOT EXISTS audit (
    id INTEGER PRIMARY KEY, at TEXT NOT NULL, actor TEXT NOT NULL, action TEXT NOT NULL,
    target TEXT NOT NULL, reason TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS signins (team TEXT NOT NULL, at TEXT NOT NULL, ok INTEGER NOT NULL);
CREATE INDEX IF NOT EXISTS signins_team ON signins (team, at);
CREATE TABLE IF NOT EXISTS tokens (digest TEXT PRIMARY KEY, team TEXT NOT NULL, created_at TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS deadlines (name TEXT PRIMARY KEY, at TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS stages (
    name TEXT PRIMARY KEY, status TEXT NOT NULL, progress TEXT NOT NULL DEFAULT '{}',
    error TEXT NOT NULL DEFAULT '', started_at TEXT, finished_at TEXT);
"""


SERVED = "check_claimed:"
"""A note per team: when one of its uploads was last taken for checking (the queue's turns)."""


def _queue_order(db: sqlite3.Connection) -> list[int]:
    """The queued uploads in the order they will be checked: teams take turns, so one team's uploads
    sent at once do not hold back another's. Each upload's place is (how many of its team's uploads
    wait before it, when its team was last served, never first, its id)."""
    rows = db.execute("SELECT key, value FROM meta WHERE substr(key, 1, ?) = ?", (len(SERVED), SERVED))
    served = dict(rows.fetchall())
    waiting: dict[str, int] = {}
    places = []
    for number, team in db.execute("SELECT id, team FROM submissions WHERE status = 'queued' ORDER BY id"):
        ahead = waiting.get(team, 0)
        waiting[team] = ahead + 1
        places.append((ahead, served.get(SERVED + team, ""), number))
    return [number for _, _, number in sorted(places)]


def now() -> dt.datetime:
    """The current time, timezone-aware (UTC)."""
    return dt.datetime.now(dt.UTC)


def stamp(moment: dt.datetime | None = None) -> str:
    """A time as stored: ISO 8601 in UTC."""
    return (moment or now()).astimezone(dt.UTC).isoformat(timespec="microseconds")


def parse_stamp(text: str) -> dt.datetime:
    """A stored time back."""
    return dt.datetime.fromisoformat(text)


@unique
class CheckStatus(StrEnum):
    """Where an upload's check is."""

    QUEUED = "queued"
    CHECKING = "checking"
    DONE = "done"


@unique
class Stage(StrEnum):
    """What an upload is for: the tournament, or a finalist's updated code for the final."""

    TOURNAMENT = "tournament"
    FINAL = "final"


@unique
class RunStatus(StrEnum):
    """A tournament or final started from the site."""

    NOT_STARTED = "not started"
    RUNNING = "running"
    DONE = "done"
    FAILED = "failed"


@dataclass(frozen=True)
class TeamRecord:
    """A sign-in: a team, or the organiser."""

    team: str
    name: str
    email: str
    password_hash: str
    organiser: bool
    active: bool
    disqualified: bool
    reason: str


@dataclass(frozen=True)
class SubmissionRecord:
    """One upload and its check."""

    id: int
    team: str
    stage: Stage
    filename: str
    sha256: str
    size: int
    uploaded_at: dt.datetime
    help_files: tuple[str, ...]
    status: CheckStatus
    verdict: str | None
    report: str
    progress: str
    attempt: int


@dataclass(frozen=True)
class OutboxRecord:
    """One mail, sent or waiting."""

    id: int
    created_at: dt.datetime
    team: str
    address: str
    kind: str
    subject: str
    body: str
    sent_at: dt.datetime | None
    error: str
    attempts: int


@dataclass(frozen=True)
class StageRecord:
    """The tournament's or the final's run from the site."""

    name: str
    status: RunStatus
    progress: dict[str, Any]
    error: str
    started_at: dt.datetime | None
    finished_at: dt.datetime | None


def _submission(row: sqlite3.Row) -> SubmissionRecord:
    return SubmissionRecord(
        id=row["id"],
        team=row["team"],
        stage=Stage(row["stage"]),
        filename=row["filename"],
        sha256=row["sha256"],
        size=row["size"],
        uploaded_at=parse_stamp(row["uploaded_at"]),
        help_files=tuple(json.loads(row["help_files"])),
        status=CheckStatus(row["status"]),
        verdict=row["verdict"],
        report=row["report"],
        progress=row["progress"],
        attempt=row["attempt"],
    )


def _team(row: sqlite3.Row) -> TeamRecord:
    return TeamRecord(
        row["team"],
        row["name"],
        row["email"],
        row["password_hash"],
        bool(row["organiser"]),
        bool(row["active"]),
        bool(row["disqualified"]),
        row["reason"],
    )


class ContestStore:
    """The contest's database (one connection: use one per thread)."""

    def __init__(self, path: Path, *, create: bool = False) -> None:
        if not create and not path.is_file():
            raise ConfigError(f"{path}: no contest database")
        self.path = path
        self.db = sqlite3.connect(path, timeout=30, isolation_level=None, check_same_thread=False)
        self.db.row_factory = sqlite3.Row
        self.db.execute("PRAGMA journal_mode=WAL")
        self.db.execute("PRAGMA synchronous=FULL")
        self.db.execute("PRAGMA busy_timeout=30000")
        if create:
            path.chmod(0o600)
            self.db.executescript(SCHEMA)  # each statement IF NOT EXISTS: safe to repeat
            with self.transaction():
                self.db.execute(
                    "INSERT OR IGNORE INTO meta VALUES ('schema_version', ?)", (str(SCHEMA_VERSION),)
                )
        version = self.db.execute("SELECT value FROM meta WHERE key = 'schema_version'").fetchone()
        if version is None or int(version[0]) != SCHEMA_VERSION:
            found = "none" if version is None else version[0]
            raise ConfigError(f"{path}: schema version {found}, this arena reads {SCHEMA_VERSION}")

    def close(self) -> None:
        self.db.close()

    @contextmanager
    def transaction(self) -> Iterator[sqlite3.Connection]:
        """One immediate transaction: committed on success, rolled back on error."""
        self.db.execute("BEGIN IMMEDIATE")
        try:
            yield self.db
        except BaseException:
            self.db.execute("ROLLBACK")
            raise
        self.db.execute("COMMIT")

    # teams -----------------------------------------------------------------------------------------

    def add_team(
        self, team: str, name: str, email: str, password_hash: str, *, organiser: bool = False
    ) -> None:
        with self.transaction() as db:
            db.execute(
                "INSERT INTO teams (team, name, email, password_hash, organiser) VALUES (?, ?, ?, ?, ?)",
                (team, name, email, password_hash, int(organiser)),
            )

    def team(self, team: str) -> TeamRecord | None:
        row = self.db.execute("SELECT * FROM teams WHERE team = ?", (team,)).fetchone()
        return None if row is None else _team(row)

    def teams(self) -> list[TeamRecord]:
        """Every team (not the organiser), in id order."""
        rows = self.db.execute("SELECT * FROM teams WHERE organiser = 0 ORDER BY team").fetchall()
        return [_team(row) for row in rows]

    def set_team(self, team: str, **fields: Any) -> None:
        """Update some of a team's columns (``active``, ``disqualified``, ``reason``, ``password_hash``)."""
        allowed = {"active", "disqualified", "reason", "password_hash"}
        if not set(fields) <= allowed:
            raise ValueError(f"cannot set {sorted(set(fields) - allowed)}")
        columns = ", ".join(f"{name} = ?" for name in fields)
        with self.transaction() as db:
            db.execute(f"UPDATE teams SET {columns} WHERE team = ?", (*fields.values(), team))

    # sign-ins and tokens ---------------------------------------------------------------------------

    def claim_signin(self, limits: dict[str, int], since: dt.datetime) -> list[int] | None:
        """One sign-in attempt against failure caps: ``limits`` maps each key the attempt is counted under
        (a team and address, an address) to the failures it may have had since ``since``.

        None when a key is at its cap; otherwise the attempt is recorded as failed under every key, in
        the same transaction as the counting (so attempts made at once are each counted before the next
        is), and the rows' ids are returned for :meth:`signin_succeeded`."""
        with self.transaction() as db:
            for key, limit in limits.items():
                row = db.execute(
                    "SELECT COUNT(*) FROM signins WHERE team = ? AND ok = 0 AND at >= ?", (key, stamp(since))
                ).fetchone()
                if int(row[0]) >= limit:
                    return None
            rows = [db.execute("INSERT INTO signins VALUES (?, ?, 0)", (key, stamp())) for key in limits]
            return [int(cursor.lastrowid or 0) for cursor in rows]

    def signin_succeeded(self, claimed: list[int]) -> None:
        """The attempt of :meth:`claim_signin` was right: it no longer counts as a failure."""
        with self.transaction() as db:
            db.executemany("UPDATE signins SET ok = 1 WHERE rowid = ?", [(rowid,) for rowid in claimed])

    def add_token(self, digest: str, team: str, *, drop_before: dt.datetime) -> None:
        """Keep a new token's digest, dropping every token made before ``drop_before`` (expired)."""
        with self.transaction() as db:
            db.execute("DELETE FROM tokens WHERE created_at < ?", (stamp(drop_before),))
            db.execute("INSERT INTO tokens VALUES (?, ?, ?)", (digest, team, stamp()))

    def token_team(self, digest: str, since: dt.datetime) -> str | None:
        """The team of a token made at ``since`` or later (None for an unknown or older one)."""
        row = self.db.execute(
            "SELECT team FROM tokens WHERE digest = ? AND created_at >= ?", (digest, stamp(since))
        ).fetchone()
        return None if row is None else str(row[0])

    def drop_token(self, digest: str) -> None:
        with self.transaction() as db:
            db.execute("DELETE FROM tokens WHERE digest = ?", (digest,))

    def drop_tokens_of(self, team: str) -> None:
        with self.transaction() as db:
            db.execute("DELETE FROM tokens WHERE team = ?", (team,))

    # submissions and checks ------------------------------------------------------------------------

    def next_submission_id(self) -> int:
        row = self.db.execute("SELECT COALESCE(MAX(id), 0) + 1 FROM submissions").fetchone()
        return int(row[0])

    def add_submission(
        self,
        *,
        team: str,
        stage: Stage,
        filename: str,
        sha256: str,
        size: int,
        uploaded_at: dt.datetime,
        help_files: list[str],
        place: Callable[[int], None],
    ) -> int:
        """Record an upload and queue its check; ``place(id)`` puts its files where the id says.

        ``place`` runs inside the transaction, before the commit: a recorded upload always has its files
        (a crash between the two leaves files without a record, which :meth:`add_submission` replaces).
        """
        with self.transaction() as db:
            cursor = db.execute(
                "INSERT INTO submissions"
                " (team, stage, filename, sha256, size, uploaded_at, help_files, status)"
                " VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                (team, stage, filename, sha256, size, stamp(uploaded_at), json.dumps(help_files), "queued"),
            )
            assert cursor.lastrowid is not None
            place(cursor.lastrowid)
            return cursor.lastrowid

    def submission(self, submission: int) -> SubmissionRecord | None:
        row = self.db.execute("SELECT * FROM submissions WHERE id = ?", (submission,)).fetchone()
        return None if row is None else _submission(row)

    def submissions(self, team: str | None = None) -> list[SubmissionRecord]:
        """A team's uploads (every upload when None), newest first."""
        if team is None:
            rows = self.db.execute("SELECT * FROM submissions ORDER BY id DESC").fetchall()
        else:
            rows = self.db.execute(
                "SELECT * FROM submissions WHERE team = ? ORDER BY id DESC", (team,)
            ).fetchall()
        return [_submission(row) for row in rows]

    def uploads_since(self, team: str, since: dt.datetime) -> int:
        row = self.db.execute(
            "SELECT COUNT(*) FROM submissions WHERE team = ? AND uploaded_at >= ?", (team, stamp(since))
        ).fetchone()
        return int(row[0])

    def queue_position(self, submission: int) -> int | None:
        """1 for the next upload to be checked; None when it is not waiting."""
        record = self.submission(submission)
        if record is None or record.status is not CheckStatus.QUEUED:
            return None
        order = _queue_order(self.db)
        return order.index(submission) + 1 if submission in order else None

    def claim_next(self) -> SubmissionRecord | None:
        """Take the next queued upload for checking (one worker gets it; teams take turns, see
        :func:`_queue_order`); None when none waits."""
        with self.transaction() as db:
            order = _queue_order(db)
            if not order:
                return None
            db.execute(
                "UPDATE submissions SET status = 'checking', progress = 'starting', attempt = attempt + 1"
                " WHERE id = ?",
                (order[0],),
            )
            team = db.execute("SELECT team FROM submissions WHERE id = ?", (order[0],)).fetchone()[0]
            db.execute("INSERT OR REPLACE INTO meta VALUES (?, ?)", (SERVED + team, stamp()))
        claimed = self.submission(order[0])
        assert claimed is not None
        return claimed

    def set_progress(self, submission: int, attempt: int, progress: str) -> None:
        """Record how far the check is (ignored when the check was taken again since)."""
        with self.transaction() as db:
            db.execute(
                "UPDATE submissions SET progress = ? WHERE id = ? AND attempt = ? AND status = 'checking'",
                (progress, submission, attempt),
            )

    def finish_check(self, submission: int, attempt: int, verdict: str, report: str) -> bool:
        """Record the check's verdict and report; False when this attempt was superseded."""
        with self.transaction() as db:
            cursor = db.execute(
                "UPDATE submissions SET status = 'done', verdict = ?, report = ?, progress = '',"
                " checked_at = ?"
                " WHERE id = ? AND attempt = ? AND status = 'checking'",
                (verdict, report, stamp(), submission, attempt),
            )
            return cursor.rowcount == 1

    def requeue(self, submission: int) -> None:
        """Check an upload again (its report and verdict are cleared)."""
        with self.transaction() as db:
            db.execute(
                "UPDATE submissions SET status = 'queued', verdict = NULL, report = '', progress = ''"
                " WHERE id = ?",
                (submission,),
            )

    def requeue_interrupted(self) -> list[int]:
        """Queue again every check left running by a server that stopped; their ids."""
        with self.transaction() as db:
            rows = db.execute("SELECT id FROM submissions WHERE status = 'checking'").fetchall()
            db.execute("UPDATE submissions SET status = 'queued', progress = '' WHERE status = 'checking'")
        return [int(row[0]) for row in rows]

    # announcements, audit, deadlines ---------------------------------------------------------------

    def add_announcement(self, title: str, body: str) -> int:
        with self.transaction() as db:
            cursor = db.execute(
                "INSERT INTO announcements (posted_at, title, body) VALUES (?, ?, ?)", (stamp(), title, body)
            )
            assert cursor.lastrowid is not None
            return cursor.lastrowid

    def announcements(self) -> list[dict[str, Any]]:
        rows = self.db.execute("SELECT * FROM announcements ORDER BY id DESC").fetchall()
        return [dict(row) for row in rows]

    def audit(self, actor: str, action: str, target: str, reason: str = "") -> None:
        with self.transaction() as db:
            db.execute(
                "INSERT INTO audit (at, actor, action, target, reason) VALUES (?, ?, ?, ?, ?)",
                (stamp(), actor, action, target, reason),
            )

    def audit_log(self) -> list[dict[str, Any]]:
        return [dict(row) for row in self.db.execute("SELECT * FROM audit ORDER BY id").fetchall()]

    def set_deadline(self, name: str, at: dt.datetime) -> None:
        with self.transaction() as db:
            db.execute("INSERT OR REPLACE INTO deadlines VALUES (?, ?)", (name, stamp(at)))

    def deadlines(self) -> dict[str, dt.datetime]:
        rows = self.db.execute("SELECT name, at FROM deadlines").fetchall()
        return {row["name"]: parse_stamp(row["at"]) for row in rows}

    def note(self, key: str) -> str | None:
        row = self.db.execute("SELECT value FROM meta WHERE key = ?", (key,)).fetchone()
        return None if row is None else str(row[0])

    def set_note(self, key: str, value: str) -> None:
        with self.transaction() as db:
            db.execute("INSERT OR REPLACE INTO meta VALUES (?, ?)", (key, value))

    def drop_notes(self, *keys: str) -> None:
        with self.transaction() as db:
            db.executemany("DELETE FROM meta WHERE key = ?", [(key,) for key in keys])

    # mail ------------------------------------------------------------------------------------------

    def queue_mail(self, *, team: str, address: str, kind: str, subject: str, body: str) -> int:
        with self.transaction() as db:
            cursor = db.execute(
                "INSERT INTO outbox (created_at, team, address, kind, subject, body)"
                " VALUES (?, ?, ?, ?, ?, ?)",
                (stamp(), team, address, kind, subject, body),
            )
            assert cursor.lastrowid is not None
            return cursor.lastrowid

    def outbox(self, *, unsent_only: bool = False) -> list[OutboxRecord]:
        query = "SELECT * FROM outbox" + (" WHERE sent_at IS NULL" if unsent_only else "") + " ORDER BY id"
        return [
            OutboxRecord(
                row["id"],
                parse_stamp(row["created_at"]),
                row["team"],
                row["address"],
                row["kind"],
                row["subject"],
                row["body"],
                None if row["sent_at"] is None else parse_stamp(row["sent_at"]),
                row["error"],
                row["attempts"],
            )
            for row in self.db.execute(query).fetchall()
        ]

    def mark_mail(self, mail: int, *, sent: bool, error: str = "") -> None:
        with self.transaction() as db:
            db.execute(
                "UPDATE outbox SET sent_at = ?, error = ?, attempts = attempts + 1 WHERE id = ?",
                (stamp() if sent else None, error, mail),
            )

    # tournament and final --------------------------------------------------------------------------

    def stage(self, name: str) -> StageRecord:
        row = self.db.execute("SELECT * FROM stages WHERE name = ?", (name,)).fetchone()
        if row is None:
            return StageRecord(name, RunStatus.NOT_STARTED, {}, "", None, None)
        return StageRecord(
            name,
            RunStatus(row["status"]),
            json.loads(row["progress"]),
            row["error"],
            None if row["started_at"] is None else parse_stamp(row["started_at"]),
            None if row["finished_at"] is None else parse_stamp(row["finished_at"]),
        )

    def start_stage(self, name: str) -> bool:
        """Mark a stage running; False when it is already running."""
        with self.transaction() as db:
            row = db.execute("SELECT status FROM stages WHERE name = ?", (name,)).fetchone()
            if row is not None and row[0] == RunStatus.RUNNING:
                return False
            db.execute(
                "INSERT OR REPLACE INTO stages (name, status, progress, error, started_at)"
                " VALUES (?, ?, ?, '', ?)",
                (name, RunStatus.RUNNING, "{}", stamp()),
            )
            return True

    def stage_progress(self, name: str, progress: dict[str, Any]) -> None:
        with self.transaction() as db:
            db.execute("UPDATE stages SET progress = ? WHERE name = ?", (json.dumps(progress), name))

    def finish_stage(self, name: str, status: RunStatus, error: str = "") -> None:
        with self.transaction() as db:
            db.execute(
                "UPDATE stages SET status = ?, error = ?, finished_at = ? WHERE name = ?",
                (status, error, stamp(), name),
            )

    def interrupted_stages(self) -> list[str]:
        """Stages left running by a server that stopped (marked failed, to be started again)."""
        with self.transaction() as db:
            rows = db.execute("SELECT name FROM stages WHERE status = 'running'").fetchall()
            db.execute(
                "UPDATE stages SET status = 'failed',"
                " error = 'the server stopped while it ran; start it again'"
                " WHERE status = 'running'"
            )
        return [str(row[0]) for row in rows]
