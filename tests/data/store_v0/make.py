"""Makes ``run/``: a tournament store as arena wrote it before the store had a schema version.

Run from a checkout of that arena (commit 3871c12, the store without timing columns or
``user_version``), e.g. ``PYTHONPATH=/path/to/old/checkout python tests/data/store_v0/make.py``. Three
tables: ``table001`` played, its ``results.json`` beside it with each team's decision times;
``table002`` played, its folder since removed; ``table003`` not played yet.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

from arena.games.codem.results import TableResult
from arena.tournament.schedule import TableJob
from arena.tournament.store import Store, TeamRow

RUN = Path(__file__).resolve().parent / "run"
TEAMS = ("Alpha", "Bravo", "Charlie")


def timing(team: int) -> dict[str, float]:
    """Decision times distinct per team, so a test can tell they were read back for the right row."""
    return {
        "median_ms": 10.5 + team,
        "p99_ms": 40.25 + team,
        "max_ms": 90.0 + team,
        "cpu_median_ms": 8.0 + team,
        "peak_memory_kb": 2048 + team,
        "allowance_ms": 0.5 * team,
    }


def result(teams: tuple[str, ...], profits: list[int]) -> TableResult:
    rows = [
        {
            "team": team,
            "seat": seat,
            "final_stack": 1500 + profit,
            "profit": profit,
            "faults": [],
            "disqualified": False,
            "built": True,
            "decisions": 6,
            "timing": timing(seat),
        }
        for seat, (team, profit) in enumerate(zip(teams, profits, strict=True), start=1)
    ]
    return TableResult.from_dict({"deals_played": 1, "seed": 7, "teams": rows})


def deal(profits: list[int]) -> tuple[int, list[dict[str, object]], list[int]]:
    stacks = [1500] * len(profits)
    events: list[dict[str, object]] = [
        {"kind": "deal_started", "deal": 1, "dealer": 1, "stacks": stacks, "in_deal": [1, 2, 3]},
        {
            "kind": "deal_ended",
            "stacks": [s + p for s, p in zip(stacks, profits, strict=True)],
            "showdown": False,
        },
    ]
    return 1, events, profits


def main() -> None:
    shutil.rmtree(RUN, ignore_errors=True)
    store = Store(RUN)
    jobs = [TableJob(f"table00{n}", n, 0, 7 + n, TEAMS) for n in (1, 2, 3)]
    settings = {"deals": 1, "seed": 7, "duplicate": False, "time_limit_s": 1.0}
    store.initialise(settings, [TeamRow(t, f"/sub/{t}.py", "Python", t * 8) for t in TEAMS], jobs)
    for job, profits in zip(jobs[:2], ([30, -10, -20], [-5, 5, 0]), strict=False):
        played = result(job.teams, profits)
        store.record_table(job.name, played, [deal(profits)])
        folder = RUN / "tables" / job.name
        folder.mkdir(parents=True)
        (folder / "results.json").write_text(json.dumps(played.to_dict(), indent=2) + "\n")
    store.close()
    shutil.rmtree(RUN / "tables" / "table002")


if __name__ == "__main__":
    main()
