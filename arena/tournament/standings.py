"""Standings from the store: profit, profit per deal and the luck-adjusted value per deal, each with a
95% confidence interval; how sure each rank is, which team is ahead of which; faults.

The confidence interval is the normal approximation ``mean ± 1.96·s/√n`` over per-deal observations.
Without duplicate mode an observation is a team's result in one deal it played. In duplicate mode the
rotations of a table replay the same cards, so an observation is a team's result in deal ``N`` of a
table group averaged over the rotations it played: the luck of the cards cancels inside it.

The adjusted value of a deal is its chips less the luck of the cards (``arena.engines.nlhe.luck``): the
same expectation, a narrower interval. Teams are ranked by chips (statement 004) or by the adjusted
value (``rank_by``). A bootstrap over tables and, within each, deals (``arena.intervals``) gives each
team the probability of holding its rank and each pair the probability that one is ahead of the other,
in the ranking's own measure.
"""

from __future__ import annotations

import csv
import io
import math
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import asdict, dataclass, field
from enum import StrEnum, unique
from functools import lru_cache
from pathlib import Path
from typing import Any

import numpy as np

from arena.intervals import Cluster, ahead_probabilities, bootstrap_means, mean_interval, rank_probabilities
from arena.runfolder.layout import events_path
from arena.runfolder.reader import complete_lines, parse_deal, table_faults
from arena.tournament.store import Store, TableKind, TableRow, TableStatus, adjusted_values

SURE = 0.95
"""A team is reported *ahead of* another when it is ahead in at least this share of the bootstrap."""
MOST_PAIRS = 100
"""Who is ahead of whom is given for at most this many teams (the table has their square)."""
KEPT_DEALS = 4096
"""Deals of running tables whose adjusted value stays computed (a page reload reads them again)."""

DealValues = list[tuple[int, list[int], list[float]]]


@unique
class RankBy(StrEnum):
    """What the standings are ordered by."""

    CHIPS = "chips"
    ADJUSTED = "adjusted"


@dataclass(frozen=True, slots=True)
class Standing:
    """One team's line of the standings."""

    rank: int
    team: str
    tables: int
    deals: int
    profit: int
    profit_per_deal: float
    ci95_low: float
    ci95_high: float
    faults: int
    disqualified: int
    build_failed: int
    disqualified_tables: str = ""
    """The tables at which the team was disqualified, space-separated."""
    adjusted_per_deal: float = 0.0
    """The luck-adjusted value per deal (chips less the luck of the cards)."""
    adjusted_ci95_low: float = 0.0
    adjusted_ci95_high: float = 0.0
    rank_probability: float = 1.0
    """The share of bootstrap resamplings in which the team holds this rank."""
    ahead_of: str = ""
    """The teams it is ahead of in at least :data:`SURE` of the resamplings, space-separated."""
    built: bool = True
    """False when the team's program built at none of its tables: it sat out every deal, so it has no
    deals played and its figures (all zero) are no result; the terminal and the viewer say "did not
    build" in their place."""

    @property
    def ci95_half_width(self) -> float:
        """Half the width of the 95% interval."""
        return (self.ci95_high - self.ci95_low) / 2

    @property
    def adjusted_half_width(self) -> float:
        """Half the width of the adjusted value's 95% interval."""
        return (self.adjusted_ci95_high - self.adjusted_ci95_low) / 2


@dataclass(frozen=True, slots=True)
class Separation:
    """Which team is ahead of which: ``ahead[i][j]`` is the share of bootstrap resamplings in which
    ``teams[i]`` is ahead of ``teams[j]`` (standings order; a team that never built is not among them), in
    the measure the standings rank by."""

    rank_by: RankBy
    teams: tuple[str, ...]
    ahead: tuple[tuple[float, ...], ...] = field(default=())


@dataclass(frozen=True, slots=True)
class RunningTable:
    """A table still played: its schedule row, the deals and the faults its folder holds so far."""

    row: TableRow
    deals: DealValues
    faults: list[dict[str, Any]]


def read_running_table(row: TableRow, folder: Path) -> RunningTable:
    """What a running table's folder (``events.jsonl``, ``faults.jsonl``) holds so far: complete lines
    only, a last line still being written waits."""
    deals = []
    for _offset, raw in complete_lines(events_path(folder))[0]:
        line = parse_deal(raw)
        deals.append((line.deal, line.profits(), list(_adjusted(raw))))
    faults = [{**fault, "table": row.name} for fault in table_faults(folder)]
    return RunningTable(row, deals, faults)


@lru_cache(maxsize=KEPT_DEALS)
def _adjusted(line: bytes) -> tuple[float, ...]:
    return tuple(adjusted_values(parse_deal(line).records))


def observations(store: Store, *, duplicate: bool, adjusted: bool = False) -> dict[str, list[float]]:
    """Per team, its per-deal results in chips or adjusted (duplicate: averaged over a group's rotations,
    deal by deal)."""
    return _observations(_played(store), duplicate=duplicate, adjusted=adjusted)


def _played(store: Store) -> list[tuple[TableRow, DealValues]]:
    return [
        (table, store.deal_values(table.name))
        for table in store.tables(TableKind.ROUND)
        if table.status is TableStatus.DONE
    ]


def compute_standings(
    store: Store, *, duplicate: bool = False, rank_by: RankBy = RankBy.CHIPS
) -> list[Standing]:
    """Every team's standing, best first by ``rank_by`` per deal (ties: total profit, then name).

    A team whose program never built is ranked after every team that played, whatever its profit, and
    counted as having played no deal (``built`` is false).
    """
    return separated_standings(store, duplicate=duplicate, rank_by=rank_by)[0]


def separated_standings(
    store: Store,
    *,
    duplicate: bool = False,
    rank_by: RankBy = RankBy.CHIPS,
    running: Sequence[RunningTable] = (),
) -> tuple[list[Standing], Separation]:
    """:func:`compute_standings` and the bootstrap's table of which team is ahead of which; with the
    deals and faults of the ``running`` tables so far (partial standings) when given."""
    totals: dict[str, dict[str, int]] = {
        t.team: {"tables": 0, "deals": 0, "profit": 0, "faults": 0, "disqualified": 0, "build_failed": 0}
        for t in store.teams()
    }
    deals_of = {t.name: t.deals_played for t in store.tables(TableKind.ROUND)}
    banned: dict[str, list[str]] = defaultdict(list)
    for row in store.results(TableKind.ROUND):
        if row.disqualified:
            banned[row.team].append(row.table_name)
        line = totals[row.team]
        line["tables"] += 1
        line["deals"] += deals_of[row.table_name]
        line["profit"] += row.profit
        line["faults"] += row.faults
        line["disqualified"] += int(row.disqualified)
        line["build_failed"] += int(not row.built)
    for table in running:
        for seat, team in enumerate(table.row.teams):
            line = totals[team]
            line["tables"] += 1
            line["deals"] += len(table.deals)
            line["profit"] += sum(chips[seat] for _, chips, _ in table.deals)
            line["faults"] += sum(1 for fault in table.faults if fault.get("team") == team)
    played = _played(store) + [(table.row, table.deals) for table in running]
    chips = _observations(played, duplicate=duplicate, adjusted=False)
    luck_out = _observations(played, duplicate=duplicate, adjusted=True)
    unranked = []
    for team, line in totals.items():
        if _never_built(line):
            line["deals"] = 0
            chips.pop(team, None)
            luck_out.pop(team, None)
        _mean, low, high = mean_interval(chips.get(team, []))
        adjusted = mean_interval(luck_out.get(team, []))
        per_deal = line["profit"] / line["deals"] if line["deals"] else 0.0
        unranked.append((team, line, per_deal, low, high, adjusted))
    chips_first = rank_by is RankBy.CHIPS
    unranked.sort(
        key=lambda item: (
            _never_built(item[1]),
            -(item[2] if chips_first else item[5].mean),
            -item[1]["profit"],
            item[0],
        )
    )
    ranked = [team for team, line, *_ in unranked if not _never_built(line)]
    means = bootstrap_means(
        _clusters(played, ranked, duplicate=duplicate, adjusted=rank_by is RankBy.ADJUSTED), len(ranked)
    )
    held = dict(zip(ranked, rank_probabilities(means, range(len(ranked))).tolist(), strict=True))
    ahead = ahead_probabilities(means) if len(ranked) <= MOST_PAIRS else np.zeros((len(ranked), 0))
    standings = [
        Standing(
            rank=rank,
            team=team,
            tables=line["tables"],
            deals=line["deals"],
            profit=line["profit"],
            profit_per_deal=round(per_deal, 4),
            ci95_low=round(low, 4),
            ci95_high=round(high, 4),
            faults=line["faults"],
            disqualified=line["disqualified"],
            build_failed=line["build_failed"],
            disqualified_tables=" ".join(banned[team]),
            adjusted_per_deal=round(adjusted.mean, 4),
            adjusted_ci95_low=round(adjusted.low, 4),
            adjusted_ci95_high=round(adjusted.high, 4),
            rank_probability=round(held.get(team, 1.0), 4),
            ahead_of=" ".join(
                ranked[j] for j in range(ahead.shape[1]) if i < len(ranked) and ahead[i, j] >= SURE
            ),
            built=not _never_built(line),
        )
        for i, (rank, (team, line, per_deal, low, high, adjusted)) in enumerate(enumerate(unranked, start=1))
    ]
    rows = tuple(tuple(round(float(p), 4) for p in row) for row in ahead) if ahead.size else ()
    return standings, Separation(rank_by, tuple(ranked), rows)


def _observations(
    played: Sequence[tuple[TableRow, list[tuple[int, list[int], list[float]]]]],
    *,
    duplicate: bool,
    adjusted: bool,
) -> dict[str, list[float]]:
    plain: dict[str, list[float]] = defaultdict(list)
    grouped: dict[tuple[str, int, int], list[float]] = defaultdict(list)
    for table, deals in played:
        for deal, chips, luck_out in deals:
            for seat, team in enumerate(table.teams):
                value = luck_out[seat] if adjusted else chips[seat]
                if duplicate:
                    grouped[(team, table.group, deal)].append(value)
                else:
                    plain[team].append(value)
    for (team, _group, _deal), values in grouped.items():
        plain[team].append(math.fsum(values) / len(values))
    return plain


def _clusters(
    played: Sequence[tuple[TableRow, list[tuple[int, list[int], list[float]]]]],
    order: Sequence[str],
    *,
    duplicate: bool,
    adjusted: bool,
) -> list[Cluster]:
    """The bootstrap's clusters: each table, or in duplicate mode each group of rotations (whose deals
    share their cards, so are resampled together); a team not in ``order`` (never built) is left out."""
    column = {team: i for i, team in enumerate(order)}
    units: dict[object, list[tuple[TableRow, list[tuple[int, list[int], list[float]]]]]] = defaultdict(list)
    for table, deals in played:
        units[table.group if duplicate else table.name].append((table, deals))
    clusters = []
    for members in units.values():
        numbers = sorted({deal for _, deals in members for deal, _, _ in deals})
        row = {deal: i for i, deal in enumerate(numbers)}
        teams = sorted({column[team] for table, _ in members for team in table.teams if team in column})
        if not teams:
            continue
        local = {team: k for k, team in enumerate(teams)}
        values = np.zeros((len(numbers), len(teams)))
        counts = np.zeros((len(numbers), len(teams)))
        for table, deals in members:
            for deal, chips, luck_out in deals:
                for seat, team in enumerate(table.teams):
                    if team not in column:
                        continue
                    k = local[column[team]]
                    values[row[deal], k] += luck_out[seat] if adjusted else chips[seat]
                    counts[row[deal], k] += 1
        clusters.append(Cluster(np.array(teams, dtype=np.intp), values, counts))
    return clusters


def _never_built(line: dict[str, int]) -> bool:
    return line["tables"] > 0 and line["build_failed"] == line["tables"]


def standings_csv(standings: Sequence[Standing]) -> str:
    """The standings as CSV text with a header line."""
    out = io.StringIO()
    names = [f for f in Standing.__dataclass_fields__]
    writer = csv.DictWriter(out, fieldnames=names, lineterminator="\n")
    writer.writeheader()
    for standing in standings:
        writer.writerow(asdict(standing))
    return out.getvalue()
