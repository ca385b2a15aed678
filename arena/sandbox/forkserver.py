"""A Python fork server run inside a team's sandbox: a warm start that keeps Code'em's semantics.

Started once per team per table with the team's own interpreter and flags, it imports the modules named
on its command line (e.g. numpy) and nothing of the team's. For each request it forks; the child resets
what a fresh interpreter would have fresh (random seeds, ``sys.argv``, ``sys.path[0]``, ``__main__``),
runs the team's script with ``runpy`` exactly as ``python script.py`` would, and exits: every decision
gets a fresh process with fresh module state, and only the team's files carry memory.

Protocol on stdin/stdout (the arena's session pipes), one JSON line each way per run:
``{"script": "Team.py", "wall": 1.0, "out_cap": 65536}`` -> ``{"status": ..., "exit_code": ...,
"signal": ..., "wall_ms": ..., "cpu_ms": ..., "maxrss": ..., "stdout": "...", "stderr": "..."}``
(stdout/stderr as latin-1 text of the capped bytes). Standard library only, besides the preloads.
"""

from __future__ import annotations

import importlib
import json
import os
import random
import select
import signal
import sys
import time

# The one prctl wrapper, beside this script (sys.path[0]; arena/sandbox/prctl.py), then forgotten by name so
# a team program with a module called prctl imports its own, as it would in a fresh interpreter.
import prctl as _prctl  # type: ignore[import-not-found]

del sys.modules["prctl"]


def serve(preloads: list[str]) -> None:
    """Preload, then answer run requests until stdin closes."""
    for name in preloads:
        importlib.import_module(name)
    control_in = os.fdopen(os.dup(0), "rb", buffering=0)
    control_out = os.fdopen(os.dup(1), "wb", buffering=0)
    devnull = os.open(os.devnull, os.O_RDWR)
    os.dup2(devnull, 0)
    os.dup2(devnull, 1)
    _prctl.prctl(_prctl.PR_SET_DUMPABLE, 0)  # the programs it starts cannot ptrace it
    control_out.write(b'{"ready": true}\n')
    while True:
        line = control_in.readline()
        if not line:
            return
        request = json.loads(line)
        reply = run_one(request["script"], request["wall"], request["out_cap"], (control_in, control_out))
        control_out.write(json.dumps(reply).encode() + b"\n")


def run_one(script: str, wall: float, out_cap: int, control: tuple) -> dict:
    """Fork, run the script in the child as ``__main__``, wait with the wall limit, measure."""
    out_path, err_path = f"/tmp/.warm-{os.getpid()}.out", f"/tmp/.warm-{os.getpid()}.err"
    started = time.monotonic()
    pid = os.fork()
    if pid == 0:
        child(script, out_path, err_path, control)
    pidfd = os.pidfd_open(pid)
    timed_out = not select.select([pidfd], [], [], wall)[0]
    if timed_out:
        os.killpg(pid, signal.SIGKILL)
    _, status, usage = os.wait4(pid, 0)
    wall_ms = (time.monotonic() - started) * 1000
    os.close(pidfd)
    code = os.waitstatus_to_exitcode(status)
    outputs = []
    for path in (out_path, err_path):
        try:
            with open(path, "rb") as captured:
                data = captured.read(out_cap + 1)
            os.unlink(path)
        except OSError:
            data = b""
        outputs.append(data)
    too_much = any(len(data) > out_cap for data in outputs)
    return {
        "status": "timeout" if timed_out else "output" if too_much else "ok" if code == 0 else "exited",
        "exit_code": code if code >= 0 else None,
        "signal": -code if code < 0 else None,
        "wall_ms": wall_ms,
        "cpu_ms": (usage.ru_utime + usage.ru_stime) * 1000,
        "maxrss": usage.ru_maxrss,
        "stdout": outputs[0][:out_cap].decode("latin-1"),
        "stderr": outputs[1][:out_cap].decode("latin-1"),
    }


def child(script: str, out_path: str, err_path: str, control: tuple) -> None:
    """In the forked child: become what ``python script.py`` would be, run it, exit like it."""
    code = 1
    try:
        os.setsid()
        for stream in control:
            stream.close()
        out = os.open(out_path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        err = os.open(err_path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        os.dup2(out, 1)
        os.dup2(err, 2)
        os.close(out)
        os.close(err)
        sys.stdout = os.fdopen(1, "w", buffering=-1, encoding=sys.stdout.encoding, errors=sys.stdout.errors)
        sys.stderr = os.fdopen(2, "w", buffering=1, encoding=sys.stderr.encoding, errors="backslashreplace")
        sys.stdin = open(os.devnull)  # noqa: SIM115 - the child's stdin for the rest of its life
        reseed()
        path = os.path.realpath(script)
        sys.argv = [script]
        sys.path[0] = os.path.dirname(path)
        code = run_main(script, path)
    finally:
        try:
            import atexit
            import threading

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
    import builtins
    import importlib.machinery
    import traceback
    import types

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


def reseed() -> None:
    """Fresh randomness, as a fresh interpreter has: ``random`` and (if preloaded) numpy's global state."""
    random.seed()
    numpy_random = sys.modules.get("numpy.random")
    if numpy_random is not None:
        numpy_random.seed()


if __name__ == "__main__":
    serve(sys.argv[1:])
