"""Red-team attacks of issue 12 (and the deck secrecy of issue 13) that the sandbox holds.

Each attacker (``tests/programs/attacks/``, each says what it tries) plays a real Code'em table in a
real sandbox beside honest programs through :func:`support.hostile.play_hostile`, which also checks
that the table completes with ``results.json``, that a canary tree outside the run is unchanged and
that nothing of the table's sandboxes remains. The page-cache channel between colluding seats
(``PageCache.py``) is not closed; docs/sandbox.md says so.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from arena.errors import ConfigError
from arena.faults import FaultKind
from arena.games.codem.table import PlayerSpec, TableConfig, run_table
from arena.sandbox import Limits, cgroup, open_sandbox
from arena.sandbox.runner_client import runner_binary

from support.hostile import CHECKER, HONEST, ROOT, play_hostile
from support.sandbox import needs_namespaces

pytestmark = needs_namespaces

REDTEAM = ROOT / "tests" / "programs" / "attacks"
ENV = {**os.environ, "PYTHONPATH": str(ROOT)}


@pytest.mark.slow
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


@pytest.mark.slow
@pytest.mark.skipif(not hasattr(os, "pidfd_open"), reason="the warm start needs pidfd_open")
def test_a_stopped_fork_server_neither_hangs_the_table_nor_stays(tmp_path: Path) -> None:
    """SIGSTOP to arena's Python fork server: the table completes and nothing stopped is left. Where the
    server runs under arena's machinery uid (as root, on either road) the stop is refused, so each such
    decision is the program's own crash (its ``PermissionError``); without it the stopped server costs that
    decision a timeout. Never a second run (issue 24)."""
    with open_sandbox(tmp_path / "probe", Limits()) as sandbox:
        servers_are_arenas = sandbox.machinery_uid is not None
    outcome = play_hostile(REDTEAM / "StopServer.py", tmp_path, deals=4)
    assert outcome.faults
    for fault in outcome.faults:
        if servers_are_arenas:
            assert fault.kind is FaultKind.CRASH and "PermissionError" in fault.stderr, fault
        else:
            assert fault.kind is FaultKind.TIMEOUT, fault


@pytest.mark.parametrize("name", ["...py", "..py"])
def test_a_program_named_to_climb_out_of_the_teams_folder_is_refused(tmp_path: Path, name: str) -> None:
    """``...py`` would be team ``..`` (``teams/..`` is the table's folder), ``..py`` team ``.``: the table
    must refuse the name with one clear error before it touches any folder (it used to ``rmtree`` them)."""
    out = tmp_path / "table"
    out.mkdir()
    keep = out / "organiser-notes.txt"
    keep.write_text("kept\n")
    attacker = REDTEAM / "names" / name
    players = [PlayerSpec(p.stem, p) for p in HONEST] + [PlayerSpec(attacker.stem, attacker)]
    with pytest.raises(ConfigError, match="not a team name"):
        run_table(players, out, TableConfig(deals=1, seed=7))
    assert keep.read_text() == "kept\n"


@pytest.mark.parametrize("name", ["outputf.txt.c", "deal.txt.c", "inputf.txt.c"])
def test_a_program_named_like_a_protocol_file_is_refused(tmp_path: Path, name: str) -> None:
    """A binary built from ``outputf.txt.c`` would be ``outputf.txt``: refused before the table, not a
    table of ``not_started`` faults."""
    attacker = REDTEAM / "names" / name
    players = [PlayerSpec(p.stem, p) for p in HONEST] + [PlayerSpec(attacker.stem, attacker)]
    with pytest.raises(ConfigError, match="named like a file the table writes"):
        run_table(players, tmp_path / "table", TableConfig(deals=1, seed=7))
    assert not (tmp_path / "table").exists()


def test_arena_table_refuses_a_climbing_program_name_in_one_line(tmp_path: Path) -> None:
    """The organiser's ``arena table`` given a student's ``...py``: one error line, the folder kept."""
    out = tmp_path / "out"
    out.mkdir()
    (out / "organiser-notes.txt").write_text("kept\n")
    attacker = REDTEAM / "names" / "...py"
    command = [sys.executable, "-m", "arena", "table", *map(str, HONEST), str(attacker), "--deals", "1"]
    command += ["--seed", "7", "--out", str(out)]
    done = subprocess.run(command, capture_output=True, text=True, env=ENV)
    assert done.returncode != 0
    assert "Traceback" not in done.stderr and "not a team name" in done.stderr
    assert (out / "organiser-notes.txt").read_text() == "kept\n"


# -- attacks that got through in review, now closed ------------------------------------------------

HELP_BYTES = 16 << 20


def test_extended_attributes_carry_no_more_than_the_help_file_budget(tmp_path: Path) -> None:
    """user.* xattrs on a help file must not carry more than ``help_bytes_mb`` between decisions."""
    outcome = play_hostile(REDTEAM / "XattrHoard.py", tmp_path, deals=6, baseline=CHECKER)
    recovered = [int(line) for line in (outcome.team_folder / "recovered.txt").read_text().split()]
    assert len(recovered) == outcome.attacker.decisions
    assert max(recovered) <= HELP_BYTES or outcome.faults, (
        f"{max(recovered) >> 20} MB carried between decisions in xattrs, no fault"
    )


def staged(program: Path, name: str, folder: Path) -> Path:
    """A copy of ``program`` named ``name`` (the redteam programs that play two parts choose by name)."""
    folder.mkdir(parents=True, exist_ok=True)
    copy = folder / name
    copy.write_bytes(program.read_bytes())
    return copy


@pytest.mark.slow
@pytest.mark.parametrize("attacker", ["DoubleTime.py", "DoubleTimeFifo.py"])
def test_breaking_the_fork_server_gives_no_second_run(tmp_path: Path, attacker: str) -> None:
    """A decision that kills or hangs arena's fork server must not be run again with the CPU it spent."""
    program = staged(REDTEAM / "DoubleTime.py", attacker, tmp_path / "programs")
    outcome = play_hostile(program, tmp_path / "play", deals=4)
    doubled_path = outcome.team_folder / "doubled.txt"
    doubled = doubled_path.read_text().split() if doubled_path.exists() else []
    time_kinds = (FaultKind.CPU_LIMIT, FaultKind.TIMEOUT, FaultKind.CRASH)
    time_faults = [fault for fault in outcome.faults if fault.kind in time_kinds]
    assert len(time_faults) >= len(doubled), (
        f"decisions given {doubled} s of CPU against a 1 s limit, with {len(time_faults)} time faults"
    )


PLAY_IN_A_CHILD = """
import sys
from pathlib import Path
sys.path.insert(0, sys.argv[3])
from support.hostile import CHECKER, play_hostile
play_hostile(Path(sys.argv[1]), Path(sys.argv[2]), deals=3, baseline=CHECKER)
"""


@pytest.mark.slow
def test_a_stopped_prepared_process_never_hangs_the_helper(tmp_path: Path) -> None:
    """A warm decision stops the helper's prepared process (SIGSTOP): the table must still complete.

    The table is played in a child process with a generous bound (3 deals take seconds), since the hole
    is a helper waiting forever; a child that does not finish is ended (SIGTERM, then SIGKILL).
    """
    attacker, tests = REDTEAM / "StopPrepared.py", ROOT / "tests"
    command = [sys.executable, "-c", PLAY_IN_A_CHILD, str(attacker), str(tmp_path / "play"), str(tests)]
    child = subprocess.Popen(command, env={**os.environ, "PYTHONPATH": str(ROOT)})
    try:
        code = child.wait(timeout=180)
    except subprocess.TimeoutExpired:
        child.terminate()
        try:
            child.wait(timeout=30)
        except subprocess.TimeoutExpired:
            child.kill()
            child.wait()
        pytest.fail("the table did not finish in 180 s: the helper waits on a stopped process")
    assert code == 0


# -- arena's compiled runner, out of the programs' reach: attacks on it ----------------------------


# Code'em decisions go through the runner where it is built and a decision cgroup can be killed.
RUNNER = runner_binary() is not None and cgroup.hierarchies().unified is not None


@pytest.mark.slow
def test_killing_the_runner_gives_no_second_run(tmp_path: Path) -> None:
    """A decision that tries to kill arena's runner cannot (another uid): it is judged as it ends, never
    run again; a program spending 0.7 s, then trying, then 0.7 s more never answers unpunished."""
    outcome = play_hostile(REDTEAM / "DoubleTimeRunner.c", tmp_path, deals=4)
    doubled_path = outcome.team_folder / "doubled.txt"
    doubled = doubled_path.read_text().split() if doubled_path.exists() else []
    time_faults = [
        fault for fault in outcome.faults if fault.kind in (FaultKind.CPU_LIMIT, FaultKind.TIMEOUT)
    ]
    assert len(time_faults) >= len(doubled), f"decisions given {doubled} s of CPU against a 1 s limit"
    if RUNNER:  # on the helper's road (ARENA_NO_RUNNER=1) the program's parent is PID 1: it just answers
        assert time_faults, "the attacker was never stopped"


@pytest.mark.slow
def test_a_stopped_runner_neither_hangs_the_table_nor_stays(tmp_path: Path) -> None:
    """SIGSTOP to arena's runner in every decision is refused (another uid): never the team's fault, the
    table completes, nothing stopped is left (tests/sandbox/test_watcher.py checks the refusal itself)."""
    outcome = play_hostile(REDTEAM / "StopRunner.c", tmp_path, deals=3, baseline=CHECKER)
    assert outcome.faults == ()


def test_the_runner_cannot_be_reached_into(tmp_path: Path) -> None:
    """Its memory, descriptors and environment are closed to programs, and ptrace is refused."""
    outcome = play_hostile(REDTEAM / "ReachRunner.c", tmp_path, deals=2, baseline=CHECKER)
    tries = (outcome.team_folder / "tries.txt").read_text().split()
    assert tries and all(word.endswith(":denied") for word in tries), tries
    assert outcome.faults == ()
