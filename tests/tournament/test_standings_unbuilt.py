"""A team whose program never built sat out every deal: the standings count no deal for it and show
"did not build" in place of its figures, in the terminal, the viewer, the CSV and ``results.json``."""

from __future__ import annotations

import csv
import io
from pathlib import Path

import pytest
from rich.console import Console

from arena.cli.tournament_view import print_standings
from arena.engines.nlhe import CheckCall, Deal, Fold, TableRules
from arena.engines.nlhe.events import event_to_dict
from arena.games.codem.results import TableResult
from arena.tournament.host import TournamentSettings, results_document
from arena.tournament.schedule import TableJob
from arena.tournament.standings import separated_standings, standings_csv
from arena.tournament.store import Store, TeamRow
from arena.viewer.pages import render
from arena.viewer.runs import Run
from arena.viewer.site import Site

TEAMS = ("A", "B", "Unbuilt")


def _deal(number: int) -> list[dict]:
    """Three seats, the third on the button folds at once (it sits out); the blinds check it down."""
    deal = Deal(
        rules=TableRules(seats=3), deal_number=number, dealer=3, stacks=[1500] * 3, deck=list(range(52))
    )
    deal.apply(Fold())
    while not deal.is_over:
        deal.apply(CheckCall())
    return [event_to_dict(e) for e in deal.events]


@pytest.fixture()
def run(tmp_path: Path) -> Path:
    """One table of four deals at which the third team's program did not build."""
    store = Store(tmp_path)
    job = TableJob("table001", 1, 0, 1, TEAMS)
    store.initialise({"deals": 4, "seed": 1}, [TeamRow(t, f"{t}.c", "C", t) for t in TEAMS], [job])
    records = []
    for number in range(1, 5):
        events = _deal(number)
        start, end = events[0]["stacks"], events[-1]["stacks"]
        records.append((number, events, [b - a for a, b in zip(start, end, strict=True)]))
    result = {
        "deals_played": 4,
        "teams": [
            {
                "team": team,
                "seat": seat,
                "final_stack": 1500 + sum(r[2][seat - 1] for r in records),
                "profit": sum(r[2][seat - 1] for r in records),
                "faults": [],
                "disqualified": False,
                "built": team != "Unbuilt",
                "decisions": 0 if team == "Unbuilt" else 4,
            }
            for seat, team in enumerate(TEAMS, start=1)
        ],
    }
    store.record_table(job.name, TableResult.from_dict(result), records)
    store.close()
    return tmp_path


def test_a_never_built_team_played_no_deal_and_has_no_figures(run: Path) -> None:
    store = Store(run)
    standings, separation = separated_standings(store)
    document = results_document(store, TournamentSettings(deals=4, seed=1), standings, separation)
    store.close()
    by_team = {s.team: s for s in standings}
    assert standings[-1].team == "Unbuilt"
    assert by_team["Unbuilt"].deals == 0 and not by_team["Unbuilt"].built
    assert by_team["A"].deals == by_team["B"].deals == 4 and by_team["A"].built
    assert by_team["Unbuilt"].tables == by_team["Unbuilt"].build_failed == 1  # seated, never built
    assert separation.teams == ("B", "A")  # not in who-is-ahead: it has no result to compare
    assert "Unbuilt" not in by_team["B"].ahead_of and by_team["Unbuilt"].ahead_of == ""
    rows = {r["team"]: r for r in csv.DictReader(io.StringIO(standings_csv(standings)))}
    assert rows["Unbuilt"]["deals"] == "0" and rows["Unbuilt"]["built"] == "False"
    assert rows["A"]["built"] == "True"
    json_rows = {s["team"]: s for s in document["standings"]}
    assert json_rows["Unbuilt"]["deals"] == 0 and json_rows["Unbuilt"]["built"] is False


def test_the_terminal_says_did_not_build_instead_of_zero_figures(
    run: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    store = Store(run)
    standings, separation = separated_standings(store)
    store.close()
    out = io.StringIO()
    monkeypatch.setattr(
        "arena.cli.tournament_view.Console", lambda: Console(file=out, width=160, no_color=True)
    )
    print_standings(standings, "table", run, separation)
    line = next(row for row in out.getvalue().splitlines() if "Unbuilt" in row)
    assert "did not build" in line
    assert "+0" not in line and "0.00" not in line and "%" not in line
    assert "did not build" not in next(row for row in out.getvalue().splitlines() if "│A " in row)


def test_the_overview_says_did_not_build_instead_of_zero_figures(run: Path) -> None:
    page = render(Site(Run(run)), "index.html")
    row = page.split('<tr data-team="Unbuilt">', 1)[1].split("</tr>", 1)[0]
    assert "did not build" in row and "ci-bar" not in row and "+0" not in row
    played = page.split('<tr data-team="A">', 1)[1].split("</tr>", 1)[0]
    assert "did not build" not in played and "ci-bar" in played
