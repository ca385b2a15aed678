"""Red-team attacks on the contest's site, each against a real server process on 127.0.0.1.

One server for the module: TeamA is a finalist inside its window (so help files are taken), TeamB and
TeamC are ordinary teams. Each test is one attack a hostile team, visitor or careless organiser would
try; it asserts the site holds (a clear 4xx, never a 500 or a traceback, nothing leaked).
"""

from __future__ import annotations

import datetime as dt
import http.client
import http.cookiejar
import json
from collections.abc import Iterator

import pytest

from arena.contest.contest import SIGNIN_FAILURES_PER_ADDRESS, TOKEN_LIFETIME
from arena.contest.state import ContestStore, stamp

from support.contest import Server, make_contest, serve
from support.contest_pages import Client

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Server, dict[str, str]]]:
    root = tmp_path_factory.mktemp("attacks") / "contest"
    passwords = make_contest(root, teams=3)
    store = ContestStore(root / "contest.sqlite")
    store.set_note("finalists", "TeamA")
    store.set_note("finalists_window_opens", stamp())
    store.close()
    with serve(root) as server:
        yield server, passwords


def _from(server: Server, source: str, method: str, path: str, payload: object) -> int:
    """A JSON request sent from the loopback address ``source`` (another machine, as the server sees it)."""
    host, port = server.url.removeprefix("http://").rstrip("/").split(":")
    connection = http.client.HTTPConnection(host, int(port), timeout=60, source_address=(source, 0))
    try:
        connection.request(method, path, json.dumps(payload), {"Content-Type": "application/json"})
        return connection.getresponse().status
    finally:
        connection.close()


def test_a_session_cookie_replayed_after_sign_out_is_refused(site) -> None:
    """Sessions are signed cookies kept by the browser: signing out must end the one a thief copied."""
    server, passwords = site
    team, teammate = Client(server), Client(server)
    assert team.sign_in("TeamB", passwords["TeamB"]).status == 303
    assert teammate.sign_in("TeamB", passwords["TeamB"]).status == 303
    stolen = team.cookie("arena_session")
    assert team.form("/signout", {}, "/team").status == 303

    thief = Client(server)
    thief.jar.set_cookie(_cookie("arena_session", stolen))
    answer = thief.get("/team")
    assert answer.status == 303 and answer.headers["Location"] == "/signin"
    assert teammate.get("/team").status == 200, "another browser of the team stays signed in"
    assert team.sign_in("TeamB", passwords["TeamB"]).status == 303 and team.get("/team").status == 200


def test_a_stranger_cannot_lock_a_team_out_by_failing_its_sign_in(site) -> None:
    """Failed sign-ins are counted per team and address: a guesser elsewhere is stopped, the team is not."""
    server, passwords = site
    wrong = {"team": "TeamC", "password": "guess"}
    guesses = [_from(server, "127.0.0.2", "POST", "/api/session", wrong) for _ in range(6)]
    assert guesses[:5] == [401] * 5 and guesses[5] == 429
    right = {"team": "TeamC", "password": passwords["TeamC"]}
    assert _from(server, "127.0.0.2", "POST", "/api/session", right) == 429
    assert _from(server, "127.0.0.1", "POST", "/api/session", right) == 200


def test_a_file_name_too_long_for_the_disk_is_refused_with_its_reason(site) -> None:
    """120 characters may be 480 bytes: over the file system's 255, which must be a refusal, not a 500."""
    server, passwords = site
    token = server.sign_in("TeamA", passwords["TeamA"])
    long_ext = "\U0001f600" * 100
    answer = server.upload(token, f"TeamA.{long_ext}", b"int main(void) { return 0; }\n")
    assert answer.status == 400, (answer.status, answer.body[:200])
    answer = server.upload(token, "TeamA.c", b"int main(void) { return 0; }\n", [(long_ext, b"x")])
    assert answer.status == 400, (answer.status, answer.body[:200])
    assert "help file" in answer.json["error"]


def test_two_help_files_of_one_name_are_refused_with_its_reason(site) -> None:
    server, passwords = site
    token = server.sign_in("TeamA", passwords["TeamA"])
    helps = [("notes.txt", b"one"), ("notes.txt", b"two")]
    answer = server.upload(token, "TeamA.c", b"int main(void) { return 0; }\n", helps)
    assert answer.status == 400, (answer.status, answer.body[:200])
    assert "notes.txt" in answer.json["error"]


def _cookie(name: str, value: str) -> http.cookiejar.Cookie:
    return http.cookiejar.Cookie(
        0, name, value, None, False, "127.0.0.1", False, False, "/", True, False, None, False, None, None, {}
    )


def test_hostile_requests_answer_4xx_never_500(site) -> None:
    server, passwords = site
    boss = server.sign_in("organiser", passwords["organiser"])
    team = server.sign_in("TeamB", passwords["TeamB"])
    no_boundary = "multipart/form-data"
    js = "application/json"
    probes: list[tuple[str, str, str | None, bytes | None, str | None]] = [
        ("POST", "/api/session", None, b"[1]", "application/json"),
        ("POST", "/api/session", None, b'{"team": 1, "password": 2}', "application/json"),
        ("POST", "/api/session", None, b"\xff\xfe{", "application/json"),
        ("POST", "/api/session", None, b"team=a&password=b", "application/x-www-form-urlencoded"),
        ("POST", "/api/session", None, b'{"team": "TeamB\\u0000", "password": "x"}', "application/json"),
        ("PUT", "/api/deadlines/opens", boss, b'{"at": "2026-13-01"}', "application/json"),
        ("PUT", "/api/deadlines/opens", boss, b'{"at": "2026-01-01T00:00:00"}', "application/json"),
        ("PUT", "/api/deadlines/%00", boss, b'{"at": "2026-01-01T00:00:00+00:00"}', "application/json"),
        ("POST", "/api/tournament", boss, b'{"deals": 1e400}', "application/json"),
        ("POST", "/api/tournament", boss, b'{"deals": 99999999999999999999999}', "application/json"),
        ("POST", "/api/announcements", boss, b'{"title": "a\\r\\nBcc: x@y", "body": "b"}', js),
        ("POST", "/api/teams", boss, b'{"team": "../x", "name": "n", "email": "e@x.org"}', js),
        ("POST", "/api/teams/..%2f..%2fsecret.key/disable", boss, None, None),
        ("POST", "/api/teams/TeamB/disqualify", boss, b'{"reason": 5}', "application/json"),
        ("GET", "/api/submissions/99999999999", team, None, None),
        ("GET", "/api/submissions/%C0%AE", team, None, None),
        ("GET", "/api/submissions?team=TeamA", team, None, None),
        ("POST", "/api/submissions", team, b"--x\r\n", no_boundary),
        ("POST", "/api/submissions", team, b"--x\r\n", "multipart/form-data; boundary=x"),
        ("POST", "/api/submissions", team, b'{"file": "x"}', "application/json"),
        ("GET", "/api/hands/%0d%0aSet-Cookie:%20x=y", team, None, None),
        ("GET", "/api/certificates/..%2f..%2fcredentials", team, None, None),
        ("GET", "/tournament/live/final/../../index.html", None, None, None),
        ("GET", "/tournament/static/..%2f..%2fcredentials.csv", None, None, None),
        ("OPTIONS", "/api/teams", None, None, None),
        ("HEAD", "/organiser", None, None, None),
        ("HEAD", "/api/teams", team, None, None),
    ]
    answers = []
    for method, path, token, body, content_type in probes:
        answer = server.request(method, path, token=token, body=body, content_type=content_type)
        answers.append((method, path, answer.status))
        assert b"Traceback" not in answer.body
    assert [a for a in answers if a[2] >= 500] == []
    assert "Traceback" not in server.log.read_text(errors="replace")


def test_no_password_token_or_session_in_the_server_log(site) -> None:
    server, passwords = site
    client = Client(server)
    assert client.sign_in("TeamB", passwords["TeamB"]).status == 303
    token = server.sign_in("TeamB", passwords["TeamB"])
    client.get("/team")
    server.call("GET", "/api/me", token=token)
    log = server.log.read_text(errors="replace")
    for secret in [*passwords.values(), token, client.cookie("arena_session")]:
        assert secret not in log


def test_a_team_reads_nothing_of_another_team_or_the_organiser(site) -> None:
    server, passwords = site
    a = server.sign_in("TeamA", passwords["TeamA"])
    b = server.sign_in("TeamB", passwords["TeamB"])
    uploaded = server.upload(a, "TeamA.py", b"print('hi')\n", [("secret-plan.txt", b"bluff always")])
    assert uploaded.status == 201, uploaded.body
    number = uploaded.json["id"]
    assert server.call("GET", f"/api/submissions/{number}", token=b).status == 404
    assert server.call("GET", "/api/submissions?team=TeamA", token=b).status == 404
    listing = server.call("GET", "/api/submissions", token=b).json["submissions"]
    assert all(entry["team"] == "TeamB" for entry in listing)
    for path in ("/api/teams", "/api/outbox", "/api/audit", "/api/everything"):
        assert server.call("GET", path, token=b).status == 403, path
    for path in (f"/team/submissions/{number}", "/organiser", f"/organiser/submissions/{number}"):
        client = Client(server)
        assert client.sign_in("TeamB", passwords["TeamB"]).status == 303
        answer = client.get(path)
        assert answer.status in (403, 404), (path, answer.status)
        assert "secret-plan" not in answer.text


def test_hostile_page_posts_answer_4xx_never_500(site) -> None:
    server, passwords = site
    team, boss = Client(server), Client(server)
    assert team.sign_in("TeamA", passwords["TeamA"]).status == 303
    assert boss.sign_in("organiser", passwords["organiser"]).status == 303
    token = team.token("/team")
    raw = {"Content-Type": "multipart/form-data; boundary=x", "X-CSRFToken": token}
    helps = [("help", f"h{n}.txt", b"x") for n in range(17)]
    answers = [
        team.send("POST", "/team/upload", b"--x\r\ngarbage", raw).status,
        team.upload("/team/upload", [("file", "TeamA." + "\U0001f600" * 100, b"x")]).status,
        team.upload("/team/final", [("file", "TeamA.c", b"int main(void){}"), *helps]).status,
        team.upload(
            "/team/final", [("file", "TeamA.c", b"x"), ("help", "a", b"1"), ("help", "a", b"2")]
        ).status,
        boss.form("/organiser/deadlines", {f"junk{n}": "x" for n in range(9)}, "/organiser").status,
        boss.form("/organiser/deadlines", {"opens": "2026-01-01T00:00:00"}, "/organiser").status,
        boss.form("/organiser/teams/TeamB/explode", {}, "/organiser").status,
        boss.form("/organiser/teams/..%2fTeamB/disable", {}, "/organiser").status,
        boss.form("/organiser/submissions/abc/recheck", {}, "/organiser").status,
        boss.form("/organiser/tournament", {"deals": "1e9"}, "/organiser").status,
        boss.form("/organiser/announcements", {"title": "", "body": "x" * 30_000}, "/organiser").status,
    ]
    assert all(status < 500 for status in answers), answers
    assert "Traceback" not in server.log.read_text(errors="replace")


def test_json_nested_past_the_parsers_depth_is_a_400_not_a_500(site) -> None:
    server, _ = site
    for body in (b"[" * 50_000, b'{"a":' * 10_000):
        answer = server.request("POST", "/api/session", body=body, content_type="application/json")
        assert answer.status == 400, (answer.status, answer.body[:200])
        assert answer.json["error"] == "the body is not JSON"


def test_one_address_guessing_over_many_team_names_is_stopped(site) -> None:
    """Each guess costs a password hash: an address naming a new team each time must still be stopped,
    while the team itself signs in from its own address."""
    server, passwords = site
    guesses = [
        _from(server, "127.0.0.3", "POST", "/api/session", {"team": f"Nobody{n}", "password": "guess"})
        for n in range(SIGNIN_FAILURES_PER_ADDRESS + 1)
    ]
    assert guesses == [401] * SIGNIN_FAILURES_PER_ADDRESS + [429]
    right = {"team": "TeamB", "password": passwords["TeamB"]}
    assert _from(server, "127.0.0.3", "POST", "/api/session", right) == 429
    assert _from(server, "127.0.0.1", "POST", "/api/session", right) == 200


@pytest.mark.parametrize(
    ("names", "said"),
    [
        (["\x1b[2J\x1b[31mred.txt"], "\\x1b"),
        (["notes\u202etxt.exe"], "\\u202e"),
        (["tab\there.txt"], "\\t"),
        ([".profile"], ".profile"),
        (["Notes.txt", "notes.txt"], "notes.txt"),
        (["caf\u00e9.txt", "cafe\u0301.txt"], "caf"),
    ],
    ids=["terminal-escape", "bidi-override", "tab", "hidden", "case", "unicode-normal-form"],
)
def test_help_file_names_that_hide_or_collide_are_refused_with_the_name(site, names, said) -> None:
    """A help file's name is shown to the team and the organiser and unpacked on their machines: no
    control character, no hidden name, no two names one file system would take for one."""
    server, passwords = site
    token = server.sign_in("TeamA", passwords["TeamA"])
    answer = server.upload(token, "TeamA.py", b"print(1)\n", [(name, b"x") for name in names])
    assert answer.status == 400, (answer.status, answer.body[:200])
    assert "help file" in answer.json["error"] and said in answer.json["error"]


def test_an_api_token_ends_with_its_lifetime_like_a_page_session(site) -> None:
    """A token copied from a script or a log must not work for ever: past its lifetime it is refused."""
    server, passwords = site
    token = server.sign_in("TeamB", passwords["TeamB"])
    assert server.call("GET", "/api/me", token=token).status == 200
    store = ContestStore(server.root / "contest.sqlite")
    try:
        old = stamp(dt.datetime.now(dt.UTC) - TOKEN_LIFETIME - dt.timedelta(minutes=1))
        with store.transaction() as db:
            db.execute("UPDATE tokens SET created_at = ? WHERE team = 'TeamB'", (old,))
    finally:
        store.close()
    assert server.call("GET", "/api/me", token=token).status == 401
    assert server.call("GET", "/api/me", token=server.sign_in("TeamB", passwords["TeamB"])).status == 200


def test_a_help_file_name_is_shown_as_text_never_as_markup(site) -> None:
    """A help file's name is the team's own text, shown in an attribute of its page: it must not close
    the attribute or open a tag."""
    server, passwords = site
    token = server.sign_in("TeamA", passwords["TeamA"])
    name = '"><img src=x onerror=alert(1)>.txt'
    uploaded = server.upload(token, "TeamA.py", b"print(1)\n", [(name, b"x")])
    assert uploaded.status == 201, uploaded.body
    client = Client(server)
    assert client.sign_in("TeamA", passwords["TeamA"]).status == 303
    page = client.get("/team").text
    assert name not in page and "&#34;&gt;&lt;img src=x onerror=alert(1)&gt;.txt" in page


def test_an_unknown_team_and_a_wrong_password_get_the_same_answer(site) -> None:
    """No telling which team ids exist from the sign-in's refusal."""
    server, _ = site
    unknown = server.call("POST", "/api/session", {"team": "NoSuchTeam", "password": "x"})
    wrong = server.call("POST", "/api/session", {"team": "TeamC", "password": "x"})
    assert (unknown.status, unknown.json) == (wrong.status, wrong.json) == (401, wrong.json)


def test_a_session_cookie_planted_before_sign_in_is_not_signed_in_by_it(site) -> None:
    """Session fixation: an attacker's own session cookie, planted in another team's browser before it
    signs in, does not become that team's session: the attacker's copy stays the attacker's."""
    server, passwords = site
    attacker = Client(server)
    assert attacker.sign_in("TeamC", passwords["TeamC"]).status == 303
    planted = attacker.cookie("arena_session")
    victim = Client(server)
    victim.jar.set_cookie(_cookie("arena_session", planted))
    assert victim.sign_in("TeamB", passwords["TeamB"]).status == 303
    assert "The TeamB" in victim.get("/team").text
    assert victim.cookie("arena_session") != planted
    page = attacker.get("/team").text
    assert "The TeamC" in page and "The TeamB" not in page


@pytest.mark.parametrize(
    ("path", "content_type"),
    [
        ("/signin", "application/x-www-form-urlencoded"),
        ("/api/session", "application/json"),
        ("/signout", "application/x-www-form-urlencoded"),
    ],
)
def test_a_body_of_megabytes_is_refused_before_it_is_read_where_no_upload_goes(site, path, content_type):
    """Only the upload routes take bodies of megabytes (a program and 15 help files); anywhere else a
    visitor's megabytes are refused by their length, before they are read into memory."""
    server, _ = site
    host, port = server.url.removeprefix("http://").rstrip("/").split(":")
    connection = http.client.HTTPConnection(host, int(port), timeout=60)
    try:
        # Only the headers are sent: the answer must come before a byte of the body (a client that
        # went on writing would see the connection closed under it, as HTTP allows).
        connection.putrequest("POST", path)
        connection.putheader("Content-Type", content_type)
        connection.putheader("Content-Length", str(2 << 20))
        connection.endheaders()
        answer = connection.getresponse()
        assert answer.status == 413, (answer.status, answer.read()[:200])
        assert b"over" in answer.read()
    finally:
        connection.close()
