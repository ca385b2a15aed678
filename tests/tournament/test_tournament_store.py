"""The store and the standings, on recorded tables made by hand (no programs run here)."""

from __future__ import annotations

import math
import sqlite3
from pathlib import Path

import pytest

from arena.errors import ConfigError
from arena.games.codem.results import TableResult
from arena.intervals import mean_interval
from arena.tournament.schedule import TableJob, plan_tournament
from arena.tournament.standings import compute_standings, standings_csv
from arena.tournament.store import Store, TeamRow

SETTINGS = {"deals": 2, "seed": 0, "duplicate": False, "time_limit_s": 1.0}


def team_rows(names: list[str]) -> list[TeamRow]:
    return [TeamRow(n, f"/sub/{n}.py", "Python", n * 8) for n in names]


def result_for(job: TableJob, profits: list[int], *, faults: int = 0) -> dict:
    return {
        "deals_played": 2,
        "teams": [
            {
                "team": team,
                "seat": seat,
                "final_stack": 1500 + profit,
                "profit": profit,
                "faults": [
                    {
                        "team": team,
                        "kind": "timeout",
                        "reason": "slow",
                        "deal": 1,
                        "stage": "Flop",
                        "stderr": "",
                    }
                ]
                * faults,
                "disqualified": False,
                "built": True,
                "decisions": 4,
            }
            for seat, (team, profit) in enumerate(zip(job.teams, profits, strict=True), start=1)
        ],
    }


def deals_for(profits_per_deal: list[list[int]]) -> list[tuple[int, list, list[int]]]:
    """Deals recorded as their start and end only (no cards dealt: the adjusted value is the chips)."""
    return [(n, _events(n, p), p) for n, p in enumerate(profits_per_deal, start=1)]


def _events(number: int, profits: list[int]) -> list[dict]:
    seats = list(range(1, len(profits) + 1))
    stacks = [1500] * len(profits)
    return [
        {"kind": "deal_started", "deal": number, "dealer": 1, "stacks": stacks, "in_deal": seats},
        {
            "kind": "deal_ended",
            "stacks": [s + p for s, p in zip(stacks, profits, strict=True)],
            "showdown": False,
        },
    ]


@pytest.fixture()
def store(tmp_path: Path) -> Store:
    s = Store(tmp_path)
    yield s
    s.close()


def test_a_table_is_recorded_once_and_standings_add_up(store: Store) -> None:
    names = ["A", "B", "C"]
    (job,) = plan_tournament(names)
    store.initialise(SETTINGS, team_rows(names), [job])
    per_deal = [[10, -5, -5], [20, -30, 10]]
    totals = [sum(col) for col in zip(*per_deal, strict=True)]
    result = TableResult.from_dict(result_for(job, totals, faults=1))
    store.record_table(job.name, result, deals_for(per_deal))
    store.record_table(job.name, result, deals_for(per_deal))
    assert store.conn.execute("SELECT COUNT(*) FROM results").fetchone()[0] == 3
    assert store.conn.execute("SELECT COUNT(*) FROM deals").fetchone()[0] == 2
    assert store.conn.execute("SELECT COUNT(*) FROM faults").fetchone()[0] == 3
    standings = {s.team: s for s in compute_standings(store)}
    first = job.teams[0]
    assert standings[first].profit == 30 and standings[first].deals == 2
    assert standings[first].profit_per_deal == 15.0
    _mean, low, high = mean_interval([10, 20])
    assert (standings[first].ci95_low, standings[first].ci95_high) == (round(low, 4), round(high, 4))
    assert standings[first].faults == 1 and standings[first].tables == 1
    assert [s.rank for s in compute_standings(store)] == [1, 2, 3]
    assert standings_csv(compute_standings(store)).splitlines()[0].startswith("rank,team,tables,deals,profit")


def test_a_failing_commit_leaves_nothing_behind(store: Store) -> None:
    names = ["A", "B"]
    (job,) = plan_tournament(names)
    store.initialise(SETTINGS, team_rows(names), [job])
    broken = result_for(job, [5, -5])
    del broken["teams"][1]["decisions"]
    with pytest.raises(KeyError):
        store.record_table(job.name, TableResult.from_dict(broken), deals_for([[5, -5], [0, 0]]))
    assert store.conn.execute("SELECT COUNT(*) FROM deals").fetchone()[0] == 0
    assert store.conn.execute("SELECT COUNT(*) FROM results").fetchone()[0] == 0
    assert store.tables()[0].status == "pending"


def test_a_resumed_run_must_match_settings_teams_and_programs(tmp_path: Path) -> None:
    names = ["A", "B", "C"]
    jobs = plan_tournament(names)
    first = Store(tmp_path)
    first.initialise(SETTINGS, team_rows(names), jobs)
    first.close()
    again = Store(tmp_path)
    again.initialise(SETTINGS, team_rows(names), jobs)
    assert len(again.tables()) == len(jobs)
    with pytest.raises(ConfigError, match="deals was 2, now 5"):
        again.initialise({**SETTINGS, "deals": 5}, team_rows(names), jobs)
    with pytest.raises(ConfigError, match="new: \\['D'\\]"):
        again.initialise(SETTINGS, team_rows([*names, "D"]), jobs)
    edited = team_rows(names)
    edited[0] = TeamRow("A", "/sub/A.py", "Python", "changed")
    with pytest.raises(ConfigError, match="programs changed since the tournament started: A"):
        again.initialise(SETTINGS, edited, jobs)
    again.close()


def test_duplicate_observations_cancel_the_cards(store: Store) -> None:
    names = ["A", "B"]
    jobs = plan_tournament(names, duplicate=True)
    store.initialise({**SETTINGS, "duplicate": True}, team_rows(names), jobs)
    # The cards give seat 1 +100 then -40 whoever sits there; A is 2 chips a deal better than B.
    for job in jobs:
        a_seat = job.teams.index("A")
        per_deal = []
        for luck in (100, -40):
            seat_profit = [luck, -luck]
            seat_profit[a_seat] += 2
            seat_profit[1 - a_seat] -= 2
            per_deal.append(seat_profit)
        totals = [sum(col) for col in zip(*per_deal, strict=True)]
        store.record_table(job.name, TableResult.from_dict(result_for(job, totals)), deals_for(per_deal))
    dup = {s.team: s for s in compute_standings(store, duplicate=True)}
    plain = {s.team: s for s in compute_standings(store, duplicate=False)}
    assert dup["A"].profit_per_deal == plain["A"].profit_per_deal == 2.0
    assert dup["A"].ci95_low == dup["A"].ci95_high == 2.0
    assert plain["A"].ci95_high - plain["A"].ci95_low > 50


def test_mean_interval_matches_the_normal_formula() -> None:
    values = [1.0, 2.0, 3.0, 4.0]
    mean, _low, high = mean_interval(values)
    sd = math.sqrt(sum((v - 2.5) ** 2 for v in values) / 3)
    assert mean == 2.5 and high - mean == pytest.approx(1.959963984540054 * sd / 2)
    assert mean_interval([]) == (0.0, 0.0, 0.0) and mean_interval([7.0]) == (7.0, 7.0, 7.0)


def test_the_database_is_in_wal_mode(store: Store) -> None:
    reader = sqlite3.connect(store.path)
    assert reader.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    reader.close()
