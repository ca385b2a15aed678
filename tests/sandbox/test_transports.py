"""File and line transports with real programs, in both isolation levels."""

from __future__ import annotations

import os
import stat
from collections.abc import Iterator
from pathlib import Path

import pytest

from arena.errors import SandboxError
from arena.languages import python_interpreter
from arena.sandbox import (
    NAMESPACES,
    RLIMITS_ONLY,
    Limits,
    RunStatus,
    Sandbox,
    open_sandbox,
    team_folder,
    tree,
)
from arena.sandbox.runner_client import NO_RUNNER, runner_tally
from arena.sandbox.team_folder import Policed, police, snapshot
from arena.transports import FileTransport, LineTransport

from support.sandbox import TINY, build, needs_namespaces, processes_of

pytestmark = pytest.mark.native

INPUTS = {"inputf.txt": "1          2          3", "deals_money.txt": "Deal 1\n", "deal.txt": "Dealer 1\n"}


@pytest.fixture(params=[pytest.param(NAMESPACES, marks=needs_namespaces), RLIMITS_ONLY])
def sandbox(request: pytest.FixtureRequest, open_root: Path) -> Iterator[Sandbox]:
    with open_sandbox(open_root / "team", Limits(), isolation=request.param) as opened:
        yield opened


def test_a_decision_writes_inputs_runs_and_reads_the_answer(sandbox: Sandbox) -> None:
    built = build(sandbox, TINY / "TinyC.c")
    transport = FileTransport(sandbox, built.run_argv, protected=built.products)
    reply = transport.exchange(INPUTS)
    assert reply.ok
    assert reply.text == "6\n"
    assert reply.help_files == 0
    again = transport.exchange({**INPUTS, "inputf.txt": "10 20"})
    assert again.text == "30\n"
    for name in INPUTS:
        info = (sandbox.folder / name).lstat()
        assert (info.st_uid, stat.S_IMODE(info.st_mode)) == (0, 0o444)
    assert (sandbox.folder / "deal.txt").read_text() == "Dealer 1\n"


def test_the_output_is_emptied_before_every_run(sandbox: Sandbox) -> None:
    built = build(sandbox, TINY / "TinyC.c")
    FileTransport(sandbox, built.run_argv, protected=built.products).exchange(INPUTS)
    silent = FileTransport(sandbox, ["/bin/true"], protected=built.products).exchange(INPUTS)
    assert silent.text == ""
    assert silent.run.status is RunStatus.OK


def test_help_files_are_counted_and_carry_memory(sandbox: Sandbox) -> None:
    built = build(sandbox, TINY / "keeps_notes.py")
    transport = FileTransport(sandbox, built.run_argv, protected=built.products)
    answers = [transport.exchange(INPUTS) for _ in range(3)]
    assert [reply.text for reply in answers] == ["1\n", "2\n", "3\n"]
    assert {reply.help_files for reply in answers} == {3}  # notes/, notes/runs.txt, last_input.txt
    assert all(reply.ok for reply in answers)


def test_inputs_the_program_left_behind_are_taken_back(sandbox: Sandbox) -> None:
    (sandbox.folder / "deal.txt").symlink_to("/etc/hostname")
    reply = FileTransport(sandbox, ["/bin/true"]).exchange(INPUTS)
    assert reply.ok
    assert not (sandbox.folder / "deal.txt").is_symlink()
    assert (sandbox.folder / "deal.txt").read_text() == "Dealer 1\n"


def test_a_line_program_answers_each_line(sandbox: Sandbox) -> None:
    build(sandbox, TINY / "echo_lines.py")
    python = str(python_interpreter(sandbox.isolation_level))
    transport = LineTransport(sandbox, [python, "-E", "-s", "-B", "echo_lines.py"])
    transport.start()
    for word in ("one", "two", "three"):
        transport.send(word)
        assert transport.receive(5.0) == f"pong {word}"
    assert transport.alive
    transport.send("quit")
    assert transport.receive(5.0) is None
    result = transport.close()
    assert result.ok
    assert processes_of(sandbox) == []


def test_a_line_transport_must_be_started(sandbox: Sandbox) -> None:
    with pytest.raises(SandboxError, match="not started"):
        LineTransport(sandbox, ["cat"]).send("x")


def test_no_file_is_left_writable_by_the_program_except_the_output(sandbox: Sandbox) -> None:
    FileTransport(sandbox, ["/bin/true"]).exchange(INPUTS)
    output = (sandbox.folder / "outputf.txt").lstat()
    assert (output.st_uid, stat.S_IMODE(output.st_mode)) == (0, 0o666)
    assert stat.S_IMODE(os.stat(sandbox.folder).st_mode) == 0o1777


def test_a_transport_can_carry_its_own_wall_limit(sandbox: Sandbox) -> None:
    reply = FileTransport(sandbox, ["sleep", "5"], wall_time_s=0.1).exchange(INPUTS)
    assert reply.run.status is RunStatus.TIMEOUT
    assert reply.run.describe() == "ran past the 0.1 s wall limit"


def test_the_build_is_never_counted_as_help_files(sandbox: Sandbox) -> None:
    built = build(sandbox, TINY / "TinyJava.java")
    reply = FileTransport(sandbox, ["/bin/true"]).exchange(INPUTS)
    assert set(built.products) == {"TinyJava.java", "TinyJava.class"}
    assert reply.help_files == 0


@pytest.mark.slow
@needs_namespaces
def test_the_runners_count_of_help_files_is_the_policing_one(
    open_root: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Where arena's runner counts the help files (no rule broken, ``tally.c``), the count is the one
    policing's own walk finds, over 150 decisions of a program reshaping its files at random (sometimes
    past the rules, where the runner leaves the folder to be policed)."""
    limits = Limits(help_files=15, help_bytes_mb=16, folder_depth=4)
    with open_sandbox(open_root / "team", limits, isolation=NAMESPACES) as sandbox:
        monkeypatch.setenv(NO_RUNNER, "1")  # the sandbox keeps its runner; police walks in Python
        built = build(sandbox, TINY / "Shuffler.py")
        transport = FileTransport(sandbox, built.run_argv, protected=built.products)
        counted = policed = 0
        for decision in range(150):
            reply = transport.exchange({**INPUTS, "inputf.txt": f"seed {decision}"})
            assert reply.run.ok, reply
            root = tree.open_folder(sandbox.folder)
            try:
                again = police(root, limits, protected=transport.arenas(INPUTS), program_uid=sandbox.uid)
            finally:
                os.close(root)
            assert again == Policed(reply.help_files, ()), decision  # nothing left to police, same count
            if reply.violations:
                policed += 1
            elif sandbox.has_runner:
                assert reply.run.help_files == reply.help_files
                counted += 1
        assert policed > 0 and (counted > 0 or not sandbox.has_runner), (policed, counted)


@pytest.mark.native
def test_police_counts_a_clean_folder_with_the_runners_tally(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """On the runner's road ``police`` counts a clean folder with ``tally.c`` (the runner's count): the
    same as its Python walk, with and without a broken rule (then the walk polices it)."""
    monkeypatch.delenv(NO_RUNNER, raising=False)
    if runner_tally() is None:
        pytest.skip("not the runner's road here (not root, or no C compiler)")
    limits = Limits(help_files=4, help_bytes_mb=1, folder_depth=2)
    folder = tmp_path / "team"
    (folder / "notes" / "deeper").mkdir(parents=True)
    (folder / "notes" / "a.txt").write_text("a")
    (folder / "b.txt").write_text("bb")
    (folder / "inputf.txt").write_text("1")  # the arena's: root's, linked once
    uid = os.getuid()
    for path in [folder / "notes", folder / "notes" / "deeper", folder / "notes" / "a.txt", folder / "b.txt"]:
        os.chown(path, uid + 1, uid + 1)
    seen = []
    for broken in (False, True):
        if broken:
            os.symlink("/etc", folder / "notes" / "link")
        for road in ("", "1"):
            monkeypatch.setenv(NO_RUNNER, road)
            root = tree.open_folder(folder)
            try:
                tally = runner_tally()
                rules = (limits.help_files, limits.help_bytes_mb << 20, limits.folder_depth)
                counted = tally.count(root, rules, {"inputf.txt"}, uid + 1) if tally else "walked"
                seen.append((counted, police(root, limits, protected={"inputf.txt"}, program_uid=uid + 1)))
            finally:
                os.close(root)
    clean = Policed(4, ())
    assert seen[:2] == [(4, clean), ("walked", clean)]
    assert seen[2][0] is None and seen[2][1].kept == 4 and seen[2][1].breaches  # the walk removed the link
    assert seen[3] == ("walked", clean)


def test_help_file_snapshots_read_again_only_what_changed(
    sandbox: Sandbox, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A snapshot takes settled files whose stamp did not change from the last one: after every decision of a
    program changing its help files (same-size rewrites with the old times put back, appends, removals, files
    turned into folders), it holds the files a fresh read finds, and unchanged files are not read again."""
    monkeypatch.setattr(team_folder, "SETTLED_NS", 50_000_000)  # past the clock's coarse steps, within a test
    reads: list[str] = []
    read = team_folder._read

    def counted(root: int, entry: tree.Entry) -> bytes | None:
        reads.append(entry.path)
        return read(root, entry)

    monkeypatch.setattr(team_folder, "_read", counted)
    built = build(sandbox, TINY / "Rewriter.py")
    transport = FileTransport(sandbox, built.run_argv, protected=built.products)
    taken = 0
    for decision in range(60):
        reply = transport.exchange({**INPUTS, "inputf.txt": f"seed {decision}"})
        assert reply.ok, reply
        reads.clear()
        kept = transport.help_files_snapshot(1 << 20)
        assert kept is not None
        taken += sum(1 for data in kept.values() if data is not None) - len(reads)
        root = tree.open_folder(sandbox.folder)
        try:
            protected = transport.protected | transport.owned | sandbox.build_products
            fresh = snapshot(
                root, sandbox.limits, protected=protected, program_uid=sandbox.uid, cap_bytes=1 << 20
            )
        finally:
            os.close(root)
        assert kept == fresh.files, decision
    assert taken > 0
