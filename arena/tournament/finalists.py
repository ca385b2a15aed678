"""Who sits at the final table: the best six of the standings under a documented policy.

Going down the standings, a team is skipped when its program never built anywhere, or (unless the
organiser allows it with ``--allow-disqualified``) when it was disqualified at any table (over the fault
limit). The first six teams not skipped are the finalists; seat ``i+1`` at the final is ``finalists[i]``.
Every team skipped on the way is named with its reason.
"""

from __future__ import annotations

from dataclasses import dataclass

from arena.tournament.rounds import format_standings
from arena.tournament.standings import compute_standings
from arena.tournament.store import Store

FINALISTS = 6


@dataclass(frozen=True, slots=True)
class Skipped:
    """A team passed over for the final table, and why."""

    team: str
    rank: int
    reason: str

    def line(self) -> str:
        """One line for the terminal."""
        return f"{self.team} (rank {self.rank}) is not a finalist: {self.reason}"


@dataclass(frozen=True, slots=True)
class FinalistChoice:
    """The finalists in seat order and the better-ranked teams skipped to reach them."""

    finalists: tuple[str, ...]
    skipped: tuple[Skipped, ...]
    allow_disqualified: bool


def choose_finalists(store: Store, *, allow_disqualified: bool = False) -> FinalistChoice:
    """The finalists by the policy of this module's docstring."""
    duplicate = bool(store.meta().get("duplicate", False))
    chosen: list[str] = []
    skipped: list[Skipped] = []
    for standing in format_standings(store, compute_standings(store, duplicate=duplicate)):
        if len(chosen) == FINALISTS:
            break
        if standing.tables and standing.build_failed == standing.tables:
            skipped.append(Skipped(standing.team, standing.rank, "its program never built"))
        elif standing.disqualified_tables and not allow_disqualified:
            tables = ", ".join(standing.disqualified_tables.split())
            reason = f"disqualified at {tables} (over the fault limit; --allow-disqualified admits it)"
            skipped.append(Skipped(standing.team, standing.rank, reason))
        else:
            chosen.append(standing.team)
    return FinalistChoice(tuple(chosen), tuple(skipped), allow_disqualified)
