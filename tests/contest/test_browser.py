"""The contest's site in a real browser (Debian's Chromium through Playwright) against a real server.

Each test serves its own contest folder (``python -m arena contest serve`` on 127.0.0.1) with real checks
of real programs: a team uploads a C program that does not compile, reads the compiler's error, uploads
the fixed one and sees PASS; another team opening that team's report by its address is refused; the
organiser starts a small tournament and the public standings appear. Screenshots go to tests/artifacts/.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page, expect

from support.contest import Server, make_contest, serve
from support.viewer import CHROMIUM, checked_page, screenshot

ROOT = Path(__file__).parents[2]
TIGHT_C = ROOT / "bots" / "codem" / "Tight.c"
CALLER_PY = ROOT / "bots" / "codem" / "Caller.py"
BROKEN_LINE = "int broken_on_purpose = ;\n"
CHECK_S = 300
"""How long a check may take on a loaded two-core machine (Playwright's waits, in seconds)."""

pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(not Path(CHROMIUM).exists(), reason="needs Debian's chromium"),
]


@pytest.fixture
def site(tmp_path: Path) -> Iterator[tuple[Server, dict[str, str]]]:
    """A contest of three teams (TeamA, TeamB, TeamC) served for one test; its passwords."""
    passwords = make_contest(tmp_path / "contest", teams=3)
    with serve(tmp_path / "contest") as server:
        yield server, passwords


@pytest.fixture
def other_page(browser: Browser) -> Iterator[Page]:
    """A second page with its own cookies (the conftest's ``page`` is the first)."""
    with checked_page(browser) as opened:
        yield opened


def sign_in(page: Page, server: Server, team: str, password: str) -> None:
    page.goto(server.url + "signin")
    page.fill("input[name=team]", team)
    page.fill("input[name=password]", password)
    page.click("form.card-form button[type=submit]")
    expect(page.locator("header .who strong")).to_have_text(team)


def upload(page: Page, path: Path) -> None:
    """Upload a file from the team's page and wait for the page to come back with the new row."""
    rows = page.locator("table.uploads tbody tr").count()
    page.set_input_files("#upload-form input[type=file]", str(path))
    page.click("#upload-form button[type=submit]")
    expect(page.locator(".flash-ok")).to_contain_text(f"({path.name}) received")
    expect(page.locator("table.uploads tbody tr")).to_have_count(rows + 1)


def test_a_team_reads_its_compiler_error_then_passes(page: Page, site, tmp_path: Path) -> None:
    server, passwords = site
    broken = tmp_path / "broken" / "TeamA.c"
    broken.parent.mkdir()
    broken.write_text(TIGHT_C.read_text() + BROKEN_LINE)
    fixed = tmp_path / "fixed" / "TeamA.c"
    fixed.parent.mkdir()
    fixed.write_bytes(TIGHT_C.read_bytes())

    sign_in(page, server, "TeamA", passwords["TeamA"])
    expect(page).to_have_url(server.url + "team")
    upload(page, broken)
    newest = page.locator("table.uploads tbody tr").first
    expect(newest.locator(".verdict")).to_have_text("FAIL", timeout=CHECK_S * 1000)
    screenshot(page, "contest-team-fail")

    newest.locator("a", has_text="report").click()
    report = page.locator("#report")
    expect(report).to_contain_text("broken_on_purpose")
    expect(report).to_contain_text("error")
    expect(page.locator("#verdict")).to_have_text("FAIL")
    screenshot(page, "contest-report-compiler-error")

    page.goto(server.url + "team")
    upload(page, fixed)
    newest = page.locator("table.uploads tbody tr").first
    expect(newest.locator(".verdict")).to_have_text("PASS", timeout=CHECK_S * 1000)
    expect(newest).to_contain_text("plays")
    rows = page.locator("table.uploads tbody tr")
    expect(rows.nth(1).locator(".verdict")).to_have_text("FAIL")
    expect(rows.nth(1)).not_to_contain_text("plays")
    screenshot(page, "contest-team-pass")


def test_a_team_opening_another_teams_report_is_refused(page: Page, site) -> None:
    server, passwords = site
    token = server.sign_in("TeamA", passwords["TeamA"])
    answer = server.upload(token, "TeamA.py", CALLER_PY.read_bytes())
    assert answer.status == 201 or answer.status == 200, answer.body
    theirs = answer.json["id"]

    sign_in(page, server, "TeamB", passwords["TeamB"])
    response = page.goto(server.url + f"team/submissions/{theirs}")
    assert response is not None and response.status == 404
    expect(page.locator("h1")).to_have_text("Not found")
    expect(page.locator("body")).not_to_contain_text("TeamA.py")
    page.goto(server.url + "team")
    expect(page.locator("table.uploads")).to_have_count(0)
    response = page.goto(server.url + "organiser")
    assert response is not None and response.status == 403

    page.context.clear_cookies()
    response = page.goto(server.url + f"team/submissions/{theirs}")
    expect(page).to_have_url(server.url + "signin")


def test_the_organiser_starts_a_tournament_and_the_public_sees_standings(
    page: Page, other_page: Page, site, tmp_path: Path
) -> None:
    server, passwords = site
    for team in ("TeamA", "TeamB", "TeamC"):
        token = server.sign_in(team, passwords[team])
        assert server.upload(token, f"{team}.py", CALLER_PY.read_bytes()).status in (200, 201)

    other_page.goto(server.url + "standings")
    expect(other_page.locator("#no-standings")).to_be_visible()

    sign_in(page, server, "organiser", passwords["organiser"])
    expect(page).to_have_url(server.url + "organiser")
    page.fill("input[name=deals]", "4")
    page.click("text=Start the tournament")
    expect(page.locator(".flash-ok")).to_contain_text("The tournament started: 3 teams")
    expect(page.locator("#tournament-state")).to_contain_text("done", timeout=CHECK_S * 1000)
    screenshot(page, "contest-organiser")

    other_page.goto(server.url + "standings")
    rows = other_page.locator("table.standings tbody tr")
    expect(rows).to_have_count(3, timeout=CHECK_S * 1000)
    teams = {rows.nth(i).get_attribute("data-team") for i in range(3)}
    assert teams == {"TeamA", "TeamB", "TeamC"}
    expect(other_page.locator("header .who")).to_contain_text("Sign in")
    screenshot(other_page, "contest-standings")
    other_page.click("text=Every table, and every deal replayed")
    expect(other_page.locator("table.standings tbody tr")).to_have_count(3)
