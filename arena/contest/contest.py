"""The contest's operations: what the API and the pages call, each deciding itself who may do it.

Every operation takes the acting :class:`Viewer` and enforces its role and ownership here, whatever the
route table already checked (defence in depth): a team asking for another team's submission gets
:class:`NotFound`, exactly as for one that does not exist; a team asking for an organiser's action gets
:class:`Forbidden`. Operations are synchronous (SQLite, files); the web app calls them in a thread pool,
and each thread has its own database connection.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import hmac
import io
import itertools
import json
import os
import shutil
import tempfile
import threading
import unicodedata
import zipfile
from collections.abc import Callable
from dataclasses import dataclass
from enum import StrEnum, unique
from pathlib import Path

from arena import untrusted
from arena.contest.accounts import (
    hash_password,
    new_password,
    new_token,
    password_matches,
    read_credentials,
    token_digest,
    write_credentials,
)
from arena.contest.certificates import Certificate, awards_of, render_certificate
from arena.contest.folder import ContestFolder
from arena.contest.launch import FINAL, TOURNAMENT, StageRunner
from arena.contest.mail import Mailer, queue_signin, queue_to_teams
from arena.contest.settings import DEADLINES, ContestSettings, read_settings
from arena.contest.state import (
    CheckStatus,
    ContestStore,
    OutboxRecord,
    RunStatus,
    Stage,
    SubmissionRecord,
    TeamRecord,
    now,
    stamp,
)
from arena.contest.teams import ORGANISER, entry_problem
from arena.decks.commitment import reveal
from arena.errors import ArenaError
from arena.exports.run import ExportFormat, export_run
from arena.languages.filenames import name_problem
from arena.runfolder.layout import DB_NAME as TOURNAMENT_DB
from arena.runfolder.layout import KEYS_DIR
from arena.seats import check_given_help_files
from arena.tournament.standings import compute_standings
from arena.tournament.store import Store as TournamentStore

SIGNIN_FAILURES = 5
"""Failed sign-ins a team may make in :data:`SIGNIN_WINDOW` before it must wait."""
SIGNIN_WINDOW = dt.timedelta(minutes=15)
SIGNIN_FAILURES_PER_ADDRESS = 20
"""Failed sign-ins one client address may make in :data:`SIGNIN_WINDOW`, whatever team names it gives
(each costs a password hash: an address naming a new team every time is stopped too)."""
MAX_NAME = 120
TOKEN_LIFETIME = dt.timedelta(hours=12)
"""How long an API token works after its sign-in (a page session lasts as long)."""


class ContestError(ArenaError):
    """An operation refused; ``status`` is the HTTP status the web app answers with."""

    status = 400


class Refused(ContestError):
    """The request cannot be done as asked (the message says exactly why)."""


class NotSignedIn(ContestError):
    """No valid sign-in or token."""

    status = 401


class Forbidden(ContestError):
    """Signed in, but not allowed to do this."""

    status = 403


class NotFound(ContestError):
    """No such thing, or not yours to see (the two are not told apart)."""

    status = 404


class TooMany(ContestError):
    """Too many attempts; try again later."""

    status = 429


class TooLarge(ContestError):
    """An upload over its size cap."""

    status = 413


@unique
class Role(StrEnum):
    """Who is acting."""

    PUBLIC = "public"
    TEAM = "team"
    ORGANISER = "organiser"


@dataclass(frozen=True)
class Viewer:
    """The one acting: anonymous, a team (with its id), or the organiser."""

    role: Role
    team: str | None = None

    @property
    def signed_in(self) -> bool:
        return self.role is not Role.PUBLIC


ANONYMOUS = Viewer(Role.PUBLIC)


@dataclass(frozen=True)
class SubmissionView:
    """One upload as its team (or the organiser) sees it."""

    record: SubmissionRecord
    queue_position: int | None
    plays: bool
    """The upload that plays: the team's latest before the final-code deadline (or its final code)."""

    def to_dict(self) -> dict[str, object]:
        """The API's answer: status, verdict (``PASS``/``FAIL``/None) and report, with the rest."""
        record = self.record
        return {
            "id": record.id,
            "team": record.team,
            "stage": record.stage.value,
            "file": record.filename,
            "sha256": record.sha256,
            "size": record.size,
            "uploaded_at": record.uploaded_at.isoformat(),
            "help_files": list(record.help_files),
            "status": record.status.value,
            "progress": record.progress,
            "queue_position": self.queue_position,
            "verdict": record.verdict.upper() if record.verdict else None,
            "report": record.report,
            "plays": self.plays,
        }


@dataclass(frozen=True)
class Upload:
    """A file as received from a form: its name as the client gave it, and its bytes."""

    name: str
    data: bytes


class Contest:
    """The service over one contest folder (shared by every request; thread-safe)."""

    def __init__(self, folder: ContestFolder, *, mail_enabled: bool = False) -> None:
        self.folder = folder
        self.settings: ContestSettings = read_settings(folder.settings)
        self.mail_enabled = mail_enabled
        self._local = threading.local()
        self._wake: list[Callable[[], None]] = []
        self._credentials_lock = threading.Lock()
        self._upload_locks: dict[str, threading.Lock] = {}
        self._upload_locks_lock = threading.Lock()
        self._runner: StageRunner | None = None
        self._mailer: Mailer | None = None

    # plumbing --------------------------------------------------------------------------------------

    @property
    def store(self) -> ContestStore:
        """This thread's connection to the contest's database."""
        store = getattr(self._local, "store", None)
        if store is None:
            store = ContestStore(self.folder.database)
            self._local.store = store
        return store

    def on_upload(self, callback: Callable[[], None]) -> None:
        """Call ``callback`` after each upload is recorded (the check queue wakes up)."""
        self._wake.append(callback)

    def deadline(self, name: str) -> dt.datetime | None:
        """A time of the timeline: the settings' unless the organiser moved it."""
        moved = self.store.deadlines()
        if name in moved:
            return moved[name]
        value = getattr(self.settings, name)
        return value if isinstance(value, dt.datetime) else None

    def timeline(self) -> dict[str, dt.datetime | None]:
        """Every time of the timeline, as it stands now."""
        return {name: self.deadline(name) for name in DEADLINES}

    @staticmethod
    def require_organiser(viewer: Viewer) -> None:
        if not viewer.signed_in:
            raise NotSignedIn("sign in first")
        if viewer.role is not Role.ORGANISER:
            raise Forbidden("only the organiser may do this")

    @staticmethod
    def require_team(viewer: Viewer) -> str:
        if not viewer.signed_in:
            raise NotSignedIn("sign in first")
        if viewer.role is not Role.TEAM or viewer.team is None:
            raise Forbidden("only a team may do this")
        return viewer.team

    # signing in ------------------------------------------------------------------------------------

    def authenticate(self, team: str, password: str, source: str = "") -> Viewer:
        """The viewer these credentials sign in (rate-limited per team name and client address
        ``source``: a stranger failing a team's sign-in does not lock the team out)."""
        team = team.strip()[:MAX_NAME]
        store = self.store
        attempts = f"{team} {source}".rstrip()
        address = f"\n{source}"  # a team's key never starts with a line break: the name was stripped
        limits = {attempts: SIGNIN_FAILURES, address: SIGNIN_FAILURES_PER_ADDRESS}
        claimed = store.claim_signin(limits, now() - SIGNIN_WINDOW)  # counted before the hash is tried
        if claimed is None:
            raise TooMany(
                f"too many failed sign-ins for this team; wait {SIGNIN_WINDOW.seconds // 60} minutes"
            )
        record = store.team(team)
        ok = password_matches(record.password_hash if record else None, password)
        ok = ok and record is not None and record.active
        if ok:
            store.signin_succeeded(claimed)
        if not ok or record is None:
            raise NotSignedIn("wrong team or password (or the team is disabled)")
        return self._viewer_of(record)

    @staticmethod
    def _viewer_of(record: TeamRecord) -> Viewer:
        return Viewer(Role.ORGANISER, ORGANISER) if record.organiser else Viewer(Role.TEAM, record.team)

    def viewer_of_team(
        self, team: str | None, stamp: str | None = None, session: str | None = None
    ) -> Viewer:
        """The viewer a session names: anonymous when the team is gone or disabled, when ``stamp``
        (see :meth:`session_stamp`) is not its credential's current one (the password was reset), or
        when the page session ``session`` was signed out (:meth:`end_session`)."""
        record = self.store.team(team) if team else None
        if record is None or not record.active:
            return ANONYMOUS
        if session is not None and (not session or self.store.note(f"signed_out:{session}") is not None):
            return ANONYMOUS
        if stamp is not None and not hmac.compare_digest(stamp, _stamp_of(record)):
            return ANONYMOUS
        return self._viewer_of(record)

    def session_stamp(self, team: str) -> str:
        """What a page session keeps beside its team: it changes when the team's password is reset."""
        record = self.store.team(team)
        return "" if record is None else _stamp_of(record)

    def end_session(self, session: str) -> None:
        """A page session signed out: a copy of its cookie is refused from now on."""
        self.store.set_note(f"signed_out:{session}", stamp())

    def issue_token(self, viewer: Viewer) -> str:
        """A new API token for a signed-in viewer (stored as its hash only)."""
        if not viewer.signed_in or viewer.team is None:
            raise NotSignedIn("sign in first")
        token = new_token()
        self.store.add_token(token_digest(token), viewer.team, drop_before=now() - TOKEN_LIFETIME)
        return token

    def viewer_of_token(self, token: str) -> Viewer:
        """The viewer an API token stands for (anonymous when unknown or past :data:`TOKEN_LIFETIME`)."""
        return self.viewer_of_team(self.store.token_team(token_digest(token), now() - TOKEN_LIFETIME))

    def revoke_token(self, token: str) -> None:
        self.store.drop_token(token_digest(token))

    # uploads ---------------------------------------------------------------------------------------

    def upload(self, viewer: Viewer, program: Upload, help_files: list[Upload] | None = None) -> int:
        """Record a team's upload and queue its check; its id. Refused with the exact reason."""
        team = self.require_team(viewer)
        record = self.store.team(team)
        if record is None or not record.active:
            raise Forbidden("this team is disabled")
        moment = now()
        stage = self._stage_open(team, moment)
        if stage is Stage.TOURNAMENT and help_files:
            raise Refused("help files are uploaded only by finalists, within their window")
        help_files = help_files or []
        self._check_name(team, program.name)
        if len(program.data) > self.settings.upload_max_bytes:
            raise TooLarge(
                f"{program.name} is {len(program.data)} bytes, "
                f"over the cap of {self.settings.upload_max_bytes}"
            )
        if not program.data:
            raise Refused(f"{program.name} is empty")
        if len(help_files) > self.settings.help_files_max:
            raise Refused(f"{len(help_files)} help files, at most {self.settings.help_files_max} are allowed")
        for help_file in help_files:
            self._check_help_file(help_file)
        seen: dict[str, str] = {}
        for help_file in help_files:  # one name on a case-blind or normalising file system is one file
            folded = unicodedata.normalize("NFKC", help_file.name).casefold()
            if folded in seen:
                raise Refused(
                    f"two help files are named {seen[folded]} and {help_file.name}: each needs its own name "
                    "(names differing only in case or in how a letter is encoded are one name)"
                )
            seen[folded] = help_file.name
        with self._upload_lock(team):  # counted and kept as one step: uploads sent at once keep the cap
            if (
                self.store.uploads_since(team, moment - dt.timedelta(hours=1))
                >= self.settings.uploads_per_hour
            ):
                raise TooMany(f"at most {self.settings.uploads_per_hour} uploads an hour; try again later")
            return self._keep(team, stage, program, help_files, moment)

    def _upload_lock(self, team: str) -> threading.Lock:
        """The lock one team's uploads take in turn (other teams' uploads do not wait for it)."""
        with self._upload_locks_lock:
            return self._upload_locks.setdefault(team, threading.Lock())

    def _stage_open(self, team: str, moment: dt.datetime) -> Stage:
        """Which stage an upload now goes to, or why none is open."""
        window = self.finalists_window()
        if window is not None:
            opens, closes = window
            if team not in self.finalists():
                raise Refused("the tournament is over; only finalists upload, within their window")
            if not opens <= moment <= closes:
                raise Refused(f"the finalists' window is {opens.isoformat()} to {closes.isoformat()}")
            return Stage.FINAL
        opens_at, closes_at = self.deadline("opens"), self.deadline("final_code")
        assert opens_at is not None and closes_at is not None
        if moment < opens_at:
            raise Refused(f"submissions open at {opens_at.isoformat()}")
        if moment > closes_at:
            raise Refused(f"the final-code deadline {closes_at.isoformat()} has passed")
        return Stage.TOURNAMENT

    @staticmethod
    def _check_name(team: str, name: str) -> None:
        if _too_long(name):
            raise Refused(f"the file name is over {MAX_NAME} bytes")
        if "/" in name or "\\" in name or "\x00" in name or len(name) > MAX_NAME:
            raise Refused("the file name must be a plain name <TeamId>.<ext>, without a folder")
        stem, dot, ext = name.rpartition(".")
        if dot and stem != team:
            raise Refused(f"your team id is {team}: name the file {team}.{ext}, not {name}")

    def _check_help_file(self, help_file: Upload) -> None:
        name = help_file.name
        if not name or "/" in name or "\\" in name or "\x00" in name or name in (".", ".."):
            raise Refused(f"help file {name!r}: a help file is a plain file name, without a folder")
        if untrusted.name(name) != name:
            raise Refused(f"help file {untrusted.name(name)[:80]!r}: the name holds a control character")
        if name.startswith("."):
            raise Refused(f"help file {name[:80]!r}: a hidden name (starting with '.') is not taken")
        if _too_long(name):
            raise Refused(f"help file {name[:40]!r}...: the name is over {MAX_NAME} bytes")
        if len(help_file.data) > self.settings.help_file_max_bytes:
            raise TooLarge(f"help file {name}: over the cap of {self.settings.help_file_max_bytes} bytes")

    def _keep(
        self, team: str, stage: Stage, program: Upload, help_files: list[Upload], moment: dt.datetime
    ) -> int:
        """Write the files (synced), then record the upload: a recorded upload always has its files."""
        incoming = self.folder.uploads / ".incoming" / new_token()[:16]
        incoming.mkdir(parents=True)
        try:
            path = incoming / program.name
            _write_synced(path, program.data)
            problem = name_problem(path)
            if problem is not None:
                raise Refused(f"{program.name}: the tournament would not play this file: {problem}")
            if help_files:
                (incoming / "help").mkdir()
                for help_file in help_files:
                    _write_synced(incoming / "help" / help_file.name, help_file.data)
                try:  # the final's own rule for given help files, so the final cannot refuse them later
                    check_given_help_files(incoming / "help")
                except ArenaError as error:
                    raise Refused(f"help files: {error}".replace(str(incoming / "help") + "/", "")) from None
            submission = self.store.add_submission(
                team=team,
                stage=stage,
                filename=program.name,
                sha256=hashlib.sha256(program.data).hexdigest(),
                size=len(program.data),
                uploaded_at=moment,
                help_files=sorted(h.name for h in help_files),
                place=lambda number: _move_synced(incoming, self.folder.upload_dir(number)),
            )
        finally:
            shutil.rmtree(incoming, ignore_errors=True)
        for wake in self._wake:
            wake()
        return submission

    def program_path(self, record: SubmissionRecord) -> Path:
        """Where an upload's program is kept."""
        return self.folder.upload_dir(record.id) / record.filename

    def help_dir(self, record: SubmissionRecord) -> Path:
        """Where an upload's help files are kept (absent when it has none)."""
        return self.folder.upload_dir(record.id) / "help"

    # reading uploads -------------------------------------------------------------------------------

    def submissions(self, viewer: Viewer, team: str | None = None) -> list[SubmissionView]:
        """A team's uploads, newest first: its own for a team, any team's (or all) for the organiser."""
        if viewer.role is Role.ORGANISER:
            records = self.store.submissions(team)
        else:
            own = self.require_team(viewer)
            if team is not None and team != own:
                raise NotFound("no such team")
            records = self.store.submissions(own)
        playing = self._playing_ids()
        return [self._view(record, playing) for record in records]

    def submission(self, viewer: Viewer, submission: int) -> SubmissionView:
        """One upload with its status, queue position, verdict and report (NotFound for another's)."""
        if not viewer.signed_in:
            raise NotSignedIn("sign in first")
        record = self.store.submission(submission)
        if record is None or (viewer.role is not Role.ORGANISER and record.team != viewer.team):
            raise NotFound(f"no submission {submission}")
        return self._view(record, self._playing_ids())

    def _view(self, record: SubmissionRecord, playing: set[int]) -> SubmissionView:
        position = self.store.queue_position(record.id) if record.status is CheckStatus.QUEUED else None
        return SubmissionView(record, position, record.id in playing)

    def _playing_ids(self) -> set[int]:
        return {record.id for record in self.playing_uploads().values()}

    def playing_uploads(self) -> dict[str, SubmissionRecord]:
        """Each team's upload that plays the tournament: its latest before the final-code deadline."""
        closes = self.deadline("final_code")
        chosen: dict[str, SubmissionRecord] = {}
        for record in self.store.submissions():  # newest first
            in_time = closes is None or record.uploaded_at <= closes
            if record.stage is Stage.TOURNAMENT and record.team not in chosen and in_time:
                chosen[record.team] = record
        return chosen

    # the finalists (filled in by the tournament's end) ---------------------------------------------

    def finalists(self) -> tuple[str, ...]:
        """The finalists, once the tournament is over and they are chosen."""
        text = self.store.note("finalists")
        return tuple(text.split(",")) if text else ()

    def finalists_window(self) -> tuple[dt.datetime, dt.datetime] | None:
        """When the finalists may upload updated code (None before the tournament has chosen them)."""
        text = self.store.note("finalists_window_opens")
        if not text:
            return None
        opens = dt.datetime.fromisoformat(text)
        return opens, opens + self.settings.finalists_window

    # the organiser's machinery ---------------------------------------------------------------------

    def attach(self, *, runner: StageRunner, mailer: Mailer) -> None:
        """The background parts the app started: the tournament/final runner and the mailer."""
        self._runner = runner
        self._mailer = mailer

    def _wake_mailer(self) -> None:
        if self._mailer is not None:
            self._mailer.wake()

    def _run(self, stage: str, *args: object) -> None:
        if self._runner is None:
            raise Refused("this server cannot run the tournament (no runner attached)")
        if not self._runner.start(stage, *args):
            raise Refused("a tournament or final is already running")

    # teams -----------------------------------------------------------------------------------------

    def teams(self, viewer: Viewer) -> list[TeamRecord]:
        """Every team, with its state (the organiser only)."""
        self.require_organiser(viewer)
        return self.store.teams()

    def add_team(self, viewer: Viewer, team: str, name: str, email: str) -> str:
        """Register a team; its password (also written to credentials.csv and mailed to the team)."""
        self.require_organiser(viewer)
        problem = entry_problem(team, name, email)
        if problem is not None:
            raise Refused(problem)
        if self.store.team(team) is not None or team.lower() in {t.team.lower() for t in self.store.teams()}:
            raise Refused(f"team {team} is already registered")
        password = new_password()
        with self._credentials_lock:
            passwords = read_credentials(self.folder.credentials)
            passwords[team] = password
            write_credentials(self.folder.credentials, passwords)
        self.store.add_team(team, name, email, hash_password(password))
        record = self.store.team(team)
        assert record is not None
        queue_signin(self.store, record)
        self.store.audit(ORGANISER, "add team", team)
        self._wake_mailer()
        return password

    def set_team_active(self, viewer: Viewer, team: str, active: bool) -> None:
        """Disable a team (it cannot sign in, its tokens are dropped) or enable it again."""
        self.require_organiser(viewer)
        self._team_record(team)
        self.store.set_team(team, active=int(active))
        if not active:
            self.store.drop_tokens_of(team)
        self.store.audit(ORGANISER, "enable team" if active else "disable team", team)

    def reset_password(self, viewer: Viewer, team: str) -> str:
        """A new password for a team (the old one and its tokens stop working); mailed to the team."""
        self.require_organiser(viewer)
        record = self._team_record(team)
        password = new_password()
        with self._credentials_lock:
            passwords = read_credentials(self.folder.credentials)
            passwords[team] = password
            write_credentials(self.folder.credentials, passwords)
        self.store.set_team(team, password_hash=hash_password(password))
        self.store.drop_tokens_of(team)
        queue_signin(self.store, record)
        self.store.audit(ORGANISER, "reset credentials", team)
        self._wake_mailer()
        return password

    def set_disqualified(self, viewer: Viewer, team: str, disqualified: bool, reason: str) -> None:
        """Disqualify a team (it does not play) or reinstate it; the reason is recorded."""
        self.require_organiser(viewer)
        self._team_record(team)
        reason = reason.strip()
        if not reason:
            raise Refused("give the reason (it is recorded)")
        self.store.set_team(team, disqualified=int(disqualified), reason=reason[:1000])
        self.store.audit(ORGANISER, "disqualify" if disqualified else "reinstate", team, reason[:1000])

    def _team_record(self, team: str) -> TeamRecord:
        record = self.store.team(team)
        if record is None or record.organiser:
            raise NotFound(f"no team {team}")
        return record

    def recheck(self, viewer: Viewer, submission: int) -> None:
        """Check an upload again (the organiser)."""
        self.require_organiser(viewer)
        if self.store.submission(submission) is None:
            raise NotFound(f"no submission {submission}")
        self.store.requeue(submission)
        self.store.audit(ORGANISER, "rerun check", str(submission))
        for wake in self._wake:
            wake()

    # announcements, deadlines, mail ----------------------------------------------------------------

    def announcements(self) -> list[dict[str, object]]:
        """Every announcement, newest first (public)."""
        return self.store.announcements()

    def announce(self, viewer: Viewer, title: str, body: str) -> int:
        """Post an announcement on the site and mail it to every team."""
        self.require_organiser(viewer)
        title, body = title.strip(), body.strip()
        if not title or len(title) > 200 or len(body) > 20_000:
            raise Refused("an announcement has a title (1 to 200 characters) and a body of at most 20000")
        number = self.store.add_announcement(title, body)
        queue_to_teams(self.store, "announcement", title, body + "\n")
        self._wake_mailer()
        return number

    def move_deadline(self, viewer: Viewer, name: str, at: dt.datetime) -> None:
        """Move a time of the timeline (``opens``, ``error_report``, ``final_code``, ``freeze``)."""
        self.require_organiser(viewer)
        if name not in DEADLINES:
            raise Refused(f"no time {name!r}; the times are {', '.join(DEADLINES)}")
        if at.tzinfo is None:
            raise Refused("give the time with its timezone (ISO 8601, e.g. 2026-05-01T09:00:00+02:00)")
        times = {**self.timeline(), name: at}
        order = [times["opens"], times["error_report"], times["final_code"]]
        if any(a is not None and b is not None and a > b for a, b in itertools.pairwise(order)):
            raise Refused("the times must stay in order: opens <= error_report <= final_code")
        self.store.set_deadline(name, at)
        if name == "freeze":  # a new freeze time: the scoreboard freezes (again) then
            self.store.drop_notes("frozen_standings", "unfrozen")
        self.store.audit(ORGANISER, "move deadline", name, at.isoformat())

    def outbox(self, viewer: Viewer) -> list[OutboxRecord]:
        """Every mail and whether it was sent (the organiser)."""
        self.require_organiser(viewer)
        return self.store.outbox()

    def audit_log(self, viewer: Viewer) -> list[dict[str, object]]:
        self.require_organiser(viewer)
        return self.store.audit_log()

    # the tournament --------------------------------------------------------------------------------

    def start_tournament(self, viewer: Viewer, deals: int | None = None) -> list[str]:
        """Play the tournament from each active team's latest upload before the deadline; the teams."""
        self.require_organiser(viewer)
        deals = deals or self.settings.tournament.deals
        if not 1 <= deals <= 1_000_000:
            raise Refused("deals must be between 1 and 1000000")
        if self.finalists():
            raise Refused("the tournament is over and its finalists chosen")
        eligible = {t.team for t in self.store.teams() if t.active and not t.disqualified}
        chosen = {team: r for team, r in self.playing_uploads().items() if team in eligible}
        if len(chosen) < 2:
            raise Refused(f"{len(chosen)} team(s) have an upload to play; a tournament needs at least 2")
        played = self.folder.played
        if played.exists():
            shutil.rmtree(played)
        played.mkdir(parents=True)
        for record in chosen.values():
            shutil.copyfile(self.program_path(record), played / record.filename)
        self._run(TOURNAMENT, deals)
        self.store.audit(ORGANISER, "start tournament", f"{len(chosen)} teams, {deals} deals")
        return sorted(chosen)

    def tournament_status(self, viewer: Viewer = ANONYMOUS) -> dict[str, object]:
        """The tournament's run: status, progress, finalists; why it failed and its notes: the organiser's."""
        return self._stage_status(TOURNAMENT, viewer) | {"finalists": list(self.finalists())}

    def final_status(self, viewer: Viewer = ANONYMOUS) -> dict[str, object]:
        """The final's run: status and progress; why it failed and its notes, to the organiser."""
        return self._stage_status(FINAL, viewer)

    def _stage_status(self, name: str, viewer: Viewer) -> dict[str, object]:
        record = self.store.stage(name)
        organiser = viewer.role is Role.ORGANISER
        progress = {k: v for k, v in record.progress.items() if k != "notes" or organiser}
        return {
            "status": record.status.value,
            "progress": progress,
            "error": record.error if organiser else ("the run failed" if record.error else ""),
            "started_at": record.started_at.isoformat() if record.started_at else None,
            "finished_at": record.finished_at.isoformat() if record.finished_at else None,
        }

    def standings(self, viewer: Viewer) -> dict[str, object]:
        """The standings: live for the organiser; for everyone else, from the freeze time until the
        organiser lifts it, the standings as they were at the freeze (:meth:`freeze_if_due`)."""
        self.freeze_if_due()
        freeze = self.deadline("freeze")
        frozen = freeze is not None and now() >= freeze and self.store.note("unfrozen") is None
        if frozen and viewer.role is not Role.ORGANISER:
            snapshot = self.store.note("frozen_standings") or "[]"
            return {"frozen": True, "standings": json.loads(snapshot)}
        return {"frozen": frozen, "standings": self._live_standings()}

    def freeze_if_due(self) -> None:
        """Keep the standings as they are once the freeze time has come (the server calls this every
        second; a server that was down at the freeze keeps them as they are when it starts)."""
        freeze = self.deadline("freeze")
        if freeze is None or now() < freeze or self.store.note("frozen_standings") is not None:
            return
        self.store.set_note("frozen_standings", json.dumps(self._live_standings()))

    def _live_standings(self) -> list[dict[str, object]]:
        if not (self.folder.tournament / TOURNAMENT_DB).is_file():
            return []
        store = TournamentStore(self.folder.tournament)
        try:
            duplicate = bool(store.meta().get("duplicate", False))
            lines = compute_standings(store, duplicate=duplicate)
        finally:
            store.close()
        return [
            {
                "rank": s.rank,
                "team": s.team,
                "tables": s.tables,
                "deals": s.deals,
                "profit": s.profit,
                "profit_per_deal": s.profit_per_deal,
                "ci95": [s.ci95_low, s.ci95_high],
                "faults": s.faults,
                "disqualified": s.disqualified,
                "built": s.built,
            }
            for s in lines
        ]

    def lift_freeze(self, viewer: Viewer) -> None:
        """Show the live standings to everyone."""
        self.require_organiser(viewer)
        self.store.set_note("unfrozen", stamp())
        self.store.audit(ORGANISER, "lift scoreboard freeze", "standings")

    # after the tournament: finalists, the final, certificates, faults, hands -----------------------

    def _require_tournament_done(self) -> None:
        if self.store.stage(TOURNAMENT).status is not RunStatus.DONE:
            raise NotFound("the tournament is not over")

    def finals_logs_zip(self, viewer: Viewer) -> Path:
        """A finalist's zip of its own finals log folders (the other finalists' tables, seed 004's shape)."""
        team = self.require_team(viewer)
        if team not in self.finalists():
            raise NotFound("no finals logs: your team is not a finalist (or the tournament is not over)")
        source = self.folder.finals_logs / team
        if not source.is_dir():
            raise NotFound("no finals logs for your team")
        target = self.folder.exports / f"finals-{team}.zip"
        if not target.is_file():
            _zip_folder(source, target, arcroot=team)
        return target

    def start_final(self, viewer: Viewer) -> dict[str, str]:
        """Play the final: each finalist's updated code if its check passed (else its initial code)."""
        self.require_organiser(viewer)
        self._require_tournament_done()
        window = self.finalists_window()
        if window is not None and now() < window[1]:
            raise Refused(f"the finalists' window is open until {window[1].isoformat()}")
        final = self.folder.final
        if final.exists():
            shutil.rmtree(final)
        (final / "programs").mkdir(parents=True)
        (final / "help").mkdir()
        chosen: dict[str, str] = {}
        for team in self.finalists():
            updates = [r for r in self.store.submissions(team) if r.stage is Stage.FINAL]
            if any(r.status is not CheckStatus.DONE for r in updates):
                raise Refused(f"{team}'s updated code is still being checked; start the final after")
            latest = updates[0] if updates else None
            if latest is None or latest.verdict != "pass":
                chosen[team] = (
                    "initial code" if latest is None else "initial code (its update failed its check)"
                )
                continue
            shutil.copyfile(self.program_path(latest), final / "programs" / latest.filename)
            if self.help_dir(latest).is_dir():
                shutil.copytree(self.help_dir(latest), final / "help" / team)
            chosen[team] = f"updated {latest.filename} (upload {latest.id})"
        self._run(FINAL)
        self.store.audit(ORGANISER, "start final", ", ".join(f"{t}: {w}" for t, w in chosen.items()))
        return chosen

    def certificate(self, viewer: Viewer, team: str | None = None) -> list[tuple[str, bytes]]:
        """A team's certificates as PDFs, ``(file name, bytes)``; the organiser may ask for any team's."""
        if viewer.role is Role.ORGANISER and team is not None:
            record = self._team_record(team)
        else:
            record = self._team_record(self.require_team(viewer))
        self._require_tournament_done()
        if self.store.stage(FINAL).status is RunStatus.RUNNING:
            raise NotFound("certificates are given once the final is over")
        pdfs = []
        for kind, place, reason in awards_of(self.folder.tournament, record.team):
            certificate = Certificate(kind, record.team, record.name, place, reason)
            pdfs.append((f"{record.team}-{kind}.pdf", render_certificate(certificate, self.settings.name)))
        if not pdfs:
            raise NotFound(f"no certificate for {record.team}")
        return pdfs

    def team_faults(self, viewer: Viewer) -> list[dict[str, object]]:
        """A team's own faults at the tournament: where, why, what it printed and the three input files."""
        team = self.require_team(viewer)
        self._require_tournament_done()
        store = TournamentStore(self.folder.tournament)
        try:
            records = [f for f in store.fault_records(None) if f["team"] == team]
        finally:
            store.close()
        return records

    def team_hands(self, viewer: Viewer, fmt: str) -> bytes:
        """A zip of the team's own hands (its view only: its cards and those shown) as PHH or PokerStars."""
        team = self.require_team(viewer)
        self._require_tournament_done()
        if self.store.stage(FINAL).status is RunStatus.RUNNING:
            raise Refused("hands are downloadable again once the final is over")
        try:
            chosen = ExportFormat(fmt)
        except ValueError:
            raise NotFound(f"no format {fmt!r} (phh or pokerstars)") from None
        if chosen is ExportFormat.ACPC:
            raise NotFound("hands are given as phh or pokerstars")
        with tempfile.TemporaryDirectory(prefix="arena-hands-") as scratch:
            written = export_run(self.folder.tournament, chosen, Path(scratch), team=team)
            out = io.BytesIO()
            with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as archive:
                for path in written:
                    archive.write(path, path.name)
            return out.getvalue()

    def reveal_keys(self, viewer: Viewer) -> list[str]:
        """Publish the tournament's (and the final's) deck keys, so anyone can verify every deck."""
        self.require_organiser(viewer)
        self._require_tournament_done()
        if self.store.stage(FINAL).status is RunStatus.RUNNING:
            raise Refused("the final is being played: reveal the keys after it")
        lines = reveal(self.folder.tournament)
        self.store.audit(ORGANISER, "reveal deck keys", "tournament")
        return lines

    def everything_zip(self, viewer: Viewer) -> Path:
        """One zip of the whole contest folder but its secrets (credentials, signing key, deck keys)."""
        self.require_organiser(viewer)
        target = self.folder.exports / f"contest-{now().strftime('%Y%m%dT%H%M%S')}.zip"
        _zip_folder(self.folder.root, target, arcroot="contest", skip=self.folder.secrets())
        self.store.audit(ORGANISER, "download everything", target.name)
        return target


def _stamp_of(record: TeamRecord) -> str:
    return hashlib.sha256(record.password_hash.encode()).hexdigest()[:32]


def _too_long(name: str) -> bool:
    """Over :data:`MAX_NAME` bytes on the disk (a character may take four: the file system counts bytes)."""
    return len(name.encode("utf-8", "surrogatepass")) > MAX_NAME


def _write_synced(path: Path, data: bytes) -> None:
    """Write ``data`` to a new file and flush it to the disk."""
    descriptor = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW, 0o600)
    with os.fdopen(descriptor, "wb") as file:
        file.write(data)
        file.flush()
        os.fsync(file.fileno())


def _zip_folder(source: Path, target: Path, *, arcroot: str, skip: frozenset[Path] = frozenset()) -> None:
    """Zip the regular files under ``source`` into ``target``, atomically.

    Left out: links, hidden names, the paths in ``skip`` and every folder of secret deck keys (a check's
    or a stage's, revealed only by ``reveal``).
    """
    target.parent.mkdir(parents=True, exist_ok=True)
    partial = target.with_name(f".{target.name}.partial")
    with zipfile.ZipFile(partial, "w", zipfile.ZIP_DEFLATED) as archive:
        for top, folders, files in os.walk(source, followlinks=False):
            here = Path(top)
            folders[:] = sorted(
                f for f in folders if not f.startswith(".") and f != KEYS_DIR and here / f not in skip
            )
            for name in sorted(files):
                path = here / name
                if name.startswith(".") or path in skip or path.is_symlink() or not path.is_file():
                    continue
                archive.write(path, f"{arcroot}/{path.relative_to(source).as_posix()}")
    partial.replace(target)


def _move_synced(source: Path, target: Path) -> None:
    """Rename a folder into place (replacing a leftover from a crash) and sync the parent."""
    if target.exists():
        shutil.rmtree(target)
    target.parent.mkdir(parents=True, exist_ok=True)
    source.rename(target)
    descriptor = os.open(target.parent, os.O_RDONLY)
    try:
        os.fsync(descriptor)
    finally:
        os.close(descriptor)
