"""The end of a decision: whatever the programs left running (the helper's, as PID 1, on both roads), the
SysV IPC objects of the sandbox's user, and the sandbox's ``/tmp``.

The last two rules have one owner per road: on the Python road this module's :func:`remove_ipc_objects` and
:meth:`Sweeper.clear_scratch`; on the runner's road ``scratch.c``, compiled into the runner (cold decisions)
and called here through the runner's shared object (:class:`Compiled`) for the helper's sweep (warm ones).
Standard library only: the sandbox helper loads it from beside itself (``helper.py``).
"""

from __future__ import annotations

import contextlib
import ctypes
import os
import resource
import signal
from collections.abc import Callable
from typing import Any

SWEEP_ROUNDS = 1000
LIBC = ctypes.CDLL(None, use_errno=True)


class Sweeper:
    """Ends what a decision left: in the namespaces as PID 1; without them, every process of the uid."""

    def __init__(
        self,
        mode: str,
        uid: int | None,
        scratch: str,
        tree: Any,
        become_user: Callable[[], None],
        compiled: Compiled | None = None,
    ) -> None:
        self.mode, self.uid, self.scratch = mode, uid, scratch
        self.tree = tree  # arena/sandbox/tree.py, loaded beside the helper
        self.become_user = become_user
        self.compiled = compiled  # scratch.c on the runner's road: the one owner of /tmp and IPC there
        self.ended_by = ""  # who emptied /tmp and removed IPC objects at the last sweep (the sweep's reply)

    def sweep(self, kept: set[int]) -> None:
        """Everything but the processes of ``kept`` (live sessions) and their descendants."""
        self.ended_by = "scratch.c" if self.compiled is not None else "cleanup.py"
        if self.uid is not None:
            if self.compiled is not None:
                self.compiled.remove_ipc_objects()
            else:
                remove_ipc_objects(self.uid)
        if self.mode == "ns":
            if kept:
                self.kill_except(kept)
            else:
                self.kill_everything_in_namespace()
            if self.compiled is not None and self.scratch:
                self.compiled.empty_folder(self.scratch)
            else:
                self.clear_scratch()
        elif self.uid is not None and os.getuid() == 0:
            self.kill_sandbox_user(kept)

    def kill_everything_in_namespace(self) -> None:
        """As PID 1 of the namespace, ``kill(-1)`` reaches every other process in it, daemons included."""
        for _ in range(SWEEP_ROUNDS):
            try:
                os.kill(-1, signal.SIGKILL)
            except (ProcessLookupError, PermissionError):  # none left, or only arena's runner (not ours)
                return
            reap_all(block=True)

    def kill_except(self, keep: set[int]) -> None:
        for _ in range(SWEEP_ROUNDS):
            victims = [pid for pid in namespace_pids() if pid != 1 and not descends_from(pid, keep)]
            if not victims:
                return
            for pid in victims:
                with contextlib.suppress(ProcessLookupError):
                    os.kill(pid, signal.SIGKILL)
            reap_all(block=False)

    def kill_sandbox_user(self, keep: set[int]) -> None:
        """Without a PID namespace: signal every process of the sandbox's own uid until none is left.

        A child that becomes the sandbox user and calls ``kill(-1)`` stops a fork bomb in one sweep
        (it cannot fork faster than the kernel walks the list); the /proc scan confirms none is left.
        """
        if keep:
            return
        for _ in range(SWEEP_ROUNDS):
            if not self.user_pids():
                return
            pid = os.fork()
            if pid == 0:
                try:
                    self.become_user()
                    os.kill(-1, signal.SIGKILL)
                finally:
                    os._exit(0)
            os.waitpid(pid, 0)
            reap_all(block=False)

    def user_pids(self) -> list[int]:
        found = []
        for name in os.listdir("/proc"):
            if name.isdigit():
                try:
                    if os.stat(f"/proc/{name}").st_uid == self.uid:
                        found.append(int(name))
                except FileNotFoundError:
                    pass
        return found

    def clear_scratch(self) -> None:
        """Empty the sandbox's /tmp so no state carries from one run to the next outside the team folder.

        As the sandbox's own user, without following links, whatever depth or modes the programs left.
        """
        if not self.scratch:
            return
        try:
            root = self.tree.open_folder(self.scratch)
        except OSError:
            return
        try:
            self.tree.empty(root)
        finally:
            os.close(root)


def namespace_pids() -> list[int]:
    return [int(name) for name in os.listdir("/proc") if name.isdigit()]


def descends_from(pid: int, roots: set[int]) -> bool:
    seen = 0
    while pid > 1 and seen < 64:
        if pid in roots:
            return True
        try:
            with open(f"/proc/{pid}/stat", "rb") as stat:
                pid = int(stat.read().rsplit(b")", 1)[1].split()[1])
        except (OSError, ValueError, IndexError):
            return False
        seen += 1
    return False


REAPED: dict[int, tuple[int, resource.struct_rusage]] = {}


def reap_all(*, block: bool) -> None:
    """Collect every exited child (as PID 1, orphans are ours too); keep how each ended, for sessions."""
    while True:
        try:
            pid, status, usage = os.wait4(-1, 0 if block else os.WNOHANG)
        except ChildProcessError:
            return
        if pid == 0:
            return
        REAPED[pid] = (status, usage)


class Compiled:
    """``scratch.c``'s emptying and IPC removal from the runner's shared object (the runner's road)."""

    def __init__(self, path: str) -> None:
        library = ctypes.CDLL(path, use_errno=True)
        self.empty = library.arena_empty_folder
        self.empty.argtypes, self.empty.restype = [ctypes.c_char_p], ctypes.c_int
        self.remove = library.arena_remove_ipc_objects
        self.remove.argtypes, self.remove.restype = [], ctypes.c_int

    def empty_folder(self, path: str) -> bool:
        """Everything in ``path`` removed (links unfollowed); False when something stays."""
        return bool(self.empty(os.fsencode(path)) == 0)

    def remove_ipc_objects(self) -> bool:
        """Every SysV IPC object of the sandbox removed; False when one stays."""
        return bool(self.remove() == 0)


IPC_TABLES = (("/proc/sysvipc/shm", "shmid"), ("/proc/sysvipc/msg", "msqid"), ("/proc/sysvipc/sem", "semid"))
IPC_RMID = 0


def remove_ipc_objects(uid: int) -> None:
    """Remove every SysV shared memory segment, message queue and semaphore set of the sandbox's user."""
    for table, id_column in IPC_TABLES:
        try:
            with open(table) as listing:
                lines = listing.read().splitlines()
        except OSError:
            continue
        header = lines[0].split() if lines else []
        for row in lines[1:]:
            fields = dict(zip(header, row.split(), strict=False))
            if uid not in (int(fields["uid"]), int(fields["cuid"])):
                continue
            ident = int(fields[id_column])
            if id_column == "semid":
                LIBC.semctl(ident, 0, IPC_RMID)
            elif id_column == "shmid":
                LIBC.shmctl(ident, IPC_RMID, None)
            else:
                LIBC.msgctl(ident, IPC_RMID, None)
