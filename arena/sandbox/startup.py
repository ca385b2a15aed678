"""A sandbox's start-up as named steps, each making one thing (docs/sandbox.md "Start-up").

:meth:`arena.sandbox.sandbox.Sandbox._start_helper` calls them in order; ``close`` undoes them in reverse.
"""

from __future__ import annotations

import dataclasses
import functools
import json
import logging
import os
import socket
import subprocess
import sys
from pathlib import Path
from typing import Any

from arena.errors import ConfigError, SandboxError
from arena.sandbox import isolation
from arena.sandbox.cgroup import SandboxCgroup
from arena.sandbox.channel import Channel
from arena.sandbox.limits import Limits
from arena.sandbox.uids import next_sandbox_uid

SCRATCH_MB = 64
TEAM_EXTRA_MB = 128
HELPER_EXIT_S = 10.0  # a helper whose channel closed and that still runs after this is killed
NO_ENVIRONMENT: dict[str, str] = {}  # bubblewrap and the helper start with nothing of the arena's
PAGE_CACHE_KEPT = (
    "no memory cgroup reclaims what a closed sandbox left in the page cache: "
    "a table can pass information to the next through it (docs/sandbox.md)"
)


@dataclasses.dataclass(frozen=True)
class Launched:
    """The helper process just started, the arena's end of its channel, and (in the namespaces) the pipe
    bubblewrap names the box's first process on."""

    process: subprocess.Popen[bytes]
    channel: Channel
    info: int | None


@dataclasses.dataclass(frozen=True)
class Box:
    """Where the team folder is: as the arena reaches it, as programs see it, and their ``/tmp``."""

    helper_pid: int  # the box's first process (the helper itself without namespaces)
    folder: Path
    inner_dir: str
    scratch: str  # "" without a box: the machine's /tmp

    @property
    def scratch_inside(self) -> str:
        """The programs' ``/tmp`` as they see it (emptied after every decision in the namespaces)."""
        return isolation.SCRATCH_DIR

    @property
    def scratch_outside(self) -> Path:
        """The programs' ``/tmp`` as the arena reaches it."""
        if self.scratch:
            return Path(f"/proc/{self.helper_pid}/root{self.scratch}")
        return Path(isolation.SCRATCH_DIR)

    @property
    def forkserver_path(self) -> str:
        """Where the Python fork server's script is, as programs in this box see it."""
        return isolation.FORKSERVER_PATH if self.scratch else str(isolation.FORKSERVER_SOURCE)


def make_cgroup(limits: Limits) -> SandboxCgroup | None:
    """The cgroups (the sandbox's memory and processes, the decision's), where this machine delegates them."""
    cgroup = None
    if SandboxCgroup.available():
        try:
            cgroup = SandboxCgroup(limits.memory_mb << 20, limits.max_processes + 8)
        except OSError as error:
            raise SandboxError(f"could not make the sandbox's cgroups: {error}") from error
    if cgroup is None or cgroup.reclaim_knob is None:
        _page_cache_kept()
    return cgroup


def launch_helper(
    level: str,
    workdir: Path,
    limits: Limits,
    runner: tuple[Path, Path] | None,
    cgroup: SandboxCgroup | None,
) -> Launched:
    """The helper process in the sandbox's cgroup, its channel on stdin: in the namespaces bubblewrap,
    which makes the namespaces, mounts and tmpfs folders and starts the helper as the box's first
    process; else the bare helper in ``workdir`` (made, and checked reachable)."""
    ours, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_STREAM)
    options: dict[str, Any] = dict(
        stdin=theirs.fileno(),
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        preexec_fn=cgroup.enter if cgroup is not None else None,
        env=NO_ENVIRONMENT,
        close_fds=True,
    )
    info: int | None = None
    try:
        if level == isolation.NAMESPACES:
            info, info_w = os.pipe()
            argv = isolation.bwrap_argv(
                team_bytes=(limits.help_bytes_mb + TEAM_EXTRA_MB) << 20,
                scratch_bytes=SCRATCH_MB << 20,
                info_fd=info_w,
                runner=runner[0] if runner is not None else None,
                library=runner[1] if runner is not None else None,
            )
            try:
                process = subprocess.Popen(argv, pass_fds=(info_w,), **options)
            finally:
                os.close(info_w)
        else:
            workdir.mkdir(parents=True, exist_ok=True)
            _require_reachable(workdir)
            argv = [sys.executable, "-I", "-S", str(isolation.HELPER_SOURCE), "plain"]
            process = subprocess.Popen(argv, cwd=workdir, **options)
    except OSError as error:
        ours.close()
        if info is not None:
            os.close(info)
        raise SandboxError(f"could not start the sandbox helper: {error}") from error
    except BaseException:
        ours.close()
        raise
    finally:
        theirs.close()
    return Launched(process, Channel(ours), info)


def find_box(launched: Launched, workdir: Path) -> Box:
    """Where the started helper's team folder and ``/tmp`` are (bubblewrap's info pipe names the box's
    first process, whose root the arena reaches through ``/proc``)."""
    if launched.info is None:
        return Box(launched.process.pid, workdir, str(workdir), "")
    try:
        with os.fdopen(launched.info, "rb") as info:
            text = info.read()
        helper_pid = int(json.loads(text)["child-pid"])
    except (OSError, KeyError, ValueError) as error:
        raise SandboxError(f"could not start the sandbox helper: {error}") from error
    folder = Path(f"/proc/{helper_pid}/root{isolation.TEAM_DIR}")
    return Box(helper_pid, folder, isolation.TEAM_DIR, isolation.SCRATCH_DIR)


def pick_uids() -> tuple[int | None, int | None]:
    """The programs' uid and arena's machinery's (the runner, the fork server), both fresh, as root only:
    no program's uid is ever the machinery's."""
    if os.geteuid() != 0:
        return None, None
    return next_sandbox_uid(), next_sandbox_uid()


def program_env(home: str) -> dict[str, str]:
    """The whole environment a program sees: nothing of the arena's."""
    return {"PATH": isolation.PROGRAM_PATH, "HOME": home, "LANG": "C.UTF-8", "TMPDIR": "/tmp"}


def rlimits(limits: Limits, uid: int | None, cgroup: SandboxCgroup | None) -> dict[str, int]:
    """Every program's rlimits: CPU, file size, no core; processes under its own uid; memory where no
    memory cgroup counts it."""
    values = {"cpu": limits.cpu_seconds(limits.wall_time_s), "fsize": limits.file_size_mb << 20, "core": 0}
    if uid is not None:
        values["nproc"] = limits.max_processes
    if cgroup is None or not cgroup.has_memory:
        values["data"] = limits.memory_mb << 20
    return values


def runner_argv(limits: Limits, start_options: list[str]) -> list[str]:
    """The runner's command line: where the team folder and /tmp are, the rules, how programs start."""
    argv = [isolation.RUNNER_PATH, f"--cwd={isolation.TEAM_DIR}", f"--scratch={isolation.SCRATCH_DIR}"]
    # the help-file rules the runner counts by (team_folder.police enforces them)
    argv += [f"--help-files={limits.help_files}", f"--help-bytes={limits.help_bytes_mb << 20}"]
    argv.append(f"--folder-depth={limits.folder_depth}")
    return [*argv, *start_options]


def start_options(rlimits: dict[str, int], uid: int | None, *, library: bool) -> list[str]:
    """What arena's machinery (the runner, the fork server) needs to start a program as a cold one starts:
    every limit but the CPU's (set per decision), the team's ``uid`` and gid when given (the machinery
    runs under its own), and with ``library`` the runner's start sequence and clock for the fork server."""
    options = [f"--rlimit={name}:{value}" for name, value in rlimits.items() if name != "cpu"]
    if uid is not None:
        options += [f"--uid={uid}", f"--gid={uid}"]
    if library:
        options.append(f"--runner-library={isolation.RUNNER_LIBRARY_PATH}")
    return options


def end_helper(process: subprocess.Popen[bytes], channel: Channel) -> None:
    """Close the helper's channel, which ends it (and, as PID 1 of the box, all in it); wait for it."""
    channel.sock.close()
    try:
        process.wait(timeout=HELPER_EXIT_S)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait()


def init_helper(launched: Launched, request: dict[str, Any], cgroup: SandboxCgroup | None) -> dict[str, Any]:
    """Tell the helper its rules (``request``: uids, folders, environment, rlimits, runner) with the
    cgroups' descriptors; return its answer, once it has dropped to them (and started the runner)."""
    descriptors = cgroup.run_descriptors() if cgroup is not None else {}
    fds = [fd for group in descriptors.values() for fd in group]
    indexes, position = {}, 0
    for name, group in descriptors.items():
        indexes[name] = list(range(position, position + len(group)))
        position += len(group)
    try:
        launched.channel.send({**request, "op": "init", "cgroup": indexes}, fds=fds)
    finally:
        for fd in fds:
            os.close(fd)
    try:
        header, _, _ = launched.channel.receive()
    except SandboxError as error:
        launched.process.wait()
        raise SandboxError(f"{error}: {helper_stderr(launched.process)}") from error
    if header.get("runner_problem"):
        raise SandboxError(f"could not start arena's runner: {header['runner_problem']}")
    return header


def helper_stderr(process: subprocess.Popen[bytes]) -> str:
    """The end of what an ended helper wrote to its stderr (why it stopped)."""
    if process.poll() is None or process.stderr is None:
        return "helper still running"
    return process.stderr.read().decode(errors="replace").strip()[-2000:]


@functools.cache
def _page_cache_kept() -> None:
    """Say once per process that what a sandbox brings into the page cache outlives it here."""
    logging.getLogger("arena.sandbox").warning(PAGE_CACHE_KEPT)


def _require_reachable(workdir: Path) -> None:
    """Without a mount namespace the program reaches its folder by its real path: every parent must let it."""
    if os.geteuid() != 0:
        return
    for parent in workdir.resolve().parents:
        if not parent.stat().st_mode & 0o001:
            raise ConfigError(
                f"{workdir}: the {isolation.RLIMITS_ONLY} sandbox runs programs as an unprivileged user, "
                f"who cannot enter {parent} (make every parent of the team folder searchable by others)"
            )
