"""Real programs against the heads-up judge: the line protocol, texas.h, Python make_decision."""

from __future__ import annotations

import json
import random
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from arena.cli import main
from arena.evaluator import evaluate
from arena.faults import FaultKind
from arena.games.headsup.match import HeadsUpSettings, play_headsup
from arena.games.headsup.player import TEXAS, guess_interface
from arena.games.headsup.player import HeadsUpInterface as Interface

TEXAS_DIR = Path(str(TEXAS))  # the shipped files, on disk in a checkout

BOTS = Path(__file__).resolve().parents[3] / "bots" / "headsup"


def settings(**kw) -> HeadsUpSettings:
    return HeadsUpSettings(**{"hands": 60, "seed": 4, **kw})


def test_interfaces_are_guessed_from_the_program() -> None:
    assert guess_interface(BOTS / "always_check.py") is Interface.LINES
    assert guess_interface(BOTS / "example2.py") is Interface.PYTHON
    assert guess_interface(BOTS / "example1.cpp") is Interface.TEXAS
    assert guess_interface(BOTS / "strong.cpp") is Interface.LINES


def test_a_lines_program_plays_every_hand_and_the_files_are_written(tmp_path: Path) -> None:
    report = play_headsup(BOTS / "always_check.py", settings(), tmp_path)
    assert report.scored and report.outcome.rate_used == 0
    results = json.loads((tmp_path / "results.json").read_text())
    assert results["hands_played"] == 60 and results["fault"] is None
    assert results["W_ci95"][0] <= results["W"] <= results["W_ci95"][1]
    hands = [json.loads(line) for line in (tmp_path / "hands.jsonl").read_text().splitlines()]
    assert [h["hand"] for h in hands] == list(range(1, 61))
    assert all(len(h["rounds"]) == 4 and h["showdown"] is not None for h in hands)
    assert sum(h["delta"] for h in hands) / 60 == pytest.approx(results["W"])


def test_seed_003_example1_goes_all_in_in_round_one(tmp_path: Path) -> None:
    report = play_headsup(BOTS / "example1.cpp", settings(), tmp_path)
    assert report.scored and report.interface is Interface.TEXAS
    hands = [json.loads(line) for line in (tmp_path / "hands.jsonl").read_text().splitlines()]
    assert all(h["rounds"][0]["alice"] == "RAISE 100" for h in hands)
    assert all("bob_estimate" in h["rounds"][0] for h in hands)
    assert report.outcome.raises == 60


def test_texas_and_python_interfaces_ask_rate_through_the_judge_and_play_alike(tmp_path: Path) -> None:
    cpp = play_headsup(BOTS / "example2.cpp", settings(), tmp_path / "cpp")
    py = play_headsup(BOTS / "example2.py", settings(), tmp_path / "py")
    assert cpp.scored and py.scored
    assert cpp.outcome.rate_used > 0 and cpp.outcome.rate_used == py.outcome.rate_used
    assert cpp.outcome.deltas == py.outcome.deltas


def test_the_strong_player_runs_on_the_lines_protocol() -> None:
    report = play_headsup(BOTS / "strong.cpp", settings(hands=40))
    assert report.scored and report.interface is Interface.LINES
    assert report.outcome.raises > 0


@pytest.mark.parametrize(
    ("source", "kind", "limit"),
    [
        (
            "import sys\nfor line in sys.stdin:\n"
            "    if line.startswith('BOARD'):\n        print('HI', flush=True)\n",
            FaultKind.PROTOCOL_ERROR,
            10.0,
        ),
        ("import sys\nsys.stdin.readline()\nsys.exit(3)\n", FaultKind.CRASH, 10.0),
        ("import sys\nsys.stdin.readline()\nwhile True:\n    pass\n", FaultKind.TIMEOUT, 1.0),
    ],
)
def test_a_hostile_program_gets_a_recorded_fault(
    tmp_path: Path,
    source: str,
    kind: FaultKind,
    limit: float,
) -> None:
    program = tmp_path / "hostile.py"
    program.write_text(source)
    report = play_headsup(program, settings(time_limit_s=limit), tmp_path / "out")
    assert not report.scored and report.points == 0
    assert report.fault is not None and report.fault.kind is kind, report.fault
    results = json.loads((tmp_path / "out" / "results.json").read_text())
    assert results["fault"]["kind"] == kind.value and results["scored"] is False


def test_a_texas_program_that_does_not_compile_is_a_build_fault(tmp_path: Path) -> None:
    program = tmp_path / "broken.cpp"
    program.write_text('#include "texas.h"\nstd::pair<ActionType, int> makeDecision(const State&) { oops }\n')
    report = play_headsup(program, settings())
    assert report.fault is not None and report.fault.kind is FaultKind.BUILD_FAILED
    assert "oops" in report.fault.reason


HARNESS = r"""
#include <cstdio>
#include "texas.h"
std::pair<ActionType, int> makeDecision(const State&) { return {ActionType::CHECK, 0}; }
int main() {
    int c[18];
    while (true) {
        for (int i = 0; i < 18; ++i) if (std::scanf("%d", &c[i]) != 1) return 0;
        State s;
        for (int i = 0; i < 2; ++i) {
            s.alice[i] = Card(c[2 * i], c[2 * i + 1]);
            s.bob[i] = Card(c[4 + 2 * i], c[5 + 2 * i]);
        }
        for (int i = 0; i < 5; ++i) s.community[i] = Card(c[8 + 2 * i], c[9 + 2 * i]);
        std::printf("%d\n", getResult(s));
    }
}
"""


@pytest.mark.skipif(shutil.which("g++") is None, reason="needs g++")
def test_texas_getresult_agrees_with_the_shared_evaluator(tmp_path: Path) -> None:
    (tmp_path / "harness.cpp").write_text(HARNESS)
    shutil.copy(TEXAS_DIR / "texas.h", tmp_path)
    shutil.copy(TEXAS_DIR / "texas_driver.cpp", tmp_path)
    subprocess.run(
        ["g++", "-O1", "-std=c++17", "-Dmain=texas_driver_main", "-c", "texas_driver.cpp"],
        cwd=tmp_path,
        check=True,
    )
    subprocess.run(
        ["g++", "-O1", "-std=c++17", "-o", "harness", "harness.cpp", "texas_driver.o"],
        cwd=tmp_path,
        check=True,
    )
    rng = random.Random(5)
    deals = [rng.sample(range(52), 9) for _ in range(3000)]
    text = "\n".join(" ".join(f"{c // 13} {c % 13 + 1}" for c in deal) for deal in deals)
    out = subprocess.run(["./harness"], cwd=tmp_path, input=text, capture_output=True, text=True, check=True)
    got = [int(x) for x in out.stdout.split()]
    want = []
    for d in deals:
        a, b = evaluate([d[0], d[1], *d[4:]]), evaluate([d[2], d[3], *d[4:]])
        want.append((a > b) - (a < b))
    assert got == want


def test_python_texas_strength_agrees_with_the_shared_evaluator() -> None:
    import importlib.util

    spec = importlib.util.spec_from_file_location("texas_for_test", TEXAS_DIR / "texas.py")
    assert spec is not None and spec.loader is not None
    texas = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = texas  # dataclasses look their module up while the class is made
    spec.loader.exec_module(texas)
    rng = random.Random(6)
    for _ in range(3000):
        d = rng.sample(range(52), 9)
        a, b = [d[0], d[1], *d[4:]], [d[2], d[3], *d[4:]]
        want = (evaluate(a) > evaluate(b)) - (evaluate(a) < evaluate(b))
        assert (texas.strength(a) > texas.strength(b)) - (texas.strength(a) < texas.strength(b)) == want


def test_the_cli_prints_the_figures(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["headsup", str(BOTS / "always_check.py"), "--hands", "30", "--out", str(tmp_path)])
    out = capsys.readouterr().out
    assert code == 0
    for label in ("W ", "95% CI", "points", "Bob call rate", "RATE rollouts", "player time"):
        assert label in out
    assert (tmp_path / "results.json").is_file()


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--hands", "0"], "--hands"),
        (["--time-limit", "-1"], "--time-limit"),
    ],
)
def test_bad_arguments_give_one_error_line(
    argv: list[str],
    message: str,
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["headsup", str(BOTS / "always_check.py"), *argv]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and err[0].startswith("arena headsup: error:") and message in err[0]


def test_a_missing_program_is_one_error_line(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["headsup", "/nonexistent/player.cpp"]) == 2
    assert "no such program file" in capsys.readouterr().err
