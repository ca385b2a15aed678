"""A closed sandbox's page cache: reclaimed where a memory cgroup can do it, and said once where not.

The attack and the proof that the reclaim runs are in ``tests/attacks/test_attacks_duplicate.py``; here,
what an organiser is told (``arena doctor``, one warning) about the machine it runs on.
"""

from __future__ import annotations

import json
import logging
from pathlib import Path

import pytest

from arena.cli import main
from arena.sandbox import Limits, open_sandbox
from arena.sandbox.cgroup import SandboxCgroup
from arena.sandbox.startup import PAGE_CACHE_KEPT, _page_cache_kept


def test_doctor_says_whether_a_closed_sandboxs_page_cache_is_reclaimed(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    with open_sandbox(tmp_path / "team", Limits()) as sandbox:
        knob = sandbox.cgroup.reclaim_knob if sandbox.cgroup is not None else None
    main(["doctor", "--json"])
    assert json.loads(capsys.readouterr().out)["page_cache_reset"] == knob
    main(["doctor"])
    shown = capsys.readouterr().out.replace("\n", "")  # rich folds long lines
    said = f"reclaimed ({knob})" if knob else "kept (no memory cgroup"
    assert f"page cache of a closed sandbox: {said}" in shown


def test_a_sandbox_without_a_memory_cgroup_says_once_that_its_page_cache_stays(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    _page_cache_kept.cache_clear()
    with caplog.at_level(logging.WARNING, logger="arena.sandbox"):
        with open_sandbox(tmp_path / "with", Limits()) as sandbox:
            reclaimed = sandbox.cgroup is not None and sandbox.cgroup.reclaim_knob is not None
        assert [record.getMessage() for record in caplog.records] == ([] if reclaimed else [PAGE_CACHE_KEPT])
        monkeypatch.setattr(SandboxCgroup, "available", staticmethod(lambda: False))  # a machine without
        for name in ("first", "second"):
            with open_sandbox(tmp_path / name, Limits()) as sandbox:
                assert sandbox.cgroup is None
                assert sandbox.run(["/bin/sh", "-c", "exit 0"]).ok
    assert [record.getMessage() for record in caplog.records] == [PAGE_CACHE_KEPT]
    _page_cache_kept.cache_clear()
