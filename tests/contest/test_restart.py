"""Restart safety: ``kill -9`` of the server loses no recorded upload, and an interrupted check runs again."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from pathlib import Path

import psutil
import pytest

from arena.atomic import fresh_folder
from arena.contest.state import ContestStore

from support.contest import make_contest, poll, start, stop

ROOT = Path(__file__).parents[2]

WRITER = """
import itertools, os
os.makedirs("builds", exist_ok=True)
for n in itertools.count():
    try:
        os.makedirs(f"builds/{n}")
        open(f"builds/{n}/out", "w").close()
    except OSError:  # its folder removed under it: it runs on, as a compiler does until it is killed
        pass
"""


def test_a_checks_folder_is_made_fresh_while_the_killed_attempts_compiler_writes(tmp_path: Path) -> None:
    out = tmp_path / "checks" / "000001"
    out.mkdir(parents=True)
    writer = subprocess.Popen([sys.executable, "-c", WRITER], cwd=out)
    try:
        poll(lambda: True if (out / "builds" / "100").exists() else None, 30, every=0.01)
        fresh_folder(out)  # removing it in place fails here: the writer adds files as they are removed
        assert out.is_dir() and list(out.iterdir()) == []
        assert writer.poll() is None  # still writing, into the folder moved aside
    finally:
        writer.kill()
        writer.wait()
    assert list(out.iterdir()) == []
    fresh_folder(out)
    assert [path.name for path in out.parent.iterdir()] == ["000001"]  # what the writer left is gone


STARTING_CHILD = """
import os, sys, time
from arena.sandbox.inside.prctl import die_with_parent
go, parent, ran = sys.argv[1], int(sys.argv[2]), sys.argv[3]
while not os.path.exists(go):  # still starting (spawn's imports) when the parent is killed
    time.sleep(0.01)
die_with_parent(parent)
open(ran, "w").close()
"""
SERVER = """
import os, signal, subprocess, sys
child = subprocess.Popen([sys.executable, "-c", sys.argv[1], sys.argv[2], str(os.getpid()), sys.argv[3]])
print(child.pid, flush=True)
signal.pause()
"""


def test_a_check_process_whose_server_died_while_it_started_does_not_run(tmp_path: Path) -> None:
    """The server's ``kill -9`` can come before a check process asks to die with it: it then ends at once,
    rather than check beside the restarted server's own check of the same upload, in the same folder."""
    go, ran = tmp_path / "go", tmp_path / "ran"
    server = subprocess.Popen(
        [sys.executable, "-c", SERVER, STARTING_CHILD, str(go), str(ran)], stdout=subprocess.PIPE, text=True
    )
    assert server.stdout is not None
    child = psutil.Process(int(server.stdout.readline()))
    server.kill()
    server.wait()
    go.touch()
    child.wait(timeout=30)
    assert not ran.exists()


@pytest.mark.slow
def test_a_server_killed_during_a_check_keeps_every_upload_and_checks_it_again(tmp_path: Path) -> None:
    root = tmp_path / "contest"
    passwords = make_contest(root, teams=2)
    program = (ROOT / "bots/codem/Tight.c").read_bytes()
    server = start(root)
    try:
        token = server.sign_in("TeamA", passwords["TeamA"])
        first = server.upload(token, "TeamA.c", program).json["id"]
        second = server.upload(token, "TeamA.c", program + b"\n").json["id"]

        def checking() -> bool | None:
            state = server.call("GET", f"/api/submissions/{first}", token=token).json
            return True if state["status"] == "checking" else None

        poll(checking, 120)
        os.kill(server.process.pid, signal.SIGKILL)  # the server only: its check process dies with it
        server.process.wait(timeout=30)
    finally:
        stop(server, kill=True)
    store = ContestStore(root / "contest.sqlite")
    try:
        records = {record.id: record for record in store.submissions()}
    finally:
        store.close()
    assert set(records) == {first, second}
    assert records[first].status.value == "checking" and records[first].attempt == 1
    assert (root / "uploads" / f"{first:06d}" / "TeamA.c").read_bytes() == program
    assert (root / "uploads" / f"{second:06d}" / "TeamA.c").read_bytes() == program + b"\n"

    server = start(root)
    try:
        token = server.sign_in("TeamA", passwords["TeamA"])
        again = server.wait_checked(token, first)
        assert again["verdict"] == "PASS" and "build: ok" in again["report"], again["report"]
        assert server.wait_checked(token, second)["verdict"] == "PASS"
        assert "checks interrupted by the last stop queued again: [1]" in server.log.read_text()
    finally:
        stop(server)
    store = ContestStore(root / "contest.sqlite")
    try:
        rerun = store.submission(first)
        assert rerun is not None and rerun.attempt == 2  # the killed attempt, then the one that finished
    finally:
        store.close()
