"""Red-team attacks of issue 12 that still get through: each test asserts the SAFE behaviour, so it
fails until the hole is closed. Programs in ``tests/programs/redteam/`` say what they try.
"""

from __future__ import annotations

from pathlib import Path

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


def test_killing_the_fork_server_gives_no_second_run(tmp_path: Path) -> None:
    """A decision that kills arena's fork server must not be run again with the CPU it already spent."""
    outcome = play_hostile(REDTEAM / "DoubleTime.py", tmp_path, deals=4)
    doubled_path = outcome.team_folder / "doubled.txt"
    doubled = doubled_path.read_text().split() if doubled_path.exists() else []
    time_faults = [f for f in outcome.faults if f.kind in (FaultKind.CPU_LIMIT, FaultKind.TIMEOUT, FaultKind.CRASH)]
    assert len(time_faults) >= len(doubled), (
        f"decisions given {doubled} s of CPU against a 1 s limit, with {len(time_faults)} time faults"
    )
