"""The developers' scripts of tools/: the commit-subject hook, the loaded-suite runner, the slow-test list."""

from __future__ import annotations

import psutil
import pytest

from support.tools import load_tool

subject = load_tool("commit_subject")
loaded = load_tool("loaded_suite")
slow_tests = load_tool("slow_tests")


@pytest.mark.parametrize(
    ("message", "problem"),
    [
        ("Fix the side pot of a short all-in\n\nWhy: ...\n", None),
        ("x" * 72 + "\n", None),
        ("x" * 73 + "\n", "the subject is 73 characters, at most 72: put the detail in the body"),
        ("# only a comment\n", "the commit message has no subject line"),
        ("Subject\nbody without a blank line\n", "leave a blank line between the subject and the body"),
    ],
)
def test_a_commit_subject_is_at_most_72_characters(message: str, problem: str | None) -> None:
    assert subject.subject_problem(message) == problem


def test_the_hook_exits_1_on_a_long_subject(tmp_path, capsys) -> None:
    message = tmp_path / "COMMIT_EDITMSG"
    message.write_text("y" * 80 + "\n")
    assert subject.main(["commit_subject.py", str(message)]) == 1
    assert "80 characters" in capsys.readouterr().err


def test_failed_tests_are_read_from_pytest_output() -> None:
    output = "FAILED tests/test_a.py::test_one - assert 1 == 2\nERROR tests/test_b.py::test_two\n"
    assert [name for _, name in loaded.FAILED.findall(output)] == [
        "tests/test_a.py::test_one",
        "tests/test_b.py::test_two",
    ]


@pytest.mark.parametrize(
    "last",
    [
        "92 passed in 266.34s (0:04:26)",
        "======= 92 passed in 266.34s (0:04:26) =======",
    ],
)
def test_the_summary_is_read_with_or_without_its_rules(last: str) -> None:
    output = f"....\n0.5s call     tests/a/test_a.py::test_one\n{last}\n"
    assert loaded.SUMMARY.findall(output) == ["92 passed"]


def test_a_summary_of_failures_is_read_whole() -> None:
    output = "FAILED tests/test_a.py::test_one - assert 1 == 2\n1 failed, 91 passed, 2 skipped in 3.20s\n"
    assert loaded.SUMMARY.findall(output) == ["1 failed, 91 passed, 2 skipped"]


def test_hogs_are_busy_until_stopped_and_leave_nothing_behind() -> None:
    hogs = loaded.start_hogs(2)
    try:
        assert all(psutil.Process(hog.pid).is_running() for hog in hogs)
    finally:
        loaded.stop(hogs)
    assert all(hog.returncode is not None for hog in hogs)
    assert not any(psutil.pid_exists(hog.pid) for hog in hogs)


DURATIONS = """\
============================= slowest durations ==============================
12.03s call     tests/engine/test_x.py::test_long[a b]
4.50s setup    tests/engine/test_x.py::test_first
0.70s call     tests/engine/test_x.py::test_first
0.01s teardown tests/engine/test_x.py::test_first
6.00s call     tests/engine/test_x.py::TestKind::test_marked
(12 durations < 0.005s hidden.  Use -vv to show these durations.)
"""


def test_a_durations_log_gives_each_test_its_phases_added_up() -> None:
    assert slow_tests.times_from_log(DURATIONS) == pytest.approx(
        {
            "tests/engine/test_x.py::test_long[a b]": 12.03,
            "tests/engine/test_x.py::test_first": 5.21,
            "tests/engine/test_x.py::TestKind::test_marked": 6.0,
        }
    )


def test_a_junit_report_names_tests_by_their_module_file(tmp_path) -> None:
    (tmp_path / "tests" / "games" / "codem").mkdir(parents=True)
    (tmp_path / "tests" / "games" / "codem" / "test_y.py").write_text("")
    report = """<?xml version="1.0" encoding="utf-8"?><testsuites><testsuite name="pytest">
    <testcase classname="tests.games.codem.test_y" name="test_one[1]" time="7.5" />
    <testcase classname="tests.games.codem.test_y.TestKind" name="test_two" time="0.25" />
    </testsuite></testsuites>"""
    assert slow_tests.times_from_junit(report, tmp_path) == {
        "tests/games/codem/test_y.py::test_one[1]": 7.5,
        "tests/games/codem/test_y.py::TestKind::test_two": 0.25,
    }


def test_only_unmarked_tests_over_the_limit_are_listed_slowest_first() -> None:
    times = slow_tests.times_from_log(DURATIONS)
    marked = {"tests/engine/test_x.py::TestKind::test_marked"}
    assert slow_tests.unmarked_over(times, marked, 5.0) == [
        ("tests/engine/test_x.py::test_long[a b]", pytest.approx(12.03)),
        ("tests/engine/test_x.py::test_first", pytest.approx(5.21)),
    ]


def test_the_tests_marked_slow_are_collected_by_pytest() -> None:
    marked = slow_tests.marked_slow(["tests/test_dev_tools.py", "tests/engine/test_nlhe_pots.py"])
    assert marked == set()  # neither module marks a test slow
    marked = slow_tests.marked_slow(["tests/attacks/test_attacks_duplicate.py"])
    assert (
        "tests/attacks/test_attacks_duplicate.py::test_a_team_is_at_one_table_at_a_time_in_duplicate_mode"
        in marked
    )
