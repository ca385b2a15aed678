"""The replay keeps the secret: watched with hole cards hidden, as a broadcast or as one team, the page
holds nothing of the deal's future (log, cards, data) until its step; live, the deal list names a deal's
winners only once its replay has reached them. Checked on the served page's whole DOM in Chromium, step
by step, over a real engine deal written as a table folder."""

from __future__ import annotations

from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

from arena.cards import shuffled_deck
from arena.engines.nlhe import CheckCall, Deal, Fold, RaiseTo, TableRules
from arena.engines.nlhe.events import HandShown, HoleCardsDealt
from arena.evaluator import evaluate
from arena.games.codem.output import TableFolder
from arena.viewer.codem_pages import deal_payload
from arena.viewer.names import card_code
from arena.viewer.replay import replay
from arena.viewer.runs import Run
from arena.viewer.secret import Mode, Viewing

from support.viewer import CHROMIUM, serve

NAMES = ["Ann", "Bob", "Cy", "Dee", "Eve", "Fay"]
STACKS = (1500, 1500, 1500, 1500, 200, 1500)


def showdown_deal() -> Deal:
    """Dealer 3; Eve all-in for 200 pre-flop, Bob and Fay play on to a showdown on the river."""
    deal = Deal(rules=TableRules(), deal_number=1, dealer=3, stacks=STACKS, deck=shuffled_deck(2026))
    for action in (
        RaiseTo(amount=30), Fold(), CheckCall(), Fold(), Fold(),
        RaiseTo(amount=200), CheckCall(), CheckCall(),
        RaiseTo(amount=100), RaiseTo(amount=300), CheckCall(),
        CheckCall(), CheckCall(), CheckCall(), CheckCall(),
    ):  # fmt: skip
        deal.apply(action)
    assert deal.is_over
    return deal


@pytest.fixture(scope="module")
def table(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("secret") / "table"
    with TableFolder(folder) as out:
        out.write_seats(NAMES)
        out.write_deal(1, showdown_deal().events, "")
    return folder


def _holes() -> dict[int, str]:
    """Each dealt seat's two cards as the page writes them (``data-card="Ah"``)."""
    return {
        e.seat: " ".join(card_code(c) for c in e.cards)
        for e in showdown_deal().events
        if isinstance(e, HoleCardsDealt)
    }


def _shown_seats() -> set[int]:
    return {e.seat for e in showdown_deal().events if isinstance(e, HandShown) and not e.folded}


def _future_leaks(html: str, texts: list[str], index: int, seen: set[int]) -> list[str]:
    """What of steps after ``index`` (their log lines) or of hole cards not to be seen is in ``html``."""
    leaks = [text for text in texts[index + 1 :] if text not in texts[: index + 1] and text in html]
    for seat, cards in _holes().items():
        if seat not in seen:
            leaks += [f"seat {seat}'s {code}" for code in cards.split() if f'data-card="{code}"' in html]
            leaks += [f"seat {seat}'s {code}" for code in cards.split() if f'"{code}"' in html]
    return leaks


def test_a_secret_payload_holds_only_the_steps_up_to_its_own(table: Path) -> None:
    run = Run(table)
    info = run.tables()[0]
    log = run.log(info)
    assert log is not None
    every = deal_payload(info, log, 1)
    assert not every["more"] and len(every["steps"]) > 10
    hidden = deal_payload(info, log, 1, Viewing(Mode.HIDDEN), upto=3)
    assert [s["text"] for s in hidden["steps"]] == [s["text"] for s in every["steps"][:4]]
    assert hidden["more"] and hidden["other_faults"] == []
    assert all(card == "" for step in hidden["steps"] for seat in step["seats"] for card in seat["cards"])
    as_cy = deal_payload(info, log, 1, Viewing(Mode.TEAM, "Cy"), upto=-1)
    cards = {s["seat"]: s["cards"] for s in as_cy["steps"][5]["seats"]}
    assert cards[3] == _holes()[3].split() and cards[1] == ["", ""]
    assert not as_cy["more"]


def test_each_decision_states_the_amount_to_call_and_the_pot_odds() -> None:
    steps = replay(showdown_deal().events, names=NAMES)
    decisions = [(s.to_act, s.to_call, s.pot_odds) for s in steps if s.to_act is not None]
    # After the blinds (5 and 10): Fay first to act owes 10 into 15; then, after her raise to 30, Ann
    # folds facing 30 and Bob owes 30.
    assert decisions[0] == (6, 10, 10 / 25)
    assert decisions[1][:2] == (1, 30)
    assert decisions[2] == (2, 30, 30 / (45 + 30))
    # Eve in the big blind (10) owes 20 to Fay's 30.
    assert (5, 20) in [d[:2] for d in decisions]


pytestmark = pytest.mark.skipif(not Path(CHROMIUM).exists(), reason="needs Debian's chromium")


@pytest.mark.slow
@pytest.mark.parametrize("view", ["view=hidden", "hide=1", "view=broadcast&pace=600000", "view=team&team=Cy"])
def test_a_secret_replay_shows_nothing_before_its_step(page: Page, table: Path, view: str) -> None:
    texts = [s.text for s in replay(showdown_deal().events, names=NAMES)]
    seen = {3} if "Cy" in view else set()
    with serve(table) as url:
        page.goto(f"{url}tables/table/deal1.html?{view}")
        if "broadcast" in view:
            expect(page.locator("body")).to_have_class("broadcast")
            page.locator("#btn-play").click()  # the broadcast plays by itself: pause it
        for index in range(len(texts)):
            expect(page.locator("#step-count")).to_contain_text(f"step {index + 1}")
            expect(page.locator("#log button[aria-current=step]")).to_have_text(texts[index])
            html = page.content()
            if "shows" in texts[index]:
                seen |= _shown_seats()
            assert _future_leaks(html, texts, index, seen) == [], f"at step {index + 1}: {texts[index]}"
            if index < len(texts) - 1:
                page.locator("#btn-next").click()
        expect(page.locator("#step-count")).to_have_text(f"step {len(texts)} of {len(texts)}")


@pytest.mark.slow
def test_the_record_links_to_the_secret_ways_and_the_rest_comes_on_demand(page: Page, table: Path) -> None:
    texts = [s.text for s in replay(showdown_deal().events, names=NAMES)]
    with serve(table) as url:
        page.goto(f"{url}tables/table/deal1.html")
        expect(page.locator("#log button")).to_have_count(len(texts))  # the record: every step
        assert _future_leaks(page.content(), texts, 0, set())  # which the check above would catch
        page.locator("a:text-is('as Cy')").click()
        expect(page.locator("#log button")).to_have_count(1)
        page.keyboard.press("End")
        expect(page.locator("#log button")).to_have_count(len(texts))
        expect(page.locator("#felt")).to_have_attribute("data-pot", "0")
        page.keyboard.press("Home")
        page.keyboard.press("ArrowRight")
        page.keyboard.press("ArrowRight")
        page.keyboard.press("ArrowRight")
        expect(page.locator("#decision")).to_have_text("Fay to act: 10 to call (1 bb), pot odds 40.0%")


def all_in_deal() -> Deal:
    """Fay shoves pre-flop, everyone folds to Eve in the big blind, who calls all-in for her 200."""
    deal = Deal(rules=TableRules(), deal_number=1, dealer=3, stacks=STACKS, deck=shuffled_deck(7))
    for action in (RaiseTo(amount=1500), Fold(), Fold(), Fold(), Fold(), CheckCall()):
        deal.apply(action)
    assert deal.is_over
    return deal


def test_an_all_in_shows_each_live_hands_equity_until_the_river_and_never_in_secret() -> None:
    events = all_in_deal().events
    steps = replay(events, names=NAMES)
    holes = {e.seat: e.cards for e in events if isinstance(e, HoleCardsDealt)}
    with_equity = [s for s in steps if s.equity]
    assert [s.street.value for s in with_equity][-2:] == ["Flop", "Fourth_Street"]
    assert all(len(s.board) < 5 for s in with_equity)
    for step in with_equity:
        assert [seat for seat, _ in step.equity] == [5, 6]
        assert sum(share for _, share in step.equity) == pytest.approx(1.0)
    turn = with_equity[-1]
    rest = [c for c in range(52) if c not in {*holes[5], *holes[6], *turn.board}]
    wins = 0.0
    for river in rest:  # every river, counted here with the one-hand evaluator
        five, six = (evaluate((*holes[s], *turn.board, river)) for s in (5, 6))
        wins += 1.0 if five > six else 0.5 if five == six else 0.0
    assert dict(turn.equity)[5] == pytest.approx(wins / len(rest))
    assert all(step.to_dict(frozenset())["equity"] == [] for step in with_equity)
    assert turn.to_dict()["equity"] == [{"seat": s, "share": share} for s, share in turn.equity]
