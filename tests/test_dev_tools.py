"""The developers' scripts of tools/: the commit-subject hook and the loaded-suite runner's parts."""

from __future__ import annotations

import psutil
import pytest

from support.tools import load_tool

subject = load_tool("commit_subject")
loaded = load_tool("loaded_suite")


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


def test_hogs_are_busy_until_stopped_and_leave_nothing_behind() -> None:
    hogs = loaded.start_hogs(2)
    try:
        assert all(psutil.Process(hog.pid).is_running() for hog in hogs)
    finally:
        loaded.stop(hogs)
    assert all(hog.returncode is not None for hog in hogs)
    assert not any(psutil.pid_exists(hog.pid) for hog in hogs)
