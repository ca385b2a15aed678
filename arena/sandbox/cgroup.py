"""One sandbox's cgroups: arena's processes in one leaf, the programs of the current decision in another.

Layout, in every hierarchy this machine offers (cgroup v2, and the v1 controllers a hybrid machine keeps
apart)::

    arena-<owner pid>-<token>/      pids.max (whole sandbox), its own CPU share (cpu.weight / cpu.shares)
        arena/                      the helper and the Python fork server: no memory limit of the program's
        run/                        the decision's programs: memory limit, CPU clock (cpu.stat), cgroup.kill

The helper gets descriptors (opened here, by root) of ``run``'s ``cgroup.procs`` files, of its
``cgroup.kill``, ``cgroup.events`` and ``cpu.stat``: a program is moved into ``run`` before its first
instruction, and everything in ``run`` is killed when the decision ends, however it was started. The
owner pid in the name lets the next start of arena remove what a dead run left (:func:`leftovers`).

Before the folders are removed, once nothing runs in them, every page still charged to the sandbox's memory
is reclaimed (:func:`reclaim`): a page of the page cache is charged to the cgroup of whoever brought it in,
so what a sandbox brought into the cache of the shared system files leaves with it, and the next table finds
the cache as the sandbox found it (issue 24: a team carried its cards to its later rotations of a deck).
"""

from __future__ import annotations

import contextlib
import functools
import itertools
import os
import re
import secrets
import select
import time
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

from arena.sandbox.inside.clock import cgroup_cpu_us

PREFIX = "arena-"
HELPER_LEAF = "arena"
RUN_LEAF = "run"
NAME = re.compile(rf"^{PREFIX}(\d+)-[0-9a-f]+$")
V1_CONTROLLERS = ("memory", "pids", "cpu")
KILL_WAIT_S = 10.0
REMOVE_WAIT_S = 10.0  # how long removal is retried while killed processes leave (a loaded machine)
# How a cgroup's pages are reclaimed, best first: v2 (Linux 5.19+), v1, v2 before 5.19 (nothing left in it).
RECLAIM_KNOBS = ("memory.reclaim", "memory.force_empty", "memory.max")


@dataclass(frozen=True)
class Hierarchies:
    """Where this process sits in the unified (v2) hierarchy and in each v1 controller's."""

    unified: Path | None
    v1: dict[str, Path]


def _mounts() -> tuple[Path | None, dict[str, Path]]:
    unified: Path | None = None
    v1: dict[str, Path] = {}
    try:
        lines = Path("/proc/self/mountinfo").read_text().splitlines()
    except OSError:
        return None, {}
    for line in lines:
        fields = line.split()
        separator = fields.index("-")
        kind, options = fields[separator + 1], fields[separator + 3].split(",")
        mount_point = Path(fields[4])
        if kind == "cgroup2" and unified is None:
            unified = mount_point
        elif kind == "cgroup":
            for controller in V1_CONTROLLERS:
                if controller in options:
                    v1.setdefault(controller, mount_point)
    return unified, v1


def hierarchies() -> Hierarchies:
    """This process's own cgroups: sandboxes are made below them."""
    unified_mount, v1_mounts = _mounts()
    unified, v1 = None, {}
    try:
        lines = Path("/proc/self/cgroup").read_text().splitlines()
    except OSError:
        lines = []
    for line in lines:
        number, controllers, path = line.split(":", 2)
        if number == "0" and unified_mount is not None:
            unified = unified_mount / path.lstrip("/")
        for controller in controllers.split(","):
            if controller in v1_mounts:
                v1[controller] = v1_mounts[controller] / path.lstrip("/")
    if unified is not None and not (unified / "cgroup.procs").exists():
        unified = None
    return Hierarchies(unified, {name: path for name, path in v1.items() if path.is_dir()})


def _write(path: Path, text: str) -> None:
    path.write_text(text)


def reclaim_knob(folder: Path) -> str | None:
    """The file that reclaims ``folder``'s memory (:data:`RECLAIM_KNOBS`), None without a memory cgroup."""
    return next((knob for knob in RECLAIM_KNOBS if (folder / knob).exists()), None)


def reclaim(folder: Path) -> None:
    """Reclaim every page charged to ``folder``'s memory and its leaves' (nothing may run in them): the
    page cache they brought in, the kernel's objects. A folder without memory (v1 pids, cpu) is left."""
    knob = reclaim_knob(folder)
    if knob is None:
        return
    value = "0"
    if knob == "memory.reclaim":
        value = _read(folder / "memory.current").strip() or "0"
        if value == "0":
            return
    with contextlib.suppress(OSError):  # EAGAIN (memory.reclaim): what could be reclaimed was
        _write(folder / knob, value)


class SandboxCgroup:
    """One sandbox's cgroups (see the module docstring); ``remove`` kills what is left and removes them."""

    def __init__(self, memory_bytes: int, max_pids: int) -> None:
        self.name = f"{PREFIX}{os.getpid()}-{secrets.token_hex(6)}"
        where = hierarchies()
        self.unified: Path | None = None
        self.v1: dict[str, Path] = {}
        self.memory_run: Path | None = None
        self.memory_v2 = False
        self._cpu_stat: int | None = None
        self._pressure: list[int] | None = None  # the decision cgroup's cpu, memory and io pressure files
        try:
            if where.unified is not None:
                self.unified = where.unified / self.name
                self.unified.mkdir()
                available = (self.unified / "cgroup.controllers").read_text().split()
                wanted = [name for name in ("memory", "pids", "cpu") if name in available]
                if wanted:
                    _write(self.unified / "cgroup.subtree_control", " ".join(f"+{name}" for name in wanted))
                for leaf in (HELPER_LEAF, RUN_LEAF):
                    (self.unified / leaf).mkdir()
                if "pids" in available:
                    _write(self.unified / "pids.max", str(max_pids))
                if "memory" in wanted:
                    self.memory_run, self.memory_v2 = self.unified / RUN_LEAF, True
                    _write(self.memory_run / "memory.max", str(memory_bytes))
                    _write(self.memory_run / "memory.swap.max", "0")
            in_v2 = self._v2_controllers()
            for controller, parent in where.v1.items():
                if controller in in_v2:
                    continue
                folder = parent / self.name
                folder.mkdir()
                self.v1[controller] = folder
                if controller == "pids":
                    _write(folder / "pids.max", str(max_pids))
                if controller == "memory":
                    for leaf in (HELPER_LEAF, RUN_LEAF):
                        (folder / leaf).mkdir()
                    self.memory_run = folder / RUN_LEAF
                    _write(self.memory_run / "memory.limit_in_bytes", str(memory_bytes))
                    swap = self.memory_run / "memory.memsw.limit_in_bytes"
                    if swap.exists():
                        _write(swap, str(memory_bytes))
        except OSError:
            self.remove()
            raise

    def _v2_controllers(self) -> list[str]:
        if self.unified is None:
            return []
        return (self.unified / "cgroup.subtree_control").read_text().split()

    @property
    def reclaim_knob(self) -> str | None:
        """How this sandbox's pages leave the page cache when it closes (None: they stay, see docs)."""
        memory = self.unified if self.memory_v2 else self.v1.get("memory")
        return reclaim_knob(memory) if memory is not None else None

    @property
    def paths(self) -> list[Path]:
        """Every folder of this sandbox (v2 and v1), for checks that nothing of it remains."""
        return [path for path in [self.unified, *self.v1.values()] if path is not None]

    @staticmethod
    def available() -> bool:
        """True when a sandbox's cgroups can be made here (root, a writable hierarchy)."""
        where = hierarchies()
        places = [where.unified, *where.v1.values()]
        return any(place is not None and os.access(place, os.W_OK) for place in places)

    @functools.cached_property
    def can_kill(self) -> bool:
        """True when a decision's processes can be ended as one (cgroup v2 ``cgroup.kill``)."""
        return self.unified is not None and (self.unified / RUN_LEAF / "cgroup.kill").exists()

    @property
    def has_memory(self) -> bool:
        """True when the programs' memory is limited by a cgroup (else RLIMIT_DATA)."""
        return self.memory_run is not None

    def enter(self) -> None:
        """Move the calling process (the helper, before exec) into the sandbox's ``arena`` leaf."""
        pid = str(os.getpid())
        if self.unified is not None:
            _write(self.unified / HELPER_LEAF / "cgroup.procs", pid)
        for controller, folder in self.v1.items():
            target = folder / HELPER_LEAF if controller == "memory" else folder
            _write(target / "cgroup.procs", pid)

    def run_descriptors(self) -> dict[str, list[int]]:
        """Descriptors the helper needs: ``procs`` (run's cgroup.procs files), ``kill``, ``events``, ``cpu``.

        Opened here by root; the kernel checks a write to ``cgroup.procs`` or ``cgroup.kill`` against the
        credentials of whoever opened it, so the unprivileged helper and fork server can use them.
        """
        procs = []
        if self.unified is not None:
            procs.append(os.open(self.unified / RUN_LEAF / "cgroup.procs", os.O_WRONLY | os.O_CLOEXEC))
        if "memory" in self.v1:
            procs.append(os.open(self.v1["memory"] / RUN_LEAF / "cgroup.procs", os.O_WRONLY | os.O_CLOEXEC))
        found: dict[str, list[int]] = {"procs": procs}
        if self.can_kill:
            assert self.unified is not None
            run = self.unified / RUN_LEAF
            found["kill"] = [os.open(run / "cgroup.kill", os.O_WRONLY | os.O_CLOEXEC)]
            found["events"] = [os.open(run / "cgroup.events", os.O_RDONLY | os.O_CLOEXEC)]
            found["cpu"] = [os.open(run / "cpu.stat", os.O_RDONLY | os.O_CLOEXEC)]
        return found

    def run_cpu_us(self) -> int:
        """CPU time used so far by everything that ran in the decision cgroup (0 without cgroup v2)."""
        if self.unified is None:
            return 0
        if self._cpu_stat is None:
            self._cpu_stat = os.open(self.unified / RUN_LEAF / "cpu.stat", os.O_RDONLY | os.O_CLOEXEC)
        return cgroup_cpu_us(self._cpu_stat)

    def run_stall_us(self) -> int | None:
        """Wall time (µs, so far) during which some program of the decision cgroup waited for a CPU, for
        memory or for the disk (pressure stall information, ``some``); None where the kernel keeps none."""
        if self.unified is None:
            return None
        if self._pressure is None:
            self._pressure = []
            for name in ("cpu.pressure", "memory.pressure", "io.pressure"):
                with contextlib.suppress(OSError):
                    self._pressure.append(os.open(self.unified / RUN_LEAF / name, os.O_RDONLY | os.O_CLOEXEC))
        if not self._pressure:
            return None
        total = 0
        for fd in self._pressure:
            line = os.pread(fd, 256, 0).split(b"\n", 1)[0]  # "some avg10=0.00 avg60=0.00 avg300=0.00 total=N"
            total += int(line.rpartition(b"total=")[2] or 0)
        return total

    def oom_kills(self) -> int:
        """How many times the kernel's OOM killer acted among the programs (or failed charges if unknown)."""
        if self.memory_run is None:
            return 0
        name = "memory.events" if self.memory_v2 else "memory.oom_control"
        try:
            text = (self.memory_run / name).read_text()
        except OSError:
            return 0
        for line in text.splitlines():
            key, _, value = line.partition(" ")
            if key == "oom_kill":
                return int(value)
        return int((self.memory_run / "memory.failcnt").read_text())

    def memory_hits(self) -> int:
        """How many times the programs' memory use met the limit (v2 ``max`` events, v1 ``failcnt``)."""
        if self.memory_run is None:
            return 0
        try:
            if not self.memory_v2:
                return int((self.memory_run / "memory.failcnt").read_text())
            for line in (self.memory_run / "memory.events").read_text().splitlines():
                key, _, value = line.partition(" ")
                if key == "max":
                    return int(value)
        except (OSError, ValueError):
            pass
        return 0

    def remove(self) -> None:
        """Kill whatever is still inside, then remove every folder (leaves first)."""
        if self._cpu_stat is not None:
            os.close(self._cpu_stat)
            self._cpu_stat = None
        for fd in self._pressure or ():
            os.close(fd)
        self._pressure = None
        remove_tree(self.unified, self.v1.values())


def kill_and_wait(folder: Path) -> None:
    """``cgroup.kill`` a v2 cgroup and wait (on ``cgroup.events``) until nothing in it runs."""
    with contextlib.suppress(OSError):
        _write(folder / "cgroup.kill", "1")
    try:
        events = os.open(folder / "cgroup.events", os.O_RDONLY)
    except OSError:
        return
    try:
        poller = select.poll()
        poller.register(events, select.POLLPRI)
        for _ in range(100):
            if b"populated 0" in os.pread(events, 4096, 0):
                return
            poller.poll(KILL_WAIT_S * 10)
    finally:
        os.close(events)


def _kill_v1(folder: Path) -> None:
    """Without cgroup.kill: SIGKILL every task listed (v1)."""
    tasks = [
        int(pid)
        for procs in [folder, *[child for child in folder.iterdir() if child.is_dir()]]
        for pid in _read(procs / "cgroup.procs").split()
    ]
    for pid in tasks:
        with contextlib.suppress(ProcessLookupError):
            os.kill(pid, 9)


def _read(path: Path) -> str:
    try:
        return path.read_text()
    except OSError:
        return ""


def _populated(folder: Path) -> bool:
    """True while a process is still in the folder or one of its leaves."""
    return any(
        _read(place / "cgroup.procs").strip() for place in (folder, folder / HELPER_LEAF, folder / RUN_LEAF)
    )


def _rmdir_all(folder: Path) -> bool:
    """Reclaim the folder's memory, remove the leaves, then the folder; False while something lives in them.

    Reclaimed before the leaves go: removing a cgroup would leave its pages cached, charged to its parent.
    """
    if _populated(folder):
        return False
    reclaim(folder)
    try:
        for leaf in (HELPER_LEAF, RUN_LEAF):
            with contextlib.suppress(FileNotFoundError):
                (folder / leaf).rmdir()
        folder.rmdir()
    except FileNotFoundError:
        return True
    except OSError:
        return False
    return True


def remove_tree(unified: Path | None, v1_folders: Iterable[Path]) -> None:
    """Kill everything in one sandbox's cgroups and remove them, v2 and v1 alike.

    Killed processes take a moment to leave (their exit runs after the signal, later on a loaded machine):
    removal is retried until the kernel lets the folders go, for up to :data:`REMOVE_WAIT_S`; what is
    still there then is a leftover the next arena command removes.
    """
    folders = [folder for folder in [unified, *v1_folders] if folder is not None and folder.is_dir()]
    deadline = time.monotonic() + REMOVE_WAIT_S
    for attempt in itertools.count():
        if unified is not None and unified.is_dir():
            kill_and_wait(unified)
        for folder in folders:
            if folder != unified:
                _kill_v1(folder)
        folders = [folder for folder in folders if not _rmdir_all(folder)]
        if not folders or time.monotonic() > deadline:
            return
        time.sleep(min(0.01 * (attempt + 1), 0.2))  # a poll: the kernel gives no event for a folder's end


def owner_alive(pid: int) -> bool:
    """True while process ``pid`` exists (arena's runs put their pid in what they leave to clean up)."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def leftovers() -> list[Path]:
    """Sandbox cgroups (in this process's hierarchies) whose owner process is dead: a killed arena's."""
    where = hierarchies()
    found = []
    for parent in [where.unified, *where.v1.values()]:
        if parent is None or not parent.is_dir():
            continue
        for child in sorted(parent.iterdir()):
            match = NAME.match(child.name)
            if match and child.is_dir() and not owner_alive(int(match.group(1))):
                found.append(child)
    return found


def remove_leftovers() -> list[Path]:
    """Remove (killing what still runs in them) the cgroups of dead arena runs; return what was removed."""
    where = hierarchies()
    removed = []
    for folder in leftovers():
        if where.unified is not None and folder.parent == where.unified:
            remove_tree(folder, ())
        else:
            remove_tree(None, (folder,))
        if not folder.exists():
            removed.append(folder)
    return removed
