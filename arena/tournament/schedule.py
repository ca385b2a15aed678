"""Which teams sit at which table: a greedy covering design so every pair of teams meets.

Tables have six seats (fewer only when there are fewer than six teams). Tables are added until every
pair of teams has shared one; each new table starts from the team with the most opponents still to
meet and adds, one by one, the team that meets the most new opponents (ties: fewer tables played so
far, then a seeded order). Seats are then given so that each team's seat numbers vary.
In duplicate mode each table is replayed once per seat with the seating rotated.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from itertools import combinations, permutations

from arena.cards import derive_seed
from arena.errors import ConfigError

TABLE_SIZE = 6


@dataclass(frozen=True, slots=True)
class TableJob:
    """One table to play: ``teams[i]`` sits in seat ``i+1``; rotations of a group share ``seed``."""

    name: str
    group: int
    rotation: int
    seed: int
    teams: tuple[str, ...]


def cover_pairs(teams: Sequence[str], *, size: int = TABLE_SIZE, seed: int = 0) -> list[tuple[str, ...]]:
    """Groups of ``size`` teams (all of them when fewer) such that every pair shares a group."""
    if len(set(teams)) != len(teams):
        raise ConfigError("team names must be unique")
    if len(teams) < 2:
        raise ConfigError(f"a tournament needs at least 2 teams, found {len(teams)}")
    if size < 2:
        raise ConfigError(f"a table needs at least 2 seats, asked for {size}")
    order = list(teams)
    random.Random(derive_seed(seed, "schedule")).shuffle(order)
    n = len(order)
    k = min(size, n)
    met = [[i == j for j in range(n)] for i in range(n)]
    to_meet = [n - 1] * n
    played = [0] * n
    remaining = n * (n - 1) // 2
    groups: list[tuple[str, ...]] = []
    while remaining:
        first = min(range(n), key=lambda t: (-to_meet[t], played[t], t))
        members = [first]
        while len(members) < k:
            best = min(
                (c for c in range(n) if c not in members),
                key=lambda c: (-sum(not met[c][m] for m in members), played[c], -to_meet[c], c),
            )
            members.append(best)
        for a, b in combinations(members, 2):
            if not met[a][b]:
                met[a][b] = met[b][a] = True
                to_meet[a] -= 1
                to_meet[b] -= 1
                remaining -= 1
        for m in members:
            played[m] += 1
        groups.append(tuple(order[m] for m in members))
    return groups


def assign_seats(groups: Sequence[Sequence[str]]) -> list[tuple[str, ...]]:
    """Seat each group so every team's seats vary: the seating whose seats each team has used least.

    A table has at most six seats, so every seating of it (at most 720) is tried; the cost of a
    seating is the sum over its teams of how often each already sat in the seat it would get.
    """
    used: dict[str, list[int]] = {}
    seated: list[tuple[str, ...]] = []
    for group in groups:
        counts = [used.setdefault(team, [0] * TABLE_SIZE) for team in group]
        best = min(
            permutations(range(len(group))),
            key=lambda seats: sum(counts[i][s] * counts[i][s] for i, s in enumerate(seats)),
        )
        order: list[str] = [""] * len(group)
        for i, seat in enumerate(best):
            order[seat] = group[i]
            counts[i][seat] += 1
        seated.append(tuple(order))
    return seated


def plan_tournament(
    teams: Sequence[str], *, seed: int = 0, duplicate: bool = False, size: int = TABLE_SIZE
) -> list[TableJob]:
    """Every table of the tournament in playing order, with its name and seed."""
    seated = assign_seats(cover_pairs(teams, size=size, seed=seed))
    jobs: list[TableJob] = []
    for number, group in enumerate(seated, start=1):
        table_seed = derive_seed(seed, "table", number)
        if not duplicate:
            jobs.append(TableJob(f"table{number:03d}", number, 0, table_seed, group))
            continue
        k = len(group)
        for rotation in range(k):
            rotated = tuple(group[(i - rotation) % k] for i in range(k))
            jobs.append(TableJob(f"table{number:03d}r{rotation + 1}", number, rotation, table_seed, rotated))
    return jobs
