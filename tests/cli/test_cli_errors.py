"""No traceback, ever, for an ordinary mistake: every command's bad invocations are one line and exit 2.

The matrix runs in-process through ``arena.cli.main``; a few run as real ``python -m arena`` processes
(the interpreter's own exit path included), and a damaged tournament database is never overwritten.
"""

from __future__ import annotations

import os
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from arena.cli import main

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def place(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A folder of the things people get wrong: a file where a folder goes, bad bytes, bad databases."""
    root = tmp_path_factory.mktemp("mistakes")
    (root / "afile").write_text("I am a file\n")
    (root / "latin1.txt").write_bytes("bets 2 4\nnaïve\n".encode("latin-1"))
    subs = root / "subs"
    subs.mkdir()
    (subs / "A.py").write_text("open('outputf.txt', 'w').write('0')\n")
    (subs / "B.py").write_text("open('outputf.txt', 'w').write('0')\n")
    twins = root / "twins"
    twins.mkdir()
    (twins / "A.py").write_text("pass\n")
    (twins / "A.c").write_text("int main(void){return 0;}\n")
    for name, data in (
        ("corrupt", b"SQLite format 3\x00" + b"\x13" * 4000),
        ("empty", b""),
        ("text", b"hello\n"),
    ):
        (root / name).mkdir()
        (root / name / "tournament.sqlite").write_bytes(data)
    (root / "other").mkdir()
    sqlite3.connect(root / "other" / "tournament.sqlite").execute(
        "CREATE TABLE people (name TEXT)"
    ).connection.commit()
    (root / "orphan" / "tables" / "round-g0-r0").mkdir(parents=True)
    (root / "My Bot.py").write_text("pass\n")
    (root / "Prog.xyz").write_text("pass\n")
    return root


P = "{p}"
# (argv with {p} for the place, exit code, what the one line must contain)
MATRIX = [
    ([], 2, "arena: error: the following arguments are required: COMMAND"),
    (["nosuch"], 2, "invalid choice: 'nosuch'"),
    (["table"], 2, "arena table: error: the following arguments are required"),
    (
        ["table", f"{P}/subs/A.py", f"{P}/subs/B.py", "--out", f"{P}/afile"],
        2,
        "afile is a file, not a folder",
    ),
    (
        ["table", f"{P}/subs/A.py", f"{P}/subs/B.py", "--out", f"{P}/t1", "--deals", "0"],
        2,
        "--deals: must be at least 1, got 0",
    ),
    (
        ["table", f"{P}/subs/A.py", f"{P}/subs/B.py", "--out", f"{P}/t1", "--time-limit", "0"],
        2,
        "--time-limit:",
    ),
    (
        ["table", f"{P}/subs/A.py", f"{P}/subs/B.py", "--out", f"{P}/t1", "--max-faults", "0"],
        2,
        "--max-faults:",
    ),
    (["table", f"{P}/subs/A.py", "--out", f"{P}/t1", "--deals", "ten"], 2, "invalid int value: 'ten'"),
    (["table", f"{P}/subs/A.py", f"{P}/nope.py", "--out", f"{P}/t1"], 2, "nope.py: no such program file"),
    (["table", f"{P}/subs/A.py", "--out", f"{P}/t1"], 2, "a table needs 2 to 6 programs, got 1"),
    (
        ["table", f"{P}/subs/A.py", f"{P}/Prog.xyz", "--out", f"{P}/t1"],
        2,
        "unknown language extension '.xyz'",
    ),
    (["check", f"{P}/nope.c"], 2, "nope.c: no such program file"),
    (["check", f"{P}/subs/A.py", "--deals", "0"], 2, "--deals: must be at least 1, got 0"),
    (["check", f"{P}/subs/A.py", "--time-limit", "-1"], 2, "--time-limit: must be more than 0, got -1"),
    (
        ["check", f"{P}/subs/A.py", "--max-faults", "0"],
        2,
        "--max-faults: must be at least 1, got 0",
    ),
    (["check", f"{P}/subs/A.py", "--seats", "7"], 2, "--seats must be between 2 and 6, got 7"),
    (
        ["check", f"{P}/subs/A.py", "--blinds", "10/5"],
        2,
        "check: error: --blinds: the small blind 10 exceeds the big blind 5",
    ),
    (["check", f"{P}/subs/A.py", "--blinds", "ten"], 2, "blinds 'ten' are not SB/BB, e.g. 5/10"),
    (
        ["check", f"{P}/subs/A.py", "--stack", "15"],
        2,
        "check: error: --stack: 15 is less than two big blinds (20)",
    ),
    (["check", f"{P}/subs/A.py", "--out", f"{P}/afile"], 2, "afile is a file, not a folder"),
    (["check", f"{P}/subs/A.py", "--against", f"{P}/nowhere"], 2, "is not a folder of programs"),
    (["check", f"{P}/My Bot.py"], 2, "the tournament would not play this file"),
    (["replay", f"{P}/nowhere", "--deal", "1", "--team", "A"], 2, "nowhere is not a folder"),
    (["replay", f"{P}/subs", "--team", "A"], 2, "the following arguments are required: --deal"),
    (["replay", f"{P}/subs", "--deal", "1", "--team", "A"], 2, "is not a table's folder"),
    (["doctor", "--bogus"], 2, "unrecognized arguments: --bogus"),
    (["tournament", f"{P}/nowhere", "--out", f"{P}/r1"], 2, "submissions folder"),
    (["tournament", f"{P}/afile", "--out", f"{P}/r1"], 2, "afile is not a folder"),
    (["tournament", f"{P}/subs", "--out", f"{P}/afile"], 2, "afile is a file, not a folder"),
    (["tournament", f"{P}/subs", "--out", f"{P}/r1", "--deals", "0"], 2, "--deals: must be at least 1"),
    (["tournament", f"{P}/subs", "--out", f"{P}/r1", "--jobs", "0"], 2, "--jobs must be at least 1, got 0"),
    (
        ["tournament", f"{P}/subs", "--out", f"{P}/r1", "--blinds", "0/0"],
        2,
        "tournament: error: --blinds: must be at least 1, got 0",
    ),
    (
        ["tournament", f"{P}/subs", "--out", f"{P}/r1", "--max-faults", "0"],
        2,
        "--max-faults: must be at least 1",
    ),
    (["tournament", f"{P}/subs", "--out", f"{P}/r1", "--stack", "-5"], 2, "--stack: must be at least 1"),
    (["tournament", f"{P}/subs", "--out", f"{P}/corrupt"], 2, "is damaged or not a database"),
    (["tournament", f"{P}/subs", "--out", f"{P}/empty"], 2, "is empty (0 bytes), not a tournament database"),
    (["tournament", f"{P}/subs", "--out", f"{P}/text"], 2, "is damaged or not a database"),
    (["tournament", f"{P}/subs", "--out", f"{P}/other"], 2, "is an SQLite database but not a tournament's"),
    (["tournament", f"{P}/subs", "--out", f"{P}/orphan"], 2, "played table folder(s) in tables/ but no"),
    (["tournament", f"{P}/twins", "--out", f"{P}/r1"], 2, "team A has two programs"),
    (["final", f"{P}/nowhere"], 2, "holds no tournament"),
    (["final", f"{P}/corrupt"], 2, "is damaged or not a database"),
    (["final", f"{P}/empty"], 2, "is empty (0 bytes)"),
    (["final", f"{P}/subs", "--deals", "0"], 2, "--deals must be at least 1, got 0"),
    (["finals-logs", f"{P}/subs", "--out", f"{P}/afile"], 2, "afile is a file, not a folder"),
    (["finals-logs", f"{P}/corrupt", "--out", f"{P}/logs"], 2, "is damaged or not a database"),
    (["watch", f"{P}/afile"], 2, "afile is not a folder"),
    (["watch", f"{P}/nowhere"], 2, "nowhere does not exist"),
    (["watch", f"{P}/subs", "--jobs", "0"], 2, "--jobs: must be at least 1, got 0"),
    (["headsup", f"{P}/nope.py"], 2, "nope.py"),
    (["headsup", f"{P}/subs/A.py", "--hands", "0"], 2, "--hands: must be at least 1, got 0"),
    (["headsup", f"{P}/subs/A.py", "--out", f"{P}/afile"], 2, "afile is a file, not a folder"),
    (["twocard", "value", f"{P}/latin1.txt"], 2, "latin1.txt, line 2: not UTF-8 text"),
    (["twocard", "value", f"{P}/nope.txt"], 2, "cannot read"),
    (["twocard", "value", f"{P}/latin1.txt", "--mistake", "0.7"], 2, "--mistake 0.7 must be in [0, 0.5)"),
    (
        ["twocard", "generate", "--seed", "1", "--iterations", "1", "-o", f"{P}/no/dir/s.txt"],
        2,
        "does not exist",
    ),
    (["twocard", "play", f"{P}/subs/A.py", "--strategy", f"{P}/latin1.txt"], 2, "not UTF-8 text"),
    (
        ["twocard", "play", f"{P}/subs/A.py", "--strategy", f"{P}/x.txt", "--time-limit", "0"],
        2,
        "--time-limit:",
    ),
    (["twocard"], 2, "the following arguments are required: ACTION"),
]


def fill(argv: list[str], place: Path) -> list[str]:
    return [arg.replace(P, str(place)) for arg in argv]


@pytest.mark.parametrize(
    ("argv", "code", "expected"), MATRIX, ids=[" ".join(m[0]) or "(none)" for m in MATRIX]
)
def test_a_bad_invocation_is_one_line(place: Path, capsys, argv: list[str], code: int, expected: str) -> None:
    exit_code = main(fill(argv, place))
    captured = capsys.readouterr()
    lines = captured.err.strip().splitlines()
    assert "Traceback" not in captured.err + captured.out
    assert len(lines) == 1, lines
    assert expected in lines[0]
    assert lines[0].startswith("arena")
    assert exit_code == code


def test_the_matrix_covers_every_command() -> None:
    assert len(MATRIX) >= 40
    covered = {argv[0] for argv, _, _ in MATRIX if argv}
    assert covered >= {
        "table",
        "check",
        "replay",
        "doctor",
        "tournament",
        "final",
        "finals-logs",
        "watch",
        "headsup",
        "twocard",
    }


def test_a_damaged_database_is_left_as_it_was(place: Path, capsys) -> None:
    for name in ("corrupt", "empty", "text", "other"):
        database = place / name / "tournament.sqlite"
        before = database.read_bytes()
        assert main(["tournament", str(place / "subs"), "--out", str(place / name)]) == 2
        assert database.read_bytes() == before
        assert not (place / name / "tables").exists()
        assert not (place / name / "tournament.sqlite-wal").exists() or name == "other"
    capsys.readouterr()


def run_arena(*argv: str, **kwargs) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    return subprocess.run(
        [sys.executable, "-m", "arena", *argv], capture_output=True, text=True, env=env, timeout=120, **kwargs
    )


@pytest.mark.parametrize(
    ("argv", "expected"),
    [
        (["table", "{p}/subs/A.py", "{p}/subs/B.py", "--out", "{p}/afile"], "afile is a file, not a folder"),
        (["tournament", "{p}/subs", "--out", "{p}/corrupt"], "is damaged or not a database"),
        (["twocard", "value", "{p}/latin1.txt"], "not UTF-8 text"),
        (["check", "{p}/subs/A.py", "--deals", "0"], "--deals: must be at least 1, got 0"),
    ],
)
def test_real_processes_print_one_line(place: Path, argv: list[str], expected: str) -> None:
    done = run_arena(*fill(argv, place))
    assert done.returncode == 2
    assert "Traceback" not in done.stderr
    assert len(done.stderr.strip().splitlines()) == 1 and expected in done.stderr


def test_a_reader_closing_the_pipe_is_not_a_traceback(tmp_path: Path) -> None:
    strategy = tmp_path / "s.txt"
    assert (
        run_arena("twocard", "generate", "--seed", "1", "--iterations", "1", "-o", str(strategy)).returncode
        == 0
    )
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    argv = [sys.executable, "-m", "arena", "twocard", "value", str(strategy), "--policy", "--json"]
    with subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env) as process:
        assert process.stdout is not None and process.stderr is not None
        assert process.stdout.readline().strip() == b"{"
        process.stdout.close()  # as `| head -1` does: the rest (far more than a pipe holds) has nowhere to go
        stderr = process.stderr.read().decode()
        code = process.wait(timeout=120)
    assert code == 141
    assert stderr == ""
