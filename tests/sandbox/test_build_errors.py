"""Errors a student can act on: a program that does not build shows the compiler's first error, with its
file and line (not the compiler's first line of output), in the check's report, the terminal, the team's
report, ``results.json`` and ``submissions.csv``; a program that never built shows no play figures."""

from __future__ import annotations

import csv
import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from arena.build_errors import first_build_error
from arena.viewer.pages import render
from arena.viewer.runs import Run
from arena.viewer.site import Site

ROOT = Path(__file__).parents[2]
SAMPLES = ROOT / "sample_tables"

BROKEN_C = """#include <stdio.h>

int helper(int x) {
  return x * 2;
}

int main() {
  int a = 1
  printf("%d", helper(a));
  return 0;
}
"""

# Each language's real compiler on a program with its first error on line 3 (the command is the one
# arena's build runs, outside the sandbox: the output's shape is the compiler's).
C_SOURCE = "int f(void) { return 1; }\nint main(void) {\n  int a = 1\n  return a;\n}\n"
CPP_SOURCE = "#include <cstdio>\nint main() {\n  int a = 1\n  return a;\n}\n"
JAVA_SOURCE = "public class Pr0042 {\n  public static void main(String[] a) {\n    int x = 1\n  }\n}\n"
PYTHON_BUILD = "import sys; compile(open(sys.argv[1], 'rb').read(), sys.argv[1], 'exec')"
BROKEN = {
    "Pr0042.c": (["gcc", "-O2", "-fsyntax-only"], C_SOURCE),
    "Pr0042.cpp": (["g++", "-fsyntax-only"], CPP_SOURCE),
    "Pr0042.java": (["javac", "-d", "."], JAVA_SOURCE),
    "Pr0042.py": ([sys.executable, "-c", PYTHON_BUILD], "import sys\n\nx = (\nprint(1)\n"),
    "Pr0042.pl": (["perl", "-c"], "use strict;\nmy $x = 1;\nmy $y = ;\nprint $x;\n"),
    "Pr0042.rb": (["ruby", "-c"], "x = 1\nputs x\ny = 1 + * 2\nputs y\n"),
}


@pytest.mark.parametrize("name", sorted(BROKEN))
def test_the_first_error_of_each_compiler_names_its_file_and_line(name: str, tmp_path: Path) -> None:
    command, source = BROKEN[name]
    if shutil.which(command[0]) is None:
        pytest.skip(f"{command[0]} is not installed")
    (tmp_path / name).write_text(source)
    built = subprocess.run([*command, name], cwd=tmp_path, capture_output=True, text=True, timeout=120)
    assert built.returncode != 0
    error = first_build_error(built.stdout + built.stderr)
    first = error.splitlines()[0]
    assert name in first, error
    assert re.search(r"\b3\b", first.replace(name, "")), error  # the line of the first error
    assert "error" in first.lower(), error


def test_a_message_without_a_location_still_gives_its_error_line() -> None:
    assert (
        first_build_error("note: something\nld: error: cannot find -lfoo\n") == "ld: error: cannot find -lfoo"
    )
    assert first_build_error("just one line\n") == "just one line"
    assert first_build_error("") == ""


def _arena(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    return subprocess.run(
        [sys.executable, "-m", "arena", *args], cwd=cwd, env=env, capture_output=True, text=True, timeout=600
    )


@pytest.mark.slow
def test_check_of_a_program_that_does_not_build_shows_its_first_error_and_no_play(tmp_path: Path) -> None:
    (tmp_path / "Pr0042.c").write_text(BROKEN_C)
    done = _arena("check", "Pr0042.c", "--deals", "2", cwd=tmp_path)
    assert done.returncode == 1, done.stderr
    report = done.stdout
    first = report.index("first error:")
    assert report[first:].splitlines()[1].strip().startswith("Pr0042.c:9:3: error:")
    assert "In function" in report  # the whole output follows
    assert "profit" not in report and "deals in each of seats" not in report and "decision time" not in report
    assert "verdict: FAIL" in report
    as_json = json.loads(_arena("check", "Pr0042.c", "--deals", "2", "--json", cwd=tmp_path).stdout)
    assert as_json["build"]["first_error"].startswith("Pr0042.c:9:3: error:")
    assert as_json["seats"] == [] and as_json["deals_played"] == 0 and as_json["profit"] is None


@pytest.mark.slow
def test_a_tournament_shows_the_first_error_everywhere_and_does_not_count_the_team_as_played(
    tmp_path: Path,
) -> None:
    submissions = tmp_path / "submissions"
    submissions.mkdir()
    (submissions / "Pr0042.c").write_text(BROKEN_C)
    for name in ("Pr0001.py", "Pr0011.py"):
        shutil.copy(SAMPLES / name, submissions / name)
    run = tmp_path / "run"
    done = _arena(
        "tournament", str(submissions), "--out", str(run), "--deals", "3", "--jobs", "1", cwd=tmp_path
    )
    assert done.returncode == 0, done.stderr
    terminal = done.stdout + done.stderr
    assert "Pr0042: Pr0042.c:9:3: error:" in terminal, terminal
    assert "In function" not in terminal.split("build failures:")[1].splitlines()[1]
    report = (run / "reports" / "Pr0042.md").read_text()
    assert "## Build failed" in report and "    Pr0042.c:9:3: error:" in report
    assert "Standing" not in report and "Decision times" not in report and "Playing statistics" not in report
    results = json.loads((run / "results.json").read_text())
    assert results["build_errors"]["Pr0042"].startswith("Pr0042.c:9:3: error:")
    build_fault = next(f for f in results["faults"] if f["kind"] == "build_failed")
    assert "Pr0042.c:9:3: error:" in build_fault["reason"]
    rows = {row["team"]: row for row in csv.DictReader((run / "submissions.csv").open())}
    assert rows["Pr0042"]["played"] == "no" and "Pr0042.c:9:3: error:" in rows["Pr0042"]["reason"]
    assert rows["Pr0001"]["played"] == "yes"
    page = render(Site(Run(run)), f"teams/{Run(run).team_slugs()['Pr0042']}.html")
    assert "Build failed" in page and "Pr0042.c:9:3: error:" in page
    assert "Chips won" not in page and "Playing statistics" not in page


DIVIDES_BY_ZERO = """#include <stdio.h>

int main(void) {
  volatile int zero = 0;
  fprintf(stderr, "Pr0043 divides by zero now\\n");
  fflush(stderr);
  printf("%d\\n", 100 / zero);
  return 0;
}
"""


@pytest.mark.slow
def test_a_death_by_signal_names_the_signal_its_usual_cause_and_keeps_stderr(tmp_path: Path) -> None:
    (tmp_path / "Pr0043.c").write_text(DIVIDES_BY_ZERO)
    done = _arena("check", "Pr0043.c", "--deals", "1", "--seats", "2", "--json", cwd=tmp_path)
    report = json.loads(done.stdout)
    crashes = [f for f in report["faults"] if f["kind"] == "crash"]
    assert crashes, report["faults"]
    assert "SIGFPE" in crashes[0]["reason"] and "division" in crashes[0]["reason"]
    assert "Pr0043 divides by zero now" in crashes[0]["stderr"]
    text = _arena("check", "Pr0043.c", "--deals", "1", "--seats", "2", cwd=tmp_path).stdout
    assert "usually an integer division or remainder by zero" in text
    assert "Pr0043 divides by zero now" in text
