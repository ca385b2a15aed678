"""Red-team attacks, fifth round: what a hostile team controls that arena publishes or stores.

A team controls its file's name in the submissions folder, what its program prints, its answers and its
help files; arena puts them in the terminal, CSV, JSON, logs, SQLite and the viewer. Each test plays a
real (small) tournament or table with the hostile text and reads what arena wrote. Found and closed here:
a report written through a link planted at the watcher's temporary name, a linked submission played (a
root-only file leaked into logs), ``arena replay`` running a decoy ``<TeamId>.<ext>``, a file name that is
not UTF-8 stopping a tournament, team names forging hand-history lines, read as rich markup or acting on
the terminal, formulas and control characters in ``submissions.csv``, Markdown and HTML in a team's
report, and bidirectional controls other than U+202E.
"""

from __future__ import annotations

import csv
import io
import json
import os
import re
import shutil
import tomllib
from pathlib import Path

import pytest

from arena.cli import main
from arena.tournament import watch

from support.hostile import HONEST
from support.sandbox import needs_namespaces

pytestmark = needs_namespaces

ESCAPE_NAME = "\x1b]0;pwned\x1b\\\x1b[31mRED.txt"
FORMULA_NAME = '=HYPERLINK("http:evil","x").txt'


def _submissions(folder: Path, *hostile: str | bytes) -> Path:
    folder.mkdir()
    for program in HONEST:
        shutil.copyfile(program, folder / program.name)
    for name in hostile:
        path = os.path.join(os.fsencode(folder), os.fsencode(name))
        Path(os.fsdecode(path)).write_text("a file a team put beside its program\n")
    return folder


@pytest.fixture(scope="module")
def named_run(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, str]:
    """A two-deal tournament whose submissions folder holds files named with escapes and a formula."""
    base = tmp_path_factory.mktemp("names")
    folder = _submissions(base / "subs", ESCAPE_NAME, FORMULA_NAME)
    err = io.StringIO()
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr("sys.stderr", err)
        patch.setattr("sys.stdout", io.StringIO())
        assert main(["tournament", str(folder), "--out", str(base / "run"), "--deals", "2"]) == 0
    return base / "run", err.getvalue()


def test_a_skipped_files_name_reaches_the_terminal_escaped(named_run: tuple[Path, str]) -> None:
    _, err = named_run
    assert "skipped: " in err
    assert "\x1b" not in err


def test_submissions_csv_holds_no_control_character(named_run: tuple[Path, str]) -> None:
    run, _ = named_run
    text = (run / "submissions.csv").read_text()
    assert "RED.txt" in text
    assert "\x1b" not in text


def test_submissions_csv_starts_no_cell_with_a_formula(named_run: tuple[Path, str]) -> None:
    run, _ = named_run
    rows = list(csv.reader(io.StringIO((run / "submissions.csv").read_text())))
    cells = [cell for row in rows for cell in row]
    assert any("HYPERLINK" in cell for cell in cells)
    assert not [cell for cell in cells if cell[:1] in ("=", "+", "-", "@")]


def test_a_file_name_that_is_not_utf8_does_not_stop_the_tournament(tmp_path: Path) -> None:
    folder = _submissions(tmp_path / "subs", b"bad\xff.txt")
    err = io.StringIO()
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr("sys.stderr", err)
        patch.setattr("sys.stdout", io.StringIO())
        assert main(["tournament", str(folder), "--out", str(tmp_path / "run"), "--deals", "2"]) == 0
    assert "\\xff" in (tmp_path / "run" / "submissions.csv").read_text()


FORGED_TEAM = "Evil\nSTATE:9:f:2c2d|:-10000|10000:Tight|Evil\nSeat 2: Tight collected 99999 from pot"


def _rename_team(table: Path, old: str, new: str) -> None:
    """What an arena that took any team name left: ``results.json`` naming a team ``new``."""
    results = json.loads((table / "results.json").read_text())
    for team in results["teams"]:
        if team["team"] == old:
            team["team"] = new
    (table / "results.json").write_text(json.dumps(results))


@pytest.fixture(scope="module")
def forged_table(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A three-deal table whose second team's name holds line breaks and hand-history lines of its own.

    ``arena table`` refuses such a name (test_a_team_name_with_a_line_break_is_refused), so the name is
    put in ``results.json`` afterwards, as an arena that took it would have left it; then each export."""
    base = tmp_path_factory.mktemp("forged")
    programs = [str(HONEST[0]), str(HONEST[1])]
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr("sys.stderr", io.StringIO())
        patch.setattr("sys.stdout", io.StringIO())
        assert main(["table", *programs, "--out", str(base / "table"), "--deals", "3", "--seed", "1"]) == 0
        _rename_team(base / "table", HONEST[1].stem, FORGED_TEAM)
        for kind in ("pokerstars", "acpc", "phh"):
            assert main(["export", "--format", kind, "--out", str(base / kind), str(base / "table")]) == 0
    return base


@pytest.mark.parametrize("team", [FORGED_TEAM, "Esc\x1b]0;pwned\x1b\\\x1b[31m", "Rtl\u202egnp.exe"])
def test_a_team_name_with_a_line_break_is_refused(team: str, tmp_path: Path) -> None:
    """A file name holding a line break, an escape sequence or a text-direction mark is not a team name:
    ``arena table`` says so in one line, which shows the name escaped, and touches no folder."""
    program = tmp_path / f"{team}.py"
    shutil.copyfile(HONEST[1], program)
    err = io.StringIO()
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr("sys.stderr", err)
        patch.setattr("sys.stdout", io.StringIO())
        args = ["table", str(program), str(HONEST[0]), "--out", str(tmp_path / "table"), "--deals", "1"]
        assert main(args) == 2
    assert "is not a team name" in err.getvalue()
    assert len(err.getvalue().strip().splitlines()) == 1
    assert "\x1b" not in err.getvalue() and "\u202e" not in err.getvalue()
    assert not (tmp_path / "table").exists()


def test_a_team_name_with_line_breaks_stays_one_string_in_phh(forged_table: Path) -> None:
    hands = tomllib.loads((forged_table / "phh" / "table.phhs").read_text())
    assert len(hands) == 3
    assert all(FORGED_TEAM in hand["players"] for hand in hands.values())


def test_a_team_name_forges_no_line_in_the_pokerstars_export(forged_table: Path) -> None:
    texts = [path.read_text() for path in (forged_table / "pokerstars").glob("*.txt")]
    assert texts
    lines = [line for text in texts for line in text.splitlines()]
    assert not [line for line in lines if line.startswith("Seat 2: Tight collected 99999")]


def test_a_team_name_forges_no_record_in_the_acpc_log(forged_table: Path) -> None:
    (log,) = (forged_table / "acpc").glob("*.log")
    states = [line for line in log.read_text().splitlines() if line.startswith("STATE:")]
    assert len(states) == 3, states


MARKUP_TEAM = "[x]Tight"
ESCAPE_TEAM = "Esc\x1b]0;pwned\x1b\\\x1b[31m"


@pytest.fixture(scope="module")
def printed_table(tmp_path_factory: pytest.TempPathFactory) -> tuple[str, str]:
    """What ``arena table`` prints for a team named with rich markup, and what ``arena export`` prints for
    a team whose name (put in ``results.json`` afterwards, see forged_table) holds escape sequences."""
    base = tmp_path_factory.mktemp("printed")
    programs = base / "programs"
    programs.mkdir()
    paths = [programs / f"{MARKUP_TEAM}.py", programs / HONEST[0].name]
    shutil.copyfile(HONEST[1], paths[0])
    shutil.copyfile(HONEST[0], paths[1])
    printed = []
    for args in (
        ["table", *map(str, paths), "--out", str(base / "table"), "--deals", "3", "--seed", "1"],
        ["export", "--format", "pokerstars", "--out", str(base / "ps"), str(base / "table")],
    ):
        out = io.StringIO()
        with pytest.MonkeyPatch.context() as patch:
            patch.setattr("sys.stderr", io.StringIO())
            patch.setattr("sys.stdout", out)
            assert main(args) == 0
        printed.append(out.getvalue())
        _rename_team(base / "table", HONEST[0].stem, ESCAPE_TEAM)
    return printed[0], printed[1]


def test_arena_table_shows_a_team_by_its_own_name(printed_table: tuple[str, str]) -> None:
    table, _ = printed_table
    assert "Tight" in table
    assert MARKUP_TEAM in table


def test_arena_export_prints_no_escape_sequence(printed_table: tuple[str, str]) -> None:
    _, export = printed_table
    assert "pokerstars file(s)" in export
    assert "\x1b" not in export


def test_arena_checks_error_line_prints_no_escape_sequence(tmp_path: Path) -> None:
    program = tmp_path / "Chk\x1b]0;pwned\x1b\\\x1b[31mX.py"
    shutil.copyfile(HONEST[1], program)
    err = io.StringIO()
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr("sys.stderr", err)
        patch.setattr("sys.stdout", io.StringIO())
        assert main(["check", str(program)]) == 2
    assert "would not play this file" in err.getvalue()
    assert "\x1b" not in err.getvalue()


REDTEAM = Path(__file__).resolve().parents[1] / "programs" / "attacks"


@pytest.fixture(scope="module")
def markup_run(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A three-deal tournament with MarkupHelp.py (help files named like Markdown and HTML, stderr too)."""
    base = tmp_path_factory.mktemp("markup")
    folder = _submissions(base / "subs")
    shutil.copyfile(REDTEAM / "MarkupHelp.py", folder / "MarkupHelp.py")
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr("sys.stderr", io.StringIO())
        patch.setattr("sys.stdout", io.StringIO())
        assert main(["tournament", str(folder), "--out", str(base / "run"), "--deals", "3"]) == 0
        assert main(["view", str(base / "run"), "--export", str(base / "site")]) == 0
    return base


def test_markup_helps_stderr_is_escaped_in_the_viewer(markup_run: Path) -> None:
    page = (markup_run / "site" / "teams" / "MarkupHelp.html").read_text()
    assert "&lt;/script&gt;&lt;script&gt;alert(1)" in page
    assert "<script>alert" not in page
    faults = (markup_run / "run" / "tables" / "table001" / "faults.jsonl").read_text().splitlines()
    assert [(json.loads(line)["team"], json.loads(line)["kind"]) for line in faults] == [
        ("MarkupHelp", "crash")
    ]


def test_help_file_names_stay_one_cell_of_plain_text_in_the_report(markup_run: Path) -> None:
    report = (markup_run / "run" / "reports" / "MarkupHelp.md").read_text()
    rows = [line for line in report.splitlines() if line.startswith("| table001 |") and "runs.txt" in line]
    assert len(rows) == 1
    assert len(rows[0].replace("\\|", "").split("|")) == 6, rows[0]
    assert not re.search(r"(?<!\\)<img", report), "HTML a Markdown viewer would render"
    assert not re.search(r"(?<!\\)\[[^\]]*(?<!\\)\]\(javascript:", report), "a link a reader can click"


def test_arena_replay_runs_the_program_that_played(tmp_path: Path) -> None:
    folder = _submissions(tmp_path / "subs")
    shutil.copyfile(REDTEAM / "ReplayDecoy.py", folder / "ReplayDecoy.py")
    run = tmp_path / "run"
    out = io.StringIO()
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr("sys.stderr", io.StringIO())
        patch.setattr("sys.stdout", io.StringIO())
        assert main(["tournament", str(folder), "--out", str(run), "--deals", "3"]) == 0
        lines = (run / "tables" / "table001" / "faults.jsonl").read_text().splitlines()
        faults = [json.loads(line) for line in lines]
        (crash,) = [f for f in faults if f["team"] == "ReplayDecoy"]
        assert crash["kind"] == "crash"
        patch.setattr("sys.stdout", out)
        args = ["--table", "table001", "--deal", str(crash["deal"]), "--team", "ReplayDecoy"]
        main(["replay", str(run), *args, "--decision", str(crash["decision"])])
    team = run / "tables" / "table001" / "teams" / "ReplayDecoy"
    candidates = sorted(p.name for p in team.glob("ReplayDecoy.*") if p.suffix != ".txt")
    assert "recorded fault: crash" in out.getvalue()
    assert "decoy" not in out.getvalue()
    assert "the real program crashed here" in out.getvalue()
    assert len(candidates) > 1, "the decoys are there, and the program that played is the one replayed"


def test_a_linked_submission_is_not_played_and_leaks_nothing(tmp_path: Path) -> None:
    secret = tmp_path / "host" / "secret.c"
    secret.parent.mkdir()
    secret.write_text("SECRET_CANARY_LINE_42 = 1\n")
    secret.chmod(0o600)
    folder = _submissions(tmp_path / "subs")
    (folder / "Leak.c").symlink_to(secret)
    run = tmp_path / "run"
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr("sys.stderr", io.StringIO())
        patch.setattr("sys.stdout", io.StringIO())
        assert main(["tournament", str(folder), "--out", str(run), "--deals", "2"]) == 0
    leaked = [
        str(p.relative_to(run)) for p in run.rglob("*") if p.is_file() and b"SECRET_CANARY" in p.read_bytes()
    ]
    assert leaked == []
    assert "Leak.c,,,,no," in (run / "submissions.csv").read_text()


def test_twocard_play_prints_an_answer_in_markup_as_text(tmp_path: Path) -> None:
    strategy = Path(__file__).resolve().parents[2] / "bots" / "twocard" / "strategies" / "strategy1.txt"
    program = REDTEAM / "TwoCardMarkup.py"
    out = io.StringIO()
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr("sys.stderr", io.StringIO())
        patch.setattr("sys.stdout", out)
        argv = ["twocard", "play", str(program), "--strategy", str(strategy), "--hands", "5"]
        assert main([*argv, "--interface", "lines"]) == 1
    assert "'[/x]'" in out.getvalue()
    assert "score 0.00" in out.getvalue()


def test_bidi_controls_from_a_program_are_escaped_like_rlo(markup_run: Path) -> None:
    page = (markup_run / "site" / "teams" / "MarkupHelp.html").read_text()
    report = (markup_run / "run" / "reports" / "MarkupHelp.md").read_text()
    assert "RLI" in page
    assert "\u202e" not in page
    assert not [c for c in "\u202a\u202b\u202c\u202d\u2066\u2067\u2068\u2069" if c in page + report]


@pytest.mark.slow
def test_the_watcher_writes_no_report_through_a_planted_link(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(watch, "CHECK_DEALS", 2)
    victim = tmp_path / "victim.txt"
    victim.write_text("the organiser's file\n")
    folder = tmp_path / "subs"
    folder.mkdir()
    program = folder / "Evil.py"
    shutil.copyfile(HONEST[1], program)
    (folder / ".Evil.py.report.txt.partial").symlink_to(victim)
    done = watch.SubmissionWatcher(folder).check(program)
    assert done is not None
    assert victim.read_text() == "the organiser's file\n"
    assert not done.report.is_symlink()
