"""Red-team attacks of issue 12 that still get through: each test asserts the SAFE behaviour, so it
fails until the hole is closed. Programs in ``tests/programs/redteam/`` say what they try.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from arena.faults import FaultKind

from support.hostile import CHECKER, ROOT, play_hostile
from support.sandbox import needs_namespaces

pytestmark = needs_namespaces

REDTEAM = ROOT / "tests" / "programs" / "redteam"
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


def _shown_cards(table: Path, seat: int) -> dict[str, set[int]]:
    """Deal number -> the hole cards ``seat`` showed down (from the table's final deal files)."""
    shown = {}
    for path in table.glob("deals/deal*.txt"):
        lines = path.read_text().splitlines()
        at = lines.index("Show_Down") if "Show_Down" in lines else len(lines)
        for line in lines[at + 1 :]:
            words = line.split()
            if len(words) == 3 and words[0] == str(seat):
                shown[path.stem.removeprefix("deal")] = {int(words[1]), int(words[2])}
    return shown


def test_two_teams_cannot_pass_hole_cards_through_the_shared_page_cache(tmp_path: Path) -> None:
    """Colluders at one table: the receiver's guesses of the sender's hole cards must be at chance."""
    sender = staged(REDTEAM / "PageCache.py", "PageCacheSender.py", tmp_path / "programs")
    receiver = staged(REDTEAM / "PageCache.py", "PageCacheReceiver.py", tmp_path / "programs")
    honest = (sender, ROOT / "bots" / "codem" / "Caller.py")
    outcome = play_hostile(receiver, tmp_path / "play", honest=honest, deals=8)
    seat = next(team.seat for team in outcome.result.teams if team.team == sender.stem)
    shown = _shown_cards(outcome.out, seat)
    guesses_path = outcome.team_folder / "guesses.txt"
    noted = guesses_path.read_text() if guesses_path.exists() else ""
    guesses = [line.split() for line in noted.splitlines()]
    right = [g for g in guesses if g[1] != "Show_Down" and {int(g[2]), int(g[3])} == shown.get(g[0])]
    assert len(shown) >= 4, "too few show-downs to judge"
    # One right pair of 1,326 by chance is already unlikely; every deal right is a channel.
    assert len(right) <= 1, f"the receiver named the sender's cards {len(right)} times in {len(shown)} deals"


PLAY_IN_A_CHILD = """
import sys
from pathlib import Path
sys.path.insert(0, sys.argv[3])
from support.hostile import CHECKER, play_hostile
play_hostile(Path(sys.argv[1]), Path(sys.argv[2]), deals=3, baseline=CHECKER)
"""


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
