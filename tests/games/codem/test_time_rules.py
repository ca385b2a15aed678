"""The time rules of docs/protocol.md ("Time") as a table and ``arena replay`` apply them: CPU time with the
idle rule at both (a decision sleeping past its limit but under the idle allowance is clean at the table
and in its replay), and a fault in the run after a showdown counts toward disqualification."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from arena.cli import main

from support.sandbox import needs_namespaces

pytestmark = [needs_namespaces, pytest.mark.slow]

PROGRAMS = Path(__file__).resolve().parents[2] / "programs" / "codem"
BOTS = Path(__file__).resolve().parents[3] / "bots" / "codem"
LIMIT = "2"


@pytest.fixture(scope="module")
def table(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Dozer (sleeps 2.2 s on its first run, crashes after a showdown) and two callers, 2 s, one fault."""
    out = tmp_path_factory.mktemp("time") / "table"
    programs = [PROGRAMS / "Dozer.py", BOTS / "Caller.py", PROGRAMS / "Checker.py"]
    argv = ["table", *map(str, programs), "--out", str(out), "--deals", "2", "--json"]
    assert main([*argv, "--time-limit", LIMIT, "--max-faults", "1"]) == 0
    return out


def _faults(table: Path) -> list[dict]:
    return [json.loads(line) for line in (table / "faults.jsonl").read_text().splitlines()]


def test_replay_judges_a_decision_as_the_table_did(table: Path, capsys) -> None:
    assert not [f for f in _faults(table) if f["team"] == "Dozer" and f["deal"] == 1 and f["decision"] == 1]
    capsys.readouterr()
    assert json.loads((table / "results.json").read_text())["time_limit_s"] == float(LIMIT)
    code = main(["replay", str(table), "--deal", "1", "--team", "Dozer", "--decision", "1"])  # its limit
    out = capsys.readouterr().out
    assert f"--- judged as at a table: {LIMIT} s of CPU time a decision" in out
    assert "--- outputf.txt: '0\\n'" in out and code == 0  # on the wall clock: a timeout at 2 s


def test_a_fault_after_the_showdown_counts_toward_disqualification(table: Path) -> None:
    (fault,) = [f for f in _faults(table) if f["team"] == "Dozer"]
    assert fault["kind"] == "crash" and fault["stage"] == "Show_Down"
    results = json.loads((table / "results.json").read_text())
    (dozer,) = [t for t in results["teams"] if t["team"] == "Dozer"]
    assert dozer["disqualified"] is True
