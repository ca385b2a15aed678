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
