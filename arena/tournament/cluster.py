"""Play a tournament's tables on a Dask cluster: each table one task, the organiser the only writer.

The organiser's process connects to a ``dask scheduler``; ``dask worker`` processes on any number of
machines play the tables. Programs travel as content with their SHA-256 (never through a shared
filesystem): a worker writes each one once under its own folder, builds it through its own build
cache (keyed by content), plays the table in its own sandboxes and sends back the table's result and
its folder packed (:func:`~arena.tournament.pool.pack_table`). The organiser unpacks it and commits it
exactly as a local table (:mod:`arena.tournament.workers`), so resume after ``kill -9`` works the same.

A worker lost mid-table is Dask's to handle: the scheduler gives the table to another worker, and
since a result reaches the store only through the organiser's one future per table, no result is
doubled or lost. When a worker joins, :class:`WorkerCheck` probes it as ``arena doctor`` does
(namespaces, toolchains) and says what it lacks; tables are only sent to workers that have the
namespaces sandbox and every toolchain the table's programs need.
"""

from __future__ import annotations

import hashlib
import json
import logging
import os
import queue
import secrets
import tempfile
import time
from collections.abc import Callable, Iterable
from concurrent.futures import Future
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from arena.errors import ConfigError
from arena.faults import Fault
from arena.games.codem.table import PlayerSpec
from arena.languages import LANGUAGES, language_for, missing_toolchains
from arena.seats import namespaces_sandbox
from arena.tournament.certs import CA, cert_path, key_path
from arena.tournament.pool import TableOutcome, TableRunner, TableTask, pack_table
from arena.tournament.progress import Progress

try:
    import distributed
except ImportError:  # pragma: no cover - the cluster extra is not installed
    distributed = None  # type: ignore[assignment]  # checked before any use

WORKERS_TOPIC = "arena-workers"
WORKER_LOG = logging.getLogger("distributed.worker")  # where a Dask worker's own lines go
JOIN_TIMEOUT_S = 60.0
DEAL_REPORT_EVERY_S = 0.5
HELP_FILE_CAP = 64 << 20


@dataclass(frozen=True)
class Capabilities:
    """What a worker offers team programs: the namespaces sandbox and the languages it can build."""

    namespaces: bool
    languages: frozenset[str]
    detail: str

    def lacks(self, languages: Iterable[str]) -> list[str]:
        """What a table needing ``languages`` would miss here (empty: the worker can play it)."""
        missing = [] if self.namespaces else ["the namespaces sandbox"]
        return missing + sorted(set(languages) - self.languages)


def worker_capabilities() -> Capabilities:
    """Probe this machine as ``arena doctor`` does: namespaces and the six toolchains."""
    available, detail = namespaces_sandbox()
    missing = missing_toolchains()
    present = frozenset(language.name for language in LANGUAGES if language.name not in missing)
    absent = ", ".join(f"{name} ({install})" for name, install in sorted(missing.items()))
    return Capabilities(available, present, f"{detail}; missing toolchains: {absent or 'none'}")


def describe(address: str, capabilities: Capabilities) -> str:
    """One line for the organiser about a worker that joined."""
    lacks = capabilities.lacks(language.name for language in LANGUAGES)
    if not lacks:
        return f"worker {address} joined: namespaces sandbox, all six toolchains"
    return f"worker {address} joined without {', '.join(lacks)}: tables needing those go elsewhere"


class WorkerCheck(distributed.WorkerPlugin if distributed else object):  # type: ignore[misc]
    """Runs on every worker, present and future: probes it and announces what it can play."""

    idempotent = True

    def setup(self, worker: Any) -> None:
        """Probe the worker as it joins; log the result and publish it to the organiser."""
        capabilities = worker_capabilities()
        line = describe(worker.address, capabilities)
        if capabilities.lacks(language.name for language in LANGUAGES):
            WORKER_LOG.warning("arena: %s (%s)", line, capabilities.detail)
        worker.log_event(
            WORKERS_TOPIC,
            {
                "address": worker.address,
                "namespaces": capabilities.namespaces,
                "languages": sorted(capabilities.languages),
                "detail": capabilities.detail,
            },
        )


@dataclass(frozen=True)
class ProgramContent:
    """A program as bytes with their SHA-256: how a program reaches a worker."""

    name: str
    data: bytes
    sha256: str

    @classmethod
    def read(cls, path: Path) -> ProgramContent:
        """Read the program at ``path``."""
        data = path.read_bytes()
        return cls(path.name, data, hashlib.sha256(data).hexdigest())

    def materialise(self, root: Path) -> Path:
        """Write the program once under ``root/<sha256>/`` (checked) and return its path."""
        if hashlib.sha256(self.data).hexdigest() != self.sha256:
            raise ConfigError(f"{self.name} arrived with other content than its hash {self.sha256[:12]}")
        folder = root / self.sha256
        path = folder / self.name
        if not path.is_file():
            folder.mkdir(parents=True, exist_ok=True)
            staging = folder / f".{self.name}.{secrets.token_hex(4)}"
            staging.write_bytes(self.data)
            staging.rename(path)
        return path


@dataclass(frozen=True)
class RemoteSeat:
    """A seat as it travels: the team, its program's content, help files given before the table, and
    the hash the program was registered with (the worker's table checks the content against it)."""

    team: str
    program: ProgramContent
    help_files: tuple[tuple[str, bytes], ...] | None = None
    registered_sha256: str | None = None


@dataclass(frozen=True)
class RemoteTable:
    """A table as it travels to a worker; ``topic`` carries its deal reports back."""

    task: TableTask
    seats: tuple[RemoteSeat, ...]
    topic: str


def remote_table(task: TableTask, topic: str) -> RemoteTable:
    """Read the programs (and help files) of ``task`` into a :class:`RemoteTable`."""
    seats = tuple(
        RemoteSeat(
            player.team,
            ProgramContent.read(player.program),
            _read_help_files(player.help_dir),
            player.sha256,
        )
        for player in task.players
    )
    return RemoteTable(task, seats, topic)


def _read_help_files(folder: Path | None) -> tuple[tuple[str, bytes], ...] | None:
    """The regular files directly in ``folder`` (links and anything else were refused by the final)."""
    if folder is None:
        return None
    files, total = [], 0
    for entry in sorted(os.scandir(folder), key=lambda e: e.name):
        if entry.is_file(follow_symlinks=False):
            with open(entry.path, "rb", opener=_no_follow) as handle:
                data = handle.read(HELP_FILE_CAP + 1)
            total += len(data)
            if total > HELP_FILE_CAP:
                raise ConfigError(f"help files in {folder} pass {HELP_FILE_CAP >> 20} MB")
            files.append((entry.name, data))
    return tuple(files)


def _no_follow(path: str, flags: int) -> int:
    return os.open(path, flags | os.O_NOFOLLOW)


def play_remote(table: RemoteTable, runner: TableRunner) -> TableOutcome:
    """Worker side: write the programs, play the table in this worker's folder, send it back packed."""
    worker = distributed.get_worker()
    root = Path(worker.local_directory) / "arena"
    players = []
    for seat in table.seats:
        help_dir = None
        if seat.help_files is not None:
            help_dir = Path(tempfile.mkdtemp(prefix="help-", dir=_mkdir(root / "help")))
            for name, data in seat.help_files:
                (help_dir / name).write_bytes(data)
        program = seat.program.materialise(root / "programs")
        players.append(PlayerSpec(seat.team, program, help_dir, sha256=seat.registered_sha256))
    config = table.task.config.model_copy(update={"build_cache": root / "builds"})
    with tempfile.TemporaryDirectory(prefix=f"{table.task.name}.", dir=_mkdir(root / "tables")) as work:
        folder = Path(work) / table.task.name
        folder.mkdir()
        on_deal = _deal_reporter(worker, table.topic, table.task.name)
        on_fault = _fault_reporter(worker, table.topic, table.task.name)
        result = runner(players, folder, config, on_deal=on_deal, on_fault=on_fault)
        on_deal(None)
        return TableOutcome(table.task.name, result, archive=pack_table(folder))


def _mkdir(path: Path) -> Path:
    path.mkdir(parents=True, exist_ok=True)
    return path


def _deal_reporter(worker: Any, topic: str, name: str) -> Callable[[int | None], None]:
    """A table's ``on_deal`` that publishes the deal count at most every half second (None: flush)."""
    last = {"sent": 0.0, "deal": 0}

    def on_deal(number: int | None) -> None:
        if number is not None:
            last["deal"] = number
        now = time.monotonic()
        if number is None or now - last["sent"] >= DEAL_REPORT_EVERY_S:
            last["sent"] = now
            worker.log_event(topic, ("deal", name, last["deal"]))

    return on_deal


def _fault_reporter(worker: Any, topic: str, name: str) -> Callable[[Fault], None]:
    """A table's ``on_fault`` that publishes each fault as it is recorded."""

    def on_fault(fault: Fault) -> None:
        worker.log_event(topic, ("fault", name, json.dumps(fault.to_dict())))  # msgpack takes text

    return on_fault


def client_security(scheduler: str, certs: Path | None) -> Any:
    """The organiser's TLS credentials for a ``tls://`` scheduler (None for ``tcp://``, which takes none)."""
    tls = scheduler.startswith("tls://")
    if not tls:
        if certs is not None:
            raise ConfigError(f"--certs is for a tls:// scheduler; {scheduler} is not one")
        return None
    if certs is None:
        raise ConfigError(f"{scheduler} needs --certs DIR, the folder 'arena cluster certs DIR' wrote")
    files = [cert_path(certs, CA), cert_path(certs, "client"), key_path(certs, "client")]
    missing = [str(f) for f in files if not f.is_file()]
    if missing:
        raise ConfigError(f"--certs {certs}: missing {', '.join(missing)} ('arena cluster certs' makes them)")
    ca, cert, key = (str(f) for f in files)
    return distributed.Security(
        tls_ca_file=ca, tls_client_cert=cert, tls_client_key=key, require_encryption=True
    )


class ClusterPool:
    """Tables as Dask tasks on the cluster at ``scheduler``; see the module's docstring."""

    def __init__(self, scheduler: str, progress: Progress, *, certs: Path | None = None) -> None:
        if distributed is None:
            raise ConfigError("--scheduler needs Dask: pip install 'arena[cluster]'")
        security = client_security(scheduler, certs)
        try:
            self.client = distributed.Client(
                scheduler, timeout=f"{JOIN_TIMEOUT_S}s", set_as_default=False, security=security
            )
        except (OSError, TimeoutError) as error:
            raise ConfigError(f"cannot reach the Dask scheduler at {scheduler}: {error}") from None
        self.scheduler = scheduler
        self.reports: queue.SimpleQueue[tuple[str, int]] = queue.SimpleQueue()
        self.fault_reports: queue.SimpleQueue[tuple[str, str]] = queue.SimpleQueue()  # table, fault as JSON
        self.faults_shown: set[tuple[str, str]] = set()  # a table played again reports its faults again
        self.joined: queue.SimpleQueue[tuple[str, Capabilities]] = queue.SimpleQueue()
        self.topic = f"arena-deals-{secrets.token_hex(8)}"
        self.capabilities: dict[str, Capabilities] = {}
        self.shown: tuple[int, int] | None = None
        self.executor = self.client.get_executor(pure=False)
        self.client.subscribe_topic(self.topic, self._heard)
        self.client.subscribe_topic(WORKERS_TOPIC, self._joined)
        try:
            self.client.wait_for_workers(1, timeout=JOIN_TIMEOUT_S)
        except TimeoutError:
            self.client.close()
            raise ConfigError(f"no Dask worker joined {scheduler} within {JOIN_TIMEOUT_S:.0f} s") from None
        self.client.register_plugin(WorkerCheck(), name="arena-worker-check")
        for address, capabilities in self.client.run(worker_capabilities).items():
            self.capabilities[address] = capabilities
            progress.note(describe(address, capabilities))

    def _heard(self, event: tuple[float, tuple[Any, ...]]) -> None:
        """A worker's report: a table's deal count, or a fault as its table recorded it."""
        what, name, value = event[1]
        if what == "fault":
            self.fault_reports.put((str(name), str(value)))
        else:
            self.reports.put((str(name), int(value)))

    def _joined(self, event: tuple[float, dict[str, Any]]) -> None:
        message = event[1]
        capabilities = Capabilities(
            bool(message["namespaces"]), frozenset(message["languages"]), str(message["detail"])
        )
        self.joined.put((str(message["address"]), capabilities))

    def submit(self, task: TableTask, tables_dir: Path, runner: TableRunner) -> Future[TableOutcome]:
        """Send ``task`` to a worker that can play it (all of them when every one can)."""
        needs = {language_for(player.program).name for player in task.players}
        able = [address for address, caps in self.capabilities.items() if not caps.lacks(needs)]
        if not able:
            raise ConfigError(
                f"no worker of {self.scheduler} can play {task.name}: it needs the namespaces sandbox "
                f"and {', '.join(sorted(needs))}"
            )
        where: dict[str, Any] = {}
        if len(able) < len(self.capabilities):
            where = {"workers": able, "allow_other_workers": False}
        return self.executor.submit(play_remote, remote_table(task, self.topic), runner, **where)

    def deals_played(self) -> list[tuple[str, int]]:
        """The workers' deal reports received since the last call."""
        reports = []
        while not self.reports.empty():
            name, number = self.reports.get()
            reports.append((str(name), int(number)))
        return reports

    def faults(self) -> list[tuple[str, Fault]]:
        """The faults the workers' tables recorded since the last call, each once (a table played again
        after its worker died reports the same faults again)."""
        faults = []
        while not self.fault_reports.empty():
            name, text = self.fault_reports.get()
            if (name, text) not in self.faults_shown:  # the same table and fault write the same JSON
                self.faults_shown.add((name, text))
                faults.append((name, Fault.from_dict(json.loads(text))))
        return faults

    def poll(self, progress: Progress) -> None:
        """Announce workers that joined; report workers connected and tables in flight."""
        while not self.joined.empty():
            address, capabilities = self.joined.get()
            if address not in self.capabilities:
                progress.note(describe(address, capabilities))
            self.capabilities[address] = capabilities
        workers = self.client.nthreads()
        for gone in set(self.capabilities) - set(workers):
            del self.capabilities[gone]
        in_flight = sum(len(keys) for keys in self.client.processing().values())
        state = (len(workers), in_flight)
        if state != self.shown:
            self.shown = state
            progress.cluster(workers=state[0], in_flight=state[1])

    def close(self, *, cancel: bool) -> None:
        """Disconnect; the scheduler forgets this client's tables (and stops them when ``cancel``)."""
        self.executor.shutdown(wait=False)
        self.client.close()
