"""Bad input to the tournament commands is one clear error line, never a traceback."""

from __future__ import annotations

from pathlib import Path

import pytest

from arena.cli import main
from arena.tournament.submissions import find_submissions, ignored_warning


def error_line(capsys: pytest.CaptureFixture[str]) -> str:
    lines = capsys.readouterr().err.strip().splitlines()
    assert len(lines) == 1, lines
    return lines[0]


def test_a_missing_submissions_folder(tmp_path: Path, capsys) -> None:
    assert main(["tournament", str(tmp_path / "nope"), "--out", str(tmp_path / "run")]) == 2
    assert (
        error_line(capsys)
        == f"arena tournament: error: submissions folder {tmp_path / 'nope'} does not exist"
    )


@pytest.mark.parametrize(
    ("flag", "value", "message"),
    [
        ("--deals", "0", "--deals: Input should be greater than or equal to 1"),
        ("--time-limit", "0", "--time-limit: Input should be greater than 0"),
        ("--jobs", "0", "--jobs must be at least 1, got 0"),
    ],
)
def test_bad_numbers(tmp_path: Path, capsys, flag: str, value: str, message: str) -> None:
    (tmp_path / "A.py").write_text("pass\n")
    (tmp_path / "B.py").write_text("pass\n")
    assert main(["tournament", str(tmp_path), "--out", str(tmp_path / "run"), flag, value]) == 2
    assert error_line(capsys) == f"arena tournament: error: {message}"


def test_one_program_is_not_a_tournament(tmp_path: Path, capsys) -> None:
    (tmp_path / "A.py").write_text("pass\n")
    (tmp_path / "notes.txt").write_text("hello\n")
    assert main(["tournament", str(tmp_path), "--out", str(tmp_path / "run")]) == 2
    err = capsys.readouterr().err
    assert "ignored 1 file(s) not named <TeamId>.{c|cpp|java|pl|rb|py}: notes.txt" in err
    assert err.strip().splitlines()[-1] == (
        f"arena tournament: error: {tmp_path} holds 1 program(s); a tournament needs at least 2"
    )


def test_submissions_are_found_by_name_and_extension(tmp_path: Path) -> None:
    for name in (
        "Pr0001.c",
        "Pr0002.java",
        "Pr0003.rb",
        "x.txt",
        "Pr0004.report.txt",
        ".hidden.py",
        "README.md",
        "a b.py",
    ):
        (tmp_path / name).write_text("")
    found, ignored = find_submissions(tmp_path)
    assert [(s.team, s.language) for s in found] == [("Pr0001", "C"), ("Pr0002", "Java"), ("Pr0003", "Ruby")]
    assert ignored == ["a b.py", "x.txt"]
    assert ignored_warning(ignored).endswith(": a b.py, x.txt")


def test_two_programs_for_one_team(tmp_path: Path, capsys) -> None:
    (tmp_path / "A.py").write_text("pass\n")
    (tmp_path / "A.c").write_text("int main(void){return 0;}\n")
    assert main(["tournament", str(tmp_path), "--out", str(tmp_path / "run")]) == 2
    assert error_line(capsys) == "arena tournament: error: team A has two programs: A.c and A.py"


def test_final_and_logs_need_a_tournament(tmp_path: Path, capsys) -> None:
    assert main(["final", str(tmp_path)]) == 2
    assert (
        error_line(capsys)
        == f"arena final: error: {tmp_path} holds no tournament (tournament.sqlite not found)"
    )
    assert main(["finals-logs", str(tmp_path), "--out", str(tmp_path / "logs")]) == 2
    assert "holds no tournament" in error_line(capsys)
