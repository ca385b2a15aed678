"""A team's hands in the viewer (issue 26 item 6): one row per deal it was dealt into, filtered in a real
browser (Debian's Chromium) by position, hole cards, street reached, showdown, all-in, pot and fault; its
results by position and against each opponent in chips per deal and bb/100, checked against the events.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from playwright.sync_api import expect, sync_playwright

from arena.engines.nlhe.events import DealStarted
from arena.games.codem.table import PlayerSpec, TableConfig, run_table
from arena.viewer.hands import summary, team_hands
from arena.viewer.pages import render, site_paths
from arena.viewer.runs import Run
from arena.viewer.site import Site
from arena.viewer.tables import table_log

from support.viewer import CHROMIUM, screenshot, serve

ROOT = Path(__file__).parents[2]
PROGRAMS = ROOT / "tests" / "programs" / "codem"
BOTS = ROOT / "bots" / "codem"
pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(not Path(CHROMIUM).exists(), reason="needs Debian's chromium"),
]


@pytest.fixture(scope="module")
def table(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """25 deals: a caller, a shover (all-ins, side pots), a program answering garbage (a fault a decision)."""
    out = tmp_path_factory.mktemp("hands") / "table"
    players = [
        PlayerSpec("Caller", BOTS / "Caller.py"),
        PlayerSpec("Shover", PROGRAMS / "Shover.py"),
        PlayerSpec("Garbage", PROGRAMS / "Garbage.py"),
        PlayerSpec("Checker", PROGRAMS / "Checker.py"),
    ]
    run_table(players, out, TableConfig(deals=25, seed=4, time_limit_s=1.0))
    return out


def test_hands_and_results_match_the_events(table: Path) -> None:
    run = Run(table)
    hands = team_hands(run, "Caller", public=False)
    log = table_log(table)
    dealt = [
        d
        for d in range(1, log.deals + 1)
        if 1 in next(e for e in log.events(d) if isinstance(e, DealStarted)).in_deal
    ]
    assert [h.deal for h in hands] == dealt
    results = summary(hands)
    profit = sum(s.stacks_after[0] - s.stacks_before[0] for s in log.summaries)
    assert results["total"].chips == profit == sum(h.won for h in hands)
    assert sum(t.deals for _, t in results["positions"]) == len(hands)
    assert sum(t.chips for _, t in results["positions"]) == profit
    assert {name for name, _ in results["against"]} == {"Shover", "Garbage", "Checker"}
    assert results["total"].bb100(10) == pytest.approx(100 * profit / len(hands) / 10)
    faulty = team_hands(run, "Garbage", public=False)
    assert any(h.faults for h in faulty)
    assert not any(h.faults for h in team_hands(run, "Garbage", public=True))
    assert any(h.all_in for h in team_hands(run, "Shover", public=False))
    assert "teams/Caller/hands.html" in set(site_paths(run))
    assert 'href="Caller/hands.html"' in render(Site(run), "teams/Caller.html")


def test_filters_in_the_browser(table: Path) -> None:
    hands = team_hands(Run(table), "Garbage", public=False)
    with sync_playwright() as playwright, serve(table) as url:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
        try:
            page = browser.new_page(viewport={"width": 1440, "height": 900})
            page.goto(url + "teams/Garbage/hands.html")
            rows = page.locator("#hands tr.hand")
            expect(page.locator("#hands-shown")).to_have_text(f"{len(hands)} of {len(hands)} hands")
            page.select_option("[data-filter=position]", "BB")
            bb = [h for h in hands if h.position == "BB"]
            expect(page.locator("#hands tr.hand:visible")).to_have_count(len(bb))
            assert set(page.locator("#hands tr.hand:visible td:nth-child(3)").all_inner_texts()) == {"BB"}
            page.select_option("[data-filter=position]", "")
            page.check("[data-filter=fault]")
            expect(page.locator("#hands tr.hand:visible")).to_have_count(sum(1 for h in hands if h.faults))
            page.uncheck("[data-filter=fault]")
            rank = hands[0].cards[0]
            page.fill("[data-filter=cards]", rank)
            expected = [h for h in hands if rank in (h.cards[0], h.cards[3])]
            expect(page.locator("#hands tr.hand:visible")).to_have_count(len(expected))
            page.fill("[data-filter=cards]", hands[0].cards)
            expect(page.locator("#hands tr.hand:visible")).to_have_count(
                sum(1 for h in hands if set(h.cards.split()) == set(hands[0].cards.split()))
            )
            page.fill("[data-filter=cards]", "")
            page.fill("[data-filter=pot]", "100")
            expect(page.locator("#hands tr.hand:visible")).to_have_count(
                sum(1 for h in hands if h.pot >= 100)
            )
            page.fill("[data-filter=pot]", "")
            page.select_option("[data-filter=showdown]", "yes")
            expect(page.locator("#hands tr.hand:visible")).to_have_count(sum(1 for h in hands if h.showdown))
            assert rows.count() == len(hands)
            expect(page.locator("#by-position")).to_contain_text("bb/100")
            screenshot(page, "team-hands")
        finally:
            browser.close()
