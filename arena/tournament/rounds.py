"""A swiss or groups tournament's rounds in the store: what was played, and the next round to schedule.

The rounds are kept as the note ``rounds`` (a list of table names per round) beside the tables. The
next round follows only from the stored results (each team's luck-adjusted value per deal at each
finished table: unbiased like chips, with less of the cards' noise, so fewer tables separate the top
six; ``arena.engines.nlhe.luck``) and the key, so a run killed while scheduling a round schedules the
same tables again (tables already stored are kept, ``Store.add_table``).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import replace

from arena.cards import derive_seed
from arena.tournament.formats import Format, Planner, default_budget
from arena.tournament.ratings import PlayedTable
from arena.tournament.schedule import TableJob, assign_seats
from arena.tournament.standings import Standing
from arena.tournament.store import Store, TableKind, TableStatus

ROUNDS_NOTE = "rounds"


def recorded_rounds(store: Store) -> list[list[str]]:
    """The table names of each scheduled round (empty before the first)."""
    rounds = store.note(ROUNDS_NOTE)
    return [list(names) for names in rounds] if rounds else []


def played_rounds(store: Store) -> list[list[PlayedTable]]:
    """Each scheduled round's finished tables as the planner sees them (teams by index in name order),
    each team's result its luck-adjusted value per deal."""
    index = {t.team: i for i, t in enumerate(store.teams())}
    tables = {t.name: t for t in store.tables(TableKind.ROUND)}
    rounds = []
    for names in recorded_rounds(store):
        played = []
        for name in names:
            table = tables[name]
            if table.status is not TableStatus.DONE:
                continue
            deals = max(table.deals_played, 1)
            values = [adjusted for _deal, _chips, adjusted in store.deal_values(name)]
            results = tuple(math.fsum(v[seat] for v in values) / deals for seat in range(len(table.teams)))
            played.append(PlayedTable(tuple(index[team] for team in table.teams), results))
        rounds.append(played)
    return rounds


def round_jobs(
    groups: Sequence[Sequence[int]], teams: Sequence[str], *, first: int, seed: int
) -> list[TableJob]:
    """The jobs of a round's tables, numbered on from ``first``, seats varied as in round-robin."""
    seated = assign_seats([[teams[i] for i in group] for group in groups])
    return [
        TableJob(f"table{number:03d}", number, 0, derive_seed(seed, "table", number), group)
        for number, group in enumerate(seated, start=first)
    ]


def schedule_next_round(store: Store, planner: Planner, *, seed: int, deals: int) -> list[TableJob]:
    """Store the next round's tables and return them (empty: the format is over)."""
    rounds = recorded_rounds(store)
    groups = planner.next_round(played_rounds(store))
    if not groups:
        return []
    teams = [t.team for t in store.teams()]
    first = sum(len(names) for names in rounds) + 1
    jobs = round_jobs(groups, teams, first=first, seed=seed)
    for job in jobs:
        store.add_table(TableKind.ROUND, deals, job)
    store.set_note(ROUNDS_NOTE, [*rounds, [job.name for job in jobs]])
    return jobs


def format_standings(store: Store, standings: Sequence[Standing]) -> list[Standing]:
    """``standings`` in the format's order (stage reached, then rating), ranks renumbered.

    Round-robin's standings are returned as they are; teams that never built stay last.
    """
    format = Format(store.meta().get("format", Format.ROUND_ROBIN))
    if format is Format.ROUND_ROBIN:
        return list(standings)
    teams = [t.team for t in store.teams()]
    order = Planner(format, len(teams), 0, default_budget(len(teams))).order(played_rounds(store))
    place = {teams[i]: p for p, i in enumerate(order)}
    built = [s for s in standings if not (s.tables and s.build_failed == s.tables)]
    never = [s for s in standings if s.tables and s.build_failed == s.tables]
    ranked = sorted(built, key=lambda s: place[s.team]) + never
    return [replace(s, rank=rank) for rank, s in enumerate(ranked, start=1)]
