"""``arena check``: a sample bot passes, hostile and broken programs fail with the right reason."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from arena.cli import main

from support.sandbox import HOSTILE, TINY, needs_namespaces

pytestmark = needs_namespaces

BOTS = Path(__file__).resolve().parents[1] / "bots" / "codem"


def check(capsys: pytest.CaptureFixture[str], program: Path, *extra: str) -> tuple[int, dict]:
    # A known seed (the warning goes to stderr): these cases count the decisions of known deals.
    code = main(["check", str(program), "--json", "--seed", "0", *extra])
    return code, json.loads(capsys.readouterr().out)


def test_a_sample_bot_passes(capsys: pytest.CaptureFixture[str]) -> None:
    code, report = check(capsys, BOTS / "Tight.c", "--deals", "3")
    assert code == 0
    assert report["verdict"] == "pass" and report["reasons"] == []
    assert report["build"]["ok"] and report["faults"] == []
    assert report["opponents"] == ["Raiser", "Bluffer"]
    assert report["decisions"] > 0
    assert 0 < report["timing"]["max_ms"] <= report["timing"]["limit_ms"]


def test_an_infinite_loop_fails_with_its_deal_file(capsys: pytest.CaptureFixture[str]) -> None:
    code, report = check(capsys, HOSTILE / "infinite_loop.c", "--deals", "1", "--time-limit", "0.3")
    assert code == 1
    assert report["verdict"] == "fail"
    fault = report["faults"][0]
    assert (fault["kind"], fault["reason"]) == ("timeout", "ran past the 0.3 s wall limit")
    assert fault["deal_txt"].startswith("Dealer")
    assert "Stage          Pre_Flop" in fault["deal_txt"]
    assert "1 fault(s): timeout" in report["reasons"]


def test_too_many_help_files_fail(capsys: pytest.CaptureFixture[str]) -> None:
    code, report = check(capsys, HOSTILE / "too_many_help_files.py", "--deals", "1")
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


def test_the_text_report_names_the_fault_and_the_deal_file(capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["check", str(HOSTILE / "sleeper.c"), "--deals", "1", "--time-limit", "0.2", "--seed", "0"])
    out = capsys.readouterr().out
    assert code == 1
    assert "timeout: ran past the 0.2 s wall limit" in out
    assert "deal.txt it was given:" in out
    assert "verdict: FAIL" in out


def test_an_unknown_program_is_one_clear_error(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    assert main(["check", str(tmp_path / "Nobody.c")]) == 2
    expected = f"arena check: error: {tmp_path / 'Nobody.c'}: no such program file"
    assert capsys.readouterr().err.strip() == expected
