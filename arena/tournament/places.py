"""Places at the final table: by chips, then by when a team went out, with written tie rules.

1. More chips at the end is better. A team whose program did not build never played: it has no chips
   and went out before deal 1.
2. Among teams with no chips, the one that went out in a later deal is better.
3. Teams out in the same deal (or with equal chips at the end): the larger stack at the start of that
   deal (for teams still in, of the last deal) is better;
4. then the seat that comes first going left from that deal's button (the first to be dealt cards).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from arena.tournament.store import ResultRow

TIE_RULES = (
    "chips at the end (more is better); then the deal in which a team went out (later is better); then "
    "the stack at the start of that deal (for teams still in: of the last deal; larger is better); then the "
    "seat first to the left of that deal's button"
)


@dataclass(frozen=True, slots=True)
class Place:
    """One finalist's place and what decided it."""

    place: int
    team: str
    seat: int
    final_stack: int
    profit: int
    out_in_deal: int | None
    """The deal in which the team lost its last chip (0: it never played); None: still in at the end."""
    stack_at_start: int
    """Its chips at the start of the deciding deal (the one it went out in, or the last one)."""
    faults: int
    disqualified: bool
    built: bool


@dataclass(frozen=True, slots=True)
class _DealChips:
    number: int
    dealer: int
    before: tuple[int, ...]
    after: tuple[int, ...]


def _deal_chips(deals: Iterable[tuple[int, list[dict[str, Any]]]]) -> list[_DealChips]:
    found = []
    for number, events in deals:
        start = next(e for e in events if e["kind"] == "deal_started")
        end = next(e for e in events if e["kind"] == "deal_ended")
        found.append(_DealChips(number, start["dealer"], tuple(start["stacks"]), tuple(end["stacks"])))
    return found


def final_places(
    results: Sequence[ResultRow], deals: Iterable[tuple[int, list[dict[str, Any]]]]
) -> list[Place]:
    """Every finalist's place from its results and the final's recorded deals (module docstring rules)."""
    played = _deal_chips(deals)
    seats = len(results)
    rows = []
    for row in results:
        index = row.seat - 1
        out = next((d for d in played if d.before[index] > 0 and d.after[index] == 0), None)
        deciding = out or (played[-1] if played else None)
        out_deal: int | None
        if not row.built or deciding is None:
            chips, out_deal, at_start, after_button = 0, 0, 0, row.seat
        else:
            chips = 0 if out is not None else row.final_stack
            out_deal = out.number if out is not None else None
            at_start = deciding.before[index]
            after_button = (row.seat - deciding.dealer - 1) % seats
        key = (-chips, -(out_deal if out_deal is not None else len(played) + 1), -at_start, after_button)
        rows.append((key, row, chips, out_deal, at_start))
    rows.sort(key=lambda item: item[0])
    return [
        Place(
            place=place,
            team=row.team,
            seat=row.seat,
            final_stack=chips,
            profit=row.profit,
            out_in_deal=out_deal,
            stack_at_start=at_start,
            faults=row.faults,
            disqualified=row.disqualified,
            built=row.built,
        )
        for place, (_key, row, chips, out_deal, at_start) in enumerate(rows, start=1)
    ]
