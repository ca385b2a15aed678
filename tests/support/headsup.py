"""A heads-up match played both ways, by the compiled hand loop and by the judge's Python loop.

:func:`both_ways` plays the same match twice with the same seed (the second time with
``ARENA_NO_KERNELS``), checks that each was played by the loop meant, and that everything a user sees is
the same: the results but for clocks, every hand's log line, the player's kept stderr.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from arena.evaluator.kernel import DISABLE, rollout_kernel
from arena.games.headsup import judge as judge_module
from arena.games.headsup.hand_loop import loop_kernel
from arena.games.headsup.loop_match import LoopResult
from arena.games.headsup.match import HeadsUpSettings, MatchReport, play_headsup

CLOCKS = {"player_cpu_s", "player_wait_s", "judge_cpu_s"}


def play(program: Path, out: Path, compiled: bool, monkeypatch: pytest.MonkeyPatch, **kw: Any) -> MatchReport:
    """One match (120 hands, seed 11 unless ``kw`` says) by the compiled loop or the Python loop."""
    used: list[bool] = []
    real = judge_module.play_compiled

    def spy(*args: Any, **kwargs: Any) -> LoopResult:
        used.append(True)
        return real(*args, **kwargs)

    monkeypatch.setattr(judge_module, "play_compiled", spy)
    if compiled:
        monkeypatch.delenv(DISABLE, raising=False)
    else:
        monkeypatch.setenv(DISABLE, "1")
    rollout_kernel.cache_clear()
    loop_kernel.cache_clear()
    try:
        report = play_headsup(program, HeadsUpSettings(**{"hands": 120, "seed": 11, **kw}), out)
    finally:
        monkeypatch.delenv(DISABLE, raising=False)
        rollout_kernel.cache_clear()
        loop_kernel.cache_clear()
    loop_kernel.cache_clear()
    assert used == ([True] if compiled else []), "the match was not played by the loop meant"
    return report


def seen(report: MatchReport, out: Path) -> dict[str, Any]:
    """What a user sees of a match, clocks left out."""
    results = json.loads((out / "results.json").read_text())
    results["player_exit"] = re.sub(r" in [0-9.]+ ms", "", results["player_exit"])  # a clock too
    return {
        "results": {key: value for key, value in results.items() if key not in CLOCKS},
        "hands": (out / "hands.jsonl").read_text(),
        "stderr": report.run.stderr if report.run is not None else None,
    }


def both_ways(program: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, **kw: Any) -> MatchReport:
    """The match by both loops, which must show the same; the compiled loop's report."""
    compiled = play(program, tmp_path / "compiled", True, monkeypatch, **kw)
    python = play(program, tmp_path / "python", False, monkeypatch, **kw)
    assert seen(compiled, tmp_path / "compiled") == seen(python, tmp_path / "python")
    return compiled
