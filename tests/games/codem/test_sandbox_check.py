"""``arena check``: six seats, several tried; a sample bot passes, broken programs fail and say why."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from arena.cli import main
from arena.games.codem.check import seats_to_try

from support.sandbox import HOSTILE, TINY, needs_namespaces

pytestmark = needs_namespaces

BOTS = Path(__file__).resolve().parents[3] / "bots" / "codem"
CODEM = Path(__file__).resolve().parents[2] / "programs" / "codem"


def check(capsys: pytest.CaptureFixture[str], program: Path, *extra: str) -> tuple[int, dict]:
    # A known seed (the warning goes to stderr): these cases count the decisions of known deals.
    code = main(["check", str(program), "--json", "--seed", "0", *extra])
    return code, json.loads(capsys.readouterr().out)


@pytest.mark.slow
def test_a_sample_bot_passes(capsys: pytest.CaptureFixture[str]) -> None:
    code, report = check(capsys, BOTS / "Tight.c", "--deals", "3")
    assert code == 0
    assert report["verdict"] == "pass" and report["reasons"] == []
    assert report["build"]["ok"] and report["faults"] == []
    assert report["opponents"] == ["Raiser", "Bluffer", "Caller", "Tracker", "Learner"]
    assert report["rules"] == {
        "seats": 6,
        "small_blind": 5,
        "big_blind": 10,
        "stack": 1500,
        "time_limit_s": 1.0,
        "max_faults": 10,
    }
    tried = seats_to_try(3, 0)
    assert tried[0] == 1 and tried[-1] == 6 and len(tried) == 3
    assert report["seats_tried"] == tried
    played = [(s["seat"], s["deals_played"], s["clean"]) for s in report["seats"]]
    assert played == [(t, 3, True) for t in tried]
    assert report["decisions"] > 0
    assert 0 < report["timing"]["max_ms"] <= report["timing"]["limit_ms"]


def test_the_seats_tried_are_one_and_six_and_seeded_others() -> None:
    assert seats_to_try(2, 0) == [1, 6]
    assert seats_to_try(6, 5) == [1, 2, 3, 4, 5, 6]
    drawn = {tuple(seats_to_try(4, seed)) for seed in range(20)}
    assert len(drawn) > 1 and all(d[0] == 1 and d[-1] == 6 and len(set(d)) == 4 for d in drawn)


def test_a_program_that_breaks_only_in_seat_6_fails(capsys: pytest.CaptureFixture[str]) -> None:
    code, report = check(capsys, CODEM / "FiveSlots.py", "--deals", "2", "--seats", "2")
    assert code == 1 and report["verdict"] == "fail"
    one, six = report["seats"]
    assert (one["seat"], one["clean"], one["faults"]) == (1, True, 0)
    assert (six["seat"], six["clean"]) == (6, False) and six["faults"] > 0
    assert report["reasons"] == [f"seat 6: {six['faults']} fault(s): crash"]
    fault = report["faults"][0]
    assert (fault["seat"], fault["deal"], fault["decision"], fault["kind"]) == (6, 1, 1, "crash")
    assert fault["stage"] == "Pre_Flop"
    assert len(fault["stacks"]) == 6 and len(fault["cards"].split()) == 2
    assert sorted(fault["inputs"]) == ["deal.txt", "deals_money.txt", "inputf.txt"]
    assert fault["inputs"]["inputf.txt"].split()[2] == "6"
    assert fault["deal_txt"] == fault["inputs"]["deal.txt"]
    assert "IndexError: list assignment index out of range" in fault["stderr"]


def test_opponents_can_be_a_folder_of_programs(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    for name in ("Caller.py", "Tight.c"):
        shutil.copyfile(BOTS / name, tmp_path / name)
    (tmp_path / "notes.txt").write_text("not a program\n")
    program = tmp_path / "mine" / "Calm.py"
    program.parent.mkdir()
    shutil.copyfile(BOTS / "Caller.py", program)
    code, report = check(capsys, program, "--deals", "1", "--seats", "2", "--against", f"{tmp_path}")
    assert code == 0, report["reasons"]
    assert report["opponents"] == ["Caller", "Tight", "Raiser", "Bluffer", "Tracker"]


def test_a_file_the_tournament_would_skip_is_not_checked(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    program = tmp_path / "my bot.py"
    shutil.copyfile(CODEM / "Tiny.py", program)
    assert main(["check", str(program)]) == 2
    assert capsys.readouterr().err.strip() == (
        "arena check: error: my bot.py: the tournament would not play this file: team id 'my bot' may hold "
        "only ASCII letters, digits, '_' and '-' and must start with a letter or digit (no spaces or dots)"
    )


def test_an_infinite_loop_fails_with_its_deal_file(capsys: pytest.CaptureFixture[str]) -> None:
    code, report = check(
        capsys, HOSTILE / "infinite_loop.c", "--deals", "1", "--seats", "2", "--time-limit", "0.3"
    )
    assert code == 1
    assert report["verdict"] == "fail"
    fault = report["faults"][0]
    # Judged on CPU time: the loop is stopped when its decision has used its 0.3 s of CPU.
    assert fault["kind"] == "cpu_limit"
    assert fault["reason"].startswith("used more than its 0.3 s CPU time limit (")
    assert fault["deal_txt"].startswith("Dealer")
    assert "Stage          Pre_Flop" in fault["deal_txt"]
    first = report["reasons"][0]
    assert first.startswith("seat 1: ") and first.endswith("fault(s): cpu_limit")


def test_too_many_help_files_fail(capsys: pytest.CaptureFixture[str]) -> None:
    code, report = check(capsys, HOSTILE / "too_many_help_files.py", "--deals", "1", "--seats", "2")
    assert code == 1
    assert {fault["kind"] for fault in report["faults"]} == {"help_file_limit"}
    names = [f"help{n:02d}.txt" for n in range(1, 16)]
    assert report["help_files"] == {"used": 15, "limit": 15, "names": names}


def test_a_build_error_fails_with_the_compilers_output(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    program = tmp_path / "Broken.c"
    shutil.copyfile(TINY / "Broken.c", program)
    code, report = check(capsys, program, "--deals", "1")
    assert code == 1
    assert not report["build"]["ok"]
    assert "undefined_name" in report["build"]["output"]
    assert "the program does not build" in report["reasons"]


@pytest.mark.slow
def test_the_text_report_names_the_fault_and_the_deal_file(capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["check", str(HOSTILE / "sleeper.c"), "--deals", "1", "--seats", "2", "--time-limit", "0.2"]
    code = main([*argv, "--seed", "0"])
    out = capsys.readouterr().out
    assert code == 1
    assert "timeout: ran past the 2 s wall limit" in out  # the wall-clock cap of 0.2 s of CPU: 5 x 0.2 + 1
    assert "deal.txt it was given:" in out
    assert "verdict: FAIL" in out


def test_an_unknown_program_is_one_clear_error(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    assert main(["check", str(tmp_path / "Nobody.c")]) == 2
    expected = f"arena check: error: {tmp_path / 'Nobody.c'}: no such program file"
    assert capsys.readouterr().err.strip() == expected
