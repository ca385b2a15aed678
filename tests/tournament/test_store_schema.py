"""The store's schema version and its migration, on a store an older arena wrote (tests/data/store_v0/,
made by its ``make.py`` with the code before the store had a version) and on new stores."""

from __future__ import annotations

import shutil
import sqlite3
from pathlib import Path

import pytest

from arena.errors import ConfigError
from arena.games.codem.results import TableResult
from arena.runfolder.layout import DB_NAME, results_path, table_dir
from arena.tournament.host import TournamentSettings, tournament_stats
from arena.tournament.reports import write_team_reports
from arena.tournament.schedule import TableJob
from arena.tournament.store import SCHEMA_VERSION, DecisionTimes, Store, TeamRow

OLD_RUN = Path(__file__).resolve().parents[1] / "data" / "store_v0" / "run"


def _version(run_dir: Path) -> int:
    with sqlite3.connect(run_dir / DB_NAME) as conn:
        version: int = conn.execute("PRAGMA user_version").fetchone()[0]
    return version


def _times(store: Store) -> dict[tuple[str, str], DecisionTimes]:
    return {(row.table_name, row.team): row.times for row in store.results()}


@pytest.fixture()
def old_run(tmp_path: Path) -> Path:
    run = tmp_path / "run"
    shutil.copytree(OLD_RUN, run)
    return run


def test_the_golden_store_is_one_of_before_the_schema_version(old_run: Path) -> None:
    assert _version(old_run) == 0
    with sqlite3.connect(old_run / DB_NAME) as conn:
        columns = {row[1] for row in conn.execute("PRAGMA table_info(results)")}
    assert "median_ms" not in columns


def test_an_old_store_gets_the_times_of_its_tables_results_json(old_run: Path) -> None:
    before = Store.open_read_only(old_run)
    profits = [(row.table_name, row.team, row.profit) for row in before.results()]
    assert set(_times(before).values()) == {DecisionTimes()}  # read as it is: no times, nothing written
    before.close()
    assert _version(old_run) == 0

    store = Store(old_run)
    times = _times(store)
    assert [(row.table_name, row.team, row.profit) for row in store.results()] == profits
    assert times["table001", "Alpha"] == DecisionTimes(11.5, 41.25, 91.0, 9.0, 2049, 0.5)
    assert times["table001", "Charlie"] == DecisionTimes(13.5, 43.25, 93.0, 11.0, 2051, 1.5)
    assert times["table002", "Bravo"] == DecisionTimes()  # its folder is gone: nothing to fill from
    assert store.deal_values("table001") == [(1, [30, -10, -20], [30.0, -10.0, -20.0])]
    store.close()
    assert _version(old_run) == SCHEMA_VERSION

    again = Store(old_run)  # once migrated, opening it again changes nothing
    assert _times(again) == times
    again.close()


def test_a_team_report_takes_the_times_from_the_store(old_run: Path) -> None:
    store = Store(old_run)
    results_path(table_dir(old_run, "table001")).unlink()  # the store alone holds them now
    write_team_reports(store, old_run, TournamentSettings(deals=1, seed=7), tournament_stats(store))
    store.close()
    report = (old_run / "reports" / "Bravo.md").read_text()
    assert "| table001 | 6 | 12.5 | 42.2 | 92.0 | 9% |" in report


def test_a_new_store_records_each_team_s_times(tmp_path: Path) -> None:
    store = Store(tmp_path)
    assert _version(tmp_path) == SCHEMA_VERSION
    job = TableJob("table001", 1, 0, 3, ("A", "B"))
    store.initialise({"deals": 1}, [TeamRow(t, f"/sub/{t}.py", "Python", t * 8) for t in job.teams], [job])
    timing = {"median_ms": 1.25, "p99_ms": 2.5, "max_ms": 3.75, "peak_memory_kb": 512, "allowance_ms": 20.0}
    rows = [
        {
            "team": t,
            "seat": s,
            "final_stack": 1500,
            "profit": 0,
            "faults": [],
            "disqualified": False,
            "built": True,
            "decisions": 2,
            "timing": {**timing, "cpu_median_ms": float(s)},
        }
        for s, t in enumerate(job.teams, start=1)
    ]
    store.record_table("table001", TableResult.from_dict({"deals_played": 0, "teams": rows}), [])
    assert _times(store) == {
        ("table001", "A"): DecisionTimes(1.25, 2.5, 3.75, 1.0, 512, 20.0),
        ("table001", "B"): DecisionTimes(1.25, 2.5, 3.75, 2.0, 512, 20.0),
    }
    store.close()


def test_a_store_of_a_newer_arena_is_refused_in_one_line(tmp_path: Path) -> None:
    Store(tmp_path).close()
    with sqlite3.connect(tmp_path / DB_NAME) as conn:
        conn.execute(f"PRAGMA user_version = {SCHEMA_VERSION + 1}")
    with pytest.raises(ConfigError, match="of a newer arena") as raised:
        Store(tmp_path)
    assert "\n" not in str(raised.value)
    assert _version(tmp_path) == SCHEMA_VERSION + 1
