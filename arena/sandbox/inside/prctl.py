"""prctl(2) and capset(2): the one wrapper that arena's processes use, inside the sandbox and out.

The sandbox helper (run as ``python -I -S helper.py``) and the Python fork server run as scripts inside
the sandbox, where arena cannot be imported: they load this file from beside themselves (it is bound
next to them at ``/.arena/prctl.py``) under a private module name, so nothing of it is visible to team
programs. Arena's own child processes (the tournament's workers, the site's checks and runs) import it
as ``arena.sandbox.inside.prctl``. Standard library only.
"""

from __future__ import annotations

import ctypes
import os
import signal

PR_SET_PDEATHSIG = 1
PR_SET_DUMPABLE = 4
PR_SET_KEEPCAPS = 8
PR_SET_NO_NEW_PRIVS = 38
PR_CAP_AMBIENT = 47
PR_CAP_AMBIENT_RAISE = 2
PR_CAP_AMBIENT_CLEAR_ALL = 4
LINUX_CAPABILITY_VERSION_3 = 0x20080522

_LIBC = ctypes.CDLL(None, use_errno=True)


def prctl(option: int, value: int, extra: int = 0) -> None:
    """Call ``prctl(option, value, extra, 0, 0)``; an ``OSError`` with the errno when it fails."""
    if _LIBC.prctl(option, value, extra, 0, 0) != 0:
        raise OSError(ctypes.get_errno(), f"prctl({option}) failed")


def die_with_parent(parent: int) -> None:
    """Ask Linux to kill this process (SIGKILL) when its parent dies, ``kill -9`` included; exit at once
    if ``parent`` (the pid that started it) already died before the request took hold, which it did not
    cover: an orphan started a moment before would otherwise run on, beside the parent's successor."""
    prctl(PR_SET_PDEATHSIG, signal.SIGKILL)
    if os.getppid() != parent:
        os._exit(1)


class CapHeader(ctypes.Structure):
    _fields_ = [("version", ctypes.c_uint32), ("pid", ctypes.c_int)]


class CapData(ctypes.Structure):
    _fields_ = [
        ("effective", ctypes.c_uint32),
        ("permitted", ctypes.c_uint32),
        ("inheritable", ctypes.c_uint32),
    ]


def set_capabilities(effective: int, permitted: int, inheritable: int) -> None:
    """capset(2) this process's three sets (bit masks of the capabilities below 32)."""
    header = CapHeader(LINUX_CAPABILITY_VERSION_3, 0)
    data = (CapData * 2)(CapData(effective, permitted, inheritable), CapData(0, 0, 0))
    if _LIBC.capset(ctypes.byref(header), data) != 0:
        raise OSError(ctypes.get_errno(), "capset failed")


_NONE = (CapHeader(LINUX_CAPABILITY_VERSION_3, 0), (CapData * 2)())  # built once: a forked child only calls


def drop_all_capabilities() -> None:
    """Empty the ambient, effective, permitted and inheritable capability sets of this process."""
    prctl(PR_CAP_AMBIENT, PR_CAP_AMBIENT_CLEAR_ALL)
    if _LIBC.capset(ctypes.byref(_NONE[0]), _NONE[1]) != 0:
        raise OSError(ctypes.get_errno(), "capset failed")
