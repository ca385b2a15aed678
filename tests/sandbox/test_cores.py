"""One core per table or match: pinned while it plays, CPUs shared out between tables, given back after."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from arena.sandbox.cores import DISABLE, one_core

from support.sandbox import needs_namespaces

ALLOWED = os.sched_getaffinity(0)
pytestmark = pytest.mark.skipif(len(ALLOWED) < 2, reason="pinning needs two CPUs to choose from")


def test_a_block_runs_on_one_cpu_and_so_does_every_process_it_starts(tmp_path: Path) -> None:
    with one_core(tmp_path) as cpu:
        assert cpu in ALLOWED
        assert os.sched_getaffinity(0) == {cpu}
        child = subprocess.run(
            [sys.executable, "-c", "import os; print(sorted(os.sched_getaffinity(0)))"],
            capture_output=True,
            text=True,
            check=True,
        )
        assert child.stdout.strip() == f"[{cpu}]"
    assert os.sched_getaffinity(0) == ALLOWED


def test_concurrent_tables_take_different_cpus_and_the_last_ones_run_unpinned(tmp_path: Path) -> None:
    with one_core(tmp_path) as first:
        os.sched_setaffinity(0, ALLOWED)  # as another table's process would see the machine
        with one_core(tmp_path) as second:
            assert second is not None and second != first
            taken = {first, second}
            os.sched_setaffinity(0, ALLOWED)
            claims = [one_core(tmp_path) for _ in range(len(ALLOWED) - 2)]
            taken |= {claim.__enter__() for claim in claims}
            assert taken == ALLOWED  # every CPU has its table
            with one_core(tmp_path) as extra:
                assert extra is None
                assert os.sched_getaffinity(0) == ALLOWED
            for claim in claims:
                claim.__exit__(None, None, None)
    assert os.sched_getaffinity(0) == ALLOWED


def test_a_killed_tables_cpu_is_free_again(tmp_path: Path) -> None:
    holder = textwrap.dedent(
        f"""
        import os, sys
        from pathlib import Path
        from arena.sandbox.cores import one_core
        with one_core(Path({str(tmp_path)!r})) as cpu:
            print(cpu, flush=True)
            sys.stdin.read()  # holds the CPU until killed
        """
    )
    process = subprocess.Popen(
        [sys.executable, "-c", holder], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True
    )
    assert process.stdout is not None
    held = int(process.stdout.readline())
    claims = [one_core(tmp_path) for _ in range(len(ALLOWED) - 1)]
    taken = {claim.__enter__() for claim in claims}
    assert held not in taken
    os.sched_setaffinity(0, ALLOWED)
    try:
        process.send_signal(signal.SIGKILL)
        process.wait()
        with one_core(tmp_path) as freed:
            assert freed == held
    finally:
        for claim in claims:
            claim.__exit__(None, None, None)
        if process.stdin is not None:
            process.stdin.close()
    assert os.sched_getaffinity(0) == ALLOWED


def test_pinning_can_be_turned_off(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(DISABLE, "1")
    with one_core(tmp_path) as cpu:
        assert cpu is None
        assert os.sched_getaffinity(0) == ALLOWED


@needs_namespaces
def test_a_tables_programs_all_run_on_the_one_cpu_it_took(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from arena.games.codem.table import PlayerSpec, TableConfig, run_table
    from arena.sandbox import cores

    monkeypatch.setattr(cores, "claims_folder", lambda: tmp_path / "claims")  # a CPU is free, whatever runs

    source = (
        "import os\n"
        "open('cpus.txt', 'a').write(str(sorted(os.sched_getaffinity(0))) + '\\n')\n"
        "open('outputf.txt', 'w').write('0\\n')\n"
    )
    players = []
    for team in ("Alpha", "Beta"):
        program = tmp_path / f"{team}.py"
        program.write_text(source)
        players.append(PlayerSpec(team=team, program=program))
    run_table(players, tmp_path / "table", TableConfig(deals=3, seed=5))
    seen = {
        line
        for team in ("Alpha", "Beta")
        for line in (tmp_path / "table" / "teams" / team / "cpus.txt").read_text().splitlines()
    }
    assert len(seen) == 1 and len(json.loads(seen.pop())) == 1  # one CPU, the same for every decision
    assert os.sched_getaffinity(0) == ALLOWED  # given back


def test_a_host_that_refuses_pinning_runs_the_table_unpinned(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    def refused(pid: int, cpus: object) -> None:
        raise PermissionError("not in this container")

    monkeypatch.setattr(os, "sched_setaffinity", refused)
    with one_core(tmp_path) as cpu:
        assert cpu is None
    monkeypatch.undo()
    claims = [one_core(tmp_path) for _ in ALLOWED]  # the CPU it had claimed is free again: all are
    taken = set()
    for claim in claims:
        taken.add(claim.__enter__())
        os.sched_setaffinity(0, ALLOWED)
    for claim in reversed(claims):
        claim.__exit__(None, None, None)
    assert taken == ALLOWED
