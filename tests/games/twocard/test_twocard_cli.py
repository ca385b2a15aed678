"""``arena twocard value|generate|play`` from the command line: output, files written, one-line errors."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from arena.cli import main
from arena.engines.twocard.generator import random_strategy
from arena.engines.twocard.strategy import constraint_violations, read_strategy, write_strategy
from arena.engines.twocard.value import best_response, strategy_value

BOTS = Path(__file__).resolve().parents[3] / "bots" / "twocard"
GENERATE = ["generate", "--seed", "1", "--iterations", "5"]


@pytest.fixture
def strategy_file(tmp_path: Path) -> Path:
    path = tmp_path / "s.txt"
    write_strategy(random_strategy(2, 4, np.random.default_rng(12)), path)
    return path


def test_value_prints_the_exact_value(strategy_file: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["twocard", "value", str(strategy_file)]) == 0
    expected = strategy_value(read_strategy(strategy_file))
    assert f"value {expected:.8f} per hand" in capsys.readouterr().out


def test_value_json_with_the_best_response(strategy_file: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["twocard", "value", str(strategy_file), "--json", "--policy"]) == 0
    data = json.loads(capsys.readouterr().out)
    best = best_response(read_strategy(strategy_file))
    assert data["value"] == best.value
    rows = {row["call"]: row["choice"] for row in data["policy"]}
    assert rows["new_hand"]["44"] == int(best.policy.open1[-1])
    assert len(rows) == 1 + 3 + 7 + 7 * 9 * 4


def test_value_with_mistakes_is_the_generators_objective(
    strategy_file: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["twocard", "value", str(strategy_file), "--json", "--mistake", "0.001"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["value"] == strategy_value(read_strategy(strategy_file), mistake=0.001)


def test_generate_writes_a_constrained_strategy_and_prints_its_value(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "g.txt"
    assert (
        main(
            [
                "twocard",
                "generate",
                "--seed",
                "4",
                "--iterations",
                "150",
                "--bet1",
                "3",
                "--bet2",
                "7",
                "-o",
                str(out),
            ]
        )
        == 0
    )
    strategy = read_strategy(out)
    assert (strategy.bet1, strategy.bet2) == (3, 7)
    assert constraint_violations(strategy) == []
    assert f"value {strategy_value(strategy):.8f}" in capsys.readouterr().out


def test_generate_without_bets_draws_them_from_the_seed(tmp_path: Path) -> None:
    out = tmp_path / "g.txt"
    assert main(["twocard", "generate", "--seed", "8", "--iterations", "5", "-o", str(out)]) == 0
    strategy = read_strategy(out)
    assert 1 <= strategy.bet1 <= 5 and strategy.bet1 <= strategy.bet2 <= 3 * strategy.bet1


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["value", "missing.txt"], "cannot read"),
        (
            ["generate", "--seed", "1", "--iterations", "5", "--bet1", "4", "--bet2", "13", "-o", "x.txt"],
            "3*bet1",
        ),
        (
            ["generate", "--seed", "1", "--iterations", "5", "--bet1", "2", "-o", "x.txt"],
            "both --bet1 and --bet2",
        ),
        (["play", "nothing.py", "--strategy", "missing.txt"], "cannot read"),
        (
            ["play", "p.py", "--strategy", "s.txt", "--time-limit", "0"],
            "--time-limit: must be more than 0",
        ),
    ],
)
def test_bad_input_is_one_error_line(
    argv: list[str], message: str, tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch
) -> None:
    monkeypatch.chdir(tmp_path)
    assert main(["twocard", *argv]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and err[0].startswith("arena twocard: error:") and message in err[0]


def test_bad_strategy_file_names_file_and_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    bad = tmp_path / "bad.txt"
    bad.write_text("2 4\nROUND1 0 0 0 0 0.5 0.6\n")
    assert main(["twocard", "value", str(bad)]) == 2
    assert f"{bad}:2: probabilities" in capsys.readouterr().err


def test_play_prints_scores_beside_the_best_expected_profit(
    strategy_file: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "out"
    argv = ["twocard", "play", str(BOTS / "sample.py"), "--strategy", str(strategy_file), "--hands", "100"]
    assert main([*argv, "--out", str(out), "--seed", "3"]) == 0
    printed = capsys.readouterr().out
    results = json.loads((out / "results.json").read_text())
    case = results["cases"][0]
    assert results["interface"] == "class"
    assert f"{case['profit']:+d}" in printed and f"{case['best_expected_profit']:+.0f}" in printed
    assert f"score {results['score']:.2f}" in printed
    assert (out / "case_1" / "hands.jsonl").exists()


def test_play_exits_1_after_a_fault_as_headsup_does(
    strategy_file: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    program = tmp_path / "crasher.py"
    program.write_text("import sys\nsys.exit(3)\n")
    argv = ["twocard", "play", str(program), "--strategy", str(strategy_file), "--hands", "5"]
    assert main([*argv, "--interface", "lines"]) == 1
    assert "fault" in capsys.readouterr().out


NAMES = [("tight_v2.txt", True), ("tight_aggressive_strategy_v2.txt", False)]


@pytest.mark.parametrize(("name", "as_table"), NAMES)
def test_play_table_at_80_columns_keeps_the_whole_file_name(
    name: str,
    as_table: bool,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    strategy = tmp_path / name
    write_strategy(random_strategy(2, 4, np.random.default_rng(12)), strategy)
    monkeypatch.setenv("COLUMNS", "80")
    argv = ["twocard", "play", str(BOTS / "sample.py"), "--strategy", str(strategy), "--hands", "5"]
    assert main(argv) == 0
    printed = capsys.readouterr().out
    assert max(len(line) for line in printed.splitlines()) <= 80
    assert name in printed  # on one line, never folded
    assert ("┃case" in printed) == as_table  # a short name leaves room for a table, a long one makes blocks
