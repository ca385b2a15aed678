"""Attackers at real Code'em tables (issue 12, items 1, 3 and 7), each beside honest programs.

Every test plays through :func:`support.hostile.play_hostile`, which also checks that the table wrote
``results.json``, that a canary tree outside the run folder is unchanged and that nothing of the
table's sandboxes remains. Programs are in ``tests/programs/attacks/``; each says what it tries.
"""

from __future__ import annotations

import json
import os
import stat
from pathlib import Path

import pytest

from arena.faults import FaultKind
from arena.untrusted import REASON_CHARS

from support.hostile import ATTACKS, CHECKER, play_hostile
from support.sandbox import needs_namespaces

pytestmark = needs_namespaces


def kinds(outcome) -> set[FaultKind]:
    return {fault.kind for fault in outcome.faults}


def tree_kinds(folder: Path) -> set[str]:
    """What kinds of file system object the copied-out team folder holds."""
    found = set()
    for path in folder.rglob("*"):
        mode = path.lstat().st_mode
        found.add("file" if stat.S_ISREG(mode) else "folder" if stat.S_ISDIR(mode) else "other")
    return found


# -- item 1: host-side work on a tree a team controls -------------------------------------------------


def test_links_and_a_swapped_folder_never_lead_the_arena_out(tmp_path: Path) -> None:
    outcome = play_hostile(ATTACKS / "LinkSwap.py", tmp_path, baseline=CHECKER)
    not_files = [f for f in outcome.faults if f.kind is FaultKind.SANDBOX_VIOLATION]
    assert not_files and all("is a symbolic link" in f.reason for f in not_files)
    assert FaultKind.HELP_FILE_LIMIT in kinds(outcome)
    assert tree_kinds(outcome.team_folder) <= {"file", "folder"}
    assert not (outcome.team_folder / "secret").exists()


@pytest.mark.slow
def test_fifos_sockets_deep_chains_and_locked_folders_end_nothing(tmp_path: Path) -> None:
    outcome = play_hostile(ATTACKS / "OddFiles.py", tmp_path, deals=6, baseline=CHECKER)
    reasons = " ".join(f.reason for f in outcome.faults)
    assert "a FIFO" in reasons or "a socket" in reasons
    assert "a folder deeper than 8 levels" in reasons
    assert all(f.kind in (FaultKind.SANDBOX_VIOLATION, FaultKind.HELP_FILE_LIMIT) for f in outcome.faults)
    not_files = [fault for fault in outcome.faults if fault.kind is FaultKind.SANDBOX_VIOLATION]
    assert len(not_files) == outcome.attacker.decisions - 2  # one a decision, after two clean decisions
    assert tree_kinds(outcome.team_folder) <= {"file", "folder"}
    assert not (outcome.team_folder / "pipe").exists()


@pytest.mark.slow
def test_a_3000_deep_chain_in_the_folder_and_in_tmp_every_decision(tmp_path: Path) -> None:
    outcome = play_hostile(ATTACKS / "DeepChain.c", tmp_path, deals=4, baseline=CHECKER)
    assert kinds(outcome) == {FaultKind.HELP_FILE_LIMIT}
    assert all("a folder deeper than 8 levels" in f.reason for f in outcome.faults)
    assert outcome.attacker.decisions == len(outcome.faults)


def test_sparse_files_and_a_binary_turned_folder_copy_out_small(tmp_path: Path) -> None:
    outcome = play_hostile(ATTACKS / "SparseBomb.c", tmp_path, deals=4, baseline=CHECKER)
    assert FaultKind.HELP_FILE_LIMIT in kinds(outcome)
    assert any("help files exceed 16 MB in total" in f.reason for f in outcome.faults)
    binary = outcome.compiled["SparseBomb"]  # as its box held it when the table ended
    assert stat.S_ISREG(binary.st_mode)  # root's and read-only in a sticky folder: neither moved nor replaced
    written = sum(path.stat().st_size for path in outcome.team_folder.rglob("*") if path.is_file())
    assert written <= (16 << 20) + 4096  # help files only: what the build made is not copied out


@pytest.mark.slow
def test_30000_help_files_a_decision_give_short_reasons(tmp_path: Path) -> None:
    outcome = play_hostile(ATTACKS / "ManyFiles.c", tmp_path, deals=3, baseline=CHECKER)
    assert kinds(outcome) == {FaultKind.HELP_FILE_LIMIT}
    assert all(len(f.reason) <= REASON_CHARS for f in outcome.faults)
    assert "created 30001 help files and folders, the limit is 15" in outcome.faults[0].reason
    assert "and 29,981 more" in outcome.faults[0].reason
    # Each fault also carries the decision's three input files (to reproduce it); never the 30,000 names.
    inputs = sum(len(json.dumps(f.inputs)) for f in outcome.faults)
    assert (outcome.out / "faults.jsonl").stat().st_size < 1000 * len(outcome.faults) + inputs
    helps = [path for path in outcome.team_folder.iterdir() if path.name.startswith("help-file-")]
    assert len(helps) == 14  # and canary.txt, the help file it was given


# -- item 3: the build step ---------------------------------------------------------------------------


def test_a_perl_begin_block_leaving_files_fails_the_build(tmp_path: Path) -> None:
    outcome = play_hostile(ATTACKS / "BuildLeftovers.pl", tmp_path, deals=3)
    assert not outcome.attacker.built
    assert kinds(outcome) == {FaultKind.BUILD_FAILED}
    output = outcome.attacker.build_output
    for name in ("notes.txt", "passwd", "zeros", "outputf.txt", "pipe"):
        assert f"{name} is not a file a Perl build makes" in output
    assert tree_kinds(outcome.team_folder) <= {"file", "folder"}
    assert not (outcome.team_folder / "passwd").exists()


def test_a_program_cannot_grow_its_own_binary(tmp_path: Path) -> None:
    outcome = play_hostile(ATTACKS / "RewriteBinary.c", tmp_path, deals=3, baseline=CHECKER)
    assert outcome.faults == ()
    assert outcome.compiled["RewriteBinary"].st_size < 1 << 20  # as its box held it at the end
    events = (outcome.out / "results.json").read_text()
    assert json.loads(events)["teams"][0]["decisions"] == outcome.attacker.decisions > 0


# -- item 7: text from programs reaching people ----------------------------------------------------------


@pytest.mark.parametrize("program", ["Escapes.py", "Escapes.c"])
def test_escape_sequences_markup_and_bad_bytes_are_stored_escaped(tmp_path: Path, program: str) -> None:
    outcome = play_hostile(ATTACKS / program, tmp_path, deals=4)
    assert FaultKind.HELP_FILE_LIMIT in kinds(outcome)
    raw = (outcome.out / "faults.jsonl").read_bytes()
    for record in map(json.loads, raw.splitlines()):
        text = record["reason"] + record["stderr"]
        assert "\x1b" not in text and "\x9b" not in text and "\x07" not in text
        text.encode("utf-8")  # never fails: no lone surrogate
    reasons = " ".join(f.reason for f in outcome.faults)
    assert "\\x1b[" in reasons and "\\xff" in reasons
    assert any("\\x1b]0;" in f.stderr for f in outcome.faults) or program == "Escapes.py"
    names = [os.fsencode(path.name) for path in outcome.team_folder.iterdir()]
    assert any(b"\xff" in name for name in names)  # the folder keeps the program's own names
