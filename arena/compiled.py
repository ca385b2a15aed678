"""arena's own C code (the sandbox's runner, the rollout kernel): built once with the system's C compiler.

A build is cached per source, compiler and flags under a folder only its owner can write: root's
``/var/lib/arena/<kind>/`` or, for another user, ``$XDG_CACHE_HOME/arena/<kind>/``. A cached file is used
only when it is a regular file of ours that nobody else can write, so no other user can swap the code
arena runs or loads. Without a C compiler there is no build, and the caller takes its Python path.
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

ROOT_CACHE = Path("/var/lib/arena")
COMPILE_TIMEOUT_S = 120


def cache_folder(kind: str) -> Path:
    """Where builds of ``kind`` are kept for this user."""
    if os.geteuid() == 0:
        return ROOT_CACHE / kind
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "arena" / kind


@functools.cache
def compiled(
    source: Path,
    flags: Sequence[str],
    cache: Path,
    more: Sequence[Path] = (),
    headers: Sequence[Path] = (),
    name: str = "",
) -> Path | None:
    """The build of ``source`` (with the ``more`` sources, and ``headers`` they include) with ``flags`` in
    ``cache`` (``-o`` added), named ``name`` (``source``'s stem by default); None when it cannot be built."""
    compiler = shutil.which("cc") or shutil.which("gcc")
    if compiler is None:
        return None
    try:
        version = subprocess.run([compiler, "--version"], capture_output=True, check=True, timeout=30).stdout
    except (OSError, subprocess.SubprocessError):
        return None
    texts = b"".join(path.read_bytes() for path in (source, *more, *headers))
    key = hashlib.sha256(texts + version + " ".join(flags).encode()).hexdigest()[:16]
    name = name or source.stem
    target = cache / f"{name}-{key}"
    if trusted(target):
        return target
    try:
        cache.mkdir(parents=True, exist_ok=True, mode=0o755)
    except OSError:
        return None
    if not trusted(cache, folder=True):
        return None
    fd, scratch = tempfile.mkstemp(prefix=f".{name}-", dir=cache)
    os.close(fd)
    try:
        built = subprocess.run(
            [compiler, *flags, "-o", scratch, str(source), *map(str, more)],
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


def trusted(path: Path, *, folder: bool = False) -> bool:
    """True when ``path`` is ours and nobody else can write it; a symlink never is."""
    try:
        info = path.lstat()
    except OSError:
        return False
    kind = stat.S_ISDIR if folder else stat.S_ISREG
    return kind(info.st_mode) and info.st_uid == os.geteuid() and not info.st_mode & 0o022
