"""A real table keeps going when programs hang, crash, write garbage, raise too little or do not build."""

import json
from pathlib import Path

import psutil
import pytest

from arena.faults import FaultKind
from arena.games.codem.deal_file import parse_deal_file
from arena.games.codem.table import PlayerSpec, TableConfig, run_table

PROGRAMS = Path(__file__).parents[2] / "programs" / "codem"


def _players(*names: str) -> list[PlayerSpec]:
    return [PlayerSpec(team=Path(n).stem, program=PROGRAMS / n) for n in names]


@pytest.fixture(scope="module")
def faulty_table(tmp_path_factory: pytest.TempPathFactory):
    out = tmp_path_factory.mktemp("faulty")
    players = _players("Checker.py", "Hang.py", "Garbage.py", "Crash.py", "Tiny.py", "Shover.py")
    config = TableConfig(deals=25, seed=11, time_limit_s=0.5, max_faults=4)
    before = {p.pid for p in psutil.Process().children(recursive=True)}
    result = run_table(players, out, config)
    left = [p for p in psutil.Process().children(recursive=True) if p.pid not in before]
    return out, result, left


def test_chips_are_conserved_and_files_written(faulty_table) -> None:
    out, result, _ = faulty_table
    assert sum(t.final_stack for t in result.teams) == 6 * 1500
    assert sum(t.profit for t in result.teams) == 0
    deal_files = sorted((out / "deals").glob("deal*.txt"))
    assert len(deal_files) == result.deals_played >= 1
    last = parse_deal_file((out / "deals" / f"deal{result.deals_played}.txt").read_text())
    assert last.winners
    results = json.loads((out / "results.json").read_text())
    assert {"team", "seat", "final_stack", "profit", "faults"} <= set(results["teams"][0])


def test_each_misbehaviour_is_a_fault_with_its_reason(faulty_table) -> None:
    _, result, _ = faulty_table
    by_team = {t.team: t for t in result.teams}
    assert by_team["Checker"].faults == () and by_team["Shover"].faults == ()
    hang = by_team["Hang"].faults[0]
    # Time is judged as CPU time (docs/sandbox.md, "Fair clocks"): a spinning program passes its CPU limit.
    assert hang.kind is FaultKind.CPU_LIMIT and "CPU time limit" in hang.reason
    garbage = by_team["Garbage"].faults[0]
    assert garbage.kind is FaultKind.NOT_AN_INTEGER and "all in, baby!" in garbage.reason
    crash = by_team["Crash"].faults[0]
    assert crash.kind is FaultKind.CRASH and "deliberate failure" in crash.stderr
    tiny = by_team["Tiny"].faults[0]
    assert tiny.kind is FaultKind.RAISE_BELOW_MINIMUM and "minimum raise of" in tiny.reason


def test_faulty_teams_are_disqualified_after_max_faults(faulty_table) -> None:
    _, result, _ = faulty_table
    by_team = {t.team: t for t in result.teams}
    for team in by_team.values():
        assert team.disqualified == (len(team.faults) >= 4)
        assert len(team.faults) <= 4
    assert by_team["Hang"].disqualified and by_team["Garbage"].disqualified and by_team["Crash"].disqualified
    # Hang and Crash fault on every run (post-showdown runs too): once disqualified they are never run again.
    assert by_team["Hang"].decisions == by_team["Crash"].decisions == 4
    assert not by_team["Checker"].disqualified


def test_under_minimum_raise_is_played_as_a_call(faulty_table) -> None:
    out, result, _ = faulty_table
    tiny_seat = next(t.seat for t in result.teams if t.team == "Tiny")
    first_deal = json.loads((out / "events.jsonl").read_text().splitlines()[0])
    tiny_actions = [e for e in first_deal["events"] if e["kind"] == "action" and e["seat"] == tiny_seat]
    assert tiny_actions and tiny_actions[0]["action"] in ("call", "check")


def test_no_process_is_left_behind(faulty_table) -> None:
    _, _, left = faulty_table
    assert left == []


def test_a_program_that_does_not_build_sits_out(tmp_path: Path) -> None:
    players = _players("Checker.py", "Broken.c", "Shover.py")
    result = run_table(players, tmp_path, TableConfig(deals=5, seed=3))
    broken = next(t for t in result.teams if t.team == "Broken")
    assert not broken.built and broken.final_stack == 1500 and broken.decisions == 0
    assert broken.faults[0].kind is FaultKind.BUILD_FAILED
    assert "undefined_symbol" in broken.build_output
    assert sum(t.final_stack for t in result.teams) == 3 * 1500
