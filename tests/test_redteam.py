"""Red-team attacks of issue 12 (and the deck secrecy of issue 13) that the sandbox holds.

Each attacker (``tests/programs/redteam/``, each says what it tries) plays a real Code'em table in a
real sandbox beside honest programs through :func:`support.hostile.play_hostile`, which also checks
that the table completes with ``results.json``, that a canary tree outside the run is unchanged and
that nothing of the table's sandboxes remains. Attacks that still get through are in
``tests/test_redteam_open.py``.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from arena.faults import FaultKind

from support.hostile import CHECKER, ROOT, play_hostile
from support.sandbox import needs_namespaces

pytestmark = needs_namespaces

REDTEAM = ROOT / "tests" / "programs" / "redteam"


def test_protocol_files_cannot_be_renamed_over_unlinked_or_kept(tmp_path: Path) -> None:
    """A forged answer renamed over ``outputf.txt`` (or a forged deal over ``deal.txt``) never counts."""
    outcome = play_hostile(REDTEAM / "RenameOver.c", tmp_path, deals=6, baseline=CHECKER)
    tries = (outcome.team_folder / "tries.txt").read_text().split()
    assert tries, "the attacker never ran"
    for attempt in ("rename-output", "rename-deal", "rename-input", "link-deal", "unlink-deal"):
        assert all(not word.endswith(":done") for word in tries if word.startswith(f"{attempt}:"))


def test_the_compiler_shows_nothing_of_the_host_or_the_helper(tmp_path: Path, monkeypatch) -> None:
    """``#include "/proc/1/environ"`` and friends: the build fails, its output holds no secret of arena's."""
    secret = "redteam-planted-" + os.urandom(8).hex()
    monkeypatch.setenv("ARENA_REDTEAM_SECRET", secret)
    outcome = play_hostile(REDTEAM / "IncludeHost.c", tmp_path, deals=2)
    assert not outcome.attacker.built
    assert {fault.kind for fault in outcome.faults} == {FaultKind.BUILD_FAILED}
    output = outcome.attacker.build_output
    assert "/proc/1/environ" in output  # the compiler did try, and was refused
    for leak in (secret, str(tmp_path), "root:"):
        assert leak not in output


@pytest.mark.skipif(not hasattr(os, "pidfd_open"), reason="the warm start needs pidfd_open")
def test_a_stopped_fork_server_neither_hangs_the_table_nor_stays(tmp_path: Path) -> None:
    """SIGSTOP to arena's Python fork server: the table completes, nothing stopped is left."""
    outcome = play_hostile(REDTEAM / "StopServer.py", tmp_path, deals=4, baseline=CHECKER)
    assert all(fault.kind is not FaultKind.BUILD_FAILED for fault in outcome.faults)
