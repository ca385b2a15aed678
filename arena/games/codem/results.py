"""What a Code'em table produced: each team's result and the table's, as ``results.json`` holds them."""

from __future__ import annotations

import platform
import statistics
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from arena import __version__
from arena.faults import Fault


@dataclass(frozen=True)
class TeamResult:
    """How one team did at one table."""

    team: str
    seat: int
    final_stack: int
    profit: int
    faults: tuple[Fault, ...]
    disqualified: bool
    built: bool
    decisions: int
    timing: dict[str, float]
    build_output: str = ""
    program: str = ""
    """The file name of the program that played (``Team.c``): what ``arena replay`` runs again."""

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready form (faults as dicts)."""
        return {
            "team": self.team,
            "seat": self.seat,
            "final_stack": self.final_stack,
            "profit": self.profit,
            "faults": [f.to_dict() for f in self.faults],
            "fault_count": len(self.faults),
            "disqualified": self.disqualified,
            "built": self.built,
            "decisions": self.decisions,
            "timing": self.timing,
            "build_output": self.build_output,
            "program": self.program,
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> TeamResult:
        """Inverse of :meth:`to_dict` (timing, build output and program may be absent)."""
        return cls(
            team=data["team"],
            seat=data["seat"],
            final_stack=data["final_stack"],
            profit=data["profit"],
            faults=tuple(Fault.from_dict(f) for f in data["faults"]),
            disqualified=data["disqualified"],
            built=data["built"],
            decisions=data["decisions"],
            timing=data.get("timing", {}),
            build_output=data.get("build_output", ""),
            program=data.get("program", ""),
        )


@dataclass(frozen=True)
class TableResult:
    """The outcome of a table."""

    seed: int | None
    """The known seed the cards came from; None when they came from a secret deck key."""
    deals_played: int
    teams: tuple[TeamResult, ...]
    isolation: str
    deck_sha256: str | None = None
    """SHA-256 of the table secret (its commitment) when the cards came from a secret deck key."""
    time_limit_s: float | None = None
    """The limit each decision was judged against (docs/protocol.md, "Time"); None in an older file."""

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready form, with the versions that produced it."""
        return {
            "seed": self.seed,
            "deck_sha256": self.deck_sha256,
            "deals_played": self.deals_played,
            "isolation": self.isolation,
            "time_limit_s": self.time_limit_s,
            "versions": {"arena": __version__, "python": platform.python_version()},
            "teams": [t.to_dict() for t in self.teams],
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> TableResult:
        """Inverse of :meth:`to_dict` (a ``results.json`` read back; versions are not kept)."""
        return cls(
            seed=data.get("seed", 0),
            deals_played=data["deals_played"],
            teams=tuple(TeamResult.from_dict(t) for t in data["teams"]),
            isolation=data.get("isolation", ""),
            deck_sha256=data.get("deck_sha256"),
            time_limit_s=data.get("time_limit_s"),
        )


def timing_summary(values: Sequence[float]) -> dict[str, float]:
    """Median, 99th percentile and maximum of a team's decision times (ms)."""
    if not values:
        return {"median_ms": 0.0, "p99_ms": 0.0, "max_ms": 0.0}
    ordered = sorted(values)
    p99 = ordered[min(len(ordered) - 1, int(0.99 * len(ordered)))]
    return {
        "median_ms": round(statistics.median(ordered), 3),
        "p99_ms": round(p99, 3),
        "max_ms": round(ordered[-1], 3),
    }
