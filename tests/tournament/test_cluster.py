"""Tournaments on a real Dask cluster: a `dask scheduler` and two `dask worker` processes on 127.0.0.1.

The cluster speaks TLS with certificates from ``arena cluster certs`` (a peer without one is refused).
It must give exactly the rows a local ``--jobs`` run gives with the same programs and seed; losing a
worker mid-table, or the organiser's process, must change nothing but the time taken.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import signal
import ssl
import subprocess
import sys
import threading
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from arena.cli import main
from arena.errors import ConfigError
from arena.faults import Fault
from arena.tournament.certs import make_certs
from arena.tournament.cluster import ProgramContent, client_security
from arena.tournament.host import TournamentSettings, run_tournament
from arena.tournament.pool import pack_table, unpack_table
from arena.tournament.progress import Quiet
from arena.tournament.store import Store

from support.field import make_field

distributed = pytest.importorskip("distributed")

ROOT = Path(__file__).resolve().parents[2]
ENV = {**os.environ, "PYTHONPATH": f"{ROOT}:{ROOT / 'tests'}"}
SETTINGS = TournamentSettings(deals=40, seed=11, time_limit_s=10)


@dataclass
class Cluster:
    """A scheduler and its workers, each a process group of its own."""

    address: str
    folder: Path
    certs: Path
    workers: list[subprocess.Popen] = field(default_factory=list)
    scheduler: subprocess.Popen | None = None

    def add_worker(self, name: str, *preload: str) -> subprocess.Popen:
        argv = [
            sys.executable, "-m", "distributed.cli.dask_worker", self.address,
            "--nthreads", "1", "--no-nanny", "--no-dashboard",
            "--local-directory", str(self.folder / name), "--name", name, *tls_options(self.certs, "worker"),
        ]  # fmt: skip
        for module in preload:
            argv += ["--preload", module]
        log = (self.folder / f"{name}.log").open("wb")
        worker = subprocess.Popen(argv, env=ENV, stdout=log, stderr=log, start_new_session=True)
        self.workers.append(worker)
        return worker

    def client(self) -> distributed.Client:
        return distributed.Client(
            self.address, timeout="60s", security=client_security(self.address, self.certs)
        )

    def wait_for_workers(self, count: int) -> None:
        with self.client() as client:
            client.wait_for_workers(count, timeout=120)

    def pids_by_address(self) -> dict[str, int]:
        with self.client() as client:
            return client.run(os.getpid)

    def stop(self) -> None:
        for process in [*self.workers, self.scheduler]:
            if process is not None and process.poll() is None:
                os.killpg(process.pid, signal.SIGKILL)
                process.wait()


def tls_options(certs: Path, role: str) -> list[str]:
    """The TLS flags of ``dask scheduler`` and ``dask worker``, as docs/cluster.md gives them."""
    ca, cert, key = certs / "ca.pem", certs / f"{role}.pem", certs / f"{role}-key.pem"
    return ["--tls-ca-file", str(ca), "--tls-cert", str(cert), "--tls-key", str(key)]


@pytest.fixture(scope="module")
def certs(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("certs") / "certs"
    assert main(["cluster", "certs", str(folder)]) == 0
    return folder


@pytest.fixture
def cluster(tmp_path: Path, certs: Path) -> Iterator[Cluster]:
    folder = tmp_path / "cluster"
    folder.mkdir()
    scheduler_file = folder / "scheduler.json"
    argv = [
        sys.executable, "-m", "distributed.cli.dask_scheduler", "--host", "127.0.0.1", "--port", "0",
        "--no-dashboard", "--scheduler-file", str(scheduler_file), "--protocol", "tls",
        *tls_options(certs, "scheduler"),
    ]  # fmt: skip
    log = (folder / "scheduler.log").open("wb")
    scheduler = subprocess.Popen(argv, env=ENV, stdout=log, stderr=log, start_new_session=True)
    try:
        while not scheduler_file.exists():  # written once the scheduler listens
            with contextlib.suppress(subprocess.TimeoutExpired):
                scheduler.wait(timeout=0.2)
                pytest.fail(f"the dask scheduler exited: {(folder / 'scheduler.log').read_text()[-2000:]}")
        address = json.loads(scheduler_file.read_text())["address"]
        assert address.startswith("tls://127.0.0.1:")
    except BaseException:
        os.killpg(scheduler.pid, signal.SIGKILL)
        raise
    running = Cluster(address, folder, certs, scheduler=scheduler)
    try:
        for name in ("worker-a", "worker-b"):
            running.add_worker(name)
        running.wait_for_workers(2)
        yield running
    finally:
        running.stop()


def result_rows(run_dir: Path) -> list[tuple]:
    store = Store(run_dir)
    try:
        return [(r.table_name, r.team, r.seat, r.final_stack, r.profit, r.faults) for r in store.results()]
    finally:
        store.close()


@pytest.fixture(scope="module")
def submissions(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("submissions")
    make_field(folder, 7)
    return folder


@pytest.fixture(scope="module")
def local_rows(submissions: Path, tmp_path_factory: pytest.TempPathFactory) -> list[tuple]:
    """The reference: the same tournament played by two local worker processes."""
    run_dir = tmp_path_factory.mktemp("local") / "run"
    run_tournament(submissions, run_dir, SETTINGS, jobs=2)
    return result_rows(run_dir)


class DealWatch(Quiet):
    """A progress that calls ``on_first_deal`` once, when a table has reported its first deals."""

    def __init__(self, on_first_deal) -> None:
        self.on_first_deal = on_first_deal
        self.fired = threading.Event()
        self.lines: list[str] = []
        self.faults: list[tuple[str, str, str, int | None]] = []

    def note(self, message: str) -> None:
        self.lines.append(message)

    def cluster(self, *, workers: int, in_flight: int) -> None:
        self.lines.append(f"cluster: {workers} workers, {in_flight} in flight")

    def fault(self, table: str, fault: Fault) -> None:
        self.faults.append((table, fault.team, fault.kind.value, fault.deal))

    def advance(self, *, tables: int = 0, deals: int = 0) -> None:
        if deals and not tables and not self.fired.is_set():
            self.fired.set()
            self.on_first_deal()


@pytest.mark.slow
def test_a_cluster_tournament_gives_the_rows_of_a_local_one(
    cluster: Cluster, submissions: Path, local_rows: list[tuple], tmp_path: Path
) -> None:
    progress = DealWatch(lambda: None)
    run_dir = tmp_path / "on-cluster"
    report = run_tournament(
        submissions, run_dir, SETTINGS, scheduler=cluster.address, certs=cluster.certs, progress=progress
    )
    assert report.complete
    assert result_rows(run_dir) == local_rows
    joined = [line for line in progress.lines if "joined" in line]
    assert len(joined) == 2 and all("all six toolchains" in line for line in joined)
    assert any(line.startswith("cluster: 2 workers") for line in progress.lines)
    # The faults were shown as the tables recorded them, each once, as a local tournament shows them.
    assert len(progress.faults) == sum(row[-1] for row in local_rows) > 0
    assert {team for _, team, _, _ in progress.faults} >= {"Pr0005", "Pr0006"}
    # Each table's folder came back whole: events, deal files and every team's folder.
    for table in json.loads((run_dir / "results.json").read_text())["tables"]:
        folder = run_dir / "tables" / table["name"]
        assert (folder / "events.jsonl").read_text().count("\n") == SETTINGS.deals
        assert len(list((folder / "deals").iterdir())) == SETTINGS.deals


@pytest.mark.slow
def test_a_worker_killed_mid_table_changes_nothing(
    cluster: Cluster, submissions: Path, local_rows: list[tuple], tmp_path: Path
) -> None:
    pids = cluster.pids_by_address()
    killed: list[int] = []

    def kill_a_busy_worker() -> None:
        with cluster.client() as client:
            busy = [address for address, keys in client.processing().items() if keys]
        pid = pids[busy[0]]
        os.kill(pid, signal.SIGKILL)
        killed.append(pid)

    progress = DealWatch(kill_a_busy_worker)
    run_dir = tmp_path / "on-cluster"
    report = run_tournament(
        submissions, run_dir, SETTINGS, scheduler=cluster.address, certs=cluster.certs, progress=progress
    )
    assert killed, "a worker was killed while it played a table"
    assert report.complete
    assert result_rows(run_dir) == local_rows
    survivors = [w for w in cluster.workers if w.pid not in killed]
    assert all(w.poll() is None for w in survivors)


@pytest.mark.slow
def test_the_organiser_killed_and_started_again_resumes(
    cluster: Cluster, submissions: Path, local_rows: list[tuple], tmp_path: Path
) -> None:
    run_dir = tmp_path / "on-cluster"
    argv = [
        sys.executable, "-m", "arena", "tournament", str(submissions), "--out", str(run_dir),
        "--deals", str(SETTINGS.deals), "--seed", str(SETTINGS.seed), "--time-limit", "10",
        "--scheduler", cluster.address, "--certs", str(cluster.certs),
    ]  # fmt: skip
    organiser = subprocess.Popen(argv, env=ENV, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    assert organiser.stderr is not None
    for line in organiser.stderr:  # the first line that shows a table being played
        if "tables in flight" in line and not line.strip().endswith(" 0 tables in flight"):
            break
    organiser.kill()
    organiser.wait()
    done_before = len(result_rows(run_dir)) if (run_dir / "tournament.sqlite").exists() else 0
    again = subprocess.run(argv, env=ENV, capture_output=True, text=True, timeout=900)
    assert again.returncode == 0, again.stderr[-2000:]
    assert result_rows(run_dir) == local_rows
    assert done_before < len(local_rows), "the organiser was killed before the tournament ended"


def test_a_program_travels_as_content_checked_by_its_hash(tmp_path: Path) -> None:
    program = tmp_path / "Team1.py"
    program.write_text("print('hi')\n")
    content = ProgramContent.read(program)
    placed = content.materialise(tmp_path / "worker")
    assert placed.read_bytes() == program.read_bytes()
    assert placed.parent.name == content.sha256
    forged = ProgramContent(content.name, b"print('other')\n", content.sha256)
    with pytest.raises(Exception, match="other content than its hash"):
        forged.materialise(tmp_path / "worker2")


def test_a_table_folder_travels_with_regular_files_and_folders_only(tmp_path: Path) -> None:
    played = tmp_path / "played"
    (played / "Team1").mkdir(parents=True)
    (played / "events.jsonl").write_text("{}\n")
    (played / "Team1" / "help1.txt").write_bytes(b"\x00memory")
    (played / "Team1" / "link").symlink_to("/etc/passwd")
    os.mkfifo(played / "Team1" / "fifo")
    back = tmp_path / "back"
    back.mkdir()
    unpack_table(pack_table(played), back)
    found = sorted(str(p.relative_to(back)) for p in back.rglob("*"))
    assert found == ["Team1", "Team1/help1.txt", "events.jsonl"]
    assert (back / "Team1" / "help1.txt").read_bytes() == b"\x00memory"


@pytest.mark.slow
def test_a_worker_without_java_says_so_and_gets_no_java_table(cluster: Cluster, tmp_path: Path) -> None:
    cluster.add_worker("worker-c", "support.worker_without_java")
    cluster.wait_for_workers(3)
    submissions = tmp_path / "with-java"
    make_field(submissions, 6, faulty=False)
    (submissions / "Pr0007.java").write_text(
        (ROOT / "sample_tables" / "Pr0006.java").read_text().replace("Pr0006", "Pr0007")
    )
    progress = DealWatch(lambda: None)
    settings = TournamentSettings(deals=5, seed=3, time_limit_s=10)
    run_dir = tmp_path / "run"
    report = run_tournament(
        submissions, run_dir, settings, scheduler=cluster.address, certs=cluster.certs, progress=progress
    )
    assert report.complete
    lacking = [line for line in progress.lines if "joined without" in line]
    assert len(lacking) == 1 and "java" in lacking[0] and "go elsewhere" in lacking[0]
    placed = list((cluster.folder / "worker-c").rglob("*.java"))
    assert placed == [], "the worker without Java was sent a table with the Java program"
    assert list(cluster.folder.glob("worker-[ab]/**/Pr0007.java")), "a Java-capable worker played it"


def ask_identity(address: str, *, ca: Path, cert: Path | None = None, key: Path | None = None) -> dict:
    """Connect to a Dask server over TLS with this CA (and this certificate, if any) and ask who it is."""
    context = ssl.create_default_context(cafile=str(ca))
    context.check_hostname = False
    if cert is not None:
        context.load_cert_chain(str(cert), str(key))

    async def attempt() -> dict:
        comm = await distributed.comm.connect(
            address, timeout="10s", ssl_context=context, require_encryption=True
        )
        try:
            await comm.write({"op": "identity"})
            return await comm.read()
        finally:
            comm.abort()

    return asyncio.run(attempt())


def test_a_peer_without_a_certificate_of_the_contest_ca_is_refused(cluster: Cluster, tmp_path: Path) -> None:
    ca = cluster.certs / "ca.pem"
    # The organiser's certificate: the scheduler answers (so the refusals below are the certificate's).
    client = cluster.certs / "client.pem"
    assert (
        ask_identity(cluster.address, ca=ca, cert=client, key=cluster.certs / "client-key.pem")["type"]
        == "Scheduler"
    )
    # No certificate: the scheduler ends the connection before any message.
    with pytest.raises((OSError, TimeoutError)):
        ask_identity(cluster.address, ca=ca)
    # A certificate of another CA (another contest's, or one made up): refused the same way.
    other = tmp_path / "other"
    make_certs(other)
    with pytest.raises((OSError, TimeoutError)):
        ask_identity(cluster.address, ca=ca, cert=other / "client.pem", key=other / "client-key.pem")
    # Plain TCP to the TLS port: refused.
    with pytest.raises((OSError, TimeoutError)):
        distributed.Client(cluster.address.replace("tls://", "tcp://"), timeout="5s")
    # A worker is refused without a certificate too (it listens with the worker certificate).
    worker = next(iter(cluster.pids_by_address()))
    assert worker.startswith("tls://")
    with pytest.raises((OSError, TimeoutError)):
        ask_identity(worker, ca=ca)
    # The organiser's command says what it needs in one line.
    with pytest.raises(ConfigError, match="needs --certs DIR"):
        client_security(cluster.address, None)


def test_certs_are_made_once_with_private_keys(tmp_path: Path, capsys) -> None:
    folder = tmp_path / "certs"
    assert main(["cluster", "certs", str(folder), "--host", "organiser.example", "--host", "10.0.0.5"]) == 0
    names = sorted(p.name for p in folder.iterdir())
    assert names == sorted(
        f"{r}{s}" for r in ("ca", "scheduler", "worker", "client") for s in (".pem", "-key.pem")
    )
    assert all((folder / n).stat().st_mode & 0o077 == 0 for n in names if n.endswith("-key.pem"))
    from cryptography import x509

    scheduler = x509.load_pem_x509_certificate((folder / "scheduler.pem").read_bytes())
    ca = x509.load_pem_x509_certificate((folder / "ca.pem").read_bytes())
    scheduler.verify_directly_issued_by(ca)
    alt = scheduler.extensions.get_extension_for_class(x509.SubjectAlternativeName).value
    assert "organiser.example" in alt.get_values_for_type(x509.DNSName)
    capsys.readouterr()
    assert main(["cluster", "certs", str(folder)]) == 2  # never overwritten
    assert "already holds ca.pem" in capsys.readouterr().err
