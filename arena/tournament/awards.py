"""``awards.csv``: seed 004's certificates.

* **excellence**: the top six. Before the final they are the six finalists in standings order; once the
  final is played, in the order of its places.
* **participation**: every team whose program ran without a single fault for the whole tournament (every
  table it sat at, the final included when it played there; a failed build is a fault).
"""

from __future__ import annotations

import csv
import io
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import asdict, dataclass

from arena.tournament.finalists import choose_finalists
from arena.tournament.places import Place
from arena.tournament.standings import Standing
from arena.tournament.store import Store, TableKind

EXCELLENCE = "excellence"
PARTICIPATION = "participation"


@dataclass(frozen=True, slots=True)
class Award:
    """One certificate: which, to whom, the place it honours (excellence) and why."""

    certificate: str
    team: str
    place: int | None
    reason: str


def tournament_awards(
    store: Store, standings: Sequence[Standing], *, places: Sequence[Place] | None = None
) -> list[Award]:
    """The certificates as the run stands: excellence for the top six, participation for faultless teams."""
    if places is not None:
        excellence = [
            Award(EXCELLENCE, p.team, p.place, f"place {p.place} at the final table ({p.final_stack} chips)")
            for p in places
        ]
    else:
        rank = {s.team: s.rank for s in standings}
        excellence = [
            Award(EXCELLENCE, team, place, f"finalist, rank {rank[team]} of the standings (final not played)")
            for place, team in enumerate(choose_finalists(store).finalists, start=1)
        ]
    tables: dict[str, int] = defaultdict(int)
    faulty: set[str] = set()
    for kind in (TableKind.ROUND, TableKind.FINAL):
        for row in store.results(kind):
            tables[row.team] += 1
            if row.faults or not row.built:
                faulty.add(row.team)
    participation = [
        Award(PARTICIPATION, team, None, f"no fault at any of its {count} table(s)")
        for team, count in sorted(tables.items())
        if team not in faulty
    ]
    return excellence + participation


def awards_csv(awards: Sequence[Award]) -> str:
    """The certificates as CSV text with a header line."""
    out = io.StringIO()
    writer = csv.DictWriter(out, fieldnames=list(Award.__dataclass_fields__), lineterminator="\n")
    writer.writeheader()
    for award in awards:
        writer.writerow(asdict(award))
    return out.getvalue()
