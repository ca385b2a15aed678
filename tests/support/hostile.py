"""A real Code'em table with one attacker beside honest programs, and what it must leave behind.

:func:`play_hostile` plays ``run_table`` with honest sample programs and one attacker program, each in
its real sandbox, and checks what issue 12 asks of every attack:

* the table completes and writes ``results.json``;
* a canary tree outside the run folder (a readable file, a root-only 0600 file, a sub-folder) has the
  same names, types, modes, owners and bytes afterwards;
* no process, cgroup, mount, key or SysV IPC object of the table's sandboxes remains (only what the
  table's own sandboxes made is counted: other developers' sandboxes run beside us);
* optionally, the honest teams end with the same stacks as at the same table with an honest program in
  the attacker's seat (``baseline``), where the attacker answers like that program.

The attacker learns the canary's path from a help file ``canary.txt`` given to it before the table, so
its links and moves can aim at a real host folder. The attacker's faults are returned for assertions.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import stat
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import psutil

from arena.faults import Fault
from arena.games.codem.table import PlayerSpec, TableConfig, TableResult, TeamResult, run_table
from arena.sandbox import tree
from arena.sandbox.sandbox import Sandbox

ROOT = Path(__file__).resolve().parents[2]
HONEST = (ROOT / "bots" / "codem" / "Tight.c", ROOT / "bots" / "codem" / "Caller.py")
ATTACKS = ROOT / "tests" / "programs" / "attacks"
CHECKER = ROOT / "tests" / "programs" / "codem" / "Checker.py"
TRACE_FILE = "sandboxes.json"


@dataclass(frozen=True)
class SandboxTrace:
    """What one sandbox of the table was: its uid, its processes' pids and its cgroups."""

    uid: int | None
    pids: tuple[int, ...]
    cgroups: tuple[str, ...]


@dataclass(frozen=True)
class HostileOutcome:
    """A finished hostile table: its folder, its result, the attacker's faults, the baseline's result."""

    out: Path
    result: TableResult
    attacker: TeamResult
    baseline: TableResult | None
    compiled: dict[str, os.stat_result] = field(default_factory=dict)
    """What the attacker's build made (binaries, class files), as its box held them when the table ended:
    name to its ``lstat``. The run folder keeps no copy of them (the build cache does)."""

    @property
    def faults(self) -> tuple[Fault, ...]:
        """The attacker's recorded faults."""
        return self.attacker.faults

    @property
    def team_folder(self) -> Path:
        """The attacker's folder as the table left it (copied out of its sandbox)."""
        return self.out / "teams" / self.attacker.team


# -- what the table's sandboxes were -----------------------------------------------------------------


@contextlib.contextmanager
def tracking_sandboxes() -> Iterator[list[SandboxTrace]]:
    """Record every sandbox opened in this process while the block runs."""
    traces: list[SandboxTrace] = []
    original = Sandbox._start_helper

    def start_and_record(sandbox: Sandbox) -> None:
        original(sandbox)
        pids = {sandbox.process.pid, getattr(sandbox, "helper_pid", sandbox.process.pid)}
        paths = getattr(sandbox.cgroup, "paths", ()) if sandbox.cgroup is not None else ()
        traces.append(SandboxTrace(sandbox.uid, tuple(sorted(pids)), tuple(str(p) for p in paths)))

    Sandbox._start_helper = start_and_record  # type: ignore[method-assign]
    try:
        yield traces
    finally:
        Sandbox._start_helper = original  # type: ignore[method-assign]


@contextlib.contextmanager
def recording_compiled() -> Iterator[dict[str, dict[str, os.stat_result]]]:
    """Record, for every sandbox closed in this process while the block runs, what its build made as its
    box held it at the end: team (its folder's name) to {name: its lstat}; a name gone is missing."""
    seen: dict[str, dict[str, os.stat_result]] = {}
    original = Sandbox._copy_out

    def record_and_copy(sandbox: Sandbox, source: int | None = None) -> None:
        folder = tree.open_folder(sandbox.folder) if source is None else source
        names = seen.setdefault(sandbox.workdir.name, {})
        for name in sandbox.compiled:
            with contextlib.suppress(OSError):
                names[name] = os.stat(name, dir_fd=folder, follow_symlinks=False)
        if source is None:
            os.close(folder)
        original(sandbox, source)

    Sandbox._copy_out = record_and_copy  # type: ignore[method-assign]
    try:
        yield seen
    finally:
        Sandbox._copy_out = original  # type: ignore[method-assign]


def tracked_run_table(
    players: Sequence[PlayerSpec], out_dir: Path, config: TableConfig, **options: Any
) -> TableResult:
    """``run_table`` that also writes its sandboxes' traces to ``out_dir/sandboxes.json`` (a tournament's
    table runner: it runs in a worker process, so the traces travel through the table's folder)."""
    with tracking_sandboxes() as traces:
        try:
            return run_table(players, out_dir, config, **options)
        finally:
            (out_dir / TRACE_FILE).write_text(json.dumps([trace.__dict__ for trace in traces]))


def read_traces(folder: Path) -> list[SandboxTrace]:
    """Every trace written by :func:`tracked_run_table` below ``folder``."""
    traces = []
    for path in folder.rglob(TRACE_FILE):
        for item in json.loads(path.read_text()):
            traces.append(SandboxTrace(item["uid"], tuple(item["pids"]), tuple(item["cgroups"])))
    return traces


# -- what must not remain ----------------------------------------------------------------------------


def _mounts() -> set[str]:
    with open("/proc/self/mountinfo") as table:
        return {line.split()[4] for line in table}


def _ipc_objects(uids: set[int]) -> list[str]:
    """SysV shared memory, message queues and semaphores owned or created by one of ``uids``."""
    found = []
    for kind in ("shm", "msg", "sem"):
        try:
            lines = Path(f"/proc/sysvipc/{kind}").read_text().splitlines()
        except OSError:
            continue
        header = lines[0].split()
        for line in lines[1:]:
            row = dict(zip(header, line.split(), strict=False))
            if int(row.get("uid", -1)) in uids or int(row.get("cuid", -1)) in uids:
                found.append(f"{kind} {line.split()[1]}")
    return found


def _keys(uids: set[int]) -> list[str]:
    """Users among ``uids`` that still own kernel keys (``/proc/key-users`` lists every user's count)."""
    try:
        lines = Path("/proc/key-users").read_text().splitlines()
    except OSError:
        return []
    return [line.strip() for line in lines if int(line.split(":")[0]) in uids]


def leftovers(traces: Sequence[SandboxTrace], mounts_before: set[str]) -> list[str]:
    """Everything the traced sandboxes left: processes, cgroups, mounts, keys, IPC objects."""
    uids = {trace.uid for trace in traces if trace.uid is not None}
    pids = {pid for trace in traces for pid in trace.pids}
    found = []
    for process in psutil.process_iter(["uids", "status", "name"]):
        info = process.info
        if info["status"] == psutil.STATUS_ZOMBIE:
            continue
        if process.pid in pids or (info["uids"] and info["uids"].real in uids):
            found.append(f"process {process.pid} ({info['name']})")
    found += [f"cgroup {path}" for trace in traces for path in trace.cgroups if Path(path).exists()]
    found += [f"mount {point}" for point in sorted(_mounts() - mounts_before)]
    found += [f"keys of {line}" for line in _keys(uids)]
    found += [f"ipc {item}" for item in _ipc_objects(uids)]
    return found


# -- the canary ---------------------------------------------------------------------------------------


def make_canary(folder: Path) -> Path:
    """A small host tree the attacker will aim at: a note, a root-only secret, a sub-folder with a file."""
    folder.mkdir(parents=True)
    (folder / "note.txt").write_text("canary note\n")
    secret = folder / "secret.txt"
    secret.write_text("canary secret\n")
    secret.chmod(0o600)
    (folder / "inner").mkdir()
    (folder / "inner" / "victim.txt").write_text("canary victim\n")
    return folder


def fingerprint(folder: Path) -> dict[str, tuple[int, int, int, str]]:
    """Relative path -> (mode, uid, gid, sha256 or link target) of all in ``folder``, links unfollowed."""
    found = {}
    for path in sorted([folder, *folder.rglob("*")]):
        info = path.lstat()
        if stat.S_ISREG(info.st_mode):
            content = hashlib.sha256(path.read_bytes()).hexdigest()
        elif stat.S_ISLNK(info.st_mode):
            content = os.readlink(path)
        else:
            content = ""
        found[str(path.relative_to(folder))] = (info.st_mode, info.st_uid, info.st_gid, content)
    return found


# -- the table ----------------------------------------------------------------------------------------


def _players(attacker: Path, honest: Sequence[Path], help_dir: Path) -> list[PlayerSpec]:
    return [PlayerSpec(attacker.stem, attacker, help_dir)] + [PlayerSpec(p.stem, p) for p in honest]


def play_hostile(
    attacker: Path,
    root: Path,
    *,
    honest: Sequence[Path] = HONEST,
    deals: int = 8,
    seed: int = 7,
    baseline: Path | None = None,
    config: Callable[[TableConfig], TableConfig] | None = None,
) -> HostileOutcome:
    """Play ``attacker`` at a real table beside ``honest``; check completion, the canary and leftovers.

    ``baseline``: a program playing the attacker's seat in a second, otherwise identical table; the honest
    teams must end with the same stacks at both (use it when the attacker answers like that program).
    """
    canary = make_canary(root / "canary")
    help_dir = root / "given" / attacker.stem
    help_dir.mkdir(parents=True)
    (help_dir / "canary.txt").write_text(f"{canary}\n")
    # Faults never end the attacker's play (no disqualification), so its answers, and with them the
    # honest teams' results, stay comparable with the baseline's.
    table_config = TableConfig(deals=deals, seed=seed, time_limit_s=1.0, max_faults=100_000)
    if config is not None:
        table_config = config(table_config)
    before = fingerprint(canary)
    mounts = _mounts()
    out = root / "table"
    with tracking_sandboxes() as traces, recording_compiled() as compiled:
        result = run_table(_players(attacker, honest, help_dir), out, table_config)
    assert (out / "results.json").is_file(), "the table wrote no results.json"
    assert json.loads((out / "results.json").read_text())["deals_played"] == result.deals_played
    left = leftovers(traces, mounts)
    assert left == [], f"the table left {left}"
    assert fingerprint(canary) == before, "the canary tree outside the run folder changed"
    attacker_result = next(team for team in result.teams if team.team == attacker.stem)
    baseline_result = None
    if baseline is not None:
        staged = root / "baseline" / f"{attacker.stem}{baseline.suffix}"
        staged.parent.mkdir()
        staged.write_bytes(baseline.read_bytes())
        baseline_result = run_table(_players(staged, honest, help_dir), root / "baseline-table", table_config)
        honest_teams = {p.stem for p in honest}
        stacks = {t.team: t.final_stack for t in result.teams if t.team in honest_teams}
        expected = {t.team: t.final_stack for t in baseline_result.teams if t.team in honest_teams}
        assert stacks == expected, f"honest teams' stacks {stacks} differ from the baseline's {expected}"
    return HostileOutcome(out, result, attacker_result, baseline_result, compiled.get(attacker.stem, {}))
