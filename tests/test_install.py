"""arena installs like a package: a wheel in a fresh virtual environment runs ``arena check`` away from the
checkout, its house bots read from the installed package (importlib.resources).

The wheel is built from a copy of the source without the checkout's ``bots/`` folder, so nothing can be
read from there; the environment sees the system's packages only for arena's dependencies
(``--system-site-packages``) and installs the wheel alone (``--no-deps --no-index``).
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from support.sandbox import needs_namespaces

pytestmark = [needs_namespaces, pytest.mark.slow]

ROOT = Path(__file__).resolve().parents[1]
WAIT_S = 600


def run(*argv: str | Path, cwd: Path) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "PYTHONHOME")}
    done = subprocess.run(
        [str(a) for a in argv], cwd=cwd, env=env, capture_output=True, text=True, timeout=WAIT_S, check=False
    )
    assert done.returncode in (0, 1), f"{argv}: {done.returncode}\n{done.stdout}\n{done.stderr}"
    return done


@pytest.fixture(scope="module")
def venv(tmp_path_factory: pytest.TempPathFactory) -> Path:
    pytest.importorskip("wheel", reason="building the wheel needs the 'wheel' package (test extra)")
    root = tmp_path_factory.mktemp("install")
    source = root / "source"
    shutil.copytree(
        ROOT,
        source,
        symlinks=True,
        ignore=shutil.ignore_patterns(
            ".git", "bots", "tests", "benchmarks", "build", "*.egg-info", "__pycache__"
        ),
    )
    wheels = root / "wheels"
    run(
        sys.executable,
        "-m",
        "pip",
        "wheel",
        "--no-deps",
        "--no-build-isolation",
        "-w",
        wheels,
        source,
        cwd=root,
    )
    (wheel,) = wheels.glob("arena-*.whl")
    env = root / "venv"
    run(sys.executable, "-m", "venv", "--system-site-packages", env, cwd=root)
    run(env / "bin" / "python", "-m", "pip", "install", "--no-deps", "--no-index", wheel, cwd=root)
    return env


def test_the_installed_package_is_the_one_that_runs(venv: Path, tmp_path: Path) -> None:
    done = run(venv / "bin" / "python", "-c", "import arena; print(arena.__file__)", cwd=tmp_path)
    assert Path(done.stdout.strip()).is_relative_to(venv)


def test_arena_check_runs_from_the_installed_package(venv: Path, tmp_path: Path) -> None:
    program = tmp_path / "Mine.py"
    program.write_text("open('outputf.txt', 'w').write('0\\n')\n")
    done = run(
        venv / "bin" / "arena", "check", program, "--deals", "2", "--seats", "2", "--json", cwd=tmp_path
    )
    report = json.loads(done.stdout)
    assert done.returncode == 0, report["reasons"]
    assert report["verdict"] == "pass"
    assert report["opponents"] == ["Tight", "Raiser", "Bluffer", "Caller", "Tracker"]
    assert [s["seat"] for s in report["seats"]] == [1, 6]
