"""Issue 24 item 3: emptying ``/tmp`` and removing SysV IPC objects have one owner on each road.

On the runner's road ``scratch.c`` ends every decision: compiled into the runner for a cold one (which then
leaves nothing to the helper: no sweep is asked for), and called through the runner's shared object by the
helper's sweep for a warm one. On the helper's road ``cleanup.py`` does both. Either way a decision that
leaves a deep tree, folders it closed to itself, a link out of ``/tmp``, a FIFO and IPC objects leaves
nothing after it, and nothing outside ``/tmp`` is touched.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from arena.compiled import build_flags, compiled
from arena.sandbox import Limits, Sandbox, open_sandbox, tree
from arena.sandbox.inside.cleanup import Compiled
from arena.sandbox.runner_client import HEADERS, PARTS
from arena.transports import FileTransport
from arena.transports.warm import WarmPythonTransport

from support.roads import road  # noqa: F401 (the fixture, used by name)
from support.sandbox import PROGRAMS, build, needs_namespaces

pytestmark = [needs_namespaces, pytest.mark.native]

LEFTOVERS = PROGRAMS / "attacks" / "scratch_leftovers.py"
LIST_IPC = "tables = [open(f'/proc/sysvipc/{kind}').read() for kind in ('shm', 'msg', 'sem')]\n" + (
    "print([len(table.splitlines()) - 1 for table in tables])\nopen('outputf.txt', 'w').write('0\\n')\n"
)


@pytest.fixture
def sandbox(tmp_path: Path, road: str) -> Iterator[Sandbox]:  # noqa: F811 (the fixture, by name)
    with open_sandbox(tmp_path / "team", Limits(wall_time_s=10), isolation="namespaces") as opened:
        if road == "runner" and os.geteuid() == 0:
            assert opened.has_runner  # else this road is not the runner's and nothing here tests it
        yield opened


@pytest.fixture
def sweeps(monkeypatch: pytest.MonkeyPatch) -> list[dict[str, Any]]:
    """The helper's reply to every sweep the arena asks for."""
    seen: list[dict[str, Any]] = []
    request = Sandbox._request

    def spy(self: Sandbox, message: dict[str, Any], *args: Any, **kwargs: Any) -> Any:
        answer = request(self, message, *args, **kwargs)
        if message.get("op") == "sweep":
            seen.append(answer[0])
        return answer

    monkeypatch.setattr(Sandbox, "_request", spy)
    return seen


def assert_nothing_left(sandbox: Sandbox, tmp_path: Path) -> None:
    """``/tmp`` empty, the help folder the link pointed to intact, no IPC object (seen by a decision)."""
    assert sorted(os.listdir(sandbox.box.scratch_outside)) == []
    assert (sandbox.folder / "keep" / "kept.txt").read_text() == "mine\n"
    lister = tmp_path / "list_ipc.py"
    lister.write_text(LIST_IPC)
    listed = FileTransport(sandbox, build(sandbox, lister).run_argv).exchange({"inputf.txt": "1"})
    assert listed.run.ok, listed.run.describe()
    assert listed.run.stdout.decode().strip() == "[0, 0, 0]"


def test_a_cold_decision_is_ended_by_one_owner(
    sandbox: Sandbox, tmp_path: Path, sweeps: list[dict[str, Any]]
) -> None:
    reply = FileTransport(sandbox, build(sandbox, LEFTOVERS).run_argv).exchange({"inputf.txt": "1"})
    assert reply.run.ok and reply.text == "0\n", reply.run.describe()
    if sandbox.has_runner:
        assert sweeps == []  # scratch.c in the runner removed all: nothing left to the helper's Python
    assert_nothing_left(sandbox, tmp_path)


def test_a_warm_decision_is_ended_by_the_same_owner(
    sandbox: Sandbox, tmp_path: Path, sweeps: list[dict[str, Any]]
) -> None:
    argv = build(sandbox, LEFTOVERS).run_argv
    transport = WarmPythonTransport(sandbox, argv, preload=(), wall_time_s=10)
    try:
        reply = transport.exchange({"inputf.txt": "1"})
    finally:
        transport.close()
    assert reply.run.ok and reply.text == "0\n", reply.run.describe()
    owner = "scratch.c" if sandbox.has_runner else "cleanup.py"
    assert [sweep.get("ended_by") for sweep in sweeps] == [owner]
    assert_nothing_left(sandbox, tmp_path)


def _hostile_tree(scratch: Path, outside: Path) -> None:
    """A tree deeper than scratch.c holds folders open, closed folders, a link out, a FIFO, many files."""
    deep = scratch
    for level in range(100):
        deep = deep / f"d{level}"
        deep.mkdir()
        (deep / "f").write_text("x")
    for index in range(300):
        (scratch / f"many{index}").write_text("")
    for name, mode in (("readonly", 0o500), ("closed", 0o000)):
        (scratch / name / "inner").mkdir(parents=True)
        (scratch / name / "inner" / "f").write_text("x")
        (scratch / name).chmod(mode)
    (scratch / "outside").symlink_to(outside)
    os.mkfifo(scratch / "fifo")


@pytest.mark.parametrize("owner", ["scratch.c", "tree.py"])
def test_both_owners_empty_a_hostile_tree_alike(tmp_path: Path, owner: str) -> None:
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "kept.txt").write_text("mine")
    scratch = tmp_path / "scratch"
    scratch.mkdir()
    _hostile_tree(scratch, outside)
    if owner == "scratch.c":
        library = compiled(PARTS[0], build_flags("shared", hardened=True), tmp_path, PARTS[1:], HEADERS)
        assert library is not None
        assert Compiled(str(library)).empty_folder(str(scratch))
    else:
        root = tree.open_folder(scratch)
        try:
            tree.empty(root)
        finally:
            os.close(root)
    assert os.listdir(scratch) == []
    assert os.listdir(outside) == ["kept.txt"]
