"""The JSON API of issue 23 (item 7) against the server run as a real process on 127.0.0.1."""

from __future__ import annotations

import datetime as dt
import http.client
from collections.abc import Iterator
from pathlib import Path
from urllib.parse import urlsplit

import pytest

from arena.contest.accounts import read_credentials

from support.contest import Server, contest_settings, make_contest, serve, start, stop

ROOT = Path(__file__).parents[2]
BROKEN_C = b"/* does not compile */\nint main(void) { return undefined_symbol; }\n"


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    root = tmp_path_factory.mktemp("api") / "contest"
    make_contest(root, teams=3, settings=contest_settings(uploads_per_hour=4, upload_max_bytes=50_000))
    with serve(root) as running:
        passwords = read_credentials(root / "credentials.csv")
        for team in ("TeamA", "TeamB", "organiser"):
            running.sign_in(team, passwords[team])
        yield running


def test_signing_in_answers_a_token_and_a_wrong_password_401(server: Server) -> None:
    answer = server.call("POST", "/api/session", {"team": "TeamA", "password": "wrong"})
    assert answer.status == 401 and "token" not in answer.json
    assert server.call("GET", "/api/me", token=server.tokens["TeamA"]).json == {
        "team": "TeamA",
        "role": "team",
    }
    assert server.call("GET", "/api/me", token=server.tokens["organiser"]).json["role"] == "organiser"
    assert server.call("GET", "/api/me", token="forged").status == 401
    assert server.call("POST", "/api/session", {"team": 3}).status == 400
    assert server.call("POST", "/api/session", None).status == 400


def test_sign_in_is_rate_limited_per_team(server: Server) -> None:
    passwords = read_credentials(server.root / "credentials.csv")
    for _ in range(5):
        assert server.call("POST", "/api/session", {"team": "TeamC", "password": "guess"}).status == 401
    right = server.call("POST", "/api/session", {"team": "TeamC", "password": passwords["TeamC"]})
    assert right.status == 429 and "too many failed sign-ins" in right.json["error"]


def test_a_signed_out_token_no_longer_works(server: Server) -> None:
    password = read_credentials(server.root / "credentials.csv")["TeamB"]
    token = server.call("POST", "/api/session", {"team": "TeamB", "password": password}).json["token"]
    assert server.call("GET", "/api/me", token=token).status == 200
    assert server.call("DELETE", "/api/session", token=token).status == 200
    assert server.call("GET", "/api/me", token=token).status == 401


@pytest.mark.parametrize(
    ("name", "data", "status", "said"),
    [
        (
            "TeamB.c",
            b"int main(void){return 0;}",
            400,
            "your team id is TeamA: name the file TeamA.c, not TeamB.c",
        ),
        ("TeamA.txt", b"hello", 400, "extension .txt is not one of"),
        ("TeamA.C", b"int x;", 400, "name it TeamA.c"),
        ("TeamA", b"int x;", 400, "no language extension"),
        ("TeamA.py", b"", 400, "TeamA.py is empty"),
        ("TeamA.py", b"#" * 50_001, 413, "over the cap of 50000"),
        ("Te\u0430mA.py", b"print(1)", 400, "your team id is TeamA"),
        ("TeamA.py ", b"print(1)", 400, "extension .py  is not one of"),
        ("TeamA.c\u200b", b"int x;", 400, "is not one of"),
        ("TeamA.\x1b[2J", b"int x;", 400, "is not one of"),
        ("../TeamA.py", b"print(1)", 400, "a plain name"),
        ("/etc/TeamA.py", b"print(1)", 400, "a plain name"),
    ],
)
def test_an_upload_is_refused_at_once_with_the_exact_reason(
    server: Server, name: str, data: bytes, status: int, said: str
) -> None:
    answer = server.upload(server.tokens["TeamA"], name, data)
    assert answer.status == status, answer.body
    assert said in answer.json["error"]


def test_an_upload_over_the_body_cap_is_refused_before_it_is_read(server: Server) -> None:
    connection = http.client.HTTPConnection(urlsplit(server.url).netloc, timeout=30)
    try:
        connection.putrequest("POST", "/api/submissions")
        connection.putheader("Authorization", f"Bearer {server.tokens['TeamA']}")
        connection.putheader("Content-Type", "multipart/form-data; boundary=x")
        connection.putheader("Content-Length", "20000000")
        connection.endheaders()  # not one byte of the body is sent: the answer comes from the length alone
        answer = connection.getresponse()
        assert answer.status == 413 and b"over" in answer.read()
    finally:
        connection.close()


def test_only_a_team_uploads(server: Server) -> None:
    assert server.upload(server.tokens["organiser"], "TeamA.py", b"print(1)").status == 403
    assert server.upload("", "TeamA.py", b"print(1)").status == 401


def test_a_team_reads_its_own_submission_and_another_team_gets_404(server: Server) -> None:
    answer = server.upload(server.tokens["TeamB"], "TeamB.py", b"print('hello')\n")
    assert answer.status == 201
    number = answer.json["id"]
    own = server.call("GET", f"/api/submissions/{number}", token=server.tokens["TeamB"])
    assert own.status == 200
    assert own.json["status"] in ("queued", "checking", "done") and own.json["file"] == "TeamB.py"
    assert set(own.json) >= {"status", "verdict", "report", "queue_position"}
    other = server.call("GET", f"/api/submissions/{number}", token=server.tokens["TeamA"])
    missing = server.call("GET", "/api/submissions/99999", token=server.tokens["TeamA"])
    assert other.status == missing.status == 404 and other.json == {"error": f"no submission {number}"}
    assert server.call("GET", f"/api/submissions/{number}").status == 401
    assert server.call("GET", f"/api/submissions/{number}", token=server.tokens["organiser"]).status == 200
    listed = server.call("GET", "/api/submissions", token=server.tokens["TeamA"]).json["submissions"]
    assert all(s["team"] == "TeamA" for s in listed)
    assert server.call("GET", "/api/submissions?team=TeamB", token=server.tokens["TeamA"]).status == 404


def test_the_organisers_calls_are_refused_to_teams_and_to_the_public(server: Server) -> None:
    assert server.call("POST", "/api/tournament", {"deals": 5}, token=server.tokens["TeamA"]).status == 403
    assert server.call("POST", "/api/tournament", {"deals": 5}).status == 401
    assert server.call("GET", "/api/teams", token=server.tokens["TeamA"]).status == 403
    assert server.call("GET", "/api/standings").json == {"frozen": False, "standings": []}
    assert server.call("GET", "/api/tournament").json["status"] == "not started"


@pytest.mark.slow
def test_uploads_are_capped_per_hour(tmp_path: Path) -> None:
    root = tmp_path / "contest"
    passwords = make_contest(root, teams=1, settings=contest_settings(uploads_per_hour=2))
    with serve(root) as running:
        token = running.sign_in("TeamA", passwords["TeamA"])
        assert [running.upload(token, "TeamA.py", b"print(1)\n").status for _ in range(3)] == [201, 201, 429]


def test_no_credential_or_token_reaches_the_servers_log(server: Server) -> None:
    log = server.log.read_text()
    assert "POST /api/session" in log
    for secret in [*read_credentials(server.root / "credentials.csv").values(), *server.tokens.values()]:
        assert secret not in log


@pytest.mark.slow
def test_a_c_program_that_does_not_compile_gets_the_compilers_error_then_a_fixed_one_passes(
    tmp_path: Path,
) -> None:
    root = tmp_path / "contest"
    passwords = make_contest(root, teams=1)
    with serve(root) as running:
        token = running.sign_in("TeamA", passwords["TeamA"])
        broken = running.upload(token, "TeamA.c", BROKEN_C).json["id"]
        fixed = running.upload(token, "TeamA.c", (ROOT / "bots/codem/Tight.c").read_bytes()).json["id"]
        report = running.wait_checked(token, broken)
        assert report["verdict"] == "FAIL" and "build: failed" in report["report"]
        assert "undefined_symbol" in report["report"]  # the compiler's own words
        passed = running.wait_checked(token, fixed)
        assert passed["verdict"] == "PASS", passed["report"]
        assert "build: ok" in passed["report"] and str(root) not in passed["report"]
        listed = running.call("GET", "/api/submissions", token=token).json["submissions"]
        assert [(s["id"], s["plays"]) for s in listed] == [(fixed, True), (broken, False)]


@pytest.mark.slow
def test_the_organiser_starts_the_tournament_and_the_public_standings_appear(tmp_path: Path) -> None:
    root = tmp_path / "contest"
    frozen = dt.datetime.now(dt.UTC) - dt.timedelta(minutes=1)  # the public scoreboard froze before any table
    passwords = make_contest(root, teams=3, settings=contest_settings(freeze=frozen))
    bots = ["Caller.py", "Tight.c", "Raiser.cpp"]
    running = start(root)
    try:
        for team, bot in zip(["TeamA", "TeamB", "TeamC"], bots, strict=True):
            token = running.sign_in(team, passwords[team])
            suffix = bot.rpartition(".")[2]
            assert (
                running.upload(token, f"{team}.{suffix}", (ROOT / "bots/codem" / bot).read_bytes()).status
                == 201
            )
        boss = running.sign_in("organiser", passwords["organiser"])
        answer = running.call("POST", "/api/tournament", {"deals": 4}, token=boss)
        assert answer.status == 202 and answer.json["teams"] == ["TeamA", "TeamB", "TeamC"]
        again = running.call("POST", "/api/tournament", {"deals": 4}, token=boss)
        assert again.status in (400, 202)
        status = running.wait_stage("/api/tournament")
        assert status["status"] == "done", status
        assert status["progress"]["tables_done"] == status["progress"]["tables"] >= 1
        assert running.call("GET", "/api/standings").json == {"frozen": True, "standings": []}
        assert running.call("GET", "/api/standings", token=token).json == {"frozen": True, "standings": []}
        live = running.call("GET", "/api/standings", token=boss).json
        assert live["frozen"] is True
        assert sorted(s["team"] for s in live["standings"]) == ["TeamA", "TeamB", "TeamC"]
        assert running.call("POST", "/api/standings/unfreeze", token=boss).status == 200
        standings = running.call("GET", "/api/standings").json
        assert standings == {"frozen": False, "standings": live["standings"]}
        assert status["finalists"] and set(status["finalists"]) <= {"TeamA", "TeamB", "TeamC"}
    finally:
        stop(running)
