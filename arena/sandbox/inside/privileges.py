"""The helper's privileges: its own drop from root, arena's machinery uid, capabilities, keyring, dumpable.

Who the helper and what it starts run as. The helper drops root for good in the namespaces (it keeps the
sandbox's uid, a saved uid of 0 and, with a machinery uid, three capabilities permitted for the fork
server); arena's runner and fork server run under the machinery uid, no program's; programs take the
team's identity in their start sequence (``start.py``). Standard library only: the sandbox helper loads it
from beside itself, with the one ``prctl`` wrapper (``prctl.py``) handed in.
"""

from __future__ import annotations

import contextlib
import ctypes
import os
import resource
import signal
import types
from collections.abc import Iterable

# What arena's runner keeps under its own uid: give a program the team's uid and gid, signal it, empty /tmp;
# the fork server: give each decision the team's uid and gid, end it.
CAP_FOWNER, CAP_KILL, CAP_SETGID, CAP_SETUID = 3, 5, 6, 7
MACHINERY_CAPS = (CAP_FOWNER, CAP_KILL, CAP_SETGID, CAP_SETUID)
SERVER_CAPS = (CAP_KILL, CAP_SETGID, CAP_SETUID)
Owner = tuple[int, tuple[int, ...]]  # a machinery process's uid and the capabilities it keeps
OOM_NEVER = -1000
KEYCTL_JOIN_SESSION_KEYRING = 1
SYS_KEYCTL = {"x86_64": 250, "aarch64": 219}
PR_SET_CHILD_SUBREAPER = 36
LIBC = ctypes.CDLL(None, use_errno=True)


def capability_mask(caps: Iterable[int]) -> int:
    return sum(1 << cap for cap in caps)


def write_oom_score_adj(value: int) -> None:
    """Set this process's ``oom_score_adj`` (-1000: never an OOM victim; 1000: the first one)."""
    with open("/proc/self/oom_score_adj", "w") as adjust:
        adjust.write(str(value))


def join_fresh_session_keyring() -> None:
    """Replace the session keyring inherited from whoever started arena by a new, empty one."""
    number = SYS_KEYCTL.get(os.uname().machine)
    if number is not None and LIBC.syscall(number, KEYCTL_JOIN_SESSION_KEYRING, None) < 0:
        raise OSError(ctypes.get_errno(), "could not join a fresh session keyring")


class Privileges:
    """The sandbox's user, arena's machinery uid, and what the helper keeps to give the fork server its."""

    def __init__(
        self, prctl: types.ModuleType, uid: int | None, gid: int | None, machinery: int | None
    ) -> None:
        self.prctl = prctl
        self.uid, self.gid, self.machinery_uid = uid, gid, machinery
        self.kept_caps = 0  # what the helper keeps, unused, to give the fork server its identity

    @staticmethod
    def guard_helper(prctl: types.ModuleType) -> None:
        """The helper's first act: no setuid binary or file capability can raise anything it starts, and
        orphans of a decision become its children (plain mode)."""
        prctl.prctl(prctl.PR_SET_NO_NEW_PRIVS, 1)
        prctl.prctl(PR_SET_CHILD_SUBREAPER, 1)

    def protect_from_oom(self) -> bool:
        """As root, arena's machinery is never the OOM killer's victim (needs CAP_SYS_RESOURCE, which some
        containers withhold even from root; the helper is outside the programs' memory cgroup anyway)."""
        if os.geteuid() != 0:
            return False
        with contextlib.suppress(PermissionError):
            write_oom_score_adj(OOM_NEVER)
            return True
        return False

    def runner_owner(self) -> Owner | None:
        """The runner's identity: the machinery uid and its four capabilities (only root can give them)."""
        if self.machinery_uid is None or os.getuid() != 0:
            return None
        return self.machinery_uid, MACHINERY_CAPS

    def server_owner(self) -> Owner | None:
        """The fork server's identity: the machinery uid and its three capabilities, when there is one."""
        if self.machinery_uid is None or not (os.getuid() == 0 or self.kept_caps):
            return None
        return self.machinery_uid, SERVER_CAPS

    def drop_root(self, cwd: str, rlimits: list[tuple[int, int]]) -> None:
        """In the namespaces: drop root for good; every limit but CPU is set here and inherited.

        The helper then shares the programs' real and effective uid but not their reach: as PID 1 of
        the namespace it ignores their signals; its saved uid (0) differs from theirs, so they cannot
        change its limits (prlimit); with ``dumpable`` off they can neither ptrace it nor open its /proc
        files. Each program takes the team's saved uid too in its start sequence, so programs hold nothing.
        """
        prctl = self.prctl
        os.chdir(cwd)
        self.become_user(saved_uid=0)  # a saved uid of 0: programs may not prlimit or ptrace it
        # A saved uid of 0 keeps every capability otherwise: all go but, with a machinery uid, the ones the
        # fork server is started with (permitted only: none is effective, and no program inherits them)
        self.kept_caps = capability_mask(SERVER_CAPS) if self.machinery_uid is not None else 0
        prctl.prctl(prctl.PR_CAP_AMBIENT, prctl.PR_CAP_AMBIENT_CLEAR_ALL)
        prctl.set_capabilities(0, self.kept_caps, 0)
        prctl.prctl(prctl.PR_SET_DUMPABLE, 0)
        prctl.prctl(prctl.PR_SET_PDEATHSIG, signal.SIGKILL)  # a change of credentials cleared bubblewrap's
        for which, value in rlimits:
            if which == resource.RLIMIT_NPROC:
                value += 2  # the helper itself and the fork server
            if which != resource.RLIMIT_CPU:
                resource.setrlimit(which, (value, value))

    def become_user(self, saved_uid: int | None = None) -> None:
        """Take the sandbox's uid and gid (no supplementary groups); the saved uid too unless given."""
        uid, gid = self.uid, self.gid
        assert uid is not None and gid is not None, "no sandbox user to become"
        os.setgroups([])
        os.setresgid(gid, gid, gid)
        os.setresuid(uid, uid, uid if saved_uid is None else saved_uid)

    def become_machinery(self, owner: Owner) -> None:
        """Take arena's machinery uid, keeping only the owner's capabilities (what a runner or a fork server
        needs) across its exec.

        No program shares that uid or holds a capability, so none can signal, stop or trace the process.
        """
        prctl, (uid, caps) = self.prctl, owner
        mask = capability_mask(caps)
        prctl.set_capabilities(mask, mask, 0)  # effective now (root, or the helper's kept set)
        os.setgroups([])
        os.setresgid(uid, uid, uid)
        prctl.prctl(prctl.PR_SET_KEEPCAPS, 1)
        os.setresuid(uid, uid, uid)
        prctl.set_capabilities(mask, mask, mask)
        for cap in caps:
            prctl.prctl(prctl.PR_CAP_AMBIENT, prctl.PR_CAP_AMBIENT_RAISE, cap)
