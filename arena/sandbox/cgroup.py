"""A memory and pids cgroup (v1) per sandbox: limits the JVM can live with, and OOM detection."""

from __future__ import annotations

import contextlib
import os
import secrets
from pathlib import Path

CGROUP_ROOT = Path("/sys/fs/cgroup")


def _own_path(controller: str) -> Path | None:
    """The cgroup this process is in for one v1 controller (children are made below it)."""
    try:
        lines = Path("/proc/self/cgroup").read_text().splitlines()
    except OSError:
        return None
    for line in lines:
        _, controllers, path = line.split(":", 2)
        if controller in controllers.split(","):
            base = CGROUP_ROOT / controller / path.lstrip("/")
            return base if base.is_dir() else None
    return None


class SandboxCgroup:
    """Child memory and pids cgroups holding one sandbox's helper and every program it starts."""

    def __init__(self, memory_bytes: int, max_pids: int) -> None:
        name = f"arena-{secrets.token_hex(6)}"
        self.paths: list[Path] = []
        self.memory: Path | None = None
        memory_parent, pids_parent = _own_path("memory"), _own_path("pids")
        if memory_parent is not None:
            self.memory = memory_parent / name
            self.memory.mkdir()
            self.paths.append(self.memory)
            (self.memory / "memory.limit_in_bytes").write_text(str(memory_bytes))
            swap = self.memory / "memory.memsw.limit_in_bytes"
            if swap.exists():
                swap.write_text(str(memory_bytes))
        if pids_parent is not None:
            pids = pids_parent / name
            pids.mkdir()
            self.paths.append(pids)
            (pids / "pids.max").write_text(str(max_pids))

    @staticmethod
    def available() -> bool:
        """True when a memory cgroup can be made here (cgroup v1, writable)."""
        path = _own_path("memory")
        return path is not None and os.access(path, os.W_OK)

    def enter(self) -> None:
        """Move the calling process into the cgroups (called in the helper's child before exec)."""
        pid = str(os.getpid())
        for path in self.paths:
            (path / "cgroup.procs").write_text(pid)

    def oom_kills(self) -> int:
        """How many times the kernel's OOM killer acted in this cgroup (or failed charges if unknown)."""
        if self.memory is None:
            return 0
        try:
            text = (self.memory / "memory.oom_control").read_text()
        except OSError:
            return 0
        for line in text.splitlines():
            key, _, value = line.partition(" ")
            if key == "oom_kill":
                return int(value)
        return int((self.memory / "memory.failcnt").read_text())

    def remove(self) -> None:
        """Remove the (now empty) cgroups."""
        for path in self.paths:
            with contextlib.suppress(OSError):
                path.rmdir()
