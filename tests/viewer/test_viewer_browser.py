"""The viewer in a real browser (Debian's Chromium through Playwright) over real runs of real programs.

One Code'em table of sample programs beside two hostile teams (names that are markup, a program that
answers and crashes with markup), one small tournament with its final, and a table played while the
browser follows it live. Screenshots go to tests/artifacts/.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

from arena.engines.nlhe.events import DealEnded, HoleCardsDealt, PotAwarded, StreetStarted
from arena.games.codem.table import PlayerSpec, TableConfig, run_table
from arena.viewer.names import card_code
from arena.viewer.static_site import export_site
from arena.viewer.tables import TableLog

from support.viewer import CHROMIUM, screenshot, serve

ROOT = Path(__file__).parents[2]
SAMPLES = ROOT / "sample_tables"
PROGRAMS = ROOT / "tests" / "programs"
SCRIPT_TEAM = "<script>"
IMG_TEAM = '<img src=x onerror="document.title=2">'

VIEWPORT = (1440, 900)  # the conftest page's size here
pytestmark = [
    pytest.mark.slow,  # real tables and a tournament played for the module, then a browser over them
    pytest.mark.skipif(not Path(CHROMIUM).exists(), reason="needs Debian's chromium"),
]


def _arena(*args: str, timeout: float = 300) -> subprocess.CompletedProcess:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    return subprocess.run(
        [sys.executable, "-m", "arena", *args],
        env=env,
        capture_output=True,
        text=True,
        timeout=timeout,
        check=True,
    )


@pytest.fixture(scope="module")
def hostile_table(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """30 deals of four sample programs and two hostile teams; seed 4 gives side pots (deal 20) and faults."""
    out = tmp_path_factory.mktemp("hostile") / "table"
    players = [
        PlayerSpec("Pr0007", SAMPLES / "Pr0007.py"),
        PlayerSpec(SCRIPT_TEAM, PROGRAMS / "viewer" / "Marker.py"),
        PlayerSpec("Pr0004", SAMPLES / "Pr0004.pl"),
        PlayerSpec(IMG_TEAM, SAMPLES / "Pr0012.pl"),
        PlayerSpec("Pr0010", SAMPLES / "Pr0010.pl"),
        PlayerSpec("Pr0011", SAMPLES / "Pr0011.py"),
    ]
    run_table(players, out, TableConfig(deals=30, seed=4, time_limit_s=1.0))
    return out


@pytest.fixture(scope="module")
def tournament(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A tournament of three sample programs (one table) and its final.

    A known seed: Pr0011 crashes when its hole cards' numbers add up to a multiple of 7, and a secret key's
    cards got it disqualified now and then (over the fault limit), so the final had two teams, not three.
    Seed 1 gives it 2 faults in 12 deals."""
    base = tmp_path_factory.mktemp("tournament")
    submissions = base / "submissions"
    submissions.mkdir()
    for name in ("Pr0001.py", "Pr0004.pl", "Pr0011.py"):
        (submissions / name).write_bytes((SAMPLES / name).read_bytes())
    run = base / "run"
    _arena("tournament", str(submissions), "--out", str(run), "--deals", "12", "--jobs", "1", "--seed", "1")
    _arena("final", str(run), "--deals", "8")
    return run


def _side_pot_deal(folder: Path) -> int:
    log = TableLog(folder).refresh()
    deals = [s.deal for s in log.summaries if s.side_pot]
    assert deals, "the seeded table should hold a deal with a side pot"
    return deals[0]


def test_overview_shows_standings_crosstable_tables_final_and_links(page: Page, tournament: Path) -> None:
    results = json.loads((tournament / "results.json").read_text())
    with serve(tournament) as url:
        page.goto(url)
        rows = page.locator("table.standings tbody tr")
        expect(rows).to_have_count(3)
        assert [rows.nth(i).get_attribute("data-team") for i in range(3)] == [
            s["team"] for s in results["standings"]
        ]
        expect(page.locator("table.crosstable tbody tr")).to_have_count(3)
        expect(page.locator('tr[data-table="table001"] .status')).to_have_text("played")
        expect(page.locator("#final-h")).to_be_visible()
        expect(page.locator("section[aria-labelledby='final-h'] tbody tr")).to_have_count(3)
        screenshot(page, "overview")
        page.locator('tr[data-table="table001"] a').first.click()
        expect(page.locator("h1")).to_contain_text("Table table001")
        expect(page.locator("#deals tbody tr")).to_have_count(12)
        page.locator("table.seats-table tbody a").first.click()
        expect(page.locator("h1")).to_contain_text("Team")
        expect(page.locator("table.stats")).to_be_visible()


def test_overview_shows_the_adjusted_value_rank_odds_and_who_is_ahead(page: Page, tournament: Path) -> None:
    results = json.loads((tournament / "results.json").read_text())
    with serve(tournament) as url:
        page.goto(url)
        expect(page.locator("#standings-h")).to_contain_text("ranked by chips")
        for standing in results["standings"]:
            cells = page.locator(f'table.standings tr[data-team="{standing["team"]}"] td')
            expect(cells.nth(7)).to_have_text(f"{standing['adjusted_per_deal']:+.2f}")
            low, high = standing["adjusted_ci95_low"], standing["adjusted_ci95_high"]
            expect(cells.nth(8)).to_contain_text(f"[{low:.2f}, {high:.2f}]")
            expect(cells.nth(9)).to_have_text(f"{standing['rank_probability'] * 100:.0f}%")
        ahead = page.locator("table.ahead tbody tr")
        expect(ahead).to_have_count(3)
        first, second = results["standings"][0]["team"], results["standings"][1]["team"]
        share = results["ahead"][first][second]
        expect(ahead.nth(0).locator("td").nth(1)).to_have_text(f"{share * 100:.0f}%")
        screenshot(page, "overview-ahead")


def test_table_page_charts_filters_and_sorts_deals(page: Page, hostile_table: Path) -> None:
    log = TableLog(hostile_table).refresh()
    with serve(hostile_table) as url:
        page.goto(url + "tables/table.html")
        expect(page.locator("#deals tbody tr")).to_have_count(log.deals)
        expect(page.locator("figure.chart polyline")).to_have_count(6)
        page.select_option("#deal-filter", "sidepot")
        visible = page.locator("#deals tbody tr:not([hidden])")
        expect(visible).to_have_count(sum(1 for s in log.summaries if s.side_pot))
        page.select_option("#deal-filter", "all")
        page.select_option("#deal-sort", "pot")
        biggest = max(log.summaries, key=lambda s: (s.pot, -s.deal))
        expect(page.locator("#deals tbody tr").first).to_have_attribute("data-deal", str(biggest.deal))
        page.select_option("#deal-filter", "faults")
        faulted = {int(json.loads(line)["deal"]) for line in (hostile_table / "faults.jsonl").open()}
        expect(visible).to_have_count(len(faulted))
        screenshot(page, "table")


def _felt_state(page: Page) -> dict:
    return page.evaluate(
        """() => {
            const felt = document.getElementById('felt');
            return {
                pot: Number(felt.dataset.pot),
                seats: [...felt.querySelectorAll('.seat')].map((s) => ({
                    seat: Number(s.dataset.seat),
                    stack: Number(s.dataset.stack),
                    name: s.querySelector('.name').textContent,
                    cards: [...s.querySelectorAll('.hole .card')].map((c) => c.dataset.card || null),
                })),
                board: [...felt.querySelectorAll('.board .card')].map((c) => c.dataset.card),
                pots: [...felt.querySelectorAll('.pots li')].map((p) => Number(p.dataset.amount)),
            };
        }"""
    )


def test_side_pot_deal_replayed_to_its_end_matches_the_events(page: Page, hostile_table: Path) -> None:
    deal = _side_pot_deal(hostile_table)
    log = TableLog(hostile_table).refresh()
    events = log.events(deal)
    names = log.seat_names()
    total = sum(events[0].stacks)
    with serve(hostile_table) as url:
        page.goto(f"{url}tables/table/deal{deal}.html")
        count = page.locator("#step-count")
        steps = int(count.inner_text().split()[-1])
        expect(count).to_have_text(f"step 1 of {steps}")
        page.locator("h1").click()
        for index in range(1, steps):
            page.keyboard.press("ArrowRight")
            expect(count).to_have_text(f"step {index + 1} of {steps}")
            state = _felt_state(page)
            assert state["pot"] + sum(s["stack"] for s in state["seats"]) == total, f"step {index + 1}"
        state = _felt_state(page)
        screenshot(page, "replay-side-pot")
    end = events[-1]
    assert isinstance(end, DealEnded)
    assert [s["stack"] for s in state["seats"]] == list(end.stacks)
    assert [s["name"] for s in state["seats"]] == names
    dealt = {e.seat: [card_code(c) for c in e.cards] for e in events if isinstance(e, HoleCardsDealt)}
    assert {s["seat"]: s["cards"] for s in state["seats"] if s["cards"]} == dealt
    assert state["board"] == [card_code(c) for e in events if isinstance(e, StreetStarted) for c in e.board]
    awards = [e for e in events if isinstance(e, PotAwarded)]
    assert len(awards) > 1 and state["pots"] == [a.amount for a in awards]
    assert state["pot"] == 0


def test_keyboard_steps_plays_and_pauses(page: Page, hostile_table: Path) -> None:
    with serve(hostile_table) as url:
        page.goto(f"{url}tables/table/deal{_side_pot_deal(hostile_table)}.html")
        count = page.locator("#step-count")
        steps = int(count.inner_text().split()[-1])
        page.locator("h1").click()
        for _ in range(3):
            page.keyboard.press("ArrowRight")
        expect(count).to_have_text(f"step 4 of {steps}")
        page.keyboard.press("ArrowLeft")
        expect(count).to_have_text(f"step 3 of {steps}")
        expect(page.locator('#log button[aria-current="step"]')).to_have_attribute("data-step", "2")
        page.keyboard.press(" ")
        expect(page.locator("#btn-play")).to_have_attribute("aria-label", "pause")
        expect(count).not_to_have_text(f"step 3 of {steps}")
        page.keyboard.press(" ")
        expect(page.locator("#btn-play")).to_have_attribute("aria-label", "play")
        page.keyboard.press("End")
        expect(count).to_have_text(f"step {steps} of {steps}")
        page.keyboard.press("Home")
        expect(count).to_have_text(f"step 1 of {steps}")


def test_markup_from_teams_and_programs_changes_nothing(page: Page, hostile_table: Path) -> None:
    faults = [json.loads(line) for line in (hostile_table / "faults.jsonl").open()]
    answered = sorted(
        {f["deal"] for f in faults if f["team"] == SCRIPT_TEAM and f["kind"] == "not_an_integer"}
    )
    assert any("<script>" in f["stderr"] for f in faults) and any("<script>" in f["reason"] for f in faults)
    assert answered, "Marker.py answers with markup on the flop"
    # Team pages are named by their order: '<img ...' sorts first, then '<script>'.
    paths = [
        "index.html",
        "tables/table.html",
        f"tables/table/deal{answered[0]}.html",
        "teams/team1.html",
        "teams/team2.html",
    ]
    with serve(hostile_table) as url:
        for path in paths:
            page.goto(url + path)
            assert "owned" not in page.title() and page.title() not in ("1", "2"), path
            assert page.locator("img").count() == 0, path
            scripts = page.locator("script")
            assert scripts.first.get_attribute("src").endswith("viewer.js"), path
            assert all(
                scripts.nth(i).get_attribute("type") == "application/json" for i in range(1, scripts.count())
            ), path
        page.goto(url + "teams/team2.html")
        expect(page.locator("h1 .team-name")).to_have_text(SCRIPT_TEAM)
        page.locator("pre.stderr").first.evaluate("(pre) => pre.closest('details').open = true")
        expect(page.locator("pre.stderr").first).to_contain_text('<script>document.title="owned by stderr"')
        page.locator("table.faults tbody a[href$='#fault']").first.click()  # a fault opens at its decision
        expect(page.locator("#fault-box")).to_be_visible()
        expect(page.locator('#log button[aria-current="step"]')).to_contain_text("default after a fault")
        page.goto(f"{url}tables/table/deal{answered[0]}.html")
        expect(page.locator(".seat .name").nth(1)).to_have_text(SCRIPT_TEAM)
        expect(page.locator(".seat .name").nth(3)).to_have_text(IMG_TEAM)
        page.locator("#log button", has_text="default after a fault").first.click()
        expect(page.locator("#fault-box")).to_be_visible()
        expect(page.locator("#fault-box .fault-team")).to_have_text(SCRIPT_TEAM)
        expect(page.locator("#fault-box .fault-reason")).to_contain_text("'<script>alert(1)</script>'")
        screenshot(page, "replay-fault")


def test_a_table_followed_live_shows_new_deals_as_they_are_played(page: Page, tmp_path: Path) -> None:
    out = tmp_path / "live"
    out.mkdir()
    (out / "events.jsonl").write_text("")  # a table about to start: the viewer recognises the folder
    slow = PROGRAMS / "viewer" / "Slow.py"
    programs = []
    for name in ("Alpha", "Beta", "Gamma"):
        (tmp_path / f"{name}.py").write_bytes(slow.read_bytes())
        programs.append(str(tmp_path / f"{name}.py"))
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    with serve(out) as url:
        page.goto(f"{url}live/table.html?broadcast=1&pace=150")
        expect(page.locator("#waiting")).to_be_visible()
        table = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "arena",
                "table",
                *programs,
                "--out",
                str(out),
                "--deals",
                "14",
                "--seed",
                "3",
            ],
            env=env,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        try:
            items = page.locator("#live-deals li")
            expect(items.first).to_be_visible(timeout=60_000)
            first_seen = items.count()
            still_playing = table.poll() is None
            expect(page.locator("body")).to_have_class("broadcast")
            expect(page.locator(".seat .name").first).to_have_text("Alpha")
            expect(page.locator(".seat .card.back").first).to_be_visible()
            screenshot(page, "live-broadcast")
            # The deal being replayed is not in the list yet, and its log holds only the steps shown.
            state = page.evaluate(
                """() => ({
                    deal: document.getElementById("live-deal").textContent,
                    listed: [...document.querySelectorAll("#live-deals li")]
                        .map((li) => "deal " + li.dataset.deal),
                    logged: document.querySelectorAll("#log button").length,
                    step: document.getElementById("step-count").textContent,
                })"""
            )
            shown, total = (int(n) for n in state["step"].removeprefix("step ").split(" of "))
            if shown < total:
                assert state["deal"] not in state["listed"], state
                assert state["logged"] == shown, state
            # the list grows as replays end (a page that fell behind adds the deals it skipped at once)
            page.wait_for_function(
                "seen => document.querySelectorAll('#live-deals li').length > seen",
                arg=first_seen,
                timeout=60_000,
            )
            expect(page.locator("#live-status")).to_contain_text("the table is over", timeout=120_000)
            expect(items).to_have_count(14, timeout=60_000)
            assert table.wait(timeout=60) == 0
        finally:
            if table.poll() is None:
                table.kill()
                table.wait()
    assert still_playing, "the first deal was seen only after the table had finished"
    assert first_seen < 14


def test_static_export_opens_from_disk(page: Page, hostile_table: Path, tmp_path: Path) -> None:
    site = tmp_path / "site"
    pages = export_site(hostile_table, site)
    log = TableLog(hostile_table).refresh()
    assert pages == 2 + 6 + 6 + log.deals  # index, the table, six team pages and their hands, every deal
    assert not list(site.rglob("live*"))
    page.goto((site / "index.html").as_uri())
    expect(page.locator("h1")).to_contain_text("Table table")
    page.locator('#deals a:text-is("3")').click()
    expect(page.locator("h1")).to_contain_text("Deal 3")
    page.keyboard.press("End")
    steps = int(page.locator("#step-count").inner_text().split()[-1])
    expect(page.locator("#step-count")).to_have_text(f"step {steps} of {steps}")
    expect(page.locator("#felt")).to_have_attribute("data-pot", "0")
    assert page.locator(".hole .card[data-card]").count() >= 4
    page.locator('a[rel="next"]').click()
    expect(page.locator("h1")).to_contain_text("Deal 4")
    screenshot(page, "export-deal")
    # The export is the whole record: the ways of watching without spoilers need the server.
    page.goto((site / "tables" / "table" / "deal4.html").as_uri() + "?broadcast=1&pace=40")
    expect(page.locator("nav.views")).to_contain_text("This export is the whole record")
    expect(page.locator("body")).not_to_have_class("broadcast")


def test_headsup_and_twocard_match_views(page: Page, tmp_path: Path) -> None:
    headsup, twocard = tmp_path / "headsup", tmp_path / "twocard"
    _arena("headsup", str(ROOT / "bots/headsup/example2.py"), "--hands", "300", "--out", str(headsup))
    strategies = sorted((ROOT / "bots/twocard/strategies").glob("*.txt"))[:2]
    _arena(
        "twocard",
        "play",
        str(ROOT / "bots/twocard/sample.py"),
        "--strategy",
        *map(str, strategies),
        "--hands",
        "250",
        "--out",
        str(twocard),
    )
    results = json.loads((headsup / "results.json").read_text())
    page.set_viewport_size({"width": 1000, "height": 800})  # a laptop's width, where cards once stacked
    with serve(headsup) as url:
        page.goto(url)
        expect(page.locator("dl.figures")).to_contain_text(f"{results['W']:.3f}")
        expect(page.locator("table.hands tbody tr")).to_have_count(200)
        expect(page.locator("figure.chart polygon.band")).to_have_count(1)
        first = json.loads((headsup / "hands.jsonl").open().readline())
        row = page.locator('tr[data-hand="1"] .card')
        codes = [row.nth(i).get_attribute("data-card") for i in range(row.count())]
        assert codes == (first["alice"] + " " + first["bob"] + " " + first["board"]).split()
        tops = {round((row.nth(i).bounding_box() or {"y": -1})["y"]) for i in range(row.count())}
        assert len(tops) == 1, tops  # both hands and the board each in a row, side by side
        screenshot(page, "headsup")
        page.locator('a[rel="next"]').first.click()
        expect(page.locator("table.hands tbody tr")).to_have_count(100)
    with serve(twocard) as url:
        page.goto(url)
        expect(page.locator("table.cases tbody tr")).to_have_count(2)
        expect(page.locator("dl.explain")).to_contain_text("profit ÷ best achievable")
        page.locator('tr[data-case="1"] a').click()
        expect(page.locator("table.hands tbody tr")).to_have_count(200)
        expect(page.locator("figure.chart polyline")).to_have_count(2)
        screenshot(page, "twocard")
