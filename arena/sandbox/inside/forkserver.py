"""A Python fork server run inside a team's sandbox: a warm start that keeps Code'em's semantics.

Started once per team per table with the team's own interpreter and flags, it imports the modules named
on its command line (e.g. numpy) and nothing of the team's. For each request it forks; the child resets
what a fresh interpreter would have fresh (random seeds, ``sys.argv``, ``sys.path[0]``, ``__main__``),
runs the team's script with ``runpy`` exactly as ``python script.py`` would, and exits: every decision
gets a fresh process with fresh module state, and only the team's files carry memory: the server itself
never holds anything of a decision. A program's stdout and stderr go to files in the sandbox's ``/tmp``
named by the arena, which reads them itself (the server never opens them, so no output of one decision is
in the memory the next one is forked from; ``/tmp`` is emptied after every decision); and each program
gets descriptors of its own (a fresh ``/dev/null`` on stdin, nothing else of the server's open), so no
file status flag carries either.

When arena runs as root the server runs as arena's machinery uid (``--uid=U --gid=G`` name the team's), with
only the capabilities to give each child the team's uid and gid and to end it, and is not dumpable: a
program can neither signal, stop nor trace it (EPERM), so a warm decision is judged like a cold one. Each
child goes through a cold program's start sequence before any of the team's code runs (``Road``: the
runner's ``start.c`` through its shared object on the runner's road, else ``start.py``, the helper's): its
session, the decision's cgroup, OOM score and limits, the team's identity, no capability. Without a
machinery uid (not root) the server runs as arena's user, as the programs do: a program that kills or
stops it loses its own decision (the arena judges it, then starts a new server), never arena's.

The server is arena's machinery: the sandbox helper starts it outside the programs' cgroup and with no CPU
limit (``--cgroup-fds=3,4`` names the descriptors of the decision cgroup's ``cgroup.procs`` files). Each
child moves itself into that cgroup and takes the decision's limits before any of the team's code runs, so
the decision is measured, limited and ended (``cgroup.kill``) like a fresh interpreter's.

Protocol on stdin/stdout (the arena's session pipes), per run: a JSON request line
``{"script": "Team.py", "wall": 1.0, "cpu": 2, "out": "/tmp/.warm-X.out", "err": "/tmp/.warm-X.err"}``
answered by the one reply record every watcher writes (``record.py``, beside this script; no output bytes:
the arena reads the output files).
Standard library only, besides the preloads.
"""

from __future__ import annotations

import sys

# What the interpreter holds before this script imports anything: a fresh ``python script.py`` holds them
# too, so a team's module of one of these names is never imported there either. Any other module this
# server has loaded (its own imports, the preloads) is forgotten in a decision whose folder has a module
# of that name, which ``python script.py`` would import instead (see forget_shadowed).
FRESH = frozenset(sys.modules)

import atexit
import builtins
import importlib
import importlib.machinery
import json
import os
import random
import resource
import select
import signal
import threading
import time
import traceback
import types
from typing import Any, BinaryIO

# The one prctl wrapper and the decision's clocks, beside this script (sys.path[0]; arena/sandbox/), then
# forgotten by name so a team program with a module called prctl or clock imports its own, as it would in a
# fresh interpreter.
import clock as CLOCK  # type: ignore[import-not-found]
import prctl as _prctl  # type: ignore[import-not-found]
import record as RECORD  # type: ignore[import-not-found]
import start as START  # type: ignore[import-not-found]

del sys.modules["prctl"], sys.modules["clock"], sys.modules["record"], sys.modules["start"]

MAX_FD = os.sysconf("SC_OPEN_MAX")


def serve(arguments: list[str]) -> None:
    """Preload, then answer run requests until stdin closes."""
    flag = "--cgroup-fds="
    named = [arg[len(flag) :] for arg in arguments if arg.startswith(flag)]
    cgroup_fds = [int(fd) for fds in named for fd in fds.split(",") if fd]
    cpu_fd = next((int(arg[9:]) for arg in arguments if arg.startswith("--cpu-fd=")), None)
    preloads = [arg for arg in arguments if not arg.startswith("--")]
    road = Road(arguments)
    for fd in [*cgroup_fds, *([cpu_fd] if cpu_fd is not None else [])]:
        os.set_inheritable(fd, False)
    for arg in arguments:  # the decision cgroup's kill and events files: the helper ends decisions, not this
        if arg.startswith(("--kill-fd=", "--events-fd=")):
            os.close(int(arg.partition("=")[2]))
    _prctl.prctl(_prctl.PR_SET_DUMPABLE, 0)  # the programs it starts cannot ptrace it
    for name in preloads:
        importlib.import_module(name)
    control_in = os.fdopen(os.dup(0), "rb", buffering=0)
    control_out = os.fdopen(os.dup(1), "wb", buffering=0)
    devnull = os.open(os.devnull, os.O_RDWR)
    os.dup2(devnull, 0)
    os.dup2(devnull, 1)
    control_out.write(b'{"ready": true}\n')
    while True:
        line = control_in.readline()
        if not line:
            return
        request = json.loads(line)
        decision = Decision(request["script"], request["wall"], request.get("cpu"), road)
        decision.out_path, decision.err_path = request["out"], request["err"]
        decision.budget_ms = request.get("budget_ms") if cpu_fd is not None else None
        decision.cgroup_fds, decision.cpu_fd = cgroup_fds, cpu_fd
        control_out.write(RECORD.encode(run_one(decision, (control_in, control_out))))
        reap_strays()


class Decision:
    """One request: the script, its wall and CPU limits, its output files, where its processes go."""

    def __init__(self, script: str, wall: float, cpu: int | None, road: Road) -> None:
        self.script, self.wall, self.cpu, self.road = script, wall, cpu, road
        self.out_path = self.err_path = ""  # the program's stdout and stderr (the arena reads them)
        self.budget_ms: float | None = None  # the decision's CPU budget, judged on the cgroup's clock
        self.cgroup_fds: list[int] = []
        self.cpu_fd: int | None = None

    def plan(self) -> Any:
        """The start of this decision's process (``start.Plan``): a cold program's, with its CPU limit."""
        cpu = () if self.cpu is None else ((resource.RLIMIT_CPU, self.cpu),)
        return START.Plan(tuple(self.cgroup_fds), (*self.road.limits, *cpu), self.road.team, None, True)

    def cpu_us(self) -> int:
        return CLOCK.cgroup_cpu_us(self.cpu_fd) if self.cpu_fd is not None else 0


class Road:
    """How each decision's process starts and is timed, from the server's command line:
    ``--rlimit=name:value`` (every limit but the CPU's), ``--uid=U --gid=G`` (the team's, when the server
    runs as arena's machinery uid), and ``--runner-library=PATH`` on the runner's road (the runner's own
    start sequence and CPU-clock wait, ``start.c`` and ``clock.c``; else the helper's, ``start.py`` and
    ``clock.py``)."""

    def __init__(self, arguments: list[str]) -> None:
        values = [arg[2:].partition("=") for arg in arguments if arg.startswith("--")]
        limits = [value.partition(":") for name, _, value in values if name == "rlimit"]
        self.limits = tuple((START.RLIMIT_NAMES[name], int(value)) for name, _, value in limits)
        ids = {name: int(value) for name, _, value in values if name in ("uid", "gid")}
        self.team = (ids["uid"], ids["gid"]) if ids else None
        library = next((value for name, _, value in values if name == "runner-library"), None)
        self.compiled = START.Compiled(library) if library else None
        self.next_wait = CLOCK.Compiled(library).next_wait if library else CLOCK.next_wait

    def start(self, plan: Any) -> None:
        """In a decision's child: a cold program's start sequence, this road's."""
        if self.compiled is not None:
            self.compiled.start(plan)
        else:
            START.start(plan, _prctl)


def reap_strays() -> None:
    """Collect children a decision gave this server (``clone(CLONE_PARENT)``), killed with its cgroup."""
    while True:
        try:
            pid, _ = os.waitpid(-1, os.WNOHANG)
        except ChildProcessError:
            return
        if pid == 0:
            return


def run_one(decision: Decision, control: tuple[BinaryIO, BinaryIO]) -> Any:
    """Fork, run the script in the child as ``__main__``, wait with the wall limit, measure."""
    wall, out_path, err_path = decision.wall, decision.out_path, decision.err_path
    setup_r, setup_w = os.pipe2(os.O_CLOEXEC)
    cpu_mark = decision.cpu_us()
    started = time.monotonic()
    pid = os.fork()
    if pid == 0:
        os.close(setup_r)
        child(decision, out_path, err_path, control, setup_w)
    os.close(setup_w)
    with os.fdopen(setup_r, "rb") as setup:
        problem = setup.read()
    if problem:  # the decision could not be put in its cgroup or under its limits: nothing of it ran
        os.wait4(pid, 0)
        return RECORD.Reply("not_started", detail=problem.decode(errors="replace"))
    pidfd = os.pidfd_open(pid)
    reason, deadline = "", started + wall
    while True:
        used_ms = (decision.cpu_us() - cpu_mark) / 1000
        reason, wait_s = decision.road.next_wait(time.monotonic(), deadline, decision.budget_ms, used_ms)
        if reason or select.select([pidfd], [], [], wait_s)[0]:
            break
    if reason:
        os.killpg(pid, signal.SIGKILL)
    _, status, usage = os.wait4(pid, 0)
    wall_ms = (time.monotonic() - started) * 1000
    os.close(pidfd)
    return RECORD.ended(status, usage, wall_ms, reason)


def child(
    decision: Decision, out_path: str, err_path: str, control: tuple[BinaryIO, BinaryIO], setup: int
) -> None:
    """In the forked child: become what ``python script.py`` would be, run it, exit like it."""
    try:
        decision.road.start(decision.plan())  # a cold program's start, before any of the team's code
        for fd in [*decision.cgroup_fds, *([decision.cpu_fd] if decision.cpu_fd is not None else [])]:
            os.close(fd)
    except OSError as error:
        os.write(setup, f"the decision could not be contained: {error}".encode())
        os._exit(1)
    os.close(setup)
    code = 1
    script = decision.script
    try:
        for stream in control:
            stream.close()
        fresh = os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW  # never a file someone left there
        out = os.open(out_path, fresh, 0o600)
        err = os.open(err_path, fresh, 0o600)
        os.dup2(out, 1)
        os.dup2(err, 2)
        os.close(out)
        os.close(err)
        null = os.open(os.devnull, os.O_RDONLY)  # a description of its own: no flag reaches the next decision
        os.dup2(null, 0)
        os.close(null)
        os.closerange(3, MAX_FD)  # nothing else of the server's (its /dev/null, pipes) stays open
        sys.stdout = os.fdopen(1, "w", buffering=-1, encoding=sys.stdout.encoding, errors=sys.stdout.errors)
        sys.stderr = os.fdopen(2, "w", buffering=1, encoding=sys.stderr.encoding, errors="backslashreplace")
        sys.stdin = open(os.devnull)  # noqa: SIM115 - the child's stdin for the rest of its life
        reseed()
        path = os.path.realpath(script)
        sys.argv = [script]
        sys.path[0] = os.path.dirname(path)
        forget_shadowed(sys.path[0])
        code = run_main(script, path)
    finally:
        try:
            threading._shutdown()  # type: ignore[attr-defined]  # what interpreter exit does
            atexit._run_exitfuncs()
            sys.stdout.flush()
            sys.stderr.flush()
        finally:
            os._exit(code)


def run_main(script: str, path: str) -> int:
    """Run the script as ``__main__`` as ``python script.py`` does; return the exit code it would give.

    As the interpreter does: ``sys.argv[0]`` is the script as named, ``__file__`` its absolute path,
    ``__spec__`` None, and ``__main__`` a new module in ``sys.modules``.
    """
    main = types.ModuleType("__main__")
    main.__dict__.update(__file__=path, __cached__=None, __spec__=None, __builtins__=builtins)
    main.__loader__ = importlib.machinery.SourceFileLoader("__main__", path)
    sys.modules["__main__"] = main
    try:
        with open(path, "rb") as source:
            code = compile(source.read(), path, "exec")
        exec(code, main.__dict__)
    except SystemExit as leaving:
        if leaving.code is None:
            return 0
        if isinstance(leaving.code, int):
            return leaving.code
        print(leaving.code, file=sys.stderr)
        return 1
    except BaseException:  # the interpreter prints any uncaught exception and exits 1
        traceback.print_exc()
        return 1
    return 0


def forget_shadowed(folder: str) -> None:
    """Forget the modules this server loaded (and their submodules) that a module in ``folder`` would hide
    from ``python script.py``: a ``name.py`` or ``name.pyc``, or a package ``name/__init__.py``; the
    server's own code keeps the modules it holds, and the team's ``import name`` finds its own."""
    own = set()
    try:
        with os.scandir(folder) as entries:
            for entry in entries:
                if entry.name.endswith((".py", ".pyc")):
                    own.add(entry.name.rpartition(".")[0])
                elif entry.is_dir(follow_symlinks=False) and os.path.isfile(f"{entry.path}/__init__.py"):
                    own.add(entry.name)
    except OSError:
        return
    own -= FRESH
    if own:
        for name in [name for name in sys.modules if name.partition(".")[0] in own]:
            del sys.modules[name]


def reseed() -> None:
    """Fresh randomness, as a fresh interpreter has: ``random`` and (if preloaded) numpy's global state."""
    random.seed()
    numpy_random = sys.modules.get("numpy.random")
    if numpy_random is not None:
        numpy_random.seed()


if __name__ == "__main__":
    serve(sys.argv[1:])
