"""The heads-up and TwoCardDraw pages read as Code'em's do: rounds named, figures explained."""

from __future__ import annotations

import json
from html.parser import HTMLParser
from pathlib import Path

from arena.viewer.pages import render
from arena.viewer.runs import Run
from arena.viewer.site import Site

HAND = {
    "hand": 1,
    "alice": "2h 6s",
    "bob": "5c Ts",
    "board": "9d Jc Ad 2d As",
    "rounds": [
        {"round": 1, "alice": "CHECK", "bob": "CHECK"},
        {"round": 2, "alice": "RAISE 100", "bob": "CALL 100"},
        {"round": 3, "alice": "CHECK", "bob": "CHECK"},
        {"round": 4, "alice": "CHECK", "bob": "CHECK"},
    ],
    "showdown": {"alice": 2885888, "bob": 1874032, "outcome": 1},
    "delta": 110,
}
CASE = {
    "case": 1,
    "strategy": "/strategies/strategy1.txt",
    "bet1": 1,
    "bet2": 2,
    "value": -0.32,
    "hands": 250,
    "hands_played": 250,
    "profit": -161,
    "score": 9839.0,
    "best_expected_profit": 80.5,
    "share": -2.0,
    "time_s": 0.05,
    "fault": None,
}


class Cells(HTMLParser):
    """The text of each ``<td>`` of the row ``data-hand="1"``, and the cards each holds."""

    def __init__(self) -> None:
        super().__init__()
        self.cells: list[tuple[list[str], list[str]]] = []  # (its texts, the data-card of its cards)
        self.in_row = False

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        found = dict(attrs)
        if tag == "tr":
            self.in_row = found.get("data-hand") == "1"
        elif self.in_row and tag == "td":
            self.cells.append(([], []))
        elif self.in_row and self.cells and found.get("data-card"):
            self.cells[-1][1].append(str(found["data-card"]))

    def handle_data(self, data: str) -> None:
        if self.in_row and self.cells and data.strip():
            self.cells[-1][0].append(data.strip())


def test_a_headsup_hand_names_its_rounds_and_keeps_each_hand_in_one_group(tmp_path: Path) -> None:
    (tmp_path / "hands.jsonl").write_text(json.dumps(HAND) + "\n")
    html = render(Site(Run(tmp_path)), "index.html")
    cells = Cells()
    cells.feed(html)
    cards = [codes for _, codes in cells.cells]
    assert cards[1:4] == [["2h", "6s"], ["5c", "Ts"], ["9d", "Jc", "Ad", "2d", "As"]]
    assert html.count('<span class="cards">') == 3  # each hand one group the page keeps on one line
    rounds = " ".join(cells.cells[4][0])
    assert "pre-flop: check / check" in rounds and "flop: raise 100 / call 100" in rounds
    assert "turn: check / check" in rounds and "river: check / check" in rounds


def test_the_twocard_page_explains_share_and_score(tmp_path: Path) -> None:
    (tmp_path / "results.json").write_text(
        json.dumps({"program": "p.py", "interface": "class", "score": 9839.0, "cases": [CASE]})
    )
    html = render(Site(Run(tmp_path)), "index.html")
    terms = Terms()
    terms.feed(html)
    assert {"value", "best achievable", "share", "score"} <= terms.explained.keys()
    assert "max(0, profit + 10000)" in terms.explained["score"]
    assert "profit ÷ best achievable" in terms.explained["share"]
    assert "-200.0%" in html  # the share itself, beside its explanation
    case = tmp_path / "case_1"
    case.mkdir()
    (case / "hands.jsonl").write_text("")
    page = render(Site(Run(tmp_path)), "cases/1/1.html")
    assert "share -200.0% · score 9839" in page and 'href="../../index.html#explain"' in page


class Terms(HTMLParser):
    """The terms a ``<dl class="explain">`` defines, each with its explanation."""

    def __init__(self) -> None:
        super().__init__()
        self.explained: dict[str, str] = {}
        self.inside = False
        self.term: str | None = None
        self.tag = ""

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag == "dl":
            self.inside = "explain" in (dict(attrs).get("class") or "").split()
        self.tag = tag if tag in ("dt", "dd") else self.tag

    def handle_endtag(self, tag: str) -> None:
        if tag == "dl":
            self.inside = False

    def handle_data(self, data: str) -> None:
        if not self.inside or not data.strip():
            return
        if self.tag == "dt":
            self.term = data.strip()
            self.explained[self.term] = ""
        elif self.tag == "dd" and self.term is not None:
            self.explained[self.term] += data
