"""Formats for large fields (groups, swiss): schedule properties, ratings, the simulator, real runs.

The pure parts are checked on synthetic results whose true strengths are known; the last tests play
real small tournaments with ``--format swiss`` and ``--format groups`` through the CLI (slow).
"""

from __future__ import annotations

import json
from itertools import combinations
from pathlib import Path

import numpy as np
import pytest

from arena.cli import main
from arena.engines.nlhe.rules import TableRules
from arena.tournament.formats import (
    ADVANCE,
    GROUP,
    Format,
    Planner,
    default_budget,
    groups_of,
    round_robin_tables,
)
from arena.tournament.host import TournamentSettings
from arena.tournament.ratings import PlayedTable, rate, separation
from arena.tournament.scripted import play_engine_table, table_noise, threshold_policy
from arena.tournament.simulate import kendall_tau, play_table, simulate
from arena.tournament.store import Store

from support.field import make_field


def play_rounds(
    planner: Planner, strengths: np.ndarray, noise: float, rounds: int
) -> list[list[PlayedTable]]:
    rng = np.random.default_rng(5)
    played: list[list[PlayedTable]] = []
    for _ in range(rounds):
        tables = planner.next_round(played)
        if not tables:
            break
        played.append([play_table(t, strengths, noise, rng) for t in tables])
    return played


def seated(tables: list[tuple[int, ...]]) -> list[int]:
    return sorted(team for table in tables for team in table)


@pytest.mark.parametrize("format", [Format.SWISS, Format.GROUPS])
def test_the_first_round_seats_every_team_once_and_is_fixed_by_the_key(format: Format) -> None:
    first = Planner(format, 100, 7, default_budget(100)).next_round([])
    assert format is Format.GROUPS or seated(first) == list(range(100))
    assert set(seated(first)) == set(range(100))
    assert all(2 <= len(t) <= 6 for t in first)
    assert Planner(format, 100, 7, default_budget(100)).next_round([]) == first
    assert Planner(format, 100, 8, default_budget(100)).next_round([]) != first


def test_swiss_seats_teams_of_similar_standing_together() -> None:
    strengths = np.linspace(30, -30, 120)
    planner = Planner(Format.SWISS, 120, 3, 10_000)
    played = play_rounds(planner, strengths, 0.5, 2)
    ratings = rate(120, [t for r in played for t in r])
    place = {team: p for p, team in enumerate(ratings.order())}
    third = planner.next_round(played)
    first_leg = third[: len(third) // max(1, round(len(third) / 20))]
    for table in first_leg:  # the first leg seats neighbours in the ratings: six consecutive places
        places = sorted(place[t] for t in table)
        assert places[-1] - places[0] == len(places) - 1
    assert set(seated(third)) <= set(range(120))


def test_swiss_stops_when_the_top_six_are_separated_and_finds_them() -> None:
    strengths = np.concatenate([np.linspace(60, 40, 6), np.linspace(0, -10, 54)])
    planner = Planner(Format.SWISS, 60, 1, 10_000)
    played = play_rounds(planner, strengths, 2.0, 50)
    assert planner.next_round(played) == []
    assert sum(len(r) for r in played) < 10_000
    ratings = rate(60, [t for r in played for t in r])
    assert separation(ratings).separated
    assert set(planner.order(played)[:6]) == set(range(6))


def test_groups_play_round_robins_and_the_best_of_each_group_advance() -> None:
    teams = 200
    strengths = np.random.default_rng(2).normal(0, 10, teams)
    planner = Planner(Format.GROUPS, teams, 4, 10_000)
    first = planner.next_round([])
    played = [[play_table(t, strengths, 0.1, np.random.default_rng(1)) for t in first]]
    met = {pair for table in first for pair in combinations(sorted(table), 2)}
    groups = groups_of(played[0])
    assert len(groups) == 5
    assert all(len(group) <= GROUP for group in groups)
    assert all(pair in met for group in groups for pair in combinations(group, 2))
    ratings = rate(teams, played[0])
    second = planner.next_round(played)
    advancing = set(seated(second))
    assert len(advancing) == ADVANCE * 5
    for group in groups:  # a team advances exactly when it is among its group's best ADVANCE
        for team in group:
            better = sum(ratings.values[o] > ratings.values[team] for o in group)
            assert (team in advancing) == (better < ADVANCE)


@pytest.mark.parametrize("format", [Format.SWISS, Format.GROUPS])
def test_a_format_passes_its_table_budget_only_with_its_first_round(format: Format) -> None:
    strengths = np.random.default_rng(3).normal(0, 1, 90)
    budget = default_budget(90)
    played = play_rounds(Planner(format, 90, 2, budget), strengths, 5.0, 200)
    assert len(played) >= 1
    assert sum(len(r) for r in played) <= max(budget, len(played[0]))
    assert len(played) == 1 or sum(len(r) for r in played) <= budget
    assert budget == max(round_robin_tables(90) // 5, 3 * 15)


def test_swiss_rounds_after_the_first_play_exactly_the_tables_asked_for() -> None:
    """``round_tables``: every later round fills that many tables (a cluster's waves stay full), legs
    repeated and the last one cut, until the budget is spent; swiss only."""
    strengths = np.random.default_rng(7).normal(0, 1, 90)
    played = play_rounds(Planner(Format.SWISS, 90, 4, budget=100, round_tables=12), strengths, 5.0, 200)
    assert len(played[0]) == 15  # the first round seats the field once, as without the option
    assert [len(r) for r in played[1:]] == [12] * 7 + [1]  # the budget's last table
    for table in (t for r in played for t in r):
        assert len(set(table.teams)) == len(table.teams)  # a team sits once at a table
    with pytest.raises(ValueError, match="swiss"):
        Planner(Format.GROUPS, 90, 4, budget=100, round_tables=12)


@pytest.mark.parametrize("format", [Format.SWISS, Format.GROUPS])
def test_a_tournaments_budget_is_the_planners_and_bounds_its_tables(format: Format) -> None:
    """``--budget``: the organiser's bound on the tables (a cluster's hours); unset, a fifth of
    round-robin's."""
    unset = TournamentSettings(format=format).planner(90, 4)
    assert unset.budget == default_budget(90)
    first = len(unset.next_round([]))
    budget = 2 * first + 5
    planner = TournamentSettings(format=format, budget=budget).planner(90, 4)
    assert planner.budget == budget
    strengths = np.random.default_rng(2).normal(0, 1, 90)
    played = play_rounds(planner, strengths, 5.0, 200)
    assert len(played[0]) == first
    assert first < sum(len(r) for r in played) <= budget  # noise hides the top six: the budget ends it


def test_ratings_recover_strengths_measured_against_tablemates() -> None:
    strengths = np.random.default_rng(4).normal(0, 5, 30)
    tables = [(i, (i + 1) % 30, (i + 3) % 30, (i + 7) % 30, (i + 12) % 30, (i + 20) % 30) for i in range(30)]
    played = [play_table(t, strengths, 0.0, np.random.default_rng(0)) for t in tables]
    ratings = rate(30, played)
    assert np.allclose(ratings.values, strengths - strengths.mean(), atol=1e-6)
    assert np.all(ratings.errors < 1e-3)


def test_the_top_six_are_separated_only_when_the_gap_is_many_standard_errors() -> None:
    strengths = np.concatenate([np.full(6, 10.0), np.zeros(24)])
    rng = np.random.default_rng(6)
    tables = [tuple(int(x) for x in rng.permutation(30)[:6]) for _ in range(300)]
    wide = rate(30, [play_table(t, strengths, 1.0, rng) for t in tables])
    assert separation(wide).separated
    assert set(wide.order()[:6]) == set(range(6))
    near = rate(30, [play_table(t, strengths / 100, 1.0, rng) for t in tables])
    assert not separation(near).separated


def test_the_simulator_recovers_known_strengths_on_a_small_field() -> None:
    strengths = np.random.default_rng(8).normal(0, 20, 60)
    for format in (Format.ROUND_ROBIN, Format.SWISS, Format.GROUPS):
        outcome = simulate(format, strengths, 2.0, seed=1, budget=round_robin_tables(60))
        assert outcome.top_six_exact, format
        assert outcome.kendall_tau > 0.8, (format, outcome.kendall_tau)
        assert outcome.tables == sum(outcome.rounds)


def test_kendall_tau_of_a_ranking() -> None:
    strengths = np.array([3.0, 2.0, 1.0, 0.0])
    assert kendall_tau([0, 1, 2, 3], strengths) == 1.0
    assert kendall_tau([3, 2, 1, 0], strengths) == -1.0
    assert kendall_tau([1, 0, 2, 3], strengths) == pytest.approx(4 / 6)


def test_engine_tables_of_scripted_policies_are_zero_sum_and_noisy() -> None:
    rules = TableRules()
    profits = play_engine_table([threshold_policy(9, 12)] * 6, 50, seed=3, rules=rules)
    assert sum(profits) == 0
    assert profits != [0] * 6
    assert table_noise(2, 50, seed=1) > 0
    assert table_noise(2, 50, seed=1) == table_noise(2, 50, seed=1)


def test_the_old_format_values_say_what_to_use(tmp_path: Path, capsys) -> None:
    make_field(tmp_path / "subs", 3, faulty=False)
    argv = ["tournament", str(tmp_path / "subs"), "--out", str(tmp_path / "run"), "--format", "csv"]
    assert main(argv) == 2
    lines = capsys.readouterr().err.strip().splitlines()
    assert lines == [
        "arena tournament: error: --format now chooses the tournament's format (round-robin, groups, "
        "swiss); for the standings as csv use --standings-format csv"
    ]


@pytest.mark.slow
@pytest.mark.parametrize("format", ["swiss", "groups"])
def test_a_real_tournament_in_a_format_through_the_cli_and_resumed(
    tmp_path: Path, format: str, capsys
) -> None:
    subs = tmp_path / "subs"
    names = make_field(subs, 8, faulty=False)
    run = tmp_path / "run"
    argv = ["tournament", str(subs), "--out", str(run), "--format", format, "--deals", "12", "--seed", "5"]
    argv += ["--time-limit", "5", "--standings-format", "json"]
    argv += ["--round-tables", "1"] if format == "swiss" else []
    assert main(argv) == 0
    standings = json.loads(capsys.readouterr().out)
    assert sorted(s["team"] for s in standings) == names
    assert [s["rank"] for s in standings] == list(range(1, 9))
    store = Store(run)
    try:
        rounds = store.note("rounds")
        tables = store.tables()
        assert store.meta()["format"] == format
    finally:
        store.close()
    assert sum(len(r) for r in rounds) == len(tables) <= default_budget(8)
    assert all(t.status == "done" for t in tables)
    first = {team for name in rounds[0] for t in tables if t.name == name for team in t.teams}
    assert first == set(names)  # every team plays the first round
    if format == "swiss":
        assert len(rounds) >= 2
        assert [len(r) for r in rounds[1:]] == [1] * (len(rounds) - 1)  # --round-tables 1
    results = json.loads((run / "results.json").read_text())
    assert [s["team"] for s in results["standings"]] == [s["team"] for s in standings]
    assert main(argv) == 0  # run again: every round is recorded, nothing is played anew
    assert json.loads(capsys.readouterr().out) == standings


@pytest.mark.parametrize(
    ("extra", "message"),
    [
        (["--format", "groups", "--round-tables", "5"], "--round-tables is for --format swiss, not groups"),
        (["--format", "swiss", "--round-tables", "0"], "--round-tables"),
        (["--budget", "50"], "--budget is for --format swiss or groups"),
        (["--format", "groups", "--budget", "0"], "--budget"),
    ],
)
def test_round_tables_and_budget_are_for_their_formats_and_positive(
    tmp_path: Path, capsys, extra: list[str], message: str
) -> None:
    make_field(tmp_path / "subs", 3, faulty=False)
    assert main(["tournament", str(tmp_path / "subs"), "--out", str(tmp_path / "run"), *extra]) == 2
    lines = capsys.readouterr().err.strip().splitlines()
    assert len(lines) == 1 and message in lines[0], lines
    assert not (tmp_path / "run" / "tournament.sqlite").exists()


def test_every_pair_meets_in_a_groups_round_robin() -> None:
    first = Planner(Format.GROUPS, 30, 9, default_budget(30)).next_round([])
    met = {pair for table in first for pair in combinations(sorted(table), 2)}
    assert met == set(combinations(range(30), 2))
