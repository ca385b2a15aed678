"""Red-team attacks, sixth round: a team exhausting the host's or arena's own resources.

Each attacker is in ``tests/programs/attacks/`` and says what it tries. Held: a program faulting at every
decision with the most stdout and stderr it may print (characters outside the BMP, 12 bytes each as JSON) and
7 MB of fresh help files leaves at most about 50 KB a fault in ``faults.jsonl`` and 8 MB in ``kept/`` per
table, and is disqualified after ``max_faults``. Found and closed: a decision that leaves about 120,000 empty
files with 2 KB paths in its folder (within its own memory limit: the kernel's share is charged to its
decision) made arena's table process hold every path at once while it policed the folder, some 280 MB of its
memory and 4 s of its CPU for 0.7 s of the team's (the policing walk now stops at 16 MB of names and removes
every help file, one name at a time). Open (xfail, minor): a binary just under the file-size limit is copied
into every table's run folder without a fault.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from arena.faults import FaultKind
from arena.games.codem.table import KEPT_BYTES, KEPT_DIR, TableConfig

from support.hostile import ROOT, play_hostile
from support.sandbox import needs_namespaces

pytestmark = needs_namespaces

REDTEAM = ROOT / "tests" / "programs" / "attacks"
CHECKER = ROOT / "tests" / "programs" / "codem" / "Checker.py"

FAULT_LINE_BYTES = 64 << 10


def test_a_fault_at_every_decision_fills_the_run_folder_within_its_caps(tmp_path: Path) -> None:
    """``FaultFlood.py``: each fault line stays under 64 KB, the kept help files under ``KEPT_BYTES``."""
    outcome = play_hostile(REDTEAM / "FaultFlood.py", tmp_path, deals=3)
    assert {fault.kind for fault in outcome.faults} == {FaultKind.CRASH}
    assert len(outcome.faults) >= 6
    lines = (outcome.out / "faults.jsonl").read_bytes().splitlines()
    assert len(lines) == len(outcome.faults)
    assert max(len(line) for line in lines) < FAULT_LINE_BYTES
    kept = [path for path in (outcome.out / KEPT_DIR).rglob("*") if path.is_file()]
    assert 0 < sum(path.stat().st_size for path in kept) <= KEPT_BYTES


def test_a_fault_at_every_decision_ends_with_disqualification(tmp_path: Path) -> None:
    """With the tournament's rule of 10 faults (here 4) the attacker folds from then on: its faults stop."""

    def four_faults(config: TableConfig) -> TableConfig:
        return config.model_copy(update={"max_faults": 4})

    outcome = play_hostile(REDTEAM / "FaultFlood.py", tmp_path, deals=3, config=four_faults)
    assert outcome.attacker.disqualified
    assert len(outcome.faults) == 4
    assert len((outcome.out / "faults.jsonl").read_bytes().splitlines()) == 4


_MEASURE = """
import json, resource, sys
from pathlib import Path
from support.hostile import play_hostile
outcome = play_hostile(Path(sys.argv[1]), Path(sys.argv[2]), deals=1)
usage = resource.getrusage(resource.RUSAGE_SELF)
print(json.dumps({"peak_mb": usage.ru_maxrss / 1024, "cpu_s": usage.ru_utime + usage.ru_stime,
                  "faults": [fault.kind.value for fault in outcome.faults]}))
"""


def _table_process(attacker: Path, root: Path) -> dict:
    """Play one deal with ``attacker`` in a fresh Python process; its peak memory, CPU and the faults."""
    root.mkdir()
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT), str(ROOT / "tests")])}
    done = subprocess.run(
        [sys.executable, "-c", _MEASURE, str(attacker), str(root)],
        env=env,
        capture_output=True,
        text=True,
        check=True,
        timeout=120,
    )
    return json.loads(done.stdout.splitlines()[-1])


@pytest.mark.slow
def test_a_folder_of_long_paths_costs_the_table_process_little(tmp_path: Path) -> None:
    """``LongPaths.c`` floods once: seven folders with 255-byte names, then empty files as long as 0.7 s of
    CPU lasts. The table process must not grow by more than 64 MB over the same table with ``Checker.py``."""
    baseline = _table_process(CHECKER, tmp_path / "baseline")
    attacked = _table_process(REDTEAM / "LongPaths.c", tmp_path / "attacked")
    # Every help file goes with the flood, so the program floods again at each decision.
    assert attacked["faults"] and set(attacked["faults"]) == {"help_file_limit"}
    grown = attacked["peak_mb"] - baseline["peak_mb"]
    spent = attacked["cpu_s"] - baseline["cpu_s"]
    print(f"the table process grew by {grown:.0f} MB and spent {spent:.1f} s more CPU", attacked["faults"])
    assert grown < 64, f"the table process grew by {grown:.0f} MB and spent {spent:.1f} s more CPU"


def test_a_fat_binary_is_not_copied_into_every_tables_run_folder(tmp_path: Path) -> None:
    """``FatBinary.c`` plays like ``Checker.py`` with 15 MB of initialised data in its binary; the table's
    copy of its folder should hold its source and help files, not a second copy of the build."""
    outcome = play_hostile(REDTEAM / "FatBinary.c", tmp_path, deals=1)
    assert outcome.faults == ()
    size = sum(path.stat().st_size for path in outcome.team_folder.rglob("*") if path.is_file())
    assert size < 1 << 20, f"the table's copy of the team folder holds {size / 2**20:.1f} MB"
