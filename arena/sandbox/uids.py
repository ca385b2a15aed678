"""Sandbox uids: never the same one twice, so nothing a former sandbox user left can reach a later one."""

from __future__ import annotations

import fcntl
import os
from pathlib import Path

COUNTER = Path("/var/lib/arena/last-sandbox-uid")
FIRST_UID = 300_000  # above the 200000 + pid uids of arena versions before this one
UID_SPAN = 2_000_000_000


def next_sandbox_uid(counter: Path = COUNTER) -> int:
    """The next unused sandbox uid (and gid), from a counter file kept under an exclusive lock.

    The kernel keeps per-user state (keyrings, process counts) by uid; pids are reused within minutes
    (``pid_max``), so a uid made from a pid would be too. Two billion sandboxes go by before one repeats.
    """
    counter.parent.mkdir(parents=True, exist_ok=True)
    fd = os.open(counter, os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o600)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)
        text = os.pread(fd, 64, 0).decode(errors="replace").strip()
        last = int(text) if text.isdigit() else -1
        number = (last + 1) % UID_SPAN
        os.ftruncate(fd, 0)
        os.pwrite(fd, f"{number}\n".encode(), 0)
        return FIRST_UID + number
    finally:
        os.close(fd)
