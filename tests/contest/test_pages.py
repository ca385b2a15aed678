"""The contest's pages over HTTP against one real server process: CSRF on every form, the session
cookie's flags, the content security policy on every answer, no path from a URL outside the folder,
sign-in refusals, and what a team or a program controls shown escaped."""

from __future__ import annotations

import http.cookiejar
import re
import urllib.parse
from collections.abc import Iterator
from pathlib import Path

import pytest

from arena.contest.web import pages
from arena.contest.web.app import all_rows

from support.contest import Server, contest_settings, make_contest, multipart, serve
from support.contest_pages import Client

EXAMPLE_VALUES = {
    "team": "TeamA",
    "action": "disable",
    "id": "1",
    "name": "contest.css",
    "format": "phh",
    "kind": "winner",
}
"""What fills a path template's parameters when the test posts to every form."""


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Server, dict[str, str]]]:
    root = tmp_path_factory.mktemp("pages") / "contest"
    passwords = make_contest(root, teams=3)
    with serve(root) as server:
        yield server, passwords


def signed_in(site: tuple[Server, dict[str, str]], team: str) -> Client:
    server, passwords = site
    client = Client(server)
    assert client.sign_in(team, passwords[team]).status == 303
    return client


def post_forms() -> list[pages.Row]:
    return [row for row in pages.ROWS if "POST" in row.methods]


def concrete(path: str) -> str:
    return re.sub(r"\{(\w+)(:\w+)?\}", lambda m: EXAMPLE_VALUES[m.group(1)], path)


def who_posts(row: pages.Row) -> str:
    return "organiser" if row.access is pages.Access.ORGANISER else "TeamA"


@pytest.mark.parametrize("row", post_forms(), ids=lambda row: row.path)
def test_every_form_refuses_a_post_without_its_csrf_token(site, row: pages.Row) -> None:
    client = signed_in(site, who_posts(row))
    token = client.token("/organiser" if who_posts(row) == "organiser" else "/team")
    path = concrete(row.path)
    fields = {"team": "TeamA", "password": "x", "reason": "r", "title": "t", "body": "b", "deals": "2"}

    missing = client.post(path, fields)
    wrong = client.post(path, {**fields, "csrftoken": token[::-1]})
    header_only_wrong = client.send(
        "POST",
        path,
        urllib.parse.urlencode(fields).encode(),
        {"Content-Type": "application/x-www-form-urlencoded", "X-CSRFToken": "forged"},
    )
    body, content_type = multipart([("file", "TeamA.py", b"print(0)\n")], {"csrftoken": token})
    upload_without_header = client.send("POST", path, body, {"Content-Type": content_type})
    upload_wrong_header = client.send(
        "POST", path, body, {"Content-Type": content_type, "X-CSRFToken": token[::-1]}
    )

    for answer in (missing, wrong, header_only_wrong, upload_without_header, upload_wrong_header):
        assert answer.status == 403, (path, answer.status, answer.text[:200])
    assert client.get("/team" if who_posts(row) == "TeamA" else "/organiser").status == 200, "still signed in"


def test_no_page_reached_by_get_changes_anything(site) -> None:
    """A link on another site is followed with the session cookie (SameSite=Lax lets a top-level GET
    through): so no GET may act. Every GET page, fetched as the organiser, leaves the audit log and the
    contest folder's exports as they were."""
    server, passwords = site
    boss = server.sign_in("organiser", passwords["organiser"])
    organiser = signed_in(site, "organiser")

    def state() -> tuple[object, list[str]]:
        exports = server.root / "exports"
        names = sorted(p.name for p in exports.iterdir()) if exports.is_dir() else []
        return server.call("GET", "/api/audit", token=boss).json["audit"], names

    before = state()
    for row in pages.ROWS:
        if "GET" in row.methods and "{path" not in row.path:
            assert organiser.get(concrete(row.path)).status < 500, row.path
    assert state() == before


def test_a_form_with_its_token_is_taken(site) -> None:
    """The control of the test above: the same kind of post, with the token, does what it says."""
    server, _ = site
    organiser = signed_in(site, "organiser")
    token = organiser.token("/organiser")
    answer = organiser.post(
        "/organiser/announcements", {"csrftoken": token, "title": "Hello", "body": "News"}
    )
    assert answer.status == 303 and answer.headers["Location"] == "/organiser"
    assert "Hello" in Client(server).get("/").text

    team = signed_in(site, "TeamB")
    token = team.token("/team")
    body, content_type = multipart([("file", "TeamB.py", b"print(0)\n")], {"csrftoken": token})
    answer = team.send("POST", "/team/upload", body, {"Content-Type": content_type, "X-CSRFToken": token})
    assert answer.status == 303
    assert "TeamB.py" in team.get("/team").text


def test_the_session_cookie_is_httponly_samesite_and_signed(site) -> None:
    server, passwords = site
    client = Client(server)
    token = client.token("/signin")
    answer = client.post("/signin", {"csrftoken": token, "team": "TeamA", "password": passwords["TeamA"]})
    assert answer.status == 303 and answer.headers["Location"] == "/team"
    cookies = answer.headers.get_all("Set-Cookie")
    session = next(c for c in cookies if c.startswith("arena_session="))
    flags = {part.strip().lower() for part in session.split(";")[1:]}
    assert "httponly" in flags and "samesite=lax" in flags and "path=/" in flags
    assert "secure" not in flags, "https_only is off by default (a localhost site)"
    assert client.get("/team").status == 200

    forged = Client(server)
    forged.jar.set_cookie(_cookie("arena_session", client.cookie("arena_session")[:-4] + "AAAA"))
    answer = forged.get("/team")
    assert answer.status == 303 and answer.headers["Location"] == "/signin"


def _cookie(name: str, value: str) -> http.cookiejar.Cookie:
    return http.cookiejar.Cookie(
        0, name, value, None, False, "127.0.0.1", False, False, "/", True, False, None, False, None, None, {}
    )


@pytest.mark.slow
def test_a_site_behind_https_tells_browsers_to_keep_to_https(site, tmp_path: Path) -> None:
    """With ``https_only`` (a TLS proxy in front) every answer carries Strict-Transport-Security, so a
    browser never sends the session over plain HTTP again; a plain-HTTP site does not claim it."""
    plain, _ = site
    assert "Strict-Transport-Security" not in Client(plain).get("/").headers
    make_contest(tmp_path / "contest", teams=1, settings=contest_settings(https_only=True))
    with serve(tmp_path / "contest") as server:
        for path in ("/", "/signin", "/nowhere", "/api/standings"):
            assert Client(server).get(path).headers["Strict-Transport-Security"] == "max-age=31536000", path


@pytest.mark.parametrize(
    "path", ["/", "/signin", "/standings", "/team", "/organiser", "/static/contest.css", "/nowhere"]
)
def test_every_answer_has_the_content_security_policy(site, path: str) -> None:
    server, _ = site
    answer = Client(server).get(path)
    policy = answer.headers["Content-Security-Policy"]
    assert "script-src 'self'" in policy and "form-action 'self'" in policy
    assert "unsafe-inline" not in policy.split("script-src")[1].split(";")[0]
    assert "frame-ancestors 'none'" in policy
    assert answer.headers["X-Content-Type-Options"] == "nosniff"


@pytest.mark.parametrize(
    "path",
    [
        "/static/..%2Fcredentials.csv",
        "/static/..%2F..%2Fcontest%2Fcredentials.csv",
        "/static/%2E%2E%2Fsecret.key",
        "/tournament/..%2F..%2Fcredentials.csv",
        "/tournament/tables/..%2F..%2Fsecret.key",
        "/team/submissions/..%2F..%2Fcredentials.csv",
        "/team/hands/..%2Fsecret.key",
    ],
)
def test_no_path_from_a_url_leaves_the_contest_folder(site, path: str) -> None:
    server, passwords = site
    client = signed_in(site, "TeamA")
    answer = client.get(path)
    assert answer.status == 404, (path, answer.status)
    assert passwords["TeamA"] not in answer.text and "organiser," not in answer.text
    secret = (server.root / "secret.key").read_text().strip()
    assert secret not in answer.text


def test_a_wrong_password_is_one_clear_refusal_and_then_rate_limited(site) -> None:
    server, _ = site
    client = Client(server)
    answers = [client.sign_in("TeamC", f"wrong{n}") for n in range(6)]
    assert [a.status for a in answers[:5]] == [401] * 5
    assert "wrong team or password" in answers[0].text
    assert answers[5].status == 429 and "too many failed sign-ins" in answers[5].text
    assert "Traceback" not in answers[5].text


def test_what_a_team_controls_is_shown_escaped(site) -> None:
    organiser = signed_in(site, "organiser")
    token = organiser.token("/organiser")
    name = '<script>document.title="owned"</script>'
    answer = organiser.post(
        "/organiser/teams", {"csrftoken": token, "team": "TeamZ", "name": name, "email": "z@example.org"}
    )
    assert answer.status == 303
    page = organiser.get("/organiser").text
    assert name not in page and "&lt;script&gt;document.title=" in page
    token = organiser.token("/organiser")
    organiser.post(
        "/organiser/announcements", {"csrftoken": token, "title": "<b>x</b>", "body": "<img src=x>"}
    )
    public = Client(organiser.server).get("/").text
    assert "<img src=x>" not in public and "&lt;img src=x&gt;" in public


def test_a_team_sees_only_its_own_pages(site, tmp_path: Path) -> None:
    team_a = signed_in(site, "TeamA")
    token = team_a.token("/team")
    body, content_type = multipart([("file", "TeamA.py", b"print(0)\n")], {"csrftoken": token})
    assert (
        team_a.send("POST", "/team/upload", body, {"Content-Type": content_type, "X-CSRFToken": token}).status
        == 303
    )
    theirs = re.search(r'data-submission="(\d+)"', team_a.get("/team").text)
    assert theirs
    team_b = signed_in(site, "TeamB")
    assert team_b.get(f"/team/submissions/{theirs.group(1)}").status == 404
    assert team_b.get(f"/organiser/submissions/{theirs.group(1)}").status == 403
    assert team_a.get(f"/team/submissions/{theirs.group(1)}").status == 200
    assert signed_in(site, "organiser").get(f"/organiser/submissions/{theirs.group(1)}").status == 200


def test_docs_list_every_route_with_who_may_reach_it() -> None:
    """docs/contest.md's route table names every route of the app and the role its row gives."""
    docs = (Path(__file__).parents[2] / "docs" / "contest.md").read_text(encoding="utf-8")
    missing = [row.label() for row in all_rows() if f"| `{row.label()}` | {row.access.value} |" not in docs]
    assert missing == []


def test_every_script_and_style_the_pages_ask_for_is_served(site) -> None:
    """The contest's and the viewer's templates name their files; each is served where they ask."""
    server, _ = site
    client = Client(server)
    package = Path(pages.__file__).parents[2]
    ours = re.findall(r'"/static/([\w.]+)"', _templates(package / "contest"))
    viewers = re.findall(r'static/([\w.]+)"', _templates(package / "viewer"))
    assert set(ours + viewers) == {"viewer.css", "viewer.js", "hands.js", "contest.css", "contest.js"}
    for path in [f"/static/{name}" for name in ours] + [f"/tournament/static/{name}" for name in viewers]:
        assert client.get(path).status == 200, path


def _templates(package: Path) -> str:
    files = sorted((package / "templates").glob("*.html"))
    return "".join(path.read_text(encoding="utf-8") for path in files)
