"""Red team: the site never runs a team's program outside the namespaced sandbox.

Without namespaces the sandbox falls back to rlimits only: run by a user other than root, a team's program
then runs as the server's own user and can read the contest folder (``credentials.csv``, ``secret.key``
that signs every session) and print it into its own check report. ``arena contest serve`` refuses to start
there, with one line saying why. Here bubblewrap is hidden from the server's ``PATH`` to stand for a machine
without it.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from support.contest import free_port, make_contest


@pytest.mark.slow
def test_serve_refuses_to_start_without_the_namespaced_sandbox(tmp_path: Path) -> None:
    root = tmp_path / "contest"
    make_contest(root, teams=2)
    empty = tmp_path / "bin"
    empty.mkdir()
    env = {**os.environ, "PATH": str(empty)}
    command = [sys.executable, "-m", "arena", "contest", "serve", str(root), "--port", str(free_port())]
    try:
        done = subprocess.run(command, env=env, capture_output=True, text=True, timeout=60, check=False)
    except subprocess.TimeoutExpired:
        raise AssertionError("the server started without the namespaced sandbox") from None
    assert done.returncode == 2, done.stderr
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and "sandbox" in lines[0] and "bubblewrap" in lines[0], done.stderr
    assert "Traceback" not in done.stderr
