"""Standings from the store: profit, profit per deal with a 95% confidence interval, faults.

The confidence interval is the normal approximation ``mean ± 1.96·s/√n`` over per-deal observations.
Without duplicate mode an observation is a team's profit in one deal it played. In duplicate mode the
rotations of a table replay the same cards, so an observation is a team's profit in deal ``N`` of a
table group averaged over the rotations it played: the luck of the cards cancels inside it.
"""

from __future__ import annotations

import csv
import io
import math
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import asdict, dataclass

from arena.intervals import mean_interval
from arena.tournament.store import Store, TableKind, TableStatus


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

    @property
    def ci95_half_width(self) -> float:
        """Half the width of the 95% interval."""
        return (self.ci95_high - self.ci95_low) / 2


def observations(store: Store, *, duplicate: bool) -> dict[str, list[float]]:
    """Per team, its per-deal profits (duplicate: averaged over a group's rotations, deal by deal)."""
    plain: dict[str, list[float]] = defaultdict(list)
    grouped: dict[tuple[str, int, int], list[float]] = defaultdict(list)
    for table in store.tables(TableKind.ROUND):
        if table.status is not TableStatus.DONE:
            continue
        for deal, profits in store.deal_profits(table.name):
            for seat, team in enumerate(table.teams):
                if duplicate:
                    grouped[(team, table.group, deal)].append(profits[seat])
                else:
                    plain[team].append(profits[seat])
    for (team, _group, _deal), values in grouped.items():
        plain[team].append(math.fsum(values) / len(values))
    return plain


def compute_standings(store: Store, *, duplicate: bool = False) -> list[Standing]:
    """Every team's standing, best profit per deal first (ties: total profit, then name).

    A team whose program never built is ranked after every team that played, whatever its profit.
    """
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
    samples = observations(store, duplicate=duplicate)
    unranked = []
    for team, line in totals.items():
        _mean, low, high = mean_interval(samples.get(team, []))
        per_deal = line["profit"] / line["deals"] if line["deals"] else 0.0
        unranked.append((team, line, per_deal, low, high))
    unranked.sort(key=lambda item: (_never_built(item[1]), -item[2], -item[1]["profit"], item[0]))
    return [
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
        )
        for rank, (team, line, per_deal, low, high) in enumerate(unranked, start=1)
    ]


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
