"""Helpers for the sandbox and transport tests: real test programs, leftovers, snapshots."""

from __future__ import annotations

import hashlib
import shutil
from pathlib import Path

import psutil
import pytest

from arena.languages import BuildResult, build_program
from arena.sandbox import Sandbox
from arena.sandbox.isolation import RUNNER_PATH, namespaces_available

PROGRAMS = Path(__file__).resolve().parent.parent / "programs"
HOSTILE = PROGRAMS / "attacks"
TINY = PROGRAMS / "tiny"

needs_namespaces = pytest.mark.skipif(
    not namespaces_available()[0], reason=f"namespaced sandbox unavailable: {namespaces_available()[1]}"
)


def build(sandbox: Sandbox, source: Path) -> BuildResult:
    """Build a test program in the sandbox and fail the test with the compiler's output if it fails."""
    staged = sandbox.workdir.parent / "submissions" / source.name
    staged.parent.mkdir(exist_ok=True)
    shutil.copyfile(source, staged)
    result = build_program(staged, sandbox.workdir, sandbox)
    assert result.ok, result.output
    return result


def processes_of(sandbox: Sandbox) -> list[psutil.Process]:
    """Every live (non-zombie) process running as the sandbox's uid, other than its helper's own.

    Besides the helper, that is the process it prepares for the next run between decisions (a fork of the
    helper running the helper's code, its child, waiting in the decision cgroup for the next program), and
    arena's compiled runner (its child, running the runner's code).
    """
    if sandbox.uid is None:
        return []
    found = []
    processes = list(psutil.process_iter(["uids", "status", "ppid", "cmdline"]))
    runners = {
        p.pid
        for p in processes
        if p.info["ppid"] == sandbox.helper_pid and _runs_the_runner(p.info["cmdline"])
    }
    for process in processes:
        info = process.info
        if process.pid == sandbox.helper_pid and not sandbox.closed:
            continue
        if not sandbox.closed and info["ppid"] == sandbox.helper_pid and _runs_the_helper(info["cmdline"]):
            continue
        if not sandbox.closed and process.pid in runners:
            continue
        if info["uids"] and info["uids"].real == sandbox.uid and info["status"] != psutil.STATUS_ZOMBIE:
            found.append(process)
    return found


def _runs_the_runner(cmdline: list[str] | None) -> bool:
    return bool(cmdline) and (cmdline or [""])[0] == RUNNER_PATH


def _runs_the_helper(cmdline: list[str] | None) -> bool:
    return bool(cmdline) and any(part.endswith("helper.py") for part in cmdline or ())


def snapshot(root: Path, *, skip: Path) -> dict[str, str]:
    """Path -> content digest of every file under ``root`` except the ``skip`` folder."""
    digests = {}
    for path in sorted(root.rglob("*")):
        if path == skip or skip in path.parents or not path.is_file() or path.is_symlink():
            continue
        digests[str(path.relative_to(root))] = hashlib.sha256(path.read_bytes()).hexdigest()
    return digests
