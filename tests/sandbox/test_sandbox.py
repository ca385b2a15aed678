"""The sandbox API with real processes, in the namespaced mode and in the explicit weaker fallback."""

from __future__ import annotations

import os
import signal
from collections.abc import Iterator
from pathlib import Path

import psutil
import pydantic
import pytest

from arena.errors import ConfigError, SandboxError
from arena.sandbox import NAMESPACES, RLIMITS_ONLY, Limits, RunStatus, Sandbox, open_sandbox

from support.sandbox import HOSTILE, TINY, build, needs_namespaces, processes_of

LEVELS = [pytest.param(NAMESPACES, marks=needs_namespaces), RLIMITS_ONLY]


@pytest.fixture(params=LEVELS)
def sandbox(request: pytest.FixtureRequest, open_root: Path) -> Iterator[Sandbox]:
    with open_sandbox(open_root / "team", Limits(), isolation=request.param) as opened:
        yield opened


def test_isolation_level_is_what_was_asked(sandbox: Sandbox, request: pytest.FixtureRequest) -> None:
    assert sandbox.isolation_level == request.node.callspec.params["sandbox"]


@needs_namespaces
def test_auto_chooses_namespaces_when_available(tmp_path: Path) -> None:
    with open_sandbox(tmp_path / "team", Limits()) as opened:
        assert opened.isolation_level == NAMESPACES


def test_unknown_isolation_level_is_a_config_error(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match="unknown isolation level 'chroot'"):
        open_sandbox(tmp_path, Limits(), isolation="chroot")


def test_limits_are_validated() -> None:
    with pytest.raises(pydantic.ValidationError):
        Limits(wall_time_s=0)
    assert Limits(wall_time_s=1.0).cpu_seconds(1.0) == 2
    assert Limits(cpu_time_s=2.5).cpu_seconds(1.0) == 3


def test_stdin_reaches_the_program_and_stdout_comes_back(sandbox: Sandbox) -> None:
    result = sandbox.run(["cat"], stdin=b"hello sandbox\n" * 1000)
    assert result.ok
    assert result.stdout == b"hello sandbox\n" * 1000
    assert result.wall_ms > 0 and result.peak_memory_kb > 0


def test_exit_status_and_signals_are_told_apart(sandbox: Sandbox) -> None:
    exited = sandbox.run(["/bin/sh", "-c", "echo oops >&2; exit 3"])
    assert (exited.status, exited.exit_code, exited.stderr) == (RunStatus.NONZERO_EXIT, 3, b"oops\n")
    assert exited.describe() == "exited with status 3"
    crashed = sandbox.run(["/bin/sh", "-c", "kill -SEGV $$"])
    assert (crashed.status, crashed.signal) == (RunStatus.SIGNALED, signal.SIGSEGV)
    assert crashed.describe() == "was killed by signal SIGSEGV (11)"


def test_a_missing_program_is_reported_not_raised(sandbox: Sandbox) -> None:
    result = sandbox.run(["no-such-program-here"])
    assert result.status is RunStatus.NOT_STARTED
    assert "no-such-program-here" in result.describe()


def test_wall_limit_per_run(sandbox: Sandbox) -> None:
    result = sandbox.run(["sleep", "10"], wall_time_s=0.2)
    assert result.status is RunStatus.TIMEOUT
    assert result.describe() == "ran past the 0.2 s wall limit"


def test_programs_run_unprivileged_with_a_minimal_environment(sandbox: Sandbox) -> None:
    identity = sandbox.run(["id", "-u"])
    assert int(identity.stdout) == sandbox.uid != 0
    environment = sandbox.run(["env"])
    names = sorted(line.split("=", 1)[0] for line in environment.stdout.decode().splitlines())
    assert names == ["HOME", "LANG", "PATH", "PWD", "TMPDIR"] or names == ["HOME", "LANG", "PATH", "TMPDIR"]


@pytest.mark.parametrize("level", LEVELS)
def test_folder_contents_come_and_go_with_the_sandbox(open_root: Path, level: str) -> None:
    workdir = open_root / "team"
    workdir.mkdir()
    (workdir / "memory.txt").write_text("from last table\n")
    with open_sandbox(workdir, Limits(), isolation=level) as opened:
        script = "cat memory.txt; echo more >> memory.txt; echo new > new.txt"
        appended = opened.run(["/bin/sh", "-c", script])
        assert appended.stdout == b"from last table\n"
    assert (workdir / "memory.txt").read_text() == "from last table\nmore\n"
    assert (workdir / "new.txt").read_text() == "new\n"


def test_the_fallback_refuses_a_folder_its_user_cannot_reach(tmp_path: Path) -> None:
    private = tmp_path / "private"
    private.mkdir(mode=0o700)
    if os.geteuid() != 0:
        pytest.skip("only root switches programs to another uid")
    with pytest.raises(ConfigError, match="cannot enter"):
        open_sandbox(private / "team", Limits(), isolation=RLIMITS_ONLY)


def test_a_session_exchanges_lines_and_ends(sandbox: Sandbox) -> None:
    build(sandbox, TINY / "echo_lines.py")
    session = sandbox.start([*_python(sandbox), "echo_lines.py"])
    session.send_line("ping")
    assert session.read_line(5.0) == "pong ping"
    session.send_line("again")
    assert session.read_line(5.0) == "pong again"
    assert session.alive
    result = session.close()
    assert result.ok
    assert not session.alive
    assert processes_of(sandbox) == []


def test_a_silent_session_times_out_then_eof(sandbox: Sandbox) -> None:
    session = sandbox.start(["/bin/sh", "-c", "read line; exit 0"])
    assert session.read_line(0.05) is None
    session.send_line("go")
    assert session.read_line(5.0) is None  # end of output, not a line
    assert session.close().status is RunStatus.OK


def test_one_shot_runs_leave_a_live_session_alone(sandbox: Sandbox) -> None:
    session = sandbox.start(["cat"])
    assert sandbox.run(["/bin/true"]).ok
    session.send_line("still here")
    assert session.read_line(5.0) == "still here"
    session.close()


def test_a_daemon_is_swept_in_the_fallback_too(open_root: Path) -> None:
    with open_sandbox(open_root / "team", Limits(), isolation=RLIMITS_ONLY) as opened:
        built = build(opened, HOSTILE / "daemon_writer.c")
        assert opened.run(built.run_argv).ok
        assert processes_of(opened) == []


def test_a_closed_sandbox_refuses_work(tmp_path: Path) -> None:
    opened = open_sandbox(tmp_path / "team", Limits())
    opened.close()
    with pytest.raises(SandboxError, match="closed"):
        opened.run(["/bin/true"])


def _python(sandbox: Sandbox) -> list[str]:
    from arena.languages import python_interpreter

    return [str(python_interpreter(sandbox.isolation_level)), "-E", "-s", "-B"]


@needs_namespaces
def test_a_request_interrupted_before_its_reply_still_closes_cleanly(
    open_root: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A Ctrl-C between a request and its reply leaves the helper's channel out of step: closing must not
    read the stale reply as its own (a KeyError once), and must still end everything and copy the folder."""
    with open_sandbox(open_root / "team", Limits()) as opened:
        assert opened.run(["/bin/sh", "-c", "echo kept > note.txt"]).ok
        helper = opened.helper_process
        uid = opened.uid

        def interrupted() -> None:
            raise KeyboardInterrupt

        monkeypatch.setattr(opened.channel, "receive", interrupted)
        with pytest.raises(KeyboardInterrupt):
            opened.start(["/bin/sleep", "4711"])
        monkeypatch.undo()
        assert opened.cut
        with pytest.raises(SandboxError, match="interrupted before its reply"):
            opened.start(["/bin/true"])  # the helper cannot be asked any more
    assert helper.poll() is not None
    assert (open_root / "team" / "note.txt").read_text() == "kept\n"
    running = psutil.process_iter(["uids", "cmdline"])
    assert [p for p in running if p.info["uids"] and p.info["uids"].real == uid] == []
