"""arena's own C code (the runner, the rollouts, the hand loop): built once with the system's C compiler.

A build is cached per source, compiler and flags under a folder only its owner can write: root's
``/var/lib/arena/<kind>/`` or, for another user, ``$XDG_CACHE_HOME/arena/<kind>/``. A cached file is used
only when it is a regular file of ours that nobody else can write, so no other user can swap the code
arena runs or loads. Without a C compiler there is no build, and the caller takes its Python path.

Every build takes :func:`build_flags`: warnings as errors, ``_FORTIFY_SOURCE``, the stack protector, PIE (or
PIC for a shared library) and full RELRO. With ``ARENA_SANITIZE=1`` the builds are AddressSanitizer and
UndefinedBehaviorSanitizer ones instead (their own cache keys, as the flags are part of the key); a
ctypes-loaded library built so needs the ASan runtime preloaded (:func:`sanitizer_preload`).
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
from typing import Literal

ROOT_CACHE = Path("/var/lib/arena")
COMPILE_TIMEOUT_S = 120
SANITIZE = "ARENA_SANITIZE"
COMMON_FLAGS = ("-O2", "-std=gnu11", "-Wall", "-Wextra", "-Werror", "-fstack-protector-strong")
# ASan checks what fortify would, and the two do not mix; -U first: a compiler that defines it already
# (Ubuntu's) would warn of a redefinition, an error here
HARDENED_FLAGS = ("-U_FORTIFY_SOURCE", "-D_FORTIFY_SOURCE=2")
SANITIZER_FLAGS = (
    "-g",
    "-fsanitize=address,undefined",
    "-fno-sanitize-recover=all",
    "-fno-omit-frame-pointer",
)
LINK_FLAGS = ("-Wl,-z,relro,-z,now",)
KIND_FLAGS = {"executable": ("-fPIE", "-pie"), "shared": ("-fPIC", "-shared")}


def sanitizing() -> bool:
    """True when ``ARENA_SANITIZE`` asks for sanitizer builds (CI's ASan/UBSan pass)."""
    return os.environ.get(SANITIZE, "") not in ("", "0")


def build_flags(kind: Literal["executable", "shared"], *, hardened: bool = False) -> tuple[str, ...]:
    """The compiler flags of every build of arena's C code: hardened, or sanitized (see the module);
    ``hardened`` always (a library loaded where the ASan runtime cannot be preloaded)."""
    checks = SANITIZER_FLAGS if sanitizing() and not hardened else HARDENED_FLAGS
    return (*COMMON_FLAGS, *checks, *KIND_FLAGS[kind], *LINK_FLAGS)


def sanitizer_preload() -> str | None:
    """The ASan runtime a process must preload (``LD_PRELOAD``) to load a sanitized library, or None."""
    compiler = shutil.which("cc") or shutil.which("gcc")
    if compiler is None:
        return None
    try:
        found = subprocess.run(
            [compiler, "-print-file-name=libasan.so"], capture_output=True, text=True, check=True, timeout=30
        ).stdout.strip()
    except (OSError, subprocess.SubprocessError):
        return None
    return found if os.path.isabs(found) else None


def sanitizer_loaded() -> bool:
    """True when this process runs with the ASan runtime (preloaded), so a sanitized library can load."""
    try:
        return "/libasan.so" in Path("/proc/self/maps").read_text()
    except OSError:
        return False


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
