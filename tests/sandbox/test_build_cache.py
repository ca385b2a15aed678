"""A tournament compiles each program once: later tables reuse the stored build, errors included."""

import os
import signal
import subprocess
import sys
import tempfile
from pathlib import Path

from arena.languages import STAGING_PREFIX, build_program
from arena.sandbox import open_sandbox
from arena.sandbox.limits import Limits
from arena.transports.files import FileTransport

TINY = Path(__file__).parents[1] / "programs" / "tiny"
INPUTS = {"inputf.txt": "4          5          6", "deals_money.txt": "", "deal.txt": ""}


def _build_and_answer(program: Path, folder: Path, cache: Path):
    folder.mkdir()
    with open_sandbox(folder, Limits()) as sandbox:
        built = build_program(program, folder, sandbox, cache=cache)
        if not built.ok:
            return built, None
        reply = FileTransport(sandbox, built.run_argv, protected=built.products).exchange(INPUTS)
        return built, reply.text


def test_a_program_is_compiled_once_and_the_copy_runs(tmp_path: Path) -> None:
    cache = tmp_path / "builds"
    first, answer = _build_and_answer(TINY / "TinyCpp.cpp", tmp_path / "table1", cache)
    assert first.ok and first.wall_ms > 0 and answer == "15\n"
    entries = [p for p in cache.iterdir() if not p.name.startswith(".")]
    assert len(entries) == 1
    again, answer_again = _build_and_answer(TINY / "TinyCpp.cpp", tmp_path / "table2", cache)
    assert again.wall_ms == 0.0, "the second table must not compile again"
    assert (again.ok, again.run_argv, again.products) == (first.ok, first.run_argv, first.products)
    assert answer_again == "15\n"


def test_a_build_error_is_stored_too(tmp_path: Path) -> None:
    cache = tmp_path / "builds"
    first, _ = _build_and_answer(TINY / "Broken.c", tmp_path / "t1", cache)
    again, _ = _build_and_answer(TINY / "Broken.c", tmp_path / "t2", cache)
    assert not first.ok and not again.ok
    assert again.output == first.output and "undefined_name" in again.output
    assert again.wall_ms == 0.0


def test_a_changed_program_is_built_again(tmp_path: Path) -> None:
    cache = tmp_path / "builds"
    source = tmp_path / "src" / "TinyCpp.cpp"
    source.parent.mkdir()
    source.write_text((TINY / "TinyCpp.cpp").read_text())
    _build_and_answer(source, tmp_path / "t1", cache)
    source.write_text((TINY / "TinyCpp.cpp").read_text() + "\n// edited\n")
    rebuilt, answer = _build_and_answer(source, tmp_path / "t2", cache)
    assert rebuilt.wall_ms > 0 and answer == "15\n"
    assert len([p for p in cache.iterdir() if not p.name.startswith(".")]) == 2


def test_staging_left_by_a_killed_run_is_removed_and_a_live_runs_is_kept(tmp_path: Path) -> None:
    """A run killed (SIGKILL) while storing a build leaves ``.build-<pid>-*``; the next build in that cache
    removes it once its owner is dead, never a live run's."""
    cache = tmp_path / "builds"
    cache.mkdir()
    victim = subprocess.Popen([sys.executable, "-c", STORE_AND_HANG, str(cache)], stdout=subprocess.PIPE)
    assert victim.stdout is not None
    left = Path(victim.stdout.readline().decode().strip())  # the staging folder exists: then it is killed
    victim.send_signal(signal.SIGKILL)
    victim.wait()
    live = Path(tempfile.mkdtemp(prefix=f"{STAGING_PREFIX}{os.getpid()}-", dir=cache))
    assert left.is_dir() and left.name.startswith(f"{STAGING_PREFIX}{victim.pid}-")
    built, answer = _build_and_answer(TINY / "TinyCpp.cpp", tmp_path / "table", cache)
    assert built.ok and answer == "15\n"
    assert not left.exists()
    assert live.is_dir()


# Stores a build the way arena does (a staging folder named for its pid, filled, then renamed), but stops
# half-way: prints the staging folder and waits to be killed.
STORE_AND_HANG = """
import os, sys, tempfile
from pathlib import Path
from arena.languages import STAGING_PREFIX
staging = Path(tempfile.mkdtemp(prefix=f"{STAGING_PREFIX}{os.getpid()}-", dir=sys.argv[1]))
(staging / "files").mkdir()
(staging / "files" / "half-written").write_bytes(b"x" * 4096)
print(staging, flush=True)
import signal
signal.pause()
"""
