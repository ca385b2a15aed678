"""Bad input to the tournament commands is one clear error line, never a traceback."""

from __future__ import annotations

from pathlib import Path

import pytest

from arena.cli import main
from arena.tournament.submissions import Skipped, find_submissions, submissions_csv


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
        ("--deals", "0", "--deals: must be at least 1, got 0"),
        ("--time-limit", "0", "--time-limit: must be more than 0, got 0"),
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
    assert error_line(capsys) == (
        f"arena tournament: error: {tmp_path} holds 1 program(s); a tournament needs at least 2 "
        "(not played: notes.txt: extension .txt is not one of .c, .cpp, .java, .pl, .rb, .py)"
    )


def test_every_file_not_played_is_listed_with_its_reason(tmp_path: Path) -> None:
    for name in (
        "Pr0001.c",
        "Pr0002.java",
        "Pr0003.rb",
        "Readme.py",
        "x.txt",
        "Pr0004.report.txt",
        ".hidden.py",
        "README.md",
        "my bot.c",
        "bot.v2.c",
        "Team-1.java",
        "Team-1.py",
        "3D.java",
        "Pr0005.cc",
    ):
        (tmp_path / name).write_text("")
    (tmp_path / "folder.py").mkdir()
    found, skipped = find_submissions(tmp_path)
    assert [(s.team, s.language) for s in found] == [
        ("Pr0001", "C"),
        ("Pr0002", "Java"),
        ("Pr0003", "Ruby"),
        ("Readme", "Python"),
        ("Team-1", "Python"),
    ]
    reasons = {s.name: s.reason for s in skipped}
    assert reasons == {
        ".hidden.py": "a hidden file (its name starts with '.')",
        "3D.java": "a Java program's name is its public class's name, and '3D' is not a Java class name "
        "(letters, digits and '_', not starting with a digit, no '-', not a keyword)",
        "Pr0004.report.txt": "a report written by arena watch",
        "Pr0005.cc": "extension .cc is not one of .c, .cpp, .java, .pl, .rb, .py; name it Pr0005.cpp",
        "README.md": "extension .md is not one of .c, .cpp, .java, .pl, .rb, .py",
        "Team-1.java": "a Java program's name is its public class's name, and 'Team-1' is not a Java class "
        "name (letters, digits and '_', not starting with a digit, no '-', not a keyword)",
        "bot.v2.c": "team id 'bot.v2' may hold only ASCII letters, digits, '_' and '-' and must start with "
        "a letter or digit (no spaces or dots)",
        "folder.py": "a folder, not a program file",
        "my bot.c": "team id 'my bot' may hold only ASCII letters, digits, '_' and '-' and must start with "
        "a letter or digit (no spaces or dots)",
        "x.txt": "extension .txt is not one of .c, .cpp, .java, .pl, .rb, .py",
    }
    rows = submissions_csv(found, [Skipped("x.txt", "why")]).splitlines()
    assert rows[0] == "file,team,language,sha256,played,reason"
    assert rows[-1] == "x.txt,,,,no,why"
    assert len(rows) == 1 + len(found) + 1


def test_two_programs_for_one_team(tmp_path: Path, capsys) -> None:
    (tmp_path / "A.py").write_text("pass\n")
    (tmp_path / "A.c").write_text("int main(void){return 0;}\n")
    assert main(["tournament", str(tmp_path), "--out", str(tmp_path / "run")]) == 2
    assert error_line(capsys) == (
        f"arena tournament: error: team A has two programs in {tmp_path}: A.c and A.py; remove one"
    )


def test_final_and_logs_need_a_tournament(tmp_path: Path, capsys) -> None:
    assert main(["final", str(tmp_path)]) == 2
    assert (
        error_line(capsys)
        == f"arena final: error: {tmp_path} holds no tournament (tournament.sqlite not found)"
    )
    assert main(["finals-logs", str(tmp_path), "--out", str(tmp_path / "logs")]) == 2
    assert "holds no tournament" in error_line(capsys)
