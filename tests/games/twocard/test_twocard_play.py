"""``arena twocard play`` with real sandboxed programs: three interfaces, sample bots, hostile programs."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from arena.engines.twocard.generator import random_strategy
from arena.engines.twocard.strategy import Strategy, read_strategy
from arena.engines.twocard.value import strategy_value
from arena.faults import FaultKind
from arena.games.twocard.match import TwoCardInterface as Interface
from arena.games.twocard.match import TwoCardSettings as MatchConfig
from arena.games.twocard.match import guess_interface, play_match

BOTS = Path(__file__).resolve().parents[3] / "bots" / "twocard"
SHIPPED = sorted((BOTS / "strategies").glob("*.txt"))


@pytest.fixture(scope="module")
def strategy() -> tuple[Path, Strategy]:
    return Path("random.txt"), random_strategy(2, 4, np.random.default_rng(21))


def play(program: Path, strategies, tmp_path: Path, **options):
    """A match on the cards of seed 0 unless ``options`` say otherwise (programs compared see the same)."""
    config = MatchConfig(**{"hands": 200, "seed": 0, **options})
    return play_match(program, strategies, config, out_dir=tmp_path / "out")


def test_interface_is_guessed_from_the_source() -> None:
    assert guess_interface(BOTS / "sample.py") is Interface.CLASS
    assert guess_interface(BOTS / "sample.cpp") is Interface.CLASS
    assert guess_interface(BOTS / "Sample.java") is Interface.CLASS
    assert guess_interface(BOTS / "best_response.py") is Interface.LINES
    assert guess_interface(BOTS / "sample_files.py") is Interface.FILES


@pytest.mark.parametrize("bot", ["sample.py", "sample.cpp", "Sample.java"])
def test_000s_sample_runs_unchanged_in_class_form(bot: str, strategy, tmp_path: Path) -> None:
    result = play(BOTS / bot, [strategy], tmp_path)
    (case,) = result.cases
    assert result.interface == "class"
    assert case.fault is None, case.fault
    assert case.hands_played == 200
    assert case.score == max(0, case.profit + 10_000)
    saved = json.loads((tmp_path / "out" / "results.json").read_text())
    assert saved["cases"][0]["profit"] == case.profit
    hands = (tmp_path / "out" / "case_1" / "hands.jsonl").read_text().splitlines()
    assert len(hands) == 200 and sum(json.loads(h)["profit"] for h in hands) == case.profit


def test_all_three_sample_languages_play_identically(strategy, tmp_path: Path) -> None:
    profits = {
        play(BOTS / bot, [strategy], tmp_path / bot).cases[0].profit for bot in ("sample.py", "sample.cpp")
    }
    assert len(profits) == 1


def test_best_response_player_on_the_line_protocol_is_given_the_strategy(strategy, tmp_path: Path) -> None:
    result = play(BOTS / "best_response.py", [strategy], tmp_path, give_strategy=True, hands=1000)
    (case,) = result.cases
    assert result.interface == "lines" and case.fault is None, case.fault
    assert case.profit > 0.5 * case.best_expected_profit  # a random strategy loses a lot per hand


def test_file_protocol_runs_one_process_per_call(strategy, tmp_path: Path) -> None:
    result = play(BOTS / "sample_files.py", [strategy], tmp_path, hands=15, time_limit_s=120.0)
    (case,) = result.cases
    assert result.interface == "files" and case.fault is None, case.fault
    assert case.hands_played == 15


def test_one_test_case_per_strategy_and_the_average_score(strategy, tmp_path: Path) -> None:
    other = (Path("other.txt"), random_strategy(1, 3, np.random.default_rng(5)))
    result = play(BOTS / "sample.py", [strategy, other], tmp_path, hands=100)
    assert [c.case for c in result.cases] == [1, 2]
    assert result.to_dict()["score"] == pytest.approx(sum(c.score for c in result.cases) / 2)
    assert result.cases[1].best_expected_profit == pytest.approx(-strategy_value(other[1]) * 100)


HOSTILE = {
    "crash.py": "import sys\nprint(0, flush=True)\nsys.exit(3)\n",
    "garbage.py": "import sys\nfor line in sys.stdin:\n    print('hello', flush=True)\n",
    "hang.py": "import sys, time\nprint(0, flush=True)\ntime.sleep(60)\n",
    "illegal.py": "import sys\nfor line in sys.stdin:\n    print(9, flush=True)\n",
}


@pytest.mark.parametrize(
    ("name", "kind", "words"),
    [
        ("crash.py", FaultKind.CRASH, "exited with status 3"),
        ("garbage.py", FaultKind.NOT_AN_INTEGER, "not an integer"),
        ("hang.py", FaultKind.TIMEOUT, "thinking time"),
        ("illegal.py", FaultKind.INVALID_ANSWER, "answered 9"),
    ],
)
def test_hostile_programs_end_their_test_case_with_a_clear_fault(
    name: str, kind: FaultKind, words: str, strategy, tmp_path: Path
) -> None:
    program = tmp_path / name
    program.write_text(HOSTILE[name])
    result = play(program, [strategy], tmp_path, time_limit_s=2.0, interface=Interface.LINES)
    (case,) = result.cases
    assert case.fault is not None
    assert case.fault.kind is kind
    assert words in case.fault.reason
    assert case.score == 0


def test_a_class_solution_that_raises_is_a_crash_with_its_traceback(strategy, tmp_path: Path) -> None:
    program = tmp_path / "broken.py"
    program.write_text(
        (BOTS / "sample.py").read_text().replace("return 1 if card1", "return 1 // 0 if card1")
    )
    (case,) = play(program, [strategy], tmp_path).cases
    assert case.fault is not None and case.fault.kind is FaultKind.CRASH
    assert "ZeroDivisionError" in case.fault.stderr


def test_a_class_solution_that_does_not_compile_is_a_build_fault(strategy, tmp_path: Path) -> None:
    program = tmp_path / "broken.cpp"
    program.write_text("class TwoCardDraw { int init(int a, int b) { return a b; } };\n")
    result = play(program, [strategy], tmp_path)
    (case,) = result.cases
    assert case.fault is not None and case.fault.kind is FaultKind.BUILD_FAILED
    assert "error" in result.build_output


@pytest.mark.slow
def test_the_learner_ends_clearly_above_000s_sample_over_ten_thousand_hands(tmp_path: Path) -> None:
    assert SHIPPED
    cases = [(path, read_strategy(path)) for path in SHIPPED[:2]]
    learner = play(BOTS / "learner.py", cases, tmp_path / "learner", hands=10_000, time_limit_s=60.0)
    sample = play(BOTS / "sample.py", cases, tmp_path / "sample", hands=10_000, time_limit_s=60.0)
    for mine, theirs in zip(learner.cases, sample.cases, strict=True):
        assert mine.fault is None and theirs.fault is None
        assert mine.profit > theirs.profit + 1000


def test_a_program_that_never_reads_its_input_runs_out_of_time_and_never_blocks_the_judge(
    strategy, tmp_path: Path
) -> None:
    """It answers 0 to everything without reading: the judge's lines fill its pipe, and the judge must
    not block writing there (it did, for good)."""
    program = tmp_path / "deaf.py"
    program.write_text(
        "import sys\nwhile True:\n    sys.stdout.write('0\\n' * 1000)\n    sys.stdout.flush()\n"
    )
    result = play(program, [strategy], tmp_path, hands=20_000, time_limit_s=1.0, interface=Interface.LINES)
    (case,) = result.cases
    assert case.fault is not None and case.fault.kind is FaultKind.TIMEOUT
    assert "thinking time" in case.fault.reason
