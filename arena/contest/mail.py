"""Mail: an outbox in the contest's database, sent over SMTP when the server is given ``--smtp HOST:PORT``.

What is mailed: each team's sign-in details (composed only when sent, from ``credentials.csv``, so the
password is never stored in the outbox), each check's verdict, announcements, and a reminder a day
before the final-code deadline. Without ``--smtp`` nothing is mailed: mails wait in the outbox and the
site says that mail is off. A mail that fails is tried again, at most :data:`ATTEMPTS` times.
"""

from __future__ import annotations

import datetime as dt
import logging
import smtplib
import threading
from email.message import EmailMessage

from arena.contest.accounts import read_credentials
from arena.contest.folder import ContestFolder
from arena.contest.settings import read_settings
from arena.contest.state import ContestStore, OutboxRecord, SubmissionRecord, TeamRecord, now
from arena.errors import ConfigError

ATTEMPTS = 5
POLL_S = 1.0
REMINDER_BEFORE = dt.timedelta(days=1)
SIGNIN = "signin"
log = logging.getLogger("arena.contest.mail")


def smtp_address(text: str) -> tuple[str, int]:
    """``HOST:PORT`` as a host and a port (one-line error otherwise)."""
    host, colon, port = text.rpartition(":")
    if not colon or not host or not port.isdigit() or not 0 < int(port) < 65536:
        raise ConfigError(f"--smtp {text!r} is not HOST:PORT")
    return host, int(port)


def _one_line(text: str) -> str:
    return " ".join(text.split())[:200]


def queue_signin(store: ContestStore, team: TeamRecord) -> None:
    """Queue a team's sign-in details (the password is read from credentials.csv when the mail is sent)."""
    store.queue_mail(
        team=team.team, address=team.email, kind=SIGNIN, subject="Your sign-in for the contest", body=""
    )


def queue_to_teams(store: ContestStore, kind: str, subject: str, body: str) -> None:
    """Queue one mail to every active team."""
    for team in store.teams():
        if team.active:
            store.queue_mail(team=team.team, address=team.email, kind=kind, subject=subject, body=body)


def mail_verdict(store: ContestStore, record: SubmissionRecord) -> None:
    """Queue the verdict of a team's check to the team."""
    team = store.team(record.team)
    if team is None:
        return
    verdict = (record.verdict or "not checked").upper()
    body = (
        f"Your upload {record.filename} (number {record.id}, sha256 {record.sha256[:12]}) was checked: "
        f"{verdict}.\nThe full report is on the site, on your team's page.\n"
    )
    store.queue_mail(
        team=team.team,
        address=team.email,
        kind="verdict",
        subject=f"Check of {record.filename}: {verdict}",
        body=body,
    )


class Mailer:
    """Sends the outbox over SMTP from a thread (does nothing without an SMTP server)."""

    def __init__(self, folder: ContestFolder, smtp: str | None) -> None:
        self.folder = folder
        self.address = smtp_address(smtp) if smtp else None
        self._wake = threading.Event()
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    @property
    def enabled(self) -> bool:
        return self.address is not None

    def start(self) -> None:
        if self.address is None:
            return
        self._thread = threading.Thread(target=self._loop, name="mailer", daemon=True)
        self._thread.start()

    def wake(self) -> None:
        self._wake.set()

    def stop(self) -> None:
        self._stop.set()
        self._wake.set()
        if self._thread is not None:
            self._thread.join(timeout=15)

    def _loop(self) -> None:
        store = ContestStore(self.folder.database)
        try:
            while not self._stop.is_set():
                self._remind(store)
                self.send_waiting(store)
                self._wake.wait(POLL_S)
                self._wake.clear()
        finally:
            store.close()

    def _remind(self, store: ContestStore) -> None:
        """Queue the final-code reminder once, a day before the deadline."""
        moved = store.deadlines()
        deadline = moved.get("final_code") or read_settings(self.folder.settings).final_code
        key = f"reminded:{deadline.isoformat()}"
        if deadline - REMINDER_BEFORE <= now() < deadline and store.note(key) is None:
            store.set_note(key, "yes")
            text = f"The final-code deadline is {deadline.isoformat()}: your latest upload before it plays."
            queue_to_teams(store, "reminder", "Reminder: the final-code deadline", text + "\n")

    def send_waiting(self, store: ContestStore) -> int:
        """Send every unsent mail not yet given up on; how many were sent."""
        if self.address is None:
            return 0
        waiting = [m for m in store.outbox(unsent_only=True) if m.attempts < ATTEMPTS]
        if not waiting:
            return 0
        settings = read_settings(self.folder.settings)
        sent = 0
        try:
            with smtplib.SMTP(*self.address, timeout=10) as client:
                for mail in waiting:
                    try:
                        client.send_message(self._message(mail, settings.mail_from, settings.site_url))
                    except (smtplib.SMTPException, ValueError) as error:
                        store.mark_mail(mail.id, sent=False, error=_one_line(str(error)))
                        continue
                    store.mark_mail(mail.id, sent=True)
                    sent += 1
        except (OSError, smtplib.SMTPException) as error:
            for mail in waiting[sent:]:
                store.mark_mail(mail.id, sent=False, error=_one_line(f"SMTP server: {error}"))
            log.warning("mail: the SMTP server at %s:%s refused or is down", *self.address)
        return sent

    def _message(self, mail: OutboxRecord, sender: str, site: str) -> EmailMessage:
        message = EmailMessage()
        message["From"] = sender
        message["To"] = mail.address
        message["Subject"] = _one_line(mail.subject)
        if mail.kind == SIGNIN:
            password = read_credentials(self.folder.credentials).get(mail.team, "")
            body = (
                f"Your team's sign-in for the contest at {site}\n\n"
                f"team: {mail.team}\npassword: {password}\n\n"
                "Keep it to your team. The organiser can reset it.\n"
            )
        else:
            body = mail.body
        message.set_content(body)
        return message
