"""A whole contest through the site, as statement 004's timeline runs it (slow).

Six teams sign in and submit; two are told of errors (a C program that does not compile, a Python
program that crashes) and resubmit; one keeps a crashing program. The organiser closes submissions by
moving the final-code deadline from the site (a later upload is refused) and starts the tournament.
The finalists (the top six but the team disqualified for its faults) download their opponents'
folders; within their window one uploads updated code with help files, one uploads updated code that
fails its check (its initial code plays, as the statement says); after the window an upload is
refused. The organiser starts the final, the public watches it live, and every team downloads its
certificates. Along the way: the crashing team reads its faults with the three input files, the public
never sees a fault, stderr or a check report, and the organiser sees everything. Everything goes
through the pages (forms with their CSRF tokens) of one real server process.
"""

from __future__ import annotations

import datetime as dt
import io
import re
import zipfile
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import expect, sync_playwright

from support.contest import contest_settings, make_contest, poll, serve
from support.contest_pages import Client
from support.viewer import CHROMIUM, screenshot

ROOT = Path(__file__).parents[2]
BOTS = ROOT / "bots" / "codem"
PROGRAMS = ROOT / "tests" / "programs" / "codem"
CRASH_SAYS = "deliberate failure reading my strategy"
WINDOW_HOURS = 0.03
"""The finalists' window: 108 seconds instead of three hours."""
FIRST = {
    "TeamA": ("TeamA.c", (PROGRAMS / "Broken.c").read_bytes()),
    "TeamB": ("TeamB.py", (PROGRAMS / "Crash.py").read_bytes()),
    "TeamC": ("TeamC.py", (BOTS / "Caller.py").read_bytes()),
    "TeamD": ("TeamD.pl", (BOTS / "Bluffer.pl").read_bytes()),
    "TeamE": ("TeamE.rb", (BOTS / "Tracker.rb").read_bytes()),
    "TeamF": ("TeamF.py", (PROGRAMS / "Crash.py").read_bytes()),
}
FIXED = {
    "TeamA": ("TeamA.c", (BOTS / "Tight.c").read_bytes()),
    "TeamB": ("TeamB.py", (PROGRAMS / "Checker.py").read_bytes()),
}
CHECK_S = 600.0
pytestmark = [pytest.mark.slow, pytest.mark.skipif(not Path(CHROMIUM).exists(), reason="needs chromium")]


@pytest.fixture
def contest(tmp_path: Path) -> Iterator[tuple[Client, dict[str, Client]]]:
    """The served contest: the organiser's client and each team's, signed in through the pages."""
    root = tmp_path / "contest"
    settings = contest_settings(finalists_window_hours=WINDOW_HOURS)
    passwords = make_contest(root, teams=6, settings=settings)
    with serve(root, "--jobs", "2") as server:
        organiser = Client(server)
        assert organiser.sign_in("organiser", passwords["organiser"]).headers["Location"] == "/organiser"
        teams = {}
        for team in FIRST:
            teams[team] = Client(server)
            assert teams[team].sign_in(team, passwords[team]).headers["Location"] == "/team"
        yield organiser, teams


def rows(page: str) -> dict[str, dict[str, str]]:
    """The uploads table of a team's page: id -> status and verdict."""
    found = {}
    for match in re.finditer(r'<tr data-submission="(\d+)" data-status="(\w+)">(.*?)</tr>', page, re.S):
        verdict = re.search(r'class="status [\w-]+ verdict">(\w+|-)<', match.group(3))
        found[match.group(1)] = {"status": match.group(2), "verdict": verdict.group(1) if verdict else ""}
    return found


def upload(client: Client, name: str, data: bytes, helps: list[tuple[str, bytes]] | None = None) -> str:
    """Upload through the team's form; the flash message of the page it lands on."""
    path = "/team/final" if helps is not None else "/team/upload"
    files = [("file", name, data), *(("help", h, d) for h, d in helps or [])]
    answer = client.upload(path, files)
    assert answer.status == 303, (answer.status, answer.text[:300])
    return re.search(r'<p class="flash flash-\w+"[^>]*>(.*?)</p>', client.get("/team").text, re.S).group(1)


def verdicts(client: Client) -> dict[str, str]:
    """Wait until every upload of the team is checked; id -> verdict."""

    def done() -> dict[str, str] | None:
        table = rows(client.get("/team").text)
        return (
            None
            if any(r["status"] != "done" for r in table.values())
            else {k: r["verdict"] for k, r in table.items()}
        )

    return poll(done, CHECK_S, every=1.0)


def test_a_whole_contest_runs_through_the_site(contest, tmp_path: Path) -> None:
    organiser, teams = contest

    # Submissions: every team uploads; two are told of errors and fix them, one keeps its crash.
    for team, (name, data) in FIRST.items():
        assert "received" in upload(teams[team], name, data)
    first = {team: verdicts(client) for team, client in teams.items()}
    assert list(first["TeamA"].values()) == ["FAIL"] and list(first["TeamB"].values()) == ["FAIL"]
    assert all(list(first[t].values()) == ["PASS"] for t in ("TeamC", "TeamD", "TeamE"))
    report = teams["TeamA"].get(f"/team/submissions/{next(iter(first['TeamA']))}").text
    assert "undefined_symbol" in report and "build: failed" in report
    report = teams["TeamB"].get(f"/team/submissions/{next(iter(first['TeamB']))}").text
    assert CRASH_SAYS in report
    for team, (name, data) in FIXED.items():
        upload(teams[team], name, data)
        assert sorted(verdicts(teams[team]).values()) == ["FAIL", "PASS"]

    # The organiser closes submissions from the site: a later upload is refused with the reason.
    page = organiser.get("/organiser").text
    assert page.count('data-team="Team') == 6
    closed = dt.datetime.now(dt.UTC).replace(microsecond=0) - dt.timedelta(seconds=1)
    times = {"error_report": (closed - dt.timedelta(seconds=1)).isoformat(), "final_code": closed.isoformat()}
    assert organiser.form("/organiser/deadlines", times, "/organiser").status == 303
    assert "Moved: error_report, final_code." in organiser.get("/organiser").text
    late = upload(teams["TeamC"], "TeamC.py", (PROGRAMS / "Checker.py").read_bytes())
    assert "Upload refused" in late and "final-code deadline" in late

    # The tournament, started from the organiser's page; the public scoreboard fills.
    started = organiser.form("/organiser/tournament", {"deals": "6"}, "/organiser")
    assert started.status == 303
    assert "The tournament started: 6 teams" in organiser.get("/organiser").text
    public = Client(organiser.server)
    poll(lambda: "finalists:" in public.get("/standings").text or None, CHECK_S, every=1.0)
    board = public.get("/standings").text
    assert board.count('<tr data-team="Team') == 6

    # The organiser freezes the scoreboard: the public sees it frozen and no table, until it is lifted.
    freeze = (dt.datetime.now(dt.UTC).replace(microsecond=0) - dt.timedelta(seconds=1)).isoformat()
    assert organiser.form("/organiser/deadlines", {"freeze": freeze}, "/organiser").status == 303
    frozen = public.get("/standings").text
    assert 'id="frozen"' in frozen and frozen.count('<tr data-team="Team') == 6
    assert public.get("/tournament/index.html").status == 403
    assert organiser.get("/tournament/index.html").status == 200
    assert organiser.form("/organiser/freeze", {}, "/organiser").status == 303
    assert 'id="frozen"' not in public.get("/standings").text
    assert public.get("/tournament/index.html").status == 200

    # TeamF reads its own faults: where, why, what it printed, the three input files; nobody else does.
    faults = teams["TeamF"].get("/team/faults").text
    assert CRASH_SAYS in faults and "inputf.txt" in faults and "deal.txt" in faults
    assert teams["TeamC"].get("/team/faults").text.count('class="fault"') == 0
    deal = re.search(r'href="(/tournament/tables/[^"]+/deal\d+\.html)"', faults)
    assert deal is not None
    for path in ("/tournament/index.html", "/tournament/teams/TeamF.html", deal.group(1)):
        seen = public.get(path)
        assert seen.status == 200 and CRASH_SAYS not in seen.text, path
        assert CRASH_SAYS not in teams["TeamC"].get(path).text
    assert CRASH_SAYS in organiser.get("/tournament/teams/TeamF.html").text
    assert "Faults are shown to each team on its own page." in public.get("/tournament/index.html").text
    for path in ("/tournament/..%2F..%2Fcredentials.csv", "/tournament/tables/..%2F..%2Fsecret.key"):
        assert public.get(path).status == 404
    hands = teams["TeamC"].get("/team/hands/phh")
    assert hands.status == 200

    # The finalists: their opponents' folders, their window, updated code and help files.
    finalists = re.search(r"the finalists: ([\w, ]+)", board).group(1).split(", ")
    assert sorted(finalists) == sorted(set(FIRST) - {"TeamF"}), "TeamF was disqualified at its table"
    assert teams["TeamF"].send("GET", "/team/finals-logs.zip").status == 404
    home = teams["TeamC"].get("/team").text
    assert 'href="/team/finals-logs.zip"' in home and 'class="countdown"' in home
    logs = teams["TeamC"].send("GET", "/team/finals-logs.zip")
    assert logs.status == 200
    with zipfile.ZipFile(io.BytesIO(logs.body)) as folders:
        names = folders.namelist()
    assert any(n.endswith("number.txt") for n in names) and any("deal" in n for n in names)
    updated = upload(
        teams["TeamC"], "TeamC.py", (PROGRAMS / "Checker.py").read_bytes(), [("notes.txt", b"opponents\n")]
    )
    assert "1 help files" in updated
    upload(teams["TeamD"], "TeamD.py", (PROGRAMS / "Crash.py").read_bytes(), [])
    verdicts(teams["TeamC"])
    verdicts(teams["TeamD"])
    closes = dt.datetime.fromisoformat(re.search(r'data-until="([^"]+)"', home).group(1))
    poll(lambda: dt.datetime.now(dt.UTC) > closes or None, WINDOW_HOURS * 3600 + 60, every=1.0)
    too_late = upload(teams["TeamE"], "TeamE.rb", FIRST["TeamE"][1], [])
    assert "Upload refused" in too_late and "window" in too_late

    # The final, started from the site and watched live by the public; then the certificates.
    final = organiser.form("/organiser/final", {}, "/organiser")
    assert final.status == 303
    said = organiser.get("/organiser").text
    assert "The final started" in said and "TeamD: initial code (its update failed its check)" in said
    assert "TeamC: updated TeamC.py" in said
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
        page = browser.new_page(viewport={"width": 1280, "height": 800})
        poll(lambda: public.get("/tournament/live/final.html").status == 200 or None, CHECK_S, every=0.5)
        page.goto(organiser.server.url + "tournament/live/final.html?broadcast=1")
        status = page.locator("#live-status")
        expect(status).to_contain_text("the table is over", timeout=CHECK_S * 1000)
        expect(status).to_contain_text("6 deals")
        expect(page.locator("body")).to_have_class(re.compile("broadcast"))
        expect(page.locator("body")).not_to_contain_text(CRASH_SAYS)
        screenshot(page, "contest-final-live")
        browser.close()
    poll(lambda: '"done"' in organiser.send("GET", "/api/final").text or None, CHECK_S, every=1.0)
    awarded = {}
    for team, client in teams.items():
        awarded[team] = re.findall(r'href="/team/certificates/(\w+)"', client.get("/team").text)
        for kind in awarded[team]:
            pdf = client.send("GET", f"/team/certificates/{kind}")
            assert pdf.status == 200 and pdf.body.startswith(b"%PDF"), (team, kind)
    assert all(awarded[team] for team in FIRST if team != "TeamF")
    assert "participation" not in awarded["TeamF"], "its code did not run without errors"
    assert "participation" in awarded["TeamC"]
    pictures(organiser, teams)


def pictures(organiser: Client, teams: dict[str, Client]) -> None:
    """Screenshots of the pages at the contest's end (tests/artifacts/), each seen with its own cookies."""
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
        for name, client, path in (
            ("contest-end-team", teams["TeamC"], "team"),
            ("contest-end-faults", teams["TeamF"], "team/faults"),
            ("contest-end-organiser", organiser, "organiser"),
            ("contest-end-public", Client(organiser.server), "tournament/index.html"),
            ("contest-end-home", Client(organiser.server), ""),
        ):
            context = browser.new_context(viewport={"width": 1280, "height": 900})
            url = organiser.server.url
            context.add_cookies([{"name": c.name, "value": c.value or "", "url": url} for c in client.jar])
            page = context.new_page()
            page.goto(url + path)
            screenshot(page, name)
            context.close()
        browser.close()
