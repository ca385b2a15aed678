"""``arena check --repeat``: every decision of the check run twice on identical input and help files.

A deterministic sample bot is not reported; a program that raises by a random amount is, with the table,
deal and decision where its two answers differed, and the check fails.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from arena.cli import main
from arena.games.codem.repeat import Difference, RepeatReport

from support.sandbox import needs_namespaces

ROOT = Path(__file__).parents[3]
SAME = " on the same input and help files"
pytestmark = needs_namespaces


@pytest.mark.slow
def test_deterministic_bot_is_not_reported(capsys: pytest.CaptureFixture[str]) -> None:
    program = ROOT / "bots" / "codem" / "Caller.py"
    code = main(["check", str(program), "--deals", "3", "--seats", "2", "--seed", "5", "--repeat"])
    out = capsys.readouterr().out
    found = re.search(r"repeat: (\d+) decisions run twice: Caller answered the same each time", out)
    assert found and int(found.group(1)) > 0, out
    assert code == 0


@pytest.mark.slow
def test_random_program_is_reported_with_its_decision(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    program = ROOT / "tests" / "programs" / "codem" / "Coin.py"
    out_dir = tmp_path / "check"
    code = main(
        [
            "check",
            str(program),
            "--deals",
            "3",
            "--seats",
            "2",
            "--seed",
            "5",
            "--repeat",
            "--out",
            str(out_dir),
        ]
    )
    out = capsys.readouterr().out
    assert "repeat: Coin answered differently on identical inputs" in out, out
    named = re.findall(
        r"  (seat\d), deal (\d+), decision (\d+) \((\w+)\): answered '(\d+)', then '(\d+)'", out
    )
    assert {n[0] for n in named} == {"seat1", "seat6"}, out
    for table, deal, _decision, _stage, first, second in named:
        assert first != second
        assert (out_dir / table / "events.jsonl").is_file() and int(deal) >= 1
    assert code == 1


def test_report_lines_name_each_difference() -> None:
    assert RepeatReport(0, []).lines("Bot") == ["repeat: Bot made no decision to run again"]
    clean = RepeatReport(12, [])
    assert clean.lines("Bot") == ["repeat: 12 decisions run twice: Bot answered the same each time"]
    report = RepeatReport(5, [Difference("seat6", 2, 3, "Flop", "20", None)])
    head, line = report.lines("Bot")
    assert "Bot answered differently" in head and "5 decisions compared" in head
    assert line == "  seat6, deal 2, decision 3 (Flop): answered '20', then no answer" + SAME
