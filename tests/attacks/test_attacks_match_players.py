"""Red-team attacks, third round: heads-up line reading, /tmp between decisions, TwoCardDraw's seat.

Each attacker is in ``tests/programs/attacks/`` and says what it tries. Heads-up players are played twice
with the same seed, by the compiled loop and by the judge's Python loop (``ARENA_NO_KERNELS``), and both
must show the user the same thing (as ``tests/games/headsup/test_headsup_compiled.py`` checks for honest
players).
TwoCardDraw: thinking in a forked worker is charged (its sandbox's cgroup CPU, not its process's), and
a 4,000-digit answer is refused with a short reason.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
import pytest

from arena.engines.twocard.generator import random_strategy
from arena.faults import FaultKind
from arena.games.headsup.hand_loop import loop_kernel
from arena.games.twocard.match import TwoCardInterface, TwoCardSettings, play_match
from arena.sandbox import cgroup

from support.headsup import both_ways
from support.hostile import CHECKER, ROOT, play_hostile
from support.sandbox import needs_namespaces

pytestmark = needs_namespaces

REDTEAM = ROOT / "tests" / "programs" / "attacks"
needs_kernel = pytest.mark.skipif(loop_kernel() is None, reason="no C compiler: no compiled loop")


@needs_kernel
def test_headsup_replies_written_before_the_questions(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Every reply written up front (some byte by byte, some with CRLF), then stdin and stdout closed: the
    judge reads replies as lines whenever they came, never blocks writing to the closed pipe, and both
    loops score the same match."""
    report = both_ways(REDTEAM / "HeadsUpAhead.py", tmp_path, monkeypatch)
    assert report.scored, report.fault
    assert len(report.outcome.deltas) == 120


@needs_kernel
def test_headsup_nul_in_a_reply(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """``ACTION CHECK\\0...``: the whole line is read (no C string stops at the NUL), called malformed, and
    the reason shows the NUL and the escape sequence escaped."""
    report = both_ways(REDTEAM / "HeadsUpNul.py", tmp_path, monkeypatch)
    assert report.fault is not None and report.fault.kind is FaultKind.PROTOCOL_ERROR
    assert report.fault.deal == 4
    assert "\\x00" in report.fault.reason and "\x1b" not in report.fault.reason


@needs_kernel
def test_headsup_stderr_flood(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """64 MB of stderr while answering: the judge drains it, keeps at most the output cap, scores."""
    report = both_ways(REDTEAM / "HeadsUpStderr.py", tmp_path, monkeypatch)
    assert report.scored, report.fault
    assert report.run is not None and 0 < len(report.run.stderr) <= 65536


def test_files_in_tmp_never_reach_the_next_decision(tmp_path: Path) -> None:
    """The runner skips emptying ``/tmp`` when its mtime did not move: a program that writes 4 MB there and
    tries to set ``/tmp``'s times back (root's folder: refused) finds nothing of it in the next decision."""
    outcome = play_hostile(REDTEAM / "TmpKeep.c", tmp_path, deals=3, baseline=CHECKER)
    assert outcome.faults == ()
    tries = (outcome.team_folder / "tmp.txt").read_text().splitlines()
    assert len(tries) > 5
    assert all(line.startswith("kept:no utimensat:") and not line.endswith(":done") for line in tries)


def _twocard(program: Path, tmp_path: Path) -> Any:
    strategy = (Path("random.txt"), random_strategy(2, 4, np.random.default_rng(21)))
    settings = TwoCardSettings(hands=5, time_limit_s=1.0, interface=TwoCardInterface.LINES)
    (case,) = play_match(program, [strategy], settings, out_dir=tmp_path / program.stem).cases
    return case


def test_twocard_thinking_in_the_session_process_runs_out_of_time(tmp_path: Path) -> None:
    """The control: 0.25 s of CPU a call in the session process, past the 1 s budget, is a timeout."""
    case = _twocard(REDTEAM / "TwoCardAlone.py", tmp_path)
    assert case.fault is not None and case.fault.kind is FaultKind.TIMEOUT


@pytest.mark.skipif(
    cgroup.hierarchies().unified is None, reason="no cgroup v2: a process's own CPU is charged"
)
def test_twocard_thinking_in_a_child_process_is_charged_too(tmp_path: Path) -> None:
    """The same 0.25 s of CPU a call, spent in a forked worker while the session process waits on a pipe,
    must run out of the same 1 s budget."""
    case = _twocard(REDTEAM / "TwoCardFork.py", tmp_path)
    assert case.fault is not None and case.fault.kind is FaultKind.TIMEOUT


def test_twocard_a_huge_answer_gives_a_short_reason(tmp_path: Path) -> None:
    """A 4,000-digit answer (Python's int() reads it) is not an integer of the protocol; the reason
    quotes 40 characters of it (it was quoted whole, 4,046 characters)."""
    case = _twocard(REDTEAM / "TwoCardHuge.py", tmp_path)
    assert case.fault is not None and case.fault.kind is FaultKind.NOT_AN_INTEGER
    assert len(case.fault.reason) <= 200 and "not an integer" in case.fault.reason
