"""arena's compiled runner (``runner.c``): built once with the system's C compiler, then one per sandbox.

The runner does a one-shot decision's work inside the sandbox (start the program from a process prepared
ahead, watch its clocks and output, end the decision) for a small fraction of the CPU the Python helper
spends on it. It is used where the namespaced sandbox and a decision cgroup that can be killed as one are
available; elsewhere, or when no C compiler is installed, the helper runs decisions itself.

The binary is cached per source and compiler in ``/var/lib/arena/runner/`` (root's, not writable by
anyone else) and bound read-only into each sandbox at ``isolation.RUNNER_PATH``.
"""

from __future__ import annotations

import functools
import hashlib
import os
import shutil
import stat
import subprocess
import tempfile
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from arena.errors import SandboxError

if TYPE_CHECKING:
    from arena.sandbox.sandbox import Session

SOURCE = Path(__file__).with_name("runner.c")
CACHE = Path("/var/lib/arena/runner")
COMPILE_FLAGS = ("-O2", "-std=gnu11", "-Wall")
COMPILE_TIMEOUT_S = 120
START_TIMEOUT_S = 10.0
REPLY_GRACE_S = 5.0


@functools.cache
def runner_binary(cache: Path = CACHE) -> Path | None:
    """The compiled runner for this source and compiler (built on first use); None without a C compiler."""
    compiler = shutil.which("cc") or shutil.which("gcc")
    if compiler is None or os.geteuid() != 0:
        return None
    source = SOURCE.read_bytes()
    try:
        version = subprocess.run([compiler, "--version"], capture_output=True, check=True, timeout=30).stdout
    except (OSError, subprocess.SubprocessError):
        return None
    key = hashlib.sha256(source + version + " ".join(COMPILE_FLAGS).encode()).hexdigest()[:16]
    target = cache / f"runner-{key}"
    if _trusted(target):
        return target
    cache.mkdir(parents=True, exist_ok=True, mode=0o755)
    if not _trusted(cache, folder=True):
        return None
    fd, scratch = tempfile.mkstemp(prefix=".runner-", dir=cache)
    os.close(fd)
    try:
        built = subprocess.run(
            [compiler, *COMPILE_FLAGS, "-o", scratch, str(SOURCE)],
            capture_output=True,
            timeout=COMPILE_TIMEOUT_S,
            check=False,
        )
        if built.returncode != 0:
            return None
        os.chmod(scratch, 0o755)
        os.replace(scratch, target)  # atomic: a concurrent arena sees the old name absent or whole
    except (OSError, subprocess.SubprocessError):
        return None
    finally:
        if os.path.exists(scratch):
            os.unlink(scratch)
    return target


def _trusted(path: Path, *, folder: bool = False) -> bool:
    """True when ``path`` is root's (ours) and nobody else can write it; a symlink never is."""
    try:
        info = path.lstat()
    except OSError:
        return False
    kind = stat.S_ISDIR if folder else stat.S_ISREG
    return kind(info.st_mode) and info.st_uid == os.geteuid() and not info.st_mode & 0o022


class Runner:
    """The arena's end of one sandbox's runner: a decision per request, over the session's pipes."""

    def __init__(self, session: Session) -> None:
        self.session = session
        line = session.read_line(START_TIMEOUT_S)
        if line != "ready":
            problem = session.close().stderr.decode(errors="replace").strip()
            raise SandboxError(f"arena's runner did not start: {problem or line}")

    def run(
        self, argv: Sequence[str], wall_s: float, budget_ms: float | None, cpu_s: int | None, out_cap: int
    ) -> tuple[dict[str, object], bytes, bytes]:
        """One decision: the reply's header (the helper's fields, plus ``dirty``), stdout and stderr.

        Raises :class:`SandboxError` when the runner does not answer in time or answers nonsense.
        """
        blob = b"".join(os.fsencode(item) + b"\0" for item in argv)
        budget_us = -1 if budget_ms is None else int(budget_ms * 1000)
        cpu = -1 if cpu_s is None else cpu_s
        head = f"{int(wall_s * 1e6)} {budget_us} {cpu} {out_cap} {len(blob)}\n".encode()
        if not self.session.send_bytes(head + blob):
            raise SandboxError("arena's runner is gone")
        timeout = wall_s + REPLY_GRACE_S
        line = self.session.read_line(timeout)
        detail = self.session.read_line(REPLY_GRACE_S) if line is not None else None
        fields = (line or "").split()
        if detail is None or len(fields) != 9 or not all(f.lstrip("-").isdigit() for f in fields[1:]):
            raise SandboxError(
                "arena's runner stopped answering" if line is None else f"arena's runner: {line!r}"
            )
        status = fields[0]
        code, sig, wall_us, cpu_us, maxrss, dirty, out_len, err_len = (int(f) for f in fields[1:])
        body = self.session.read_bytes(out_len + err_len, REPLY_GRACE_S)
        if body is None:
            raise SandboxError("arena's runner stopped in the middle of a reply")
        header: dict[str, object] = {
            "status": status,
            "exit_code": code if code >= 0 else None,
            "signal": sig or None,
            "wall_ms": wall_us / 1000,
            "cpu_ms": cpu_us / 1000,
            "maxrss": maxrss,
            "detail": detail,
            "dirty": bool(dirty),
        }
        return header, body[:out_len], body[out_len:]
