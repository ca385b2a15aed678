"""Mail over SMTP to a real SMTP server (aiosmtpd): sign-in details, verdicts, announcements."""

from __future__ import annotations

import email
import email.policy
from collections.abc import Iterator
from email.message import EmailMessage
from pathlib import Path
from typing import Any

import pytest
from aiosmtpd.controller import Controller

from support.contest import free_port, make_contest, poll, serve


class Inbox:
    """An aiosmtpd handler keeping every message received."""

    def __init__(self) -> None:
        self.messages: list[EmailMessage] = []

    async def handle_DATA(self, server: Any, session: Any, envelope: Any) -> str:
        message = email.message_from_bytes(envelope.content, policy=email.policy.default)
        assert isinstance(message, EmailMessage)
        self.messages.append(message)
        return "250 OK"

    def to(self, address: str, subject: str = "") -> list[EmailMessage]:
        return [m for m in self.messages if m["To"] == address and str(m["Subject"]).startswith(subject)]


@pytest.fixture
def smtp() -> Iterator[tuple[Inbox, str]]:
    inbox = Inbox()
    port = free_port()
    controller = Controller(inbox, hostname="127.0.0.1", port=port)
    controller.start()
    try:
        yield inbox, f"127.0.0.1:{port}"
    finally:
        controller.stop()


def _body(message: EmailMessage) -> str:
    part = message.get_body(("plain",))
    assert part is not None
    return str(part.get_content())


@pytest.mark.slow
def test_each_team_gets_its_own_sign_in_then_verdicts_and_announcements(
    tmp_path: Path, smtp: tuple[Inbox, str]
) -> None:
    inbox, address = smtp
    root = tmp_path / "contest"
    passwords = make_contest(root, teams=2)
    with serve(root, "--smtp", address) as server:
        poll(lambda: True if len(inbox.to("teamb@example.org", "Reminder")) == 1 else None, 60)
        # the final-code deadline is two hours away: a reminder went to every team, once
        for team, other in (("TeamA", "TeamB"), ("TeamB", "TeamA")):
            (mail,) = inbox.to(f"{team.lower()}@example.org", "Your sign-in")
            text = _body(mail)
            assert f"team: {team}" in text and f"password: {passwords[team]}" in text
            assert passwords[other] not in text and passwords["organiser"] not in text
        assert server.call("GET", "/api/deadlines").json["mail"] is True
        token = server.sign_in("TeamA", passwords["TeamA"])
        number = server.upload(token, "TeamA.py", b"this is not python\n").json["id"]
        server.wait_checked(token, number)
        poll(lambda: True if inbox.to("teama@example.org", "Check of") else None, 60)
        (verdict,) = inbox.to("teama@example.org", "Check of")
        assert verdict["Subject"] == "Check of TeamA.py: FAIL" and f"number {number}" in _body(verdict)
        assert inbox.to("teamb@example.org", "Check of") == []  # team B hears nothing of team A's check
        boss = server.sign_in("organiser", passwords["organiser"])
        posted = server.call(
            "POST", "/api/announcements", {"title": "Room 3\nBcc: x@evil", "body": "Lunch."}, token=boss
        )
        assert posted.status == 201
        poll(lambda: True if len(inbox.to("teamb@example.org", "Room 3")) == 1 else None, 60)
        for team in ("teama", "teamb"):
            (last,) = inbox.to(f"{team}@example.org", "Room 3")
            assert last["Subject"] == "Room 3 Bcc: x@evil" and _body(last).strip() == "Lunch."
            assert len(inbox.to(f"{team}@example.org", "Reminder")) == 1
        assert all(m["Bcc"] is None for m in inbox.messages)
        outbox = server.call("GET", "/api/outbox", token=boss).json
        assert outbox["mail"] is True and all(m["sent"] for m in outbox["outbox"])


def test_without_smtp_nothing_is_mailed_and_the_site_says_so(tmp_path: Path) -> None:
    root = tmp_path / "contest"
    passwords = make_contest(root, teams=1)
    with serve(root) as server:
        assert server.call("GET", "/api/deadlines").json["mail"] is False
        boss = server.sign_in("organiser", passwords["organiser"])
        outbox = server.call("GET", "/api/outbox", token=boss).json
        assert outbox["mail"] is False
        assert [(m["kind"], m["sent"]) for m in outbox["outbox"]] == [("signin", False)]
