"""Text from programs reaching people (issue 12, item 7): `arena check`, the watcher's report and the
tournament's SQLite show escape sequences, markup and bad bytes escaped, and never fail on them."""

from __future__ import annotations

import io
import shutil
from pathlib import Path

import pytest
from rich.console import Console

from arena.games.codem.check import CheckReport, Verdict, check_program, render_report
from arena.games.codem.table import TableConfig
from arena.tournament import watch
from arena.untrusted import capped, listing, name, printable

from support.hostile import ATTACKS
from support.sandbox import needs_namespaces

pytestmark = needs_namespaces


def test_printable_escapes_controls_and_bad_bytes_only() -> None:
    assert printable("call 20\n\tok é") == "call 20\n\tok é"
    assert printable("\x1b[2J\x9b31m\x07") == "\\x1b[2J\\x9b31m\\x07"
    assert printable(b"\xff\xfe ok") == "\\xff\\xfe ok"
    assert name("a\nb\udcff") == "a\\nb\\xff"
    assert len(capped("x" * 5000, 100)) == 100
    assert listing([f"f{n}" for n in range(8)], shown=3) == "f0, f1, f2 and 5 more"


@pytest.fixture(scope="module")
def escapes_report(tmp_path_factory: pytest.TempPathFactory) -> CheckReport:
    folder = tmp_path_factory.mktemp("check")
    program = folder / "Escapes.py"
    shutil.copyfile(ATTACKS / "Escapes.py", program)
    return check_program(program, TableConfig(deals=3), seats=2, seed=1, out=folder / "table")


def test_check_prints_escaped_text_and_fails_the_program(escapes_report: CheckReport) -> None:
    text = io.StringIO()
    Console(file=text, width=200).print(render_report(escapes_report), markup=False, highlight=False)
    shown = text.getvalue()
    assert "\x1b" not in shown and "\x07" not in shown and "\x9b" not in shown
    assert "[/x]" in shown and "\\x1b]0;pwned" in shown and "\\xff" in shown
    assert escapes_report.verdict is Verdict.FAIL
    assert any(fault.kind == "not_an_integer" for fault in escapes_report.faults)


def test_the_watchers_report_is_written_escaped(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(watch, "CHECK_DEALS", 2)
    program = tmp_path / "Escapes.c"
    shutil.copyfile(ATTACKS / "Escapes.c", program)
    done = watch.SubmissionWatcher(tmp_path).check(program)
    assert done is not None
    report = done.report.read_bytes()
    assert b"\x1b" not in report and b"\x9b" not in report and b"\xff" not in report
    assert b"verdict: FAIL" in report
    assert b"[/x]" in report
