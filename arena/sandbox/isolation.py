"""How a sandbox is built: detecting what this machine allows, and bubblewrap's command line."""

from __future__ import annotations

import functools
import os
import shutil
import subprocess
import sys
from pathlib import Path

NAMESPACES = "namespaces"
RLIMITS_ONLY = "rlimits-only"
LEVELS = ("auto", NAMESPACES, RLIMITS_ONLY)

TEAM_DIR = "/team"
SCRATCH_DIR = "/tmp"
INSIDE = Path(__file__).with_name("inside")  # what runs inside the box (arena/sandbox/inside/)
HELPER_PATH = "/.arena/helper.py"
HELPER_SOURCE = INSIDE / "helper.py"
FORKSERVER_PATH = "/.arena/forkserver.py"
FORKSERVER_SOURCE = INSIDE / "forkserver.py"
TREE_SOURCE = Path(__file__).with_name("tree.py")
# What runs inside the box and what it loads from beside itself, bound read-only at /.arena/<name>.
BOX_SCRIPTS = (*sorted(path for path in INSIDE.glob("*.py") if path.name != "__init__.py"), TREE_SOURCE)
RUNNER_PATH = "/.arena/runner"  # arena's compiled runner (arena/sandbox/runner_client.py builds it)
RUNNER_LIBRARY_PATH = "/.arena/runner-library.so"  # its start and clock, for the fork server (the same C)

# Read-only system folders the toolchains need; nothing else of the host is visible.
SYSTEM_BINDS = ("/usr",)
SYSTEM_LINKS = (("usr/bin", "/bin"), ("usr/sbin", "/sbin"), ("usr/lib", "/lib"), ("usr/lib64", "/lib64"))
ETC_BINDS = (
    "/etc/alternatives",
    "/etc/ld.so.cache",
    "/etc/ld.so.conf",
    "/etc/ld.so.conf.d",
    "/etc/localtime",
    "/etc/java-17-openjdk",
    "/etc/perl",
)
# CAP_SYS_RESOURCE only to make oom_score_adj 1000 a floor programs cannot go below; all dropped at init.
HELPER_CAPS = ("CAP_SETUID", "CAP_SETGID", "CAP_KILL", "CAP_DAC_OVERRIDE", "CAP_FOWNER", "CAP_SYS_RESOURCE")
PROGRAM_PATH = "/usr/local/bin:/usr/bin:/bin"


def helper_interpreter() -> Path:
    """The interpreter that runs the helper: the system's python3 (stdlib only), else this one."""
    system = Path("/usr/bin/python3")
    return system.resolve() if system.exists() else Path(sys.executable).resolve()


def bwrap_argv(
    *,
    team_bytes: int,
    scratch_bytes: int,
    info_fd: int,
    runner: Path | None = None,
    library: Path | None = None,
) -> list[str]:
    """The bubblewrap command that starts one sandbox's helper as PID 1 of fresh namespaces; ``runner``
    (arena's compiled runner, when built) is bound read-only at ``/.arena/runner``, and ``library`` (its start
    sequence and clock as a shared object) at ``/.arena/runner-library.so``."""
    argv = [
        shutil.which("bwrap") or "bwrap",
        "--unshare-pid",
        "--unshare-net",
        "--unshare-ipc",
        "--unshare-uts",
        "--unshare-cgroup-try",
        "--die-with-parent",
        "--as-pid-1",
        "--new-session",
        "--clearenv",
        "--hostname",
        "sandbox",
        "--info-fd",
        str(info_fd),
    ]
    for path in SYSTEM_BINDS:
        argv += ["--ro-bind", path, path]
    for target, link in SYSTEM_LINKS:
        if Path(link).is_symlink():
            argv += ["--symlink", target, link]
        elif Path(link).is_dir():
            argv += ["--ro-bind", link, link]
    argv += ["--perms", "0755", "--dir", "/etc"]
    for path in ETC_BINDS:
        argv += ["--ro-bind-try", path, path]
    interpreter = helper_interpreter()
    prefix = Path(sys.base_prefix).resolve()
    if not str(prefix).startswith("/usr"):
        # The interpreter arena runs on is also the one Python team programs run on (it has numpy).
        for parent in reversed(prefix.parents[:-1]):
            argv += ["--perms", "0755", "--dir", str(parent)]
        argv += ["--ro-bind", str(prefix), str(prefix)]
    argv += [
        "--proc",
        "/proc",
        "--dev",
        "/dev",
        "--perms",
        "1777",
        "--size",
        str(team_bytes),
        "--tmpfs",
        TEAM_DIR,
        "--perms",
        "1777",
        "--size",
        str(scratch_bytes),
        "--tmpfs",
        SCRATCH_DIR,
        "--perms",
        "0755",
        "--dir",
        "/.arena",
    ]
    for source in BOX_SCRIPTS:  # everything the helper and the fork server load, flat beside them
        argv += ["--ro-bind", str(source), f"/.arena/{source.name}"]
    if runner is not None:
        argv += ["--ro-bind", str(runner), RUNNER_PATH]
    if library is not None:
        argv += ["--ro-bind", str(library), RUNNER_LIBRARY_PATH]
    argv += [
        "--remount-ro",
        "/",
    ]
    argv += ["--cap-drop", "ALL"]
    for cap in HELPER_CAPS:
        argv += ["--cap-add", cap]
    argv += ["--chdir", TEAM_DIR, str(interpreter), "-I", "-S", HELPER_PATH, "ns"]
    return argv


@functools.cache
def namespaces_available() -> tuple[bool, str]:
    """Whether bubblewrap can build the namespaced sandbox here, with the reason when it cannot."""
    if sys.platform != "linux":
        return False, f"namespaces need Linux (this is {sys.platform})"
    if shutil.which("bwrap") is None:
        return False, "bubblewrap (bwrap) is not installed (Debian package: bubblewrap)"
    if os.geteuid() != 0:
        return False, "the namespaced sandbox needs root to switch programs to an unprivileged uid"
    probe = [
        "bwrap",
        "--unshare-pid",
        "--unshare-net",
        "--as-pid-1",
        "--die-with-parent",
        "--ro-bind",
        "/usr",
        "/usr",
        "--symlink",
        "usr/bin",
        "/bin",
        "--symlink",
        "usr/lib",
        "/lib",
        "--symlink",
        "usr/lib64",
        "/lib64",
        "--proc",
        "/proc",
        "--dev",
        "/dev",
        "--size",
        "1048576",
        "--tmpfs",
        "/team",
        "/usr/bin/true",
    ]
    try:
        done = subprocess.run(probe, capture_output=True, timeout=20, check=False)
    except (OSError, subprocess.TimeoutExpired) as error:
        return False, f"bubblewrap could not start ({error})"
    if done.returncode != 0:
        return False, f"bubblewrap failed: {done.stderr.decode(errors='replace').strip()}"
    return True, "bubblewrap: PID, network, IPC and mount namespaces"
