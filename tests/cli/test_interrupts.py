"""Ctrl-C and SIGTERM end every command with one line and exit 130 / 143, never a crash report.

Each command runs as a real ``python -m arena`` process in its own session; the test waits for the line
the command prints when its work has begun, then sends the signal: Ctrl-C as a terminal does (SIGINT to
the whole process group, sandbox helpers included), SIGTERM to the command alone. A tournament
interrupted so is finished by running the same command again.
"""

from __future__ import annotations

import os
import select
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from support.sandbox import needs_namespaces

pytestmark = needs_namespaces

ROOT = Path(__file__).resolve().parents[2]
PROGRAMS = ROOT / "tests" / "programs" / "codem"
BOTS = ROOT / "bots" / "codem"
WAIT_S = 180


def start(*argv: str) -> subprocess.Popen[str]:
    """``python -m arena ARGV`` in a new session, stdout and stderr on one pipe."""
    env = {**os.environ, "PYTHONPATH": str(ROOT), "COLUMNS": "200"}
    return subprocess.Popen(
        [sys.executable, "-m", "arena", *argv],
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        env=env,
        start_new_session=True,
        preexec_fn=_as_in_a_terminal,  # only resets a signal's disposition before exec
    )


def _as_in_a_terminal() -> None:
    """Ctrl-C at its default, as for a command typed at a terminal: a shell starts background jobs (e.g.
    the suite run with ``&``) with SIGINT ignored, which their children inherit and arena respects."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def wait_for(process: subprocess.Popen[str], marker: str) -> list[str]:
    """Read lines until one contains ``marker`` (the command's work has begun)."""
    assert process.stdout is not None
    seen = []
    for line in process.stdout:
        seen.append(line)
        if marker in line:
            return seen
    raise AssertionError(f"{marker!r} never printed; got {seen}")


def interrupt(process: subprocess.Popen[str], number: int) -> tuple[int, list[str]]:
    """Send the signal (SIGINT to the group, like Ctrl-C); the exit code and the lines printed after it.

    A progress bar's last frame (written on a pipe when the bar stops, blank or not) is not counted: a
    Ctrl-C may land before or after the bars start.
    """
    if number == signal.SIGINT:
        os.killpg(process.pid, signal.SIGINT)
    else:
        process.send_signal(number)
    try:
        printed, _ = process.communicate(timeout=WAIT_S)
    except subprocess.TimeoutExpired:
        left = subprocess.run(
            ["ps", "-o", "pid,stat,etimes,args", "-g", str(process.pid)], capture_output=True, text=True
        ).stdout
        os.killpg(process.pid, signal.SIGKILL)
        printed, _ = process.communicate()
        raise AssertionError(
            f"still running {WAIT_S} s after signal {number}; it printed:\n{printed}\nits session:\n{left}"
        ) from None
    return process.returncode, [line for line in printed.splitlines() if line.strip() and not _a_bar(line)]


def _a_bar(line: str) -> bool:
    """A progress bar's frame: ``tables  0 of 1 done ·  -/s · 0:00:00 elapsed · -:--:-- left``."""
    return " done · " in line and " elapsed · " in line and line.endswith(" left")


COMMANDS = {
    "table": (
        [
            "table",
            str(PROGRAMS / "Hang.py"),
            str(BOTS / "Caller.py"),
            "--deals",
            "50",
            "--time-limit",
            "20",
            "--out",
        ],
        "sandbox isolation:",
    ),
    "check": (
        ["check", str(PROGRAMS / "Hang.py"), "--deals", "5", "--time-limit", "20"],
        "check Hang.py: seats",
    ),
    "headsup": (
        ["headsup", str(PROGRAMS / "Hang.py"), "--hands", "100", "--interface", "lines"],
        "headsup: Hang.py",
    ),
}


@pytest.mark.parametrize("command", sorted(COMMANDS))
@pytest.mark.parametrize(
    ("number", "code", "words"),
    [(signal.SIGINT, 130, "interrupted (Ctrl-C)"), (signal.SIGTERM, 143, "terminated (SIGTERM)")],
)
def test_an_interrupted_command_says_so_in_one_line(
    tmp_path: Path, command: str, number: int, code: int, words: str
) -> None:
    argv, marker = COMMANDS[command]
    process = start(*argv, *([str(tmp_path / "out")] if argv[-1] == "--out" else []))
    wait_for(process, marker)
    exit_code, rest = interrupt(process, number)
    assert rest == [f"arena {command}: {words}"]
    assert exit_code == code


def test_watch_stops_on_ctrl_c(tmp_path: Path) -> None:
    process = start("watch", str(tmp_path))
    wait_for(process, "watching")
    exit_code, rest = interrupt(process, signal.SIGINT)
    assert (exit_code, rest) == (130, ["arena watch: interrupted (Ctrl-C)"])


@pytest.mark.slow
@pytest.mark.parametrize(
    ("number", "code", "words"),
    [(signal.SIGINT, 130, "interrupted (Ctrl-C)"), (signal.SIGTERM, 143, "terminated (SIGTERM)")],
)
def test_an_interrupted_tournament_resumes(tmp_path: Path, number: int, code: int, words: str) -> None:
    subs = tmp_path / "subs"
    subs.mkdir()
    for name in ("Caller.py", "Tight.c"):
        (subs / name).write_bytes((BOTS / name).read_bytes())
    (subs / "Slow.py").write_text("import time\ntime.sleep(0.6)\nopen('outputf.txt', 'w').write('0')\n")
    run = tmp_path / "run"
    argv = [
        "tournament",
        str(subs),
        "--out",
        str(run),
        "--deals",
        "30",
        "--time-limit",
        "5",
        "--standings-format",
        "csv",
    ]
    process = start(*argv)
    wait_for(process, "sandbox isolation:")
    exit_code, rest = interrupt(process, number)
    assert rest == [f"arena tournament: {words}; run the same command again to resume"]
    assert exit_code == code
    assert (run / "tournament.sqlite").exists() and not (run / "standings.csv").exists()
    again = start(*argv)
    assert again.stdout is not None
    output = again.stdout.read()
    assert again.wait(timeout=WAIT_S) == 0, output
    assert (run / "standings.csv").read_text().startswith("rank,team,")


def test_a_callers_handler_runs_first_and_is_put_back() -> None:
    from arena.cli import _signals_as_exceptions
    from arena.errors import Terminated

    heard: list[int] = []

    def callers(number: int, _frame: object) -> None:
        heard.append(number)

    before = signal.signal(signal.SIGTERM, callers)
    try:
        with pytest.raises(Terminated), _signals_as_exceptions() as seen:
            signal.raise_signal(signal.SIGTERM)
        assert heard == [signal.SIGTERM] and seen == [signal.SIGTERM]
        assert signal.getsignal(signal.SIGTERM) is callers
    finally:
        signal.signal(signal.SIGTERM, before)


def test_a_signal_ignored_when_arena_starts_stays_ignored() -> None:
    """A command started in the background (or under nohup) ignores Ctrl-C; arena keeps it so."""
    from arena.cli import _signals_as_exceptions

    before = signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        with _signals_as_exceptions() as seen:
            signal.raise_signal(signal.SIGINT)
        assert seen == []
        assert signal.getsignal(signal.SIGINT) is signal.SIG_IGN
    finally:
        signal.signal(signal.SIGINT, before)


_IN_FORK_CALLBACK = {"armed": False}


def _signal_during_fork_callback() -> None:
    """An at-fork callback in which SIGTERM's handler runs, as ``logging``'s lock release did: Python can
    only print what a handler raises there ("Exception ignored in ..."), so the signal was lost."""
    if _IN_FORK_CALLBACK["armed"]:
        _IN_FORK_CALLBACK["armed"] = False
        signal.raise_signal(signal.SIGTERM)


os.register_at_fork(after_in_parent=_signal_during_fork_callback)  # once a process; armed by one test


def test_a_signal_whose_exception_python_had_to_drop_is_raised_again() -> None:
    """SIGTERM arriving while a subprocess is forked still ends the command: ``arena check`` once went on
    waiting for a decision, since the handler's exception was raised in an at-fork callback and dropped."""
    from arena.cli import _signals_as_exceptions
    from arena.errors import Terminated

    reader, writer = os.pipe()
    try:
        with pytest.raises(Terminated), _signals_as_exceptions() as seen:
            _IN_FORK_CALLBACK["armed"] = True
            subprocess.run(["true"], preexec_fn=lambda: None, check=True)  # preexec: at-fork callbacks run
            assert not _IN_FORK_CALLBACK["armed"]
            select.select([reader], [], [], 30)  # nothing is ever written: only the signal ends the wait
        assert seen == [signal.SIGTERM]
        assert signal.getitimer(signal.ITIMER_REAL) == (0.0, 0.0)
    finally:
        _IN_FORK_CALLBACK["armed"] = False
        os.close(reader)
        os.close(writer)
