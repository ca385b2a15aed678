"""The page cache of a large system file, looked at from outside the sandbox (issue 24).

A window of 1,024 pages none of which is cached, how many of its pages are cached now (``mincore``, which
the sandbox denies to programs), and one run of ``PageCacheFaults.c`` on it in a sandbox. Used by
``tests/attacks/test_attacks_duplicate.py`` and ``benchmarks/bench_page_cache_channels.py``.
"""

from __future__ import annotations

import contextlib
import ctypes
import fcntl
import glob
import mmap
import os
import random
from collections.abc import Iterator

import pytest

from arena.sandbox import Sandbox
from arena.sandbox.startup import PAGE_CACHE_KEPT
from arena.transports.files import FileTransport

from support.hostile import ATTACKS
from support.sandbox import build

# Large files of the system folders the sandbox sees, most of them rarely read: the first window found
# none of whose pages is cached is used (a library some process loaded has pages cached all over it).
CANDIDATES = (
    "/usr/lib/*-linux-gnu/libLLVM*.so*",
    "/usr/lib/llvm-*/lib/libclang-cpp.so*",
    "/usr/lib/jvm/*/lib/src.zip",
    "/usr/lib/jvm/*/lib/modules",
    "/usr/lib/chromium/chromium",
)
WINDOW = 1024 * mmap.PAGESIZE
LOCK = "/tmp/arena-tests-page-cache.lock"
INPUTS = {"inputf.txt": "1          2          3          15", "deals_money.txt": "Deal 1\n", "deal.txt": ""}


@contextlib.contextmanager
def alone() -> Iterator[None]:
    """Hold this machine's one lock of page-cache tests: two at once (the roads of one test on two pytest
    workers, another checkout's suite) could draw overlapping windows, about one time in 14 in a 117 MB
    file, and read each other's pages."""
    fd = os.open(LOCK, os.O_RDWR | os.O_CREAT | os.O_NOFOLLOW | os.O_CLOEXEC, 0o600)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)
        yield
    finally:
        os.close(fd)


def resident(path: str, offset: int) -> int:
    """How many pages of the window at ``offset`` of ``path`` are in the page cache (mincore, from here)."""
    libc = ctypes.CDLL(None, use_errno=True)
    libc.mmap.restype = ctypes.c_void_p
    libc.mmap.argtypes = [
        ctypes.c_void_p,
        ctypes.c_size_t,
        ctypes.c_int,
        ctypes.c_int,
        ctypes.c_int,
        ctypes.c_long,
    ]
    libc.munmap.argtypes = [ctypes.c_void_p, ctypes.c_size_t]
    libc.mincore.argtypes = [ctypes.c_void_p, ctypes.c_size_t, ctypes.c_char_p]
    with open(path, "rb") as source:
        address = libc.mmap(None, WINDOW, mmap.PROT_READ, mmap.MAP_SHARED, source.fileno(), offset)
        vector = ctypes.create_string_buffer(WINDOW // mmap.PAGESIZE)
        libc.mincore(address, WINDOW, vector)
        libc.munmap(address, WINDOW)
    return sum(byte & 1 for byte in vector.raw)


def uncached_window() -> tuple[str, int]:
    """A shared file of the system folders and a window of it none of whose pages is cached (else skip)."""
    found = dict.fromkeys(
        os.path.realpath(path) for pattern in CANDIDATES for path in sorted(glob.glob(pattern))
    )
    usable = [path for path in found if path.startswith("/usr/") and os.path.isfile(path)]
    for path in [path for path in usable if os.path.getsize(path) > 4 * WINDOW]:
        size = os.path.getsize(path)
        for _ in range(32):
            offset = random.randrange(0, size - WINDOW) // mmap.PAGESIZE * mmap.PAGESIZE
            if resident(path, offset) == 0:
                return path, offset
    pytest.skip("no uncached window of a large file of the system folders here")


def probe(sandbox: Sandbox, path: str, offset: int, mode: str) -> int:
    """Build ``PageCacheFaults.c`` and run it once on the window (``send`` or ``read``); how many bits it
    read right. Skips where no memory cgroup reclaims a closed sandbox's pages."""
    if sandbox.cgroup is None or sandbox.cgroup.reclaim_knob is None:
        pytest.skip(PAGE_CACHE_KEPT)
    built = build(sandbox, ATTACKS / "PageCacheFaults.c")
    transport = FileTransport(sandbox, built.run_argv, protected=built.products)
    reply = transport.exchange({**INPUTS, "probe.txt": f"{path} {offset} {mode}\n"})
    assert reply.run.ok, reply.run.describe()
    return int(reply.run.stdout.split()[1])
