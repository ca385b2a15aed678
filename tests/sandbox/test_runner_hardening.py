"""arena's C held to a contest sandbox's standard: hardened builds, checked options, checked system calls.

The runner (arena/sandbox/inside/runner.c) is run here by itself, outside a sandbox, as the helper would
start it:
a command line it does not understand stops it with exit code 2 before it says ``ready``, and a system call
of its own that fails is arena's failure (it exits, naming the call), never a reply blaming the program.
The builds are inspected with ``readelf``.
"""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest

from arena import compiled
from arena.errors import SandboxError
from arena.evaluator.kernel import DISABLE, rollout_kernel
from arena.games.headsup.hand_loop import loop_kernel
from arena.sandbox import NAMESPACES, Limits, RunStatus, isolation, open_sandbox
from arena.sandbox.runner_client import Runner, runner_binary, runner_library

pytestmark = pytest.mark.native

TIMEOUT_S = 20


COMPILER = shutil.which("cc") or shutil.which("gcc")


def _runner() -> Path:
    """The runner's build; where it should build, a failed build (a warning, say) fails the test."""
    if os.geteuid() != 0 or COMPILER is None or os.environ.get("ARENA_NO_RUNNER") == "1":
        pytest.skip("the runner is built for root only, with a C compiler")
    binary = runner_binary()
    assert binary is not None, "the runner did not build"
    return binary


def _run(options: list[str], request: bytes = b"") -> subprocess.CompletedProcess[bytes]:
    """The runner started with ``options``, sent ``request``, then its input closed."""
    return subprocess.run([str(_runner()), *options], input=request, capture_output=True, timeout=TIMEOUT_S)


def _request(argv: list[str], out_cap: str = "4096") -> bytes:
    """One decision's request: 5 s of wall time, no CPU budget or limit."""
    blob = b"".join(item.encode() + b"\0" for item in argv)
    return f"5000000 -1 -1 {out_cap} {len(blob)} 0\n".encode() + blob


def test_a_command_line_it_understands_starts_it_and_runs_a_decision(tmp_path: Path) -> None:
    done = _run([f"--cwd={tmp_path}", "--help-files=15", "--rlimit=fsize:1048576"], _request(["echo", "hi"]))
    assert done.returncode == 0, done.stderr
    ready, header, detail, rest = done.stdout.split(b"\n", 3)
    assert ready == b"ready" and header.split()[0] == b"ok" and detail == b"" and rest == b"hi\n", done.stdout


def test_an_unknown_option_is_refused() -> None:
    done = _run(["--cwd=/", "--cpu-fds=5"])
    assert done.returncode == 2 and b"ready" not in done.stdout
    assert b"unknown option: --cpu-fds=5" in done.stderr


@pytest.mark.parametrize(
    "option",
    [
        "--cpu-fd=5x",  # trailing garbage
        "--cpu-fd=",
        "--kill-fd= 6",  # a space strtol would skip
        "--events-fd=+7",
        "--cpu-fd=99999999999",  # out of an int's range
        "--help-files=-1",
        "--help-bytes=99999999999999999999",  # past long long
        "--folder-depth=8.5",
        "--cgroup-fds=3,,4",
        "--cgroup-fds=3,4,5,6,7,8,9,10,11",  # more than it holds
        "--rlimit=fsize:1e9",
        "--rlimit=fsize:-1",
        "--rlimit=nosuch:1",
        "--rlimit=fsize",
    ],
)
def test_a_number_out_of_range_or_with_garbage_is_refused(option: str) -> None:
    done = _run(["--cwd=/", option])
    assert done.returncode == 2 and b"ready" not in done.stdout, (option, done)
    assert done.stderr.startswith(b"runner: ") and done.stderr.count(b"\n") == 1, done.stderr


@pytest.mark.parametrize("cap", ["-5", "4096x", "+4096", "99999999999999999999"])
def test_a_request_with_a_bad_number_is_refused_without_a_reply(cap: str, tmp_path: Path) -> None:
    done = _run([f"--cwd={tmp_path}"], _request(["echo", "hi"], out_cap=cap))
    assert done.returncode == 1 and done.stdout == b"ready\n", done
    assert b"malformed request" in done.stderr


def test_a_start_the_sandbox_cannot_prepare_is_its_failure_not_the_programs(tmp_path: Path) -> None:
    """A team folder the runner cannot enter is arena's failure: no ``not_started`` reply for the program."""
    done = _run([f"--cwd={tmp_path / 'gone'}"], _request(["echo", "hi"]))
    assert done.returncode == 1 and done.stdout == b"ready\n", done
    assert str(tmp_path / "gone").encode() in done.stderr and b"No such file" in done.stderr


def test_a_program_that_cannot_be_started_is_still_the_programs_failure(tmp_path: Path) -> None:
    done = _run([f"--cwd={tmp_path}"], _request([str(tmp_path / "missing")]))
    assert done.returncode == 0, done.stderr
    assert done.stdout.split(b"\n")[1].split()[0] == b"not_started"


# Every road through the runner (see the module's run()): a reply, each way a run ends, leftovers in /tmp,
# SysV IPC, strays. Under ARENA_SANITIZE=1 (CI) the runner is the ASan/UBSan build, and a report ends it.
DECISIONS = [
    ("echo hi; echo oops >&2", RunStatus.OK),
    ("exit 3", RunStatus.NONZERO_EXIT),
    ("kill -SEGV $$", RunStatus.SIGNALED),
    ("echo x > /tmp/f; mkdir -p /tmp/d/e; echo y > /tmp/d/e/g", RunStatus.OK),
    ("sleep 30 & echo started", RunStatus.OK),
    ("yes", RunStatus.OUTPUT_LIMIT),
    ("while :; do :; done", RunStatus.TIMEOUT),
    ("ipcmk -M 4096 >/dev/null 2>&1; ipcmk -Q >/dev/null 2>&1; true", RunStatus.OK),
]


def test_real_decisions_in_a_sandbox_take_every_road_through_the_runner_without_a_failure(
    open_root: Path,
) -> None:
    """Each decision is the runner's (no failure, no rerun by the helper), with the status it earned."""
    limits = Limits(wall_time_s=0.5, output_bytes=4096)
    with open_sandbox(open_root / "team", limits, isolation=NAMESPACES) as sandbox:
        if not sandbox.has_runner:
            pytest.skip("no runner here (namespaces, cgroup v2 and a C compiler needed)")
        for _ in range(2):
            for script, status in DECISIONS:
                result = sandbox.run(["/bin/sh", "-c", script])
                assert result.status is status, (script, result)
        shown = sandbox.run(["/bin/sh", "-c", "ls -A /tmp; ipcs -m | grep -c 0x || true"])
        assert shown.stdout == b"0\n", shown


def test_a_runner_that_fails_in_a_sandbox_says_what_failed(open_root: Path) -> None:
    """The failure is arena's (a SandboxError, not a run result), and names the runner's failed call."""
    with open_sandbox(open_root / "team", Limits(), isolation=NAMESPACES) as sandbox:
        if not sandbox.has_runner:
            pytest.skip("no runner here (namespaces, cgroup v2 and a C compiler needed)")
        runner = Runner(sandbox.start([isolation.RUNNER_PATH, "--cwd=/nowhere"], machinery=True))
        with pytest.raises(
            SandboxError, match=r"runner is gone \(runner: /nowhere: No such file or directory"
        ):
            runner.run(["/bin/true"], 5.0, None, None, 4096)


def _readelf(path: Path, *options: str) -> str:
    readelf = shutil.which("readelf")
    if readelf is None:
        pytest.skip("no readelf (binutils)")
    return subprocess.run(
        [readelf, "-W", *options, str(path)], capture_output=True, text=True, check=True
    ).stdout


def _assert_hardened(path: Path, *, fortified: bool = True) -> None:
    """Full RELRO (BIND_NOW and a GNU_RELRO segment), the stack protector, and fortified calls (when the
    code makes calls fortify checks); under ``ARENA_SANITIZE=1``, the sanitizers' runtimes instead of
    fortify (CI's pass is a sanitized one)."""
    dynamic = _readelf(path, "-d")
    assert "BIND_NOW" in dynamic
    assert compiled.sanitizing() == ("libasan" in dynamic and "libubsan" in dynamic)
    assert "GNU_RELRO" in _readelf(path, "-l")
    symbols = _readelf(path, "--dyn-syms")
    assert "__stack_chk_fail" in symbols
    if fortified and not compiled.sanitizing():  # ASan checks what fortify would; the build drops fortify
        assert "_chk@" in symbols.replace("__stack_chk_fail@", "")


def test_the_runner_is_a_hardened_position_independent_executable() -> None:
    binary = _runner()
    assert "DYN (Position-Independent Executable file)" in _readelf(binary, "-h")
    assert "PIE" in _readelf(binary, "-d")
    _assert_hardened(binary)


def test_the_runner_library_is_hardened_even_in_a_sanitized_pass() -> None:
    """The runner's start sequence and clock as the fork server loads them: PIC, full RELRO, the stack
    protector; never the sanitizers' build (no ASan runtime can be preloaded in the box: CI's sanitized
    pass checks the same sources compiled into the runner)."""
    _runner()
    library = runner_library()
    assert library is not None, "the runner's library did not build"
    assert "DYN (Shared object file)" in _readelf(library, "-h")
    dynamic = _readelf(library, "-d")
    assert "BIND_NOW" in dynamic and "libasan" not in dynamic
    assert "GNU_RELRO" in _readelf(library, "-l")
    assert "__stack_chk_fail" in _readelf(library, "--dyn-syms")


def test_the_kernels_are_a_hardened_shared_library() -> None:
    if COMPILER is None or os.environ.get(DISABLE):
        pytest.skip("no C compiler (or ARENA_NO_KERNELS)")
    # the rollouts alone call nothing fortify checks (no reads, no formatting); the hand loop does
    for kernel, fortified in ((rollout_kernel(), False), (loop_kernel(), True)):
        assert kernel is not None, "the kernels did not build"
        assert "DYN (Shared object file)" in _readelf(kernel.path, "-h")
        _assert_hardened(kernel.path, fortified=fortified)


def test_a_warning_fails_the_build(tmp_path: Path) -> None:
    clean, warned = tmp_path / "clean.c", tmp_path / "warned.c"
    clean.write_text("int main(void) { return 0; }\n")
    warned.write_text("int main(int argc, char **argv) { int unused; return 0; }\n")
    flags = compiled.build_flags("executable")
    assert compiled.compiled(clean, flags, tmp_path / "cache") is not None
    assert compiled.compiled(warned, flags, tmp_path / "cache") is None


def test_a_sanitized_build_has_its_own_cache_entry(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    source = tmp_path / "tiny.c"
    source.write_text('#include <stdio.h>\nint main(void) { puts("hi"); return 0; }\n')
    monkeypatch.setenv(compiled.SANITIZE, "0")
    plain = compiled.compiled(source, compiled.build_flags("executable"), tmp_path / "cache")
    monkeypatch.setenv(compiled.SANITIZE, "1")
    sanitized = compiled.compiled(source, compiled.build_flags("executable"), tmp_path / "cache")
    assert plain is not None and sanitized is not None and plain != sanitized
    assert "libasan" in _readelf(sanitized, "-d") and "libasan" not in _readelf(plain, "-d")
    assert subprocess.run([sanitized], capture_output=True, timeout=TIMEOUT_S).stdout == b"hi\n"


def test_the_runner_removes_the_programs_ipc_objects_itself(open_root: Path) -> None:
    """Under its own uid the runner still removes what the program made (a child of it takes the team's
    uid): the decision is not left dirty for the helper, and nothing remains for the next one."""
    with open_sandbox(open_root / "team", Limits(), isolation=NAMESPACES) as sandbox:
        if sandbox.runner is None:
            pytest.skip("no runner here (namespaces, cgroup v2 and a C compiler needed)")
        made = sandbox.runner.run(
            ["/bin/sh", "-c", "ipcmk -M 4096 && ipcmk -Q && ipcmk -S 1"], 20.0, None, None, 4096
        )
        assert made.status == "ok" and not made.dirty, made
        shown = sandbox.run(["/bin/sh", "-c", "ipcs | grep -c 0x || true"])
        assert shown.stdout == b"0\n", shown
