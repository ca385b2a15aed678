"""Tournament formats for large fields: which tables the next round plays, given the rounds played.

- ``round-robin`` (the default): one round, every pair of teams meets (``schedule.plan_tournament``).
- ``swiss``: round 1 seats the field at random; every later round sorts the teams still *undecided*
  (:mod:`arena.tournament.ratings`: neither surely in the top six nor surely out) by rating and seats
  them six by six, so teams of similar standing meet (a round short of a multiple of six takes the
  nearest decided teams as tablemates). It stops when the top six are separated, or when another round
  would pass the table budget (a fifth of round-robin's tables by default, at least three rounds).
- ``groups``: the field is dealt at random into groups of at most ``GROUP`` teams; each group plays a
  round-robin and its best ``ADVANCE`` (by rating) go on to the next stage, dealt into groups by rating
  (snake order, so groups are even). When at most ``GROUP`` teams remain they are the last group,
  which plays round-robin after round-robin until its top six are separated or the budget is spent.

Everything follows from the field's size, the rounds played and the key, so a resumed tournament
plans the same rounds again. Teams are indices 0..n-1 here; the tournament maps them to names.
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum, unique

from arena.cards import derive_seed
from arena.tournament.ratings import TOP, PlayedTable, rate, separation
from arena.tournament.schedule import TABLE_SIZE, cover_pairs

GROUP = 40
ADVANCE = 8
MIN_ROUNDS = 2
BUDGET_ROUNDS = 3


@unique
class Format(StrEnum):
    """A tournament's format (``--format``)."""

    ROUND_ROBIN = "round-robin"
    GROUPS = "groups"
    SWISS = "swiss"


Round = Sequence[PlayedTable]


def round_robin_tables(teams: int) -> int:
    """Schönheim's lower bound on the tables of six for every pair of ``teams`` to meet."""
    if teams <= TABLE_SIZE:
        return 1
    return math.ceil(teams / TABLE_SIZE * math.ceil((teams - 1) / (TABLE_SIZE - 1)))


def default_budget(teams: int) -> int:
    """The most tables a swiss or groups tournament plays: a fifth of round-robin's (Schönheim's bound),
    and at least three rounds of the whole field (a small field)."""
    return max(round_robin_tables(teams) // 5, BUDGET_ROUNDS * math.ceil(teams / TABLE_SIZE))


@dataclass(frozen=True)
class Planner:
    """Plans the rounds of one tournament: its format, field size, key and table budget."""

    format: Format
    teams: int
    seed: int
    budget: int
    round_tables: int | None = None
    """Swiss only: tables in every round after the first (legs repeated, the last one cut, so the
    lowest-rated teams of a round's seating may sit it out) until the budget is spent; None:
    ``ceil(n/6)`` rounded up to whole legs. A multiple of the cluster's cores keeps every wave full."""

    def __post_init__(self) -> None:
        if self.round_tables is not None and (self.format is not Format.SWISS or self.round_tables < 1):
            raise ValueError(
                f"round_tables is for swiss, at least 1 (got {self.format}, {self.round_tables})"
            )

    def next_round(self, rounds: Sequence[Round]) -> list[tuple[int, ...]]:
        """The tables of the next round (teams by index, in seat order); empty when the format is over.

        A round plays at least ``ceil(n/6)`` tables (the whole field seated once): when fewer teams are
        left they play several legs in the round (swiss: each leg seats them by rating shuffled within
        six places), so a cluster stays busy and the rounds are few. A round keeps the legs that fit in
        the budget; when none fits, the tournament is over.
        """
        if self.format is Format.ROUND_ROBIN:
            return [] if rounds else round_robin(list(range(self.teams)), self.seed)
        number = len(rounds) + 1
        rng = random.Random(derive_seed(self.seed, self.format, number))
        if self.format is Format.SWISS:
            seated = self._swiss(rounds, rng)
            if seated is None:
                return []

            def leg(index: int) -> list[tuple[int, ...]]:
                jitter = {
                    team: rank + (rng.uniform(0, TABLE_SIZE) if index else 0)
                    for rank, team in enumerate(seated)
                }
                return seat_in_order(sorted(seated, key=jitter.__getitem__))

        else:
            groups = self._groups(rounds, rng)
            if groups is None:
                return []

            def leg(index: int) -> list[tuple[int, ...]]:
                return play_groups(groups, derive_seed(self.seed, "groups", number, index))

        first = leg(0)
        if not rounds:
            return first
        left = self.budget - sum(len(r) for r in rounds)
        if self.round_tables is not None:
            size = min(self.round_tables, left)
            count = math.ceil(size / len(first))
            return [table for index in range(count) for table in (first if index == 0 else leg(index))][:size]
        wanted = math.ceil(math.ceil(self.teams / TABLE_SIZE) / len(first))
        count = min(wanted, left // len(first))
        return [table for index in range(count) for table in (first if index == 0 else leg(index))]

    def order(self, rounds: Sequence[Round]) -> list[int]:
        """The final ranking: by stage reached (groups), then by rating."""
        order = rate(self.teams, [t for r in rounds for t in r]).order()
        if self.format is not Format.GROUPS:
            return order
        reached = [0] * self.teams
        for number, played in enumerate(rounds, start=1):
            for table in played:
                for team in table.teams:
                    reached[team] = number
        return sorted(order, key=lambda i: -reached[i])

    def _swiss(self, rounds: Sequence[Round], rng: random.Random) -> list[int] | None:
        """The teams to seat this round in rating order (None: the top six are separated)."""
        if not rounds:
            field = list(range(self.teams))
            rng.shuffle(field)
            return field
        ratings = rate(self.teams, [t for r in rounds for t in r])
        split = separation(ratings)
        if split.separated and len(rounds) >= MIN_ROUNDS:
            return None
        order = ratings.order()
        chosen = set(split.undecided() if len(rounds) >= MIN_ROUNDS else order)
        rank = {team: r for r, team in enumerate(order)}
        short = (-len(chosen)) % TABLE_SIZE if len(chosen) >= TABLE_SIZE else TABLE_SIZE - len(chosen)
        if short:  # the nearest decided teams fill the tables
            low, high = min(rank[t] for t in chosen), max(rank[t] for t in chosen)
            spare = sorted(
                (t for t in order if t not in chosen),
                key=lambda t: min(abs(rank[t] - low), abs(rank[t] - high)),
            )
            chosen.update(spare[:short])
        return sorted(chosen, key=rank.__getitem__)

    def _groups(self, rounds: Sequence[Round], rng: random.Random) -> list[list[int]] | None:
        """This round's groups (None: the last group's top six are separated)."""
        if not rounds:
            field = list(range(self.teams))
            rng.shuffle(field)
            count = math.ceil(len(field) / GROUP)
            return [field[i::count] for i in range(count)]
        ratings = rate(self.teams, [t for r in rounds for t in r])
        alive = sorted({team for table in rounds[-1] for team in table.teams})
        if len(alive) <= GROUP:  # the last group plays again until its top six are separated
            return None if separation(ratings, alive).separated else [alive]
        advancing = []
        for group in groups_of(rounds[-1]):
            advancing.extend(sorted(group, key=lambda t: (-ratings.values[t], t))[:ADVANCE])
        advancing.sort(key=lambda t: (-ratings.values[t], t))
        count = math.ceil(len(advancing) / GROUP)
        snake: list[list[int]] = [[] for _ in range(count)]
        for i, team in enumerate(advancing):
            lap, place = divmod(i, count)
            snake[place if lap % 2 == 0 else count - 1 - place].append(team)
        return snake


def groups_of(played: Round) -> list[list[int]]:
    """The groups of a round: the sets of teams linked by its tables."""
    group_of: dict[int, int] = {}
    groups: list[set[int]] = []
    for table in played:
        known = {group_of[t] for t in table.teams if t in group_of}
        target = min(known) if known else len(groups)
        if not known:
            groups.append(set())
        for g in sorted(known - {target}, reverse=True):
            groups[target] |= groups[g]
            groups[g] = set()
        groups[target].update(table.teams)
        for t in groups[target]:
            group_of[t] = target
    return [sorted(g) for g in groups if g]


def play_groups(groups: Sequence[Sequence[int]], seed: int) -> list[tuple[int, ...]]:
    """Every group's round-robin, one after the other."""
    tables = []
    for index, group in enumerate(groups):
        tables.extend(round_robin(list(group), derive_seed(seed, index)))
    return tables


_COVERS: dict[int, list[tuple[int, ...]]] = {}


def round_robin(teams: list[int], seed: int) -> list[tuple[int, ...]]:
    """Tables where every pair of ``teams`` meets: one greedy cover per size, teams placed by ``seed``."""
    size = len(teams)
    if size < 2:
        return []
    if size not in _COVERS:
        _COVERS[size] = [tuple(int(i) for i in g) for g in cover_pairs([str(i) for i in range(size)], seed=0)]
    placed = list(teams)
    random.Random(seed).shuffle(placed)
    return [tuple(placed[i] for i in table) for table in _COVERS[size]]


def seat_in_order(teams: list[int]) -> list[tuple[int, ...]]:
    """Consecutive teams at the same table: ``ceil(n/6)`` tables whose sizes differ by at most one."""
    count = math.ceil(len(teams) / TABLE_SIZE)
    base, extra = divmod(len(teams), count)
    tables, start = [], 0
    for i in range(count):
        size = base + (1 if i < extra else 0)
        tables.append(tuple(teams[start : start + size]))
        start += size
    return tables


__all__ = ["ADVANCE", "GROUP", "TOP", "Format", "Planner", "default_budget", "round_robin_tables"]
