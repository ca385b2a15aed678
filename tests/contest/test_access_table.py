"""Who may reach what: every route of the app against anonymous, team A, team B and the organiser.

The expected answers are this file's OWN table, written by hand from issue 23's rules (not derived from
the app's rows, or the test could not fail). The app's routes are enumerated from its route table; a
route with no row here fails :func:`test_every_route_of_the_app_has_a_row_here`, and so does a row here
for a route the app does not have. Every request goes to one real server process.

Each row names a concrete path (``{id}`` is team A's submission) and a body chosen so that an allowed
caller's request is harmless: it is refused by the operation itself (400/404), which still proves that
the access check let it through. Team B always asks for team A's resources.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

import pytest

from arena.contest.web.access import Surface
from arena.contest.web.app import all_rows

from support.contest import Server, make_contest, multipart, serve
from support.contest_pages import Client

ANONYMOUS, TEAM_A, TEAM_B, ORGANISER = "anonymous", "TeamA", "TeamB", "organiser"
WHO = (ANONYMOUS, TEAM_A, TEAM_B, ORGANISER)
A_SUBMISSION = "{A}"
"""Stands for team A's submission id in a row's path."""


@dataclass(frozen=True)
class Expect:
    """A request and the status each of anonymous, team A, team B and the organiser must get."""

    path: str
    statuses: tuple[int | str, int | str, int | str, int | str]
    body: Any = None
    upload: tuple[str, bytes] | None = None
    fresh_token: bool = False
    """Sign in afresh for this request (it ends the session it uses)."""
    extra: dict[str, str] = field(default_factory=dict)


PUBLIC = (200, 200, 200, 200)
ORGANISER_ONLY_OK = (401, 403, 403, 200)
ORGANISER_ONLY_400 = (401, 403, 403, 400)
ORGANISER_ONLY_404 = (401, 403, 403, 404)
TEAM_ONLY_404 = (401, 404, 404, 403)
"""A team's own thing that does not exist yet (before the tournament): 404 for both teams."""

API: dict[tuple[str, str], Expect] = {
    ("POST", "/api/session"): Expect(
        "/api/session", (401, 401, 401, 401), body={"team": "Nobody", "password": "x"}
    ),
    ("DELETE", "/api/session"): Expect("/api/session", (401, 200, 200, 200), fresh_token=True),
    ("GET", "/api/me"): Expect("/api/me", (401, 200, 200, 200)),
    ("POST", "/api/submissions"): Expect(
        "/api/submissions", (401, 400, 400, 403), upload=("TeamA.txt", b"x")
    ),
    ("GET", "/api/submissions"): Expect("/api/submissions", (401, 200, 200, 200)),
    ("GET", "/api/submissions/{id}"): Expect(f"/api/submissions/{A_SUBMISSION}", (401, 200, 404, 200)),
    ("POST", "/api/submissions/{id}/check"): Expect("/api/submissions/999999/check", ORGANISER_ONLY_404),
    ("GET", "/api/standings"): Expect("/api/standings", PUBLIC),
    ("POST", "/api/standings/unfreeze"): Expect("/api/standings/unfreeze", ORGANISER_ONLY_OK),
    ("GET", "/api/announcements"): Expect("/api/announcements", PUBLIC),
    ("POST", "/api/announcements"): Expect(
        "/api/announcements", ORGANISER_ONLY_400, body={"title": "", "body": ""}
    ),
    ("GET", "/api/deadlines"): Expect("/api/deadlines", PUBLIC),
    ("PUT", "/api/deadlines/{name}"): Expect(
        "/api/deadlines/bedtime", ORGANISER_ONLY_400, body={"at": "2026-01-01T00:00:00+00:00"}
    ),
    ("GET", "/api/tournament"): Expect("/api/tournament", PUBLIC),
    ("POST", "/api/tournament"): Expect("/api/tournament", ORGANISER_ONLY_400, body={"deals": "many"}),
    ("GET", "/api/final"): Expect("/api/final", PUBLIC),
    ("POST", "/api/final"): Expect("/api/final", ORGANISER_ONLY_404),
    ("GET", "/api/teams"): Expect("/api/teams", ORGANISER_ONLY_OK),
    ("POST", "/api/teams"): Expect(
        "/api/teams", ORGANISER_ONLY_400, body={"team": "bad id!", "name": "x", "email": "x@example.org"}
    ),
    ("POST", "/api/teams/{team}/disable"): Expect("/api/teams/Nobody/disable", ORGANISER_ONLY_404),
    ("POST", "/api/teams/{team}/enable"): Expect("/api/teams/Nobody/enable", ORGANISER_ONLY_404),
    ("POST", "/api/teams/{team}/reset"): Expect("/api/teams/Nobody/reset", ORGANISER_ONLY_404),
    ("POST", "/api/teams/{team}/disqualify"): Expect(
        "/api/teams/Nobody/disqualify", ORGANISER_ONLY_404, body={"reason": "test"}
    ),
    ("POST", "/api/teams/{team}/reinstate"): Expect(
        "/api/teams/Nobody/reinstate", ORGANISER_ONLY_404, body={"reason": "test"}
    ),
    ("GET", "/api/outbox"): Expect("/api/outbox", ORGANISER_ONLY_OK),
    ("GET", "/api/audit"): Expect("/api/audit", ORGANISER_ONLY_OK),
    ("GET", "/api/finals-logs"): Expect("/api/finals-logs", TEAM_ONLY_404),
    ("GET", "/api/certificates/{kind}"): Expect("/api/certificates/excellence", TEAM_ONLY_404),
    ("GET", "/api/faults"): Expect("/api/faults", TEAM_ONLY_404),
    ("GET", "/api/hands/{format}"): Expect("/api/hands/phh", TEAM_ONLY_404),
    ("POST", "/api/keys/reveal"): Expect("/api/keys/reveal", ORGANISER_ONLY_404),
    ("GET", "/api/everything"): Expect("/api/everything", ORGANISER_ONLY_OK),
}

SIGN_IN = "303 /signin"
"""A page's answer to one signed out: a redirect to the sign-in page (an int is any other status)."""
BACK_TEAM, BACK_ORGANISER = "303 /team", "303 /organiser"
"""A form's answer: back to the page it is on (a refusal is shown there, as a one-time message)."""
PAGE_TEAM_ONLY_404 = (SIGN_IN, 404, 404, 403)
PAGE_ORGANISER_ONLY = (SIGN_IN, 403, 403, 200)
PAGE_ORGANISER_FORM = (SIGN_IN, 403, 403, BACK_ORGANISER)
PAGE_ORGANISER_404 = (SIGN_IN, 403, 403, 404)

PAGES: dict[tuple[str, str], Expect] = {
    ("GET", "/static/{name}"): Expect("/static/contest.css", PUBLIC),
    ("GET", "/"): Expect("/", PUBLIC),
    ("GET", "/signin"): Expect("/signin", PUBLIC),
    ("POST", "/signin"): Expect("/signin", (401, 401, 401, 401), body={"team": "Stranger", "password": "x"}),
    ("POST", "/signout"): Expect("/signout", ("303 /",) * 4, fresh_token=True),
    ("GET", "/team"): Expect("/team", (SIGN_IN, 200, 200, 403)),
    ("POST", "/team/upload"): Expect(
        "/team/upload", (SIGN_IN, BACK_TEAM, BACK_TEAM, 403), upload=("TeamA.txt", b"x")
    ),
    ("POST", "/team/final"): Expect(
        "/team/final", (SIGN_IN, BACK_TEAM, BACK_TEAM, 403), upload=("TeamA.txt", b"x")
    ),
    ("GET", "/team/submissions/{id}"): Expect(f"/team/submissions/{A_SUBMISSION}", (SIGN_IN, 200, 404, 403)),
    ("GET", "/team/faults"): Expect("/team/faults", PAGE_TEAM_ONLY_404),
    ("GET", "/team/hands/{format}"): Expect("/team/hands/phh", PAGE_TEAM_ONLY_404),
    ("GET", "/team/finals-logs.zip"): Expect("/team/finals-logs.zip", PAGE_TEAM_ONLY_404),
    ("GET", "/team/certificates/{kind}"): Expect("/team/certificates/excellence", PAGE_TEAM_ONLY_404),
    ("GET", "/standings"): Expect("/standings", PUBLIC),
    ("GET", "/tournament/{path:path}"): Expect("/tournament/index.html", (404, 404, 404, 404)),
    ("GET", "/organiser"): Expect("/organiser", PAGE_ORGANISER_ONLY),
    ("GET", "/organiser/submissions/{id}"): Expect(
        f"/organiser/submissions/{A_SUBMISSION}", PAGE_ORGANISER_ONLY
    ),
    ("POST", "/organiser/teams"): Expect(
        "/organiser/teams",
        PAGE_ORGANISER_FORM,
        body={"team": "bad id!", "name": "x", "email": "x@example.org"},
    ),
    ("POST", "/organiser/teams/{team}/{action}"): Expect(
        "/organiser/teams/Nobody/disable", PAGE_ORGANISER_404
    ),
    ("POST", "/organiser/submissions/{id}/recheck"): Expect(
        "/organiser/submissions/999999/recheck", PAGE_ORGANISER_404
    ),
    ("POST", "/organiser/announcements"): Expect(
        "/organiser/announcements", PAGE_ORGANISER_FORM, body={"title": "", "body": ""}
    ),
    ("POST", "/organiser/deadlines"): Expect(
        "/organiser/deadlines", PAGE_ORGANISER_FORM, body={"final_code": "not a time"}
    ),
    ("POST", "/organiser/tournament"): Expect(
        "/organiser/tournament", PAGE_ORGANISER_FORM, body={"deals": "many"}
    ),
    ("POST", "/organiser/freeze"): Expect("/organiser/freeze", PAGE_ORGANISER_FORM),
    ("POST", "/organiser/final"): Expect("/organiser/final", PAGE_ORGANISER_404),
    ("POST", "/organiser/reveal"): Expect("/organiser/reveal", PAGE_ORGANISER_404),
    ("POST", "/organiser/everything.zip"): Expect("/organiser/everything.zip", PAGE_ORGANISER_ONLY),
}
"""The pages' rows, asked with a session (signed in through the sign-in form) and each form's CSRF token."""


def app_routes(surface: Surface) -> set[tuple[str, str]]:
    return {(method, row.path) for row in all_rows() if row.surface is surface for method in row.methods}


@pytest.mark.parametrize(("surface", "table"), [(Surface.API, API), (Surface.PAGE, PAGES)])
def test_every_route_of_the_app_has_a_row_here(
    surface: Surface, table: dict[tuple[str, str], Expect]
) -> None:
    routes = app_routes(surface)
    assert sorted(routes - set(table)) == [], "routes with no expected answers in this test's table"
    assert sorted(set(table) - routes) == [], "rows of this test's table for routes the app does not have"


@dataclass
class Site:
    server: Server
    passwords: dict[str, str]
    tokens: dict[str, str]
    submission: int


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Site]:
    root = tmp_path_factory.mktemp("access") / "contest"
    passwords = make_contest(root, teams=2)
    with serve(root) as server:
        tokens = {who: server.sign_in(who, passwords[who]) for who in (TEAM_A, TEAM_B, ORGANISER)}
        answer = server.upload(tokens[TEAM_A], "TeamA.py", b"print('hello')\n")
        assert answer.status == 201
        yield Site(server, passwords, tokens, answer.json["id"])


def _api_request(site: Site, method: str, expect: Expect, who: str) -> int:
    server = site.server
    token = None
    if who != ANONYMOUS:
        token = site.tokens[who]
        if expect.fresh_token:
            password = site.passwords[who]
            token = server.call("POST", "/api/session", {"team": who, "password": password}).json["token"]
    path = expect.path.replace(A_SUBMISSION, str(site.submission))
    if expect.upload is not None:
        body, content_type = multipart([("file", *expect.upload)])
        return server.request(method, path, token=token, body=body, content_type=content_type).status
    payload = None if expect.body is None else json.dumps(expect.body).encode()
    answer = server.request(method, path, token=token, body=payload, content_type="application/json")
    if answer.status >= 400:
        assert "Traceback" not in answer.body.decode(errors="replace")
    return answer.status


@pytest.mark.parametrize(("method", "template"), sorted(API), ids=[f"{m} {p}" for m, p in sorted(API)])
def test_an_api_route_answers_each_caller_as_the_table_says(site: Site, method: str, template: str) -> None:
    expect = API[(method, template)]
    got = tuple(_api_request(site, method, expect, who) for who in WHO)
    assert got == expect.statuses, dict(zip(WHO, got, strict=True))


def test_a_token_is_never_taken_from_a_cookie_or_the_query(site: Site) -> None:
    token = site.tokens[ORGANISER]
    server = site.server
    assert server.request("GET", f"/api/teams?token={token}").status == 401
    assert server.request("GET", "/api/teams", headers={"Cookie": f"token={token}"}).status == 401
    assert server.request("GET", "/api/teams", headers={"Authorization": f"Basic {token}"}).status == 401


def test_no_path_outside_the_contest_folder_is_reached_through_the_api(site: Site) -> None:
    server, token = site.server, site.tokens[TEAM_A]
    for path in (
        "/api/hands/..%2F..%2Fcredentials.csv",
        "/api/certificates/..%2Fsecret.key",
        "/api/../credentials.csv",
    ):
        answer = server.request("GET", path, token=token)
        assert answer.status == 404 and site.passwords[TEAM_A].encode() not in answer.body


def _page_client(site: Site, who: str) -> Client:
    """A browser without a script: signed in through the sign-in form (anonymous: only its CSRF cookie)."""
    client = Client(site.server)
    if who == ANONYMOUS:
        client.token("/signin")
    else:
        assert client.sign_in(who, site.passwords[who]).status == 303
    return client


@pytest.fixture(scope="module")
def page_clients(site: Site) -> dict[str, Client]:
    return {who: _page_client(site, who) for who in WHO}


def _page_request(site: Site, clients: dict[str, Client], method: str, expect: Expect, who: str) -> int | str:
    client = _page_client(site, who) if expect.fresh_token else clients[who]
    path = expect.path.replace(A_SUBMISSION, str(site.submission))
    if method == "GET":
        answer = client.get(path)
    elif expect.upload is not None:
        answer = client.upload(path, [("file", *expect.upload)], page="/signin")
    else:
        answer = client.form(path, {k: str(v) for k, v in (expect.body or {}).items()}, page="/signin")
    assert "Traceback" not in answer.text
    if answer.status == 303:
        return f"303 {answer.headers['Location']}"
    return answer.status


@pytest.mark.parametrize(("method", "template"), sorted(PAGES), ids=[f"{m} {p}" for m, p in sorted(PAGES)])
def test_a_page_answers_each_caller_as_the_table_says(
    site: Site, page_clients: dict[str, Client], method: str, template: str
) -> None:
    expect = PAGES[(method, template)]
    got = tuple(_page_request(site, page_clients, method, expect, who) for who in WHO)
    assert got == expect.statuses, dict(zip(WHO, got, strict=True))
