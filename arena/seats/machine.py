"""What this machine gives: isolation level, arena's runner, cgroups, leftovers, toolchains, pinning, kernels.

``arena doctor`` prints it (``arena/cli/doctor.py``); the probing is here, and real: a sandbox is opened
and a program run in it, every toolchain is looked up and asked its version.
"""

from __future__ import annotations

import os
import tempfile
from pathlib import Path
from typing import Any

from arena.errors import ArenaError
from arena.evaluator.kernel import rollout_kernel
from arena.languages import LANGUAGES, missing_toolchains, tool_path, tool_version
from arena.sandbox import Limits, open_sandbox
from arena.sandbox.cgroup import SandboxCgroup, leftovers, remove_leftovers
from arena.sandbox.cores import one_core
from arena.sandbox.isolation import namespaces_available


def diagnose() -> dict[str, Any]:
    """Probe the machine for real: open a sandbox and run a program in it, look up every toolchain."""
    available, reason = namespaces_available()
    report: dict[str, Any] = {
        "namespaces": {"available": available, "detail": reason},
        "memory_cgroup": SandboxCgroup.available(),
        "leftovers": [str(path) for path in leftovers()],
    }
    remove_leftovers()
    with tempfile.TemporaryDirectory(prefix="arena-doctor-") as folder:
        try:
            with open_sandbox(Path(folder), Limits()) as sandbox:
                probe = sandbox.run(["/bin/sh", "-c", "id -u"])
                report["isolation_level"] = sandbox.isolation_level
                report["runner"] = str(sandbox.runner_binary) if sandbox.has_runner else None
                report["page_cache_reset"] = sandbox.cgroup.reclaim_knob if sandbox.cgroup else None
                report["probe"] = {
                    "ok": probe.ok,
                    "uid": probe.stdout.decode().strip(),
                    "wall_ms": round(probe.wall_ms, 2),
                }
        except ArenaError as error:
            report["isolation_level"] = "none"
            report["runner"] = None
            report["page_cache_reset"] = None
            report["probe"] = {"ok": False, "error": str(error)}
    cpus = len(os.sched_getaffinity(0))
    with one_core() as cpu:  # what a table started now would be given
        report["pinning"] = {"cpus": cpus, "cpu": cpu}
    kernel = rollout_kernel()
    report["rollout_kernel"] = str(kernel.path) if kernel is not None else None
    missing = missing_toolchains()
    report["toolchains"] = {
        language.name: {
            "present": language.name not in missing,
            "tools": {tool: tool_path(tool) for tool in language.tools},
            "versions": {tool: tool_version(tool) for tool in language.tools},
            "install": missing.get(language.name, ""),
        }
        for language in LANGUAGES
    }
    return report
