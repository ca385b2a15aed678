"""Several attackers in one tournament (issue 12): it completes, stores every fault in SQLite escaped,
and leaves no process, cgroup, mount, key or IPC object of its sandboxes."""

from __future__ import annotations

import shutil
import sqlite3
from pathlib import Path

from arena.tournament.host import TournamentSettings, run_tournament

from support.hostile import ATTACKS, HONEST, leftovers, read_traces, tracked_run_table
from support.sandbox import needs_namespaces

pytestmark = needs_namespaces

ATTACKERS = ("LinkSwap.py", "OddFiles.py", "SparseBomb.c", "Escapes.py", "BuildLeftovers.pl")


def test_a_tournament_of_attackers_completes(tmp_path: Path) -> None:
    submissions = tmp_path / "submissions"
    submissions.mkdir()
    for program in (*(ATTACKS / name for name in ATTACKERS), HONEST[0]):
        shutil.copyfile(program, submissions / program.name)
    mounts = {line.split()[4] for line in Path("/proc/self/mountinfo").read_text().splitlines()}
    run_dir = tmp_path / "run"
    report = run_tournament(
        submissions, run_dir, TournamentSettings(deals=4, seed=3), table_runner=tracked_run_table
    )
    assert report.complete and report.tables >= 1
    assert (run_dir / "results.json").is_file()
    traces = read_traces(run_dir / "tables")
    assert traces and leftovers(traces, mounts) == []
    with sqlite3.connect(run_dir / "tournament.sqlite") as db:
        rows = db.execute("SELECT team, kind, reason, stderr FROM faults").fetchall()
    teams = {row[0] for row in rows}
    assert {"LinkSwap", "OddFiles", "SparseBomb", "Escapes", "BuildLeftovers"} <= teams
    for _, _, reason, stderr in rows:
        assert "\x1b" not in reason + stderr
        (reason + stderr).encode("utf-8")
