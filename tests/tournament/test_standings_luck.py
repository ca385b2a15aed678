"""Standings with luck taken out: the stored adjusted value per deal, ranking by it, how sure each rank
is and which team is ahead of which, in the CSV, results.json and the terminal; old runs still read."""

from __future__ import annotations

import io
import json
import random
import sqlite3
from pathlib import Path

import numpy as np
import pytest
from rich.console import Console

from arena.cli.tournament_view import print_standings
from arena.engines.nlhe import CheckCall, Deal, RaiseTo, TableRules
from arena.engines.nlhe.events import event_from_dict, event_to_dict
from arena.engines.nlhe.luck import deal_luck
from arena.games.codem.results import TableResult
from arena.intervals import Cluster, ahead_probabilities, bootstrap_means, rank_probabilities
from arena.tournament.host import TournamentSettings, results_document, tournament_stats
from arena.tournament.reports import write_team_reports
from arena.tournament.rounds import ROUNDS_NOTE, played_rounds
from arena.tournament.schedule import TableJob
from arena.tournament.standings import RankBy, compute_standings, separated_standings, standings_csv
from arena.tournament.store import Store, TeamRow

SAMPLES = Path(__file__).parents[2] / "sample_tables"


def _all_in_deal(number: int, rng: random.Random) -> list[dict]:
    """Two seats all-in before the flop."""
    deck = list(range(52))
    rng.shuffle(deck)
    deal = Deal(rules=TableRules(seats=2), deal_number=number, dealer=1, stacks=[1500, 1500], deck=deck)
    deal.apply(RaiseTo(deal.max_raise_to()))
    while not deal.is_over:
        deal.apply(CheckCall())
    return [event_to_dict(e) for e in deal.events]


def _unlucky_deals(count: int) -> list[list[dict]]:
    """All-in deals that seat 1 was the favourite in and lost: chips below zero, adjusted above."""
    rng, found = random.Random(5), []
    while len(found) < count:
        events = _all_in_deal(len(found) + 1, rng)
        luck = deal_luck([event_from_dict(e) for e in events])
        if luck.chips[0] < 0 and luck.adjusted[0] > 300:
            found.append(events)
    return found


def _record(store: Store, name: str, teams: tuple[str, ...], deals: list[list[dict]]) -> None:
    records = []
    for number, events in enumerate(deals, start=1):
        for event in events:
            if event["kind"] == "deal_started":
                event["deal"] = number
        start, end = events[0]["stacks"], events[-1]["stacks"]
        records.append((number, events, [b - a for a, b in zip(start, end, strict=True)]))
    profits = [sum(r[2][seat] for r in records) for seat in range(len(teams))]
    result = {
        "deals_played": len(records),
        "teams": [
            {
                "team": t,
                "seat": s,
                "final_stack": 1500 + p,
                "profit": p,
                "faults": [],
                "disqualified": False,
                "built": True,
                "decisions": 1,
            }
            for s, (t, p) in enumerate(zip(teams, profits, strict=True), start=1)
        ],
    }
    store.record_table(name, TableResult.from_dict(result), records)


@pytest.fixture()
def unlucky(tmp_path: Path) -> Path:
    """A two-team run of two tables in which A got its chips in ahead every deal and lost every one."""
    store = Store(tmp_path)
    jobs = [TableJob(f"table00{n}", n, 0, n, ("A", "B")) for n in (1, 2)]
    store.initialise({"deals": 12, "seed": 1}, [TeamRow(t, f"{t}.py", "Python", t) for t in "AB"], jobs)
    deals = _unlucky_deals(24)
    for n, job in enumerate(jobs):
        _record(store, job.name, job.teams, deals[12 * n : 12 * n + 12])
    store.close()
    return tmp_path


def test_each_deal_stores_its_adjusted_value_and_the_standings_show_both(unlucky: Path) -> None:
    store = Store(unlucky)
    stored = store.conn.execute("SELECT profits, adjusted FROM deals").fetchall()
    assert stored and all(json.loads(a) != json.loads(p) for p, a in stored)
    standings = {s.team: s for s in compute_standings(store)}
    a, b = standings["A"], standings["B"]
    assert a.profit_per_deal < 0 < a.adjusted_per_deal
    assert a.adjusted_per_deal == pytest.approx(-b.adjusted_per_deal, abs=0.01)  # zero-sum
    assert a.adjusted_ci95_low <= a.adjusted_per_deal <= a.adjusted_ci95_high
    assert [s.team for s in compute_standings(store)] == ["B", "A"]  # chips by default
    assert [s.team for s in compute_standings(store, rank_by=RankBy.ADJUSTED)] == ["A", "B"]
    store.close()


def test_a_clear_lead_is_sure_of_its_rank_and_ahead_in_every_export(unlucky: Path) -> None:
    store = Store(unlucky)
    standings, separation = separated_standings(store, rank_by=RankBy.CHIPS)
    assert [s.team for s in standings] == ["B", "A"]
    assert standings[0].rank_probability == 1.0 and standings[0].ahead_of == "A"
    assert separation.teams == ("B", "A") and separation.ahead == ((0.0, 1.0), (0.0, 0.0))
    header = standings_csv(standings).splitlines()[0].split(",")
    for column in (
        "adjusted_per_deal",
        "adjusted_ci95_low",
        "adjusted_ci95_high",
        "rank_probability",
        "ahead_of",
    ):
        assert column in header
    document = results_document(store, TournamentSettings(deals=12, seed=1), standings, separation)
    assert document["rank_by"] == "chips" and document["ahead"] == {
        "B": {"B": 0.0, "A": 1.0},
        "A": {"B": 0.0, "A": 0.0},
    }
    assert document["standings"][0]["ahead_of"] == "A"
    store.close()


def test_the_terminal_shows_both_values_the_rank_probability_and_who_is_ahead(
    unlucky: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    store = Store(unlucky)
    standings, separation = separated_standings(store, rank_by=RankBy.ADJUSTED)
    store.close()
    out = io.StringIO()
    monkeypatch.setattr(
        "arena.cli.tournament_view.Console", lambda: Console(file=out, width=160, no_color=True)
    )
    print_standings(standings, "table", unlucky, separation)
    shown = out.getvalue()
    assert "ranked by adjusted" in shown and "adjusted/deal" in shown and "P(rank)" in shown
    assert (
        f"{standings[0].adjusted_per_deal:+.2f}" in shown and f"{standings[0].profit_per_deal:+.2f}" in shown
    )
    assert "ahead of #" in shown and "│1 │         A │   │100%*│" in shown


def test_a_run_recorded_before_the_adjusted_value_gets_it_from_its_events(unlucky: Path) -> None:
    store = Store(unlucky)
    expected = [(s.team, s.adjusted_per_deal) for s in compute_standings(store)]
    store.close()
    with sqlite3.connect(unlucky / "tournament.sqlite") as conn:
        conn.execute("ALTER TABLE deals DROP COLUMN adjusted")
    reader = Store.open_read_only(unlucky)  # the viewer's reader: the old database as it is
    assert [(s.team, s.adjusted_per_deal) for s in compute_standings(reader)] == expected
    reader.close()
    writer = Store(unlucky)  # a resumed run adds the column; old deals are valued on read
    assert writer.conn.execute("SELECT COUNT(*) FROM deals WHERE adjusted IS NULL").fetchone()[0] == 24
    assert [(s.team, s.adjusted_per_deal) for s in compute_standings(writer)] == expected
    writer.close()


def test_the_bootstrap_finds_a_sure_order_and_an_open_one() -> None:
    rng = np.random.default_rng(0)
    # three teams at two tables of 200 deals: A is 5 a deal ahead, B and C the same but for noise
    clusters = []
    for _table in range(2):
        noise = rng.normal(0, 1, size=(200, 3))
        values = noise + np.array([5.0, 0.0, 0.0])
        clusters.append(Cluster(np.arange(3), values, np.ones((200, 3))))
    means = bootstrap_means(clusters, 3, replicates=400, seed=1)
    ahead = ahead_probabilities(means)
    assert ahead[0, 1] == ahead[0, 2] == 1.0 and ahead[1, 0] == 0.0
    assert 0.05 < ahead[1, 2] < 0.95 and ahead[1, 2] + ahead[2, 1] == pytest.approx(1.0)
    held = rank_probabilities(means, [0, 1, 2])
    assert held[0] == 1.0 and 0.05 < held[1] < 0.95


def test_a_team_s_report_gives_its_adjusted_value_and_rank_odds(unlucky: Path) -> None:
    store = Store(unlucky)
    settings = TournamentSettings(deals=12, seed=1)
    write_team_reports(store, unlucky, settings, tournament_stats(store))
    a = {s.team: s for s in compute_standings(store)}["A"]
    store.close()
    report = (unlucky / "reports" / "A.md").read_text()
    assert f"with the cards' luck taken out {a.adjusted_per_deal:+.2f} a deal" in report
    assert f"this rank in {a.rank_probability:.0%} of resamplings" in report


@pytest.mark.slow
def test_arena_tournament_ranks_by_the_adjusted_value_on_request(tmp_path: Path, capsys) -> None:
    from arena.cli import main

    submissions = tmp_path / "submissions"
    submissions.mkdir()
    for name in ("Pr0001.py", "Pr0007.py", "Pr0011.py"):
        (submissions / name).write_bytes((SAMPLES / name).read_bytes())
    run = tmp_path / "run"
    args = ["tournament", str(submissions), "--out", str(run), "--deals", "15", "--seed", "3"]
    assert main([*args, "--rank-by", "adjusted", "--standings-format", "json"]) == 0
    shown = json.loads(capsys.readouterr().out)
    values = [s["adjusted_per_deal"] for s in shown]
    assert values == sorted(values, reverse=True) and len(shown) == 3
    document = json.loads((run / "results.json").read_text())
    assert document["rank_by"] == "adjusted" and [s["team"] for s in document["standings"]] == [
        s["team"] for s in shown
    ]
    assert set(document["ahead"]) == {s["team"] for s in shown}


def _tables_only(clusters: list[Cluster], replicates: int, seed: int) -> np.ndarray:
    draws = np.random.default_rng(seed).multinomial(
        len(clusters), np.full(len(clusters), 1 / len(clusters)), size=replicates
    )
    sums, counts = np.zeros((replicates, 3)), np.zeros((replicates, 3))
    for t, cluster in enumerate(clusters):
        sums[:, cluster.columns] += draws[:, t : t + 1] * cluster.values.sum(axis=0)
        counts[:, cluster.columns] += draws[:, t : t + 1] * cluster.counts.sum(axis=0)
    return sums / counts


def test_thirty_tables_or_more_are_resampled_whole_fewer_deal_by_deal_too(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    rng = np.random.default_rng(2)
    clusters = [
        Cluster(np.array([t % 3, (t + 1) % 3]), rng.normal(0, 1, size=(50, 2)), np.ones((50, 2)))
        for t in range(30)
    ]
    assert np.allclose(bootstrap_means(clusters, 3, replicates=200, seed=3), _tables_only(clusters, 200, 3))
    few = bootstrap_means(clusters[:29], 3, replicates=200, seed=3)
    assert np.all(np.isfinite(few)) and not np.allclose(few, _tables_only(clusters[:29], 200, 3))
    monkeypatch.setattr("arena.intervals.DEAL_DRAWS", 29 * 50 * 200 - 1)  # past the cap: whole tables too
    assert np.allclose(
        bootstrap_means(clusters[:29], 3, replicates=200, seed=3), _tables_only(clusters[:29], 200, 3)
    )


def test_past_most_pairs_teams_who_is_ahead_is_left_out(
    unlucky: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr("arena.tournament.standings.MOST_PAIRS", 1)
    store = Store(unlucky)
    standings, separation = separated_standings(store)
    document = results_document(store, TournamentSettings(deals=12, seed=1), standings, separation)
    store.close()
    assert separation.ahead == () and document["ahead"] == {}
    assert all(s.ahead_of == "" for s in standings) and standings[0].rank_probability == 1.0


def test_a_swiss_or_groups_round_rates_teams_by_their_adjusted_value(unlucky: Path) -> None:
    """The planner of the next round sees each team's luck-adjusted value per deal, not its chips: A,
    unlucky at every deal, is rated above B."""
    store = Store(unlucky)
    store.set_note(ROUNDS_NOTE, [["table001", "table002"]])
    [played] = played_rounds(store)
    assert [t.teams for t in played] == [(0, 1), (0, 1)]
    for name, table in zip(("table001", "table002"), played, strict=True):
        deals = store.deal_values(name)
        assert table.results == pytest.approx([sum(d[2][seat] for d in deals) / 12 for seat in (0, 1)])
        assert table.results[0] > 0 > table.results[1]
    assert all(row.profit < 0 for row in store.results() if row.team == "A")  # chips say the opposite
    store.close()
