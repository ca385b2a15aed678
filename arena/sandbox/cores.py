"""One core per table or match: its processes take turns, so they run fastest side by side on one CPU.

A Code'em table, a heads-up match and a TwoCardDraw match are chains of processes that never run at
once: arena writes, the program (through the runner or a session) answers, arena reads. On two CPUs
each hand-over wakes a process on the other CPU (an inter-processor interrupt, often out of an idle
state) and costs both sides system time; on one CPU the waker simply yields. Measured with the C++
heads-up interactor of ``benchmarks/``: 2,000 hands take 0.74-1.0 s spread over two CPUs, 0.14-0.19 s
on one (docs/performance.md).

:func:`one_core` pins the calling thread, and with it every process it starts while pinned (sandbox
helpers, runners, programs, builds), to one CPU of those it may use, and gives the CPU back afterwards.
Concurrent tables share out the CPUs through a lock file per CPU (``flock``, released by the kernel when
its holder ends, even by ``SIGKILL``): a table takes a free CPU, or stays unpinned when every CPU is
taken. ``ARENA_ALL_CORES=1`` turns pinning off (a host whose CPUs are busy with other work).
"""

from __future__ import annotations

import contextlib
import fcntl
import os
import tempfile
from collections.abc import Iterator
from pathlib import Path

DISABLE = "ARENA_ALL_CORES"
_outside: list[set[int]] = []  # the CPUs of the blocks being pinned, innermost last


def claims_folder() -> Path:
    """Where the per-CPU lock files live: root's ``/run/arena/cores``, or a folder of this user's."""
    if os.geteuid() == 0 and Path("/run").is_dir():
        return Path("/run/arena/cores")
    return Path(tempfile.gettempdir()) / f"arena-cores-{os.geteuid()}"


def current_cpu() -> int | None:
    """The CPU this process last ran on (``/proc/self/stat``), or None where that cannot be read."""
    try:
        stat = Path("/proc/self/stat").read_text()
    except OSError:
        return None
    fields = stat[stat.rindex(")") + 2 :].split()
    return int(fields[36])  # field 39 of proc(5), counted from field 3 (after the command's name)


def _claim(allowed: list[int], folder: Path) -> tuple[int, int] | None:
    """(lock file descriptor, CPU) of the first free CPU, starting at the one this process is on."""
    folder.mkdir(parents=True, exist_ok=True, mode=0o755)
    now = current_cpu()
    start = allowed.index(now) if now in allowed else 0
    for cpu in allowed[start:] + allowed[:start]:
        fd = os.open(folder / f"cpu{cpu}", os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o644)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            os.close(fd)
            continue
        return fd, cpu
    return None


@contextlib.contextmanager
def one_core(folder: Path | None = None) -> Iterator[int | None]:
    """Pin this thread (and what it starts) to a free CPU while the block runs; yields the CPU or None."""
    allowed = sorted(os.sched_getaffinity(0))
    claim = None
    if len(allowed) > 1 and os.environ.get(DISABLE, "") in ("", "0"):
        try:
            claim = _claim(allowed, folder or claims_folder())
        except OSError:  # no folder for the locks: run unpinned
            claim = None
    if claim is None:
        yield None
        return
    fd, cpu = claim
    try:
        os.sched_setaffinity(0, {cpu})
    except OSError:  # a host that refuses it (a container's CPU set changed under us): run unpinned
        os.close(fd)
        yield None
        return
    _outside.append(set(allowed))
    try:
        yield cpu
    finally:
        _outside.pop()
        with contextlib.suppress(OSError):  # the host took CPUs away meanwhile: keep what it left
            os.sched_setaffinity(0, allowed)
        os.close(fd)


def spread() -> None:
    """Let the calling thread run on every CPU its pinned creator could use before :func:`one_core`.

    For a thread of arena's own that works beside the pinned chain (the heads-up judge replays hands
    while the compiled loop plays the next ones), not for anything that starts a program.
    """
    if _outside:
        os.sched_setaffinity(0, _outside[-1])
