"""The start sequence of a program on the Python road: what it goes through before the team's code runs.

The one owner of these steps where there is no compiled runner (``ARENA_NO_RUNNER=1``, no C compiler, no
cgroup v2): the helper's cold start (each prepared process) and the fork server's child (each warm
decision) both call :func:`start`. On the runner's road ``start.c`` does the same steps in C for both: the
runner has it compiled in, and the fork server's child calls its shared object through :class:`Compiled`.
Standard library only: the helper and the fork server load it from beside themselves, with the one
``prctl`` wrapper (``prctl.py``) handed in.
"""

from __future__ import annotations

import ctypes
import dataclasses
import os
import resource
import types

OOM_FIRST = 1000  # a program's oom_score_adj: the first victim under memory pressure, never arena's
# The limits a sandbox sets, by the names the arena and the runner use (``--rlimit=name:value``).
RLIMIT_NAMES = {
    "cpu": resource.RLIMIT_CPU,
    "fsize": resource.RLIMIT_FSIZE,
    "nproc": resource.RLIMIT_NPROC,
    "core": resource.RLIMIT_CORE,
    "data": resource.RLIMIT_DATA,
    "stack": resource.RLIMIT_STACK,
    "nofile": resource.RLIMIT_NOFILE,
}


@dataclasses.dataclass(frozen=True)
class Plan:
    """What a program starts under (``struct start_plan`` in ``start.h``)."""

    procs: tuple[int, ...] = ()  # the decision cgroup's ``cgroup.procs`` descriptors, joined in order
    limits: tuple[tuple[int, int], ...] = ()  # (RLIMIT_*, value), soft and hard; RLIMIT_CPU's if known
    team: tuple[int, int] | None = None  # the team's uid and gid, or None: keep this process's
    folder: str | None = None  # where it starts, or None: here
    dumpable: bool = False  # at the end: off until an exec (a prepared process), on with none (a warm child)


def start(plan: Plan, prctl: types.ModuleType) -> None:
    """In the started process: its own session, the decision's cgroup, ``oom_score_adj`` 1000, every limit,
    the folder, the team's uid and gid with no supplementary group, no capability, ``no_new_privs``, and
    dumpable as planned. An ``OSError`` when a step fails: nothing of the program may run then."""
    os.setsid()
    for fd in plan.procs:
        os.write(fd, b"0")  # into the decision's cgroup: memory limit, CPU clock, killed at its end
    # Raising the score needs no privilege once this process's /proc entries are its own (dumpable); it is
    # undumpable again at once: none may open its memory, a copy of its parent's, meanwhile.
    prctl.prctl(prctl.PR_SET_DUMPABLE, 1)
    with open("/proc/self/oom_score_adj", "w") as adjust:
        adjust.write(str(OOM_FIRST))
    prctl.prctl(prctl.PR_SET_DUMPABLE, 0)
    for which, value in plan.limits:
        resource.setrlimit(which, (value, value))
    if plan.folder is not None:
        os.chdir(plan.folder)  # before the uid changes: the folder may sit below a private parent
    if plan.team is not None:
        become_team(*plan.team, prctl)
    prctl.prctl(prctl.PR_SET_NO_NEW_PRIVS, 1)
    prctl.prctl(prctl.PR_SET_DUMPABLE, int(plan.dumpable))


def become_team(uid: int, gid: int, prctl: types.ModuleType) -> None:
    """The team's uid and gid (no supplementary group; real, effective and saved) and no capability.

    Root or arena's machinery (``CAP_SETUID``, ``CAP_SETGID``) changes them; the namespaced helper's child,
    already the team's with no group, only sets its saved uid (an unprivileged change)."""
    if os.getgroups():
        os.setgroups([])
    os.setresgid(gid, gid, gid)
    os.setresuid(uid, uid, uid)
    prctl.drop_all_capabilities()


def limit_cpu(seconds: int) -> None:
    """``RLIMIT_CPU`` of a prepared process, once its run is known (lowering needs no privilege)."""
    resource.setrlimit(resource.RLIMIT_CPU, (seconds, seconds))


MAX_FDS = MAX_LIMITS = 8  # START_MAX_FDS, START_MAX_LIMITS


class _Limit(ctypes.Structure):
    _fields_ = [("resource", ctypes.c_int), ("value", ctypes.c_longlong)]


class _Plan(ctypes.Structure):
    """``struct start_plan`` (start.h), field for field."""

    _fields_ = [
        ("procs", ctypes.c_int * MAX_FDS),
        ("n_procs", ctypes.c_int),
        ("limits", _Limit * MAX_LIMITS),
        ("n_limits", ctypes.c_int),
        ("cpu", ctypes.c_longlong),
        ("uid", ctypes.c_longlong),
        ("gid", ctypes.c_longlong),
        ("folder", ctypes.c_char_p),
        ("dumpable", ctypes.c_int),
    ]


class Compiled:
    """``start.c``'s ``arena_start`` from its shared object: the runner road's start, for the fork server."""

    def __init__(self, path: str) -> None:
        self.call = ctypes.CDLL(path, use_errno=True).arena_start
        self.call.argtypes = [ctypes.POINTER(_Plan)]
        self.call.restype = ctypes.c_char_p

    def start(self, plan: Plan) -> None:
        """What :func:`start` does, in the runner's C; an ``OSError`` naming the step that failed."""
        limits = [(which, value) for which, value in plan.limits if which != resource.RLIMIT_CPU]
        cpu = next((value for which, value in plan.limits if which == resource.RLIMIT_CPU), 0)
        if len(plan.procs) > MAX_FDS or len(limits) > MAX_LIMITS:
            raise OSError(f"more than {MAX_FDS} descriptors or limits to start with")
        shaped = _Plan(n_procs=len(plan.procs), n_limits=len(limits), cpu=cpu, dumpable=int(plan.dumpable))
        shaped.uid, shaped.gid = plan.team if plan.team is not None else (-1, -1)
        shaped.folder = os.fsencode(plan.folder) if plan.folder is not None else None
        for index, fd in enumerate(plan.procs):
            shaped.procs[index] = fd
        for index, (which, value) in enumerate(limits):
            shaped.limits[index] = _Limit(which, value)
        failed = self.call(ctypes.byref(shaped))
        if failed is not None:
            raise OSError(ctypes.get_errno(), failed.decode(errors="replace"))
