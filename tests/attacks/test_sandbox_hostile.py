"""Hostile programs against the namespaced sandbox and the file transport.

Each test asserts the fault and its reason, that nothing outside the team folder changed, and that no
process of the sandbox is left, both right after the decision and after the sandbox is closed.
"""

from __future__ import annotations

import os
import secrets
import socket
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from arena.sandbox import Limits, RunStatus, Sandbox, open_sandbox
from arena.sandbox.team_folder import BreachKind
from arena.transports import FileReply, FileTransport

from support.sandbox import HOSTILE, build, needs_namespaces, processes_of, snapshot

pytestmark = needs_namespaces

DEAL = "Dealer         1\nStage          Pre_Flop\nMain_Pot       15\n"


@dataclass
class Arena:
    """A test arena: a root with a precious file outside the team folder and one team's sandbox."""

    root: Path
    sandbox: Sandbox
    precious: Path

    def play(self, program: str, inputs: dict[str, str] | None = None) -> FileReply:
        built = build(self.sandbox, HOSTILE / program)
        self.before = snapshot(self.root, skip=self.sandbox.workdir)
        transport = FileTransport(self.sandbox, built.run_argv, protected=built.products)
        files = {
            "inputf.txt": "1          2          3          15",
            "deals_money.txt": "Deal 1\n",
            "deal.txt": DEAL,
        }
        reply = transport.exchange({**files, **(inputs or {})})
        assert processes_of(self.sandbox) == []
        return reply

    def assert_outside_unchanged(self) -> None:
        assert snapshot(self.root, skip=self.sandbox.workdir) == self.before
        assert self.precious.read_text() == "precious\n"


@pytest.fixture
def arena(tmp_path: Path) -> Iterator[Arena]:
    precious = tmp_path / "state" / "precious.txt"
    precious.parent.mkdir()
    precious.write_text("precious\n")
    sandbox = open_sandbox(tmp_path / "team", Limits(), isolation="namespaces")
    try:
        yield Arena(tmp_path, sandbox, precious)
    finally:
        sandbox.close()
    assert processes_of(sandbox) == []  # the helper too, once closed


def test_infinite_loop_is_a_wall_time_fault(arena: Arena) -> None:
    reply = arena.play("infinite_loop.c")
    assert reply.run.status is RunStatus.TIMEOUT
    assert reply.run.describe() == "ran past the 1 s wall limit"
    assert reply.text == ""
    arena.assert_outside_unchanged()


def test_sleeping_past_the_limit_is_a_wall_time_fault(arena: Arena) -> None:
    reply = arena.play("sleeper.c")
    assert reply.run.status is RunStatus.TIMEOUT
    assert reply.run.cpu_ms < reply.run.wall_ms / 2  # it slept its wall time away: the wall clock ended it
    arena.assert_outside_unchanged()


def test_fork_bomb_is_contained_and_swept(arena: Arena) -> None:
    reply = arena.play("fork_bomb.c")
    assert reply.run.status is RunStatus.TIMEOUT
    arena.assert_outside_unchanged()


def test_allocating_4_gb_is_a_memory_fault(arena: Arena) -> None:
    # A generous wall limit: this machine's shared cores fault pages in slowly, and the test is about memory.
    limits = Limits(wall_time_s=30, memory_mb=256)
    with open_sandbox(arena.root / "hungry", limits, isolation="namespaces") as hungry:
        other = Arena(arena.root, hungry, arena.precious)
        reply = other.play("big_alloc.c")
        assert reply.run.status is RunStatus.MEMORY_LIMIT
        assert reply.run.describe() == "ran out of memory (limit 256 MB)"
        other.assert_outside_unchanged()


def test_writing_a_1_gb_file_is_a_file_size_fault(arena: Arena) -> None:
    reply = arena.play("big_file.c")
    assert reply.run.status is RunStatus.FILE_SIZE_LIMIT
    assert "16 MB" in reply.run.describe()
    assert (arena.sandbox.folder / "big.bin").stat().st_size <= 16 << 20
    arena.assert_outside_unchanged()


def test_sixteenth_help_file_is_a_violation_and_is_removed(arena: Arena) -> None:
    reply = arena.play("too_many_help_files.py")
    assert reply.run.status is RunStatus.OK
    assert reply.text == "0\n"
    assert reply.help_files == 15
    assert len(reply.violations) == 1
    assert reply.violations[0].kind is BreachKind.TOO_MANY
    assert "created 16 help files and folders, the limit is 15; removed help" in reply.violations[0].reason
    kept = sorted(path.name for path in arena.sandbox.folder.glob("help*.txt"))
    assert len(kept) == 15
    assert not reply.ok
    arena.assert_outside_unchanged()


def test_100_mb_on_stdout_is_an_output_fault(arena: Arena) -> None:
    reply = arena.play("flood_stdout.c")
    assert reply.run.status is RunStatus.OUTPUT_LIMIT
    assert len(reply.run.stdout) == Limits().output_bytes
    assert reply.run.describe() == "printed more than 65536 bytes on stdout/stderr"
    arena.assert_outside_unchanged()


def test_connecting_to_localhost_reaches_nothing(arena: Arena) -> None:
    with socket.socket() as listener:
        listener.bind(("127.0.0.1", 0))
        listener.listen()
        listener.setblocking(False)
        port = listener.getsockname()[1]
        reply = arena.play("connect_localhost.py", {"inputf.txt": f"{port}"})
        with pytest.raises(BlockingIOError):
            listener.accept()
    assert reply.run.status is RunStatus.OK
    assert reply.text is not None and reply.text.startswith("failed")
    arena.assert_outside_unchanged()


def test_a_sibling_teams_help_file_is_invisible(arena: Arena, tmp_path: Path) -> None:
    secret = secrets.token_hex(16)
    sibling_dir = tmp_path / "sibling"
    with open_sandbox(sibling_dir, Limits(), isolation="namespaces") as sibling:
        (sibling.folder / "memory.txt").write_text(secret)
        paths = [
            str(sibling.folder / "memory.txt"),
            str(sibling_dir / "memory.txt"),
            "/proc/1/root/team/memory.txt",
        ]
        reply = arena.play("read_sibling.py", {"inputf.txt": " ".join(paths)})
    assert (sibling_dir / "memory.txt").read_text() == secret
    reply_again = arena.play("read_sibling.py", {"inputf.txt": str(sibling_dir / "memory.txt")})
    for answer in (reply, reply_again):
        assert answer.run.status is RunStatus.OK
        assert answer.text is not None and secret not in answer.text
        assert "denied" in answer.text


def test_overwriting_deal_txt_fails(arena: Arena) -> None:
    reply = arena.play("overwrite_deal.py")
    assert reply.run.status is RunStatus.OK
    deal = arena.sandbox.folder / "deal.txt"
    assert deal.read_text() == DEAL
    info = deal.lstat()
    assert (info.st_uid, info.st_mode & 0o777) == (0, 0o444)
    assert reply.text is not None and "done" not in reply.text
    arena.assert_outside_unchanged()


def test_a_symlinked_output_never_writes_outside(arena: Arena) -> None:
    reply = arena.play("symlink_output.py", {"inputf.txt": str(arena.precious)})
    arena.assert_outside_unchanged()
    output = arena.sandbox.folder / "outputf.txt"
    assert not output.is_symlink()
    assert output.lstat().st_uid == 0
    assert reply.text == "destroyed\n"  # written into the team's own output file, nowhere else


def test_a_double_forked_daemon_dies_with_the_decision(arena: Arena) -> None:
    reply = arena.play("daemon_writer.c")
    assert reply.run.status is RunStatus.OK
    assert processes_of(arena.sandbox) == []
    output = arena.sandbox.folder / "outputf.txt"
    settled = output.read_text()
    # The program and its daemon each open the file at offset 0: whichever writes last wins, and the
    # program's "5\n" written over the daemon's "666\n" leaves "5\n6\n" (seen once in a full run).
    assert settled in ("5\n", "666\n", "5\n6\n")
    note = arena.sandbox.folder / "daemon_was_here.txt"
    stamp = note.stat().st_mtime_ns if note.exists() else None
    # A second decision proves nothing kept running: the daemon would rewrite both files.
    second = FileTransport(arena.sandbox, ["/bin/true"]).exchange({"inputf.txt": "1"})
    assert second.run.ok
    assert output.read_text() == ""
    assert (note.stat().st_mtime_ns if note.exists() else None) == stamp
    arena.assert_outside_unchanged()


def test_the_arena_environment_and_proc_hold_no_secret(arena: Arena, monkeypatch: pytest.MonkeyPatch) -> None:
    secret = secrets.token_hex(16)
    monkeypatch.setenv("ARENA_DECK_SECRET", secret)
    state_file = arena.root / "state" / "deck.txt"
    state_file.write_text(secret)
    # A sandbox opened after the secret was planted, so its helper would inherit it if anything did.
    with open_sandbox(arena.root / "snoop", Limits(), isolation="namespaces") as snoop:
        other = Arena(arena.root, snoop, arena.precious)
        reply = other.play("snoop_secrets.py", {"inputf.txt": f"{state_file} /proc/1/environ"})
    assert reply.run.status is RunStatus.OK
    assert reply.text is not None and reply.text.startswith("0\n")
    assert secret not in reply.text
    assert secret.encode() not in reply.run.stdout
    assert "PATH=/usr/local/bin:/usr/bin:/bin" in reply.text
    assert os.environ["ARENA_DECK_SECRET"] == secret


def test_closing_stdout_and_stderr_at_once_still_answers(arena: Arena) -> None:
    reply = arena.play("close_std_streams.c")
    assert reply.run.status is RunStatus.OK
    assert reply.text == "7\n"
    assert reply.run.stdout == b""
    arena.assert_outside_unchanged()


def test_the_helper_cannot_be_attacked_from_inside(arena: Arena) -> None:
    reply = arena.play("attack_helper.py")
    assert reply.run.status is RunStatus.OK
    assert reply.text is not None
    outcomes = dict(item.split(":") for item in reply.text.split())
    assert outcomes["prlimit"] != "done" and outcomes["environ"] != "done" and outcomes["fd"] != "done"
    assert outcomes["ptrace"] != "done"
    for capabilities in ("CapEff", "CapPrm", "CapAmb", "CapInh"):
        assert int(outcomes[capabilities], 16) == 0
    # Signals to PID 1 from inside its namespace are dropped; the helper keeps serving.
    again = FileTransport(arena.sandbox, ["/bin/true"]).exchange({"inputf.txt": "1"})
    assert again.run.ok
    arena.assert_outside_unchanged()
