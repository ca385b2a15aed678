"""The container files: the compose file's commands are ones arena and Dask accept, on the image built."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from arena.cli import build_parser

DOCKER = Path(__file__).resolve().parent.parent / "docker"


@pytest.fixture(scope="module")
def services() -> dict:
    return yaml.safe_load((DOCKER / "compose.yaml").read_text())["services"]


def test_every_service_runs_from_the_image_the_dockerfile_builds(services: dict) -> None:
    for service in services.values():
        assert service["image"] == "arena:latest"
        assert service["build"] == {"context": "..", "dockerfile": "docker/Dockerfile"}
    assert (DOCKER.parent / services["worker"]["build"]["dockerfile"]).is_file()


def test_the_organiser_plays_on_the_scheduler_the_workers_join(services: dict) -> None:
    command = services["organiser"]["command"]
    assert command[0] == "arena"
    args = build_parser().parse_args(command[1:])
    worker = services["worker"]["command"]
    assert worker[:3] == ["dask", "worker", args.scheduler]
    assert args.scheduler.endswith(":8786") and "--port" in services["scheduler"]["command"]
    assert "privileged" not in services["organiser"] and "privileged" not in services["scheduler"]


def test_workers_are_single_threaded_processes_with_the_sandbox_privileges(services: dict) -> None:
    worker = services["worker"]
    assert worker["command"][worker["command"].index("--nthreads") + 1] == "1"
    assert worker["privileged"] is True and worker["cgroup"] == "private"


def test_every_connection_is_tls_with_the_contest_certificates(services: dict) -> None:
    """The scheduler and the workers refuse peers without a certificate of the CA
    (tests/tournament/test_cluster.py)."""
    for name, role in (("scheduler", "scheduler"), ("worker", "worker")):
        command = services[name]["command"]
        flags = {
            flag: command[command.index(flag) + 1] for flag in ("--tls-ca-file", "--tls-cert", "--tls-key")
        }
        assert flags == {
            "--tls-ca-file": "/certs/ca.pem",
            "--tls-cert": f"/certs/{role}.pem",
            "--tls-key": f"/certs/{role}-key.pem",
        }
        mounted = {volume.split(":")[1] for volume in services[name]["volumes"]}
        assert mounted == set(flags.values())  # the CA and its own pair, never the CA's key
    assert services["scheduler"]["command"][services["scheduler"]["command"].index("--protocol") + 1] == "tls"
    args = build_parser().parse_args(services["organiser"]["command"][1:])
    assert args.scheduler.startswith("tls://") and str(args.certs) == "/certs"
    organiser = {volume.split(":")[1] for volume in services["organiser"]["volumes"]}
    assert organiser >= {"/certs/ca.pem", "/certs/client.pem", "/certs/client-key.pem"}
    assert not any(
        "ca-key" in volume for service in services.values() for volume in service.get("volumes", [])
    )
