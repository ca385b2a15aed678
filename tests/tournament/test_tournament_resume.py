"""kill -9 at random moments, then the same command: the tournament ends as if never interrupted."""

from __future__ import annotations

import os
import random
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest

from arena.tournament.store import DB_NAME, Store

from support.field import make_field

ROOT = Path(__file__).resolve().parents[2]


def command(submissions: Path, run_dir: Path) -> list[str]:
    return [
        sys.executable,
        "-m",
        "arena",
        "tournament",
        str(submissions),
        "--out",
        str(run_dir),
        "--deals",
        "2",
        "--jobs",
        "2",
        "--seed",
        "5",
        "--time-limit",
        "10",
    ]


def run(submissions: Path, run_dir: Path) -> subprocess.Popen:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    return subprocess.Popen(
        command(submissions, run_dir), cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE
    )


def outcome(run_dir: Path) -> list[tuple]:
    store = Store(run_dir)
    rows = [(r.table_name, r.team, r.seat, r.final_stack, r.profit, r.faults) for r in store.results()]
    store.close()
    return rows


def finished_tables(run_dir: Path) -> dict[str, int]:
    """Committed tables and the modification time of their results file."""
    if not (run_dir / DB_NAME).exists():
        return {}
    store = Store(run_dir)
    done = [t.name for t in store.tables() if t.status == "done"]
    store.close()
    return {name: (run_dir / "tables" / name / "results.json").stat().st_mtime_ns for name in done}


def wait_until_tables_done(process: subprocess.Popen, run_dir: Path, count: int) -> bool:
    """Wait (on the process, 0.3 s at a time) until ``count`` tables are committed or it ends."""
    for _ in range(2000):
        try:
            process.wait(timeout=0.3)
            return True
        except subprocess.TimeoutExpired:
            if len(finished_tables(run_dir)) >= count:
                return True
    return False


@pytest.mark.slow
def test_killed_repeatedly_then_resumed_matches_an_uninterrupted_run(tmp_path: Path) -> None:
    submissions = tmp_path / "submissions"
    make_field(submissions, 7)
    reference = tmp_path / "reference"
    started = time.monotonic()
    clean = run(submissions, reference)
    assert clean.wait(timeout=600) == 0, clean.stderr.read().decode()
    whole = time.monotonic() - started  # kill moments are fractions of an uninterrupted run

    total = len(finished_tables(reference))

    run_dir = tmp_path / "killed"
    rng = random.Random(20111205)
    kills = 0
    seen: dict[str, int] = {}
    # Kill early (while starting or mid-table), then just after a table is committed, then at random. A
    # resumed run plays only the tables left, so each kill moment is a fraction of the share of the clean
    # run those tables took: a run lasts at least that long (its start-up comes on top), so it is killed.
    plans = [(0, rng.uniform(0.1, 0.35)), (1, rng.uniform(0.0, 0.2)), (0, rng.uniform(0.05, 0.3))]
    for tables_first, fraction in plans:
        process = run(submissions, run_dir)
        if tables_first:
            assert wait_until_tables_done(process, run_dir, len(seen) + tables_first)
        delay = whole * fraction * (total - len(finished_tables(run_dir))) / total
        try:
            process.wait(timeout=delay)
        except subprocess.TimeoutExpired:
            process.kill()
            kills += 1
        process.wait()
        process.stderr.close()
        now = finished_tables(run_dir)
        assert {name: now[name] for name in seen} == seen, "a finished table was played again"
        seen = now
    assert kills >= 2
    final = run(submissions, run_dir)
    assert final.wait(timeout=600) == 0, final.stderr.read().decode()
    final.stderr.close()

    assert outcome(run_dir) == outcome(reference)
    now = finished_tables(run_dir)
    assert {name: now[name] for name in seen} == seen
    db = sqlite3.connect(run_dir / DB_NAME)
    assert db.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
    tables = db.execute("SELECT name, deals_played FROM tables WHERE status = 'done'").fetchall()
    assert len(tables) == db.execute("SELECT COUNT(*) FROM tables").fetchone()[0]
    for name, deals_played in tables:
        count = db.execute("SELECT COUNT(*) FROM deals WHERE table_name = ?", (name,)).fetchone()[0]
        assert count == deals_played
    db.close()
    assert sorted(p.name for p in (run_dir / "tables").iterdir()) == sorted(name for name, _ in tables)
    assert (run_dir / "standings.csv").read_text() == (reference / "standings.csv").read_text()
