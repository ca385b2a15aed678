"""The seat layer: one rule from a run's end to a fault, one stderr rule, players opened for any game."""

from __future__ import annotations

from contextlib import ExitStack
from pathlib import Path

import pytest

from arena.faults import FaultKind
from arena.sandbox import Limits, RunResult, RunStatus
from arena.sandbox.team_folder import Breach, BreachKind
from arena.seats import (
    STDERR_KEPT,
    breach_kind,
    kept_stderr,
    open_player,
    run_fault,
    run_fault_kind,
    trial_build,
)

TINY = Path(__file__).parents[1] / "programs" / "tiny"


def ended(status: RunStatus, violations: tuple[str, ...] = ()) -> RunResult:
    return RunResult(status, None, None, 5.0, 5.0, 1000, violations=violations)


@pytest.mark.parametrize(
    ("status", "kind"),
    [
        (RunStatus.OK, None),
        (RunStatus.TIMEOUT, FaultKind.TIMEOUT),
        (RunStatus.CPU_LIMIT, FaultKind.CPU_LIMIT),
        (RunStatus.MEMORY_LIMIT, FaultKind.MEMORY_LIMIT),
        (RunStatus.OUTPUT_LIMIT, FaultKind.OUTPUT_LIMIT),
        (RunStatus.FILE_SIZE_LIMIT, FaultKind.FILE_SIZE_LIMIT),
        (RunStatus.NOT_STARTED, FaultKind.NOT_STARTED),
        (RunStatus.NONZERO_EXIT, FaultKind.CRASH),
        (RunStatus.SIGNALED, FaultKind.CRASH),
    ],
)
def test_every_end_of_a_run_has_one_fault_kind(status: RunStatus, kind: FaultKind | None) -> None:
    assert run_fault_kind(ended(status)) is kind


def test_a_clean_exit_that_broke_a_sandbox_rule_is_a_violation() -> None:
    assert run_fault_kind(ended(RunStatus.OK, violations=("opened a socket",))) is FaultKind.SANDBOX_VIOLATION


def test_the_last_two_thousand_characters_of_stderr_are_kept() -> None:
    text = "x" * 5000 + "ZeroDivisionError: division by zero\n"
    assert STDERR_KEPT == 2000
    assert kept_stderr(text.encode()) == text[-2000:]
    assert kept_stderr("short") == "short"
    assert kept_stderr(b"\xff\xfeok") == "\\xff\\xfeok"  # undecodable bytes shown, escaped
    assert kept_stderr("\x1b[2Jboom\n") == "\\x1b[2Jboom\n"


def test_file_rules_broken_after_a_run_are_named_by_kind() -> None:
    for kind in (BreachKind.TOO_MANY, BreachKind.TOO_LARGE, BreachKind.TOO_DEEP):
        assert breach_kind(Breach(kind, "...")) is FaultKind.HELP_FILE_LIMIT
    assert breach_kind(Breach(BreachKind.NOT_A_FILE, "pipe is a FIFO")) is FaultKind.SANDBOX_VIOLATION


def test_a_crash_keeps_the_end_of_what_it_printed(tmp_path: Path) -> None:
    program = tmp_path / "Loud.py"
    program.write_text("import sys\nsys.stderr.write('noise ' * 1000)\nraise SystemExit('the last words')\n")
    with ExitStack() as stack:
        player = open_player(stack, "Loud", program, tmp_path / "team", Limits(wall_time_s=30.0))
        assert player.built and player.wall_time_s >= 30.0
        reply = player.file_transport(warm_python=True).exchange({"inputf.txt": "1\n"})
    fault = run_fault("Loud", reply.run, stage="Pre_Flop")
    assert fault is not None and fault.kind is FaultKind.CRASH
    assert len(fault.stderr) == STDERR_KEPT and fault.stderr.rstrip().endswith("the last words")


def test_a_trial_build_says_whether_a_program_builds_and_why_not() -> None:
    assert trial_build(TINY / "TinyC.c").ok
    broken = trial_build(TINY / "Broken.c")
    assert not broken.ok and "undefined_name" in broken.output
