"""Helpers for the contest's tests: a contest folder, its server as a real process, API calls.

The server is ``python -m arena contest serve`` on 127.0.0.1 and a free port; :func:`serve` waits for it
by polling (with a deadline), yields a :class:`Server`, and stops it (SIGTERM, then SIGKILL). API calls go
through :mod:`urllib` and answer ``(status, JSON)``; they never raise on an HTTP error status.
"""

from __future__ import annotations

import datetime as dt
import json
import os
import secrets
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from arena.contest.accounts import read_credentials
from arena.contest.settings import CheckOptions, ContestSettings, TournamentOptions, settings_toml
from arena.contest.setup import create_contest
from arena.contest.teams import TeamEntry

START_S = 60.0
"""How long the server may take to answer its first request (a loaded two-core machine)."""


def team_names(count: int) -> list[str]:
    return [f"Team{chr(ord('A') + number)}" for number in range(count)]


def contest_settings(**changes: Any) -> ContestSettings:
    """Settings for a test: submissions open an hour ago and close in two; small checks."""
    moment = dt.datetime.now(dt.UTC)
    values: dict[str, Any] = {
        "opens": moment - dt.timedelta(hours=1),
        "error_report": moment + dt.timedelta(hours=1),
        "final_code": moment + dt.timedelta(hours=2),
        "check": CheckOptions(deals=4, seats=2),
        "tournament": TournamentOptions(deals=6, final_deals=6, time_limit_s=2.0, seed=7),
    }
    values.update(changes)
    return ContestSettings(**values)


def make_contest(root: Path, teams: int = 2, settings: ContestSettings | None = None) -> dict[str, str]:
    """A contest folder at ``root`` with ``teams`` teams (TeamA, TeamB, ...); team -> password."""
    entries = [TeamEntry(team, f"The {team}", f"{team.lower()}@example.org") for team in team_names(teams)]
    create_contest(root, entries, settings or contest_settings(), organiser_email="boss@example.org")
    return read_credentials(root / "credentials.csv")


def write_settings(root: Path, settings: ContestSettings) -> None:
    """Replace a contest folder's settings (before the server starts)."""
    (root / "settings.toml").write_text(settings_toml(settings), encoding="utf-8")


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


@dataclass
class Answer:
    """An HTTP answer: status, headers, body (and its JSON when it is JSON)."""

    status: int
    headers: dict[str, str]
    body: bytes

    @property
    def json(self) -> Any:
        return json.loads(self.body)


@dataclass
class Server:
    """A running contest server."""

    root: Path
    url: str
    process: subprocess.Popen[bytes]
    log: Path
    tokens: dict[str, str] = field(default_factory=dict)

    def request(
        self,
        method: str,
        path: str,
        *,
        token: str | None = None,
        body: bytes | None = None,
        content_type: str | None = None,
        headers: dict[str, str] | None = None,
    ) -> Answer:
        """One request; any status is answered, none raised."""
        request = urllib.request.Request(self.url + path.lstrip("/"), data=body, method=method)
        if token:
            request.add_header("Authorization", f"Bearer {token}")
        if content_type:
            request.add_header("Content-Type", content_type)
        for name, value in (headers or {}).items():
            request.add_header(name, value)
        opener = urllib.request.build_opener(_NoRedirect)
        try:
            with opener.open(request, timeout=60) as answer:
                return Answer(answer.status, dict(answer.headers.items()), answer.read())
        except urllib.error.HTTPError as error:
            return Answer(error.code, dict(error.headers.items()), error.read())

    def call(self, method: str, path: str, payload: Any = None, *, token: str | None = None) -> Answer:
        """A JSON API call."""
        body = None if payload is None else json.dumps(payload).encode()
        return self.request(method, path, token=token, body=body, content_type="application/json")

    def sign_in(self, team: str, password: str) -> str:
        """Sign in through the API; the token (kept in ``tokens``)."""
        answer = self.call("POST", "/api/session", {"team": team, "password": password})
        assert answer.status == 200, (answer.status, answer.body)
        self.tokens[team] = answer.json["token"]
        return self.tokens[team]

    def upload(
        self, token: str, name: str, data: bytes, helps: list[tuple[str, bytes]] | None = None
    ) -> Answer:
        """``POST /api/submissions`` with the program as the multipart field ``file``."""
        files = [("file", name, data), *(("help", h, d) for h, d in helps or [])]
        body, content_type = multipart(files)
        return self.request("POST", "/api/submissions", token=token, body=body, content_type=content_type)

    def wait_checked(self, token: str, submission: int, timeout: float = 300.0) -> dict[str, Any]:
        """Poll a submission until its check is done (fails the test after ``timeout``)."""
        return poll(lambda: _done(self.call("GET", f"/api/submissions/{submission}", token=token)), timeout)

    def wait_stage(self, path: str, timeout: float = 600.0) -> dict[str, Any]:
        """Poll ``/api/tournament`` or ``/api/final`` until it is done or failed."""

        def finished() -> dict[str, Any] | None:
            status = self.call("GET", path).json
            return status if status["status"] in ("done", "failed") else None

        return poll(finished, timeout)


def _done(answer: Answer) -> dict[str, Any] | None:
    assert answer.status == 200, (answer.status, answer.body)
    value: dict[str, Any] = answer.json
    return value if value["status"] == "done" else None


def poll(probe: Any, timeout: float, every: float = 0.2) -> Any:
    """Call ``probe`` until it answers something other than None; fail after ``timeout`` seconds."""
    deadline = time.monotonic() + timeout
    while True:
        value = probe()
        if value is not None:
            return value
        if time.monotonic() > deadline:
            raise AssertionError(f"gave up after {timeout:.0f} s waiting")
        time.sleep(every)


class _NoRedirect(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args: Any, **kwargs: Any) -> None:
        return None


def multipart(files: list[tuple[str, str, bytes]], fields: dict[str, str] | None = None) -> tuple[bytes, str]:
    """A multipart/form-data body of ``fields`` then ``files`` (field, file name, bytes); its content type."""
    boundary = "arena" + secrets.token_hex(12)
    parts: list[bytes] = []
    for name, value in (fields or {}).items():
        parts.append(
            f'--{boundary}\r\nContent-Disposition: form-data; name="{name}"\r\n\r\n{value}\r\n'.encode()
        )
    for name, filename, data in files:
        head = (
            f'--{boundary}\r\nContent-Disposition: form-data; name="{name}"; filename="{filename}"\r\n'
            "Content-Type: application/octet-stream\r\n\r\n"
        )
        parts.append(head.encode() + data + b"\r\n")
    parts.append(f"--{boundary}--\r\n".encode())
    return b"".join(parts), f"multipart/form-data; boundary={boundary}"


def start(root: Path, *extra: str, port: int | None = None) -> Server:
    """Start the server over ``root`` and wait until it answers."""
    port = port or free_port()
    log = root.parent / f"{root.name}-server-{port}.log"
    command = [sys.executable, "-m", "arena", "contest", "serve", str(root), "--port", str(port), *extra]
    with log.open("ab") as out:
        process = subprocess.Popen(command, stdout=out, stderr=subprocess.STDOUT, start_new_session=True)
    server = Server(root, f"http://127.0.0.1:{port}/", process, log)

    def ready() -> bool | None:
        if process.poll() is not None:
            raise AssertionError(f"the server exited ({process.returncode}): {log.read_text()[-2000:]}")
        try:
            return True if server.request("GET", "/api/deadlines").status == 200 else None
        except OSError:
            return None

    poll(ready, START_S)
    return server


def stop(server: Server, *, kill: bool = False) -> None:
    """Stop the server: SIGTERM (or SIGKILL with ``kill``), then SIGKILL after a deadline."""
    if server.process.poll() is None:
        os.killpg(server.process.pid, signal.SIGKILL if kill else signal.SIGTERM)
        try:
            server.process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            os.killpg(server.process.pid, signal.SIGKILL)
            server.process.wait(timeout=30)


@contextmanager
def serve(root: Path, *extra: str) -> Iterator[Server]:
    """A server over ``root`` for the ``with`` block."""
    server = start(root, *extra)
    try:
        yield server
    finally:
        stop(server)
