"""The schedule: every pair of teams meets, tables have six seats when possible, seats vary."""

from __future__ import annotations

from collections import Counter
from itertools import combinations

import pytest

from arena.errors import ConfigError
from arena.tournament.schedule import TABLE_SIZE, assign_seats, cover_pairs, plan_tournament


def teams(n: int) -> list[str]:
    return [f"Team{i:03d}" for i in range(n)]


@pytest.mark.parametrize("n", range(2, 61))
def test_every_pair_shares_a_table_and_tables_are_full(n: int) -> None:
    jobs = plan_tournament(teams(n), seed=n)
    met = {frozenset(pair) for job in jobs for pair in combinations(job.teams, 2)}
    assert met == {frozenset(pair) for pair in combinations(teams(n), 2)}
    assert all(len(job.teams) == min(n, TABLE_SIZE) for job in jobs)
    assert all(len(set(job.teams)) == len(job.teams) for job in jobs)


@pytest.mark.parametrize("n", [7, 12, 40, 100])
def test_table_count_is_within_a_third_of_the_schoenheim_bound(n: int) -> None:
    k = TABLE_SIZE
    bound = -(-n * -(-(n - 1) // (k - 1)) // k)
    assert bound <= len(cover_pairs(teams(n))) <= bound * 4 // 3


def test_seats_vary_for_each_team() -> None:
    jobs = plan_tournament(teams(40))
    seats = Counter((team, seat) for job in jobs for seat, team in enumerate(job.teams))
    for team in teams(40):
        counts = [seats[(team, s)] for s in range(TABLE_SIZE)]
        assert max(counts) - min(counts) <= 2, (team, counts)


def test_assign_seats_balances_a_repeated_group() -> None:
    group = ("A", "B", "C", "D", "E", "F")
    seated = assign_seats([group] * 6)
    for team in group:
        assert sorted(table.index(team) for table in seated) == list(range(6))


def test_duplicate_mode_rotates_every_team_through_every_seat_with_one_seed() -> None:
    jobs = plan_tournament(teams(12), seed=3, duplicate=True)
    groups: dict[int, list] = {}
    for job in jobs:
        groups.setdefault(job.group, []).append(job)
    for rotations in groups.values():
        assert len(rotations) == TABLE_SIZE
        assert len({job.seed for job in rotations}) == 1
        for team in rotations[0].teams:
            assert sorted(job.teams.index(team) for job in rotations) == list(range(TABLE_SIZE))


def test_schedule_is_reproducible_from_the_seed_and_differs_across_seeds() -> None:
    assert plan_tournament(teams(20), seed=5) == plan_tournament(teams(20), seed=5)
    assert [j.teams for j in plan_tournament(teams(20), seed=5)] != [
        j.teams for j in plan_tournament(teams(20), seed=6)
    ]
    assert len({j.seed for j in plan_tournament(teams(20), seed=5)}) == len(
        plan_tournament(teams(20), seed=5)
    )


@pytest.mark.parametrize("bad", [[], ["Solo"], ["A", "A", "B"]])
def test_too_few_or_repeated_teams_are_a_config_error(bad: list[str]) -> None:
    with pytest.raises(ConfigError):
        plan_tournament(bad)
