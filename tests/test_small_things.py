"""The small things an organiser saw: limits stated once and alike, a build error printed once, versions."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
from pathlib import Path

import pytest

from arena.cli import main
from arena.languages import tool_path
from arena.sandbox import RunResult, RunStatus, cgroup

from support.sandbox import TINY, needs_namespaces


def test_a_timeout_states_its_limit_rounded_like_a_person_would() -> None:
    run = RunResult(RunStatus.TIMEOUT, None, None, 1100.0, 10.0, 0, wall_limit_s=1.04737)
    assert run.describe() == "ran past the 1.05 s wall limit"


@needs_namespaces
def test_check_prints_a_build_error_once(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    program = tmp_path / "Broken.c"
    shutil.copyfile(TINY / "Broken.c", program)
    assert main(["check", str(program), "--deals", "1", "--seats", "2"]) == 1
    out = capsys.readouterr().out
    assert "build: failed" in out
    first = out.split("first error:\n", 1)[1].splitlines()[0]
    assert "Broken.c:" in first and "undefined_name" in first
    assert out.count("build exited with status") == 1  # the whole output, once
    assert "\ntables: " not in out and "profit" not in out  # no play figures for a program never built


@needs_namespaces
def test_check_states_the_python_start_up_allowance_beside_the_limit(
    capsys: pytest.CaptureFixture[str],
) -> None:
    caller = Path(__file__).resolve().parents[1] / "bots" / "codem" / "Caller.py"
    assert main(["check", str(caller), "--deals", "1", "--seats", "2"]) == 0
    out = capsys.readouterr().out
    assert re.search(r"\(limit 1000 ms \+ \d+ ms python start-up allowance\)", out), out
    assert "allowance) of CPU time; the time rules: docs/protocol.md, Time" in out  # stated once, there


def test_doctor_shows_each_toolchains_version(capsys: pytest.CaptureFixture[str]) -> None:
    main(["doctor", "--json"])
    report = json.loads(capsys.readouterr().out)
    gcc = tool_path("gcc")
    if gcc is None:
        pytest.skip("gcc is not installed")
    first = subprocess.run(
        [gcc, "--version"], capture_output=True, text=True, check=True
    ).stdout.splitlines()[0]
    assert report["toolchains"]["c"]["versions"] == {"gcc": first}
    assert report["toolchains"]["python"]["versions"]["python3"].startswith("Python 3.")


@needs_namespaces
def test_doctor_says_which_runner_runs_decisions(capsys: pytest.CaptureFixture[str]) -> None:
    """With namespaces, cgroup v2 and a C compiler, arena's compiled runner (built, root's) runs decisions."""
    main(["doctor", "--json"])
    report = json.loads(capsys.readouterr().out)
    if tool_path("gcc") is None or cgroup.hierarchies().unified is None:
        assert report["runner"] is None
        return
    runner = Path(report["runner"])
    assert runner.is_file() and runner.stat().st_uid == 0 and not runner.stat().st_mode & 0o022
    main(["doctor"])
    shown = capsys.readouterr().out.replace("\n", "")  # rich folds long lines
    assert f"decisions run by: arena's compiled runner ({runner})" in shown


def test_doctor_says_where_tables_run_and_how_rollouts_are_computed(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    main(["doctor", "--json"])
    report = json.loads(capsys.readouterr().out)
    cpus = len(os.sched_getaffinity(0))
    assert report["pinning"]["cpus"] == cpus
    assert report["pinning"]["cpu"] is None or report["pinning"]["cpu"] in os.sched_getaffinity(0)
    kernel = report["rollout_kernel"]
    assert (kernel is None) == (tool_path("gcc") is None)
    loop = report["headsup_loop"]
    assert (loop is None) == (kernel is None)
    for built in (kernel, loop):
        assert built is None or (Path(built).is_file() and not Path(built).stat().st_mode & 0o022)
    monkeypatch.setenv("ARENA_ALL_CORES", "1")
    main(["doctor"])
    shown = capsys.readouterr().out.replace("\n", "")
    if cpus > 1:
        assert "tables and matches: not pinned now" in shown
    assert ("heads-up rollouts: compiled" in shown) == (kernel is not None)
    assert ("heads-up hand loop: compiled" in shown) == (loop is not None)


@needs_namespaces
def test_an_answer_printed_instead_of_written_gets_a_hint(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    program = tmp_path / "Printer.py"
    program.write_text("print(0)\n")
    assert main(["check", str(program), "--deals", "1", "--seats", "2", "--json"]) == 1
    fault = json.loads(capsys.readouterr().out)["faults"][0]
    assert fault["kind"] == "no_answer" and fault["stdout"] == "0\n"
    assert fault["reason"] == (
        "outputf.txt was empty or missing (it printed on stdout instead; the answer goes in outputf.txt)"
    )
