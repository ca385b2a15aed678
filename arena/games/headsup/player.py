"""Getting a heads-up player ready to run: which interface it speaks, and how it is built in its sandbox.

* ``lines``: a program written for the heads-up line protocol (any language arena builds), run as it is.
* ``texas``: a C++ file for the texas.h interface (``#include "texas.h"``, ``makeDecision``), compiled
  together with arena's ``texas.h`` and ``texas_driver.cpp``, which speak the line protocol for it.
* ``python``: a Python module defining ``make_decision(state)``, run by ``texas_driver.py``.
"""

from __future__ import annotations

import re
import shutil
from enum import StrEnum, unique
from importlib import resources
from pathlib import Path

from arena.errors import ConfigError, ToolchainError
from arena.languages import CPP, PYTHON, BuildResult, build_in_sandbox, build_program, run_command, tool_path
from arena.sandbox import Sandbox

TEXAS = resources.files("arena.games.headsup.texas")
"""Statement 003's interface files, shipped as package data."""


def _copy_shipped(name: str, folder: Path) -> None:
    """Write one of the shipped ``texas`` files into a player's folder."""
    (folder / name).write_bytes(TEXAS.joinpath(name).read_bytes())


_INCLUDES_TEXAS = re.compile(r'^\s*#\s*include\s*[<"]texas\.h[>"]', re.MULTILINE)
_DEFINES_DECISION = re.compile(r"^def\s+(make_decision|makeDecision)\s*\(", re.MULTILINE)


@unique
class HeadsUpInterface(StrEnum):
    """How a player talks to the judge."""

    LINES = "lines"
    TEXAS = "texas"
    PYTHON = "python"


def guess_interface(program: Path) -> HeadsUpInterface:
    """``.cpp`` including texas.h -> texas; ``.py`` defining make_decision -> python; else lines."""
    suffix = program.suffix.lower()
    if suffix in (".cpp", ".cc", ".cxx", ".py"):
        try:
            text = program.read_text(encoding="utf-8", errors="replace")
        except OSError as error:
            raise ConfigError(f"{program}: cannot read the program: {error.strerror}") from None
        if suffix != ".py" and _INCLUDES_TEXAS.search(text):
            return HeadsUpInterface.TEXAS
        if suffix == ".py" and _DEFINES_DECISION.search(text):
            return HeadsUpInterface.PYTHON
    return HeadsUpInterface.LINES


def build_player(program: Path, interface: HeadsUpInterface, sandbox: Sandbox) -> BuildResult:
    """Copy and build ``program`` in the sandbox's folder for ``interface`` (the seat layer's build step)."""
    if not program.is_file():
        raise ConfigError(f"{program}: no such program file")
    match interface:
        case HeadsUpInterface.LINES:
            return build_program(program, sandbox.workdir, sandbox)
        case HeadsUpInterface.TEXAS:
            return _build_texas(program, sandbox)
        case HeadsUpInterface.PYTHON:
            folder = sandbox.folder
            _copy_shipped("texas.py", folder)
            _copy_shipped("texas_driver.py", folder)
            shutil.copyfile(program, folder / "player_module.py")
            argv = (*run_command(PYTHON, "texas_driver.py", sandbox=sandbox), "player_module.py")
            return BuildResult(True, "", argv, 0.0)


def _build_texas(program: Path, sandbox: Sandbox) -> BuildResult:
    if program.suffix.lower() not in (".cpp", ".cc", ".cxx"):
        raise ConfigError(f"{program}: the texas interface needs a C++ source (.cpp)")
    if tool_path("g++") is None:
        raise ToolchainError("texas players need g++, which is not installed; install the Debian package g++")
    folder = sandbox.folder
    _copy_shipped("texas.h", folder)
    _copy_shipped("texas_driver.cpp", folder)
    shutil.copyfile(program, folder / "player.cpp")
    sources = ["player.cpp", "texas_driver.cpp"]
    return build_in_sandbox(CPP, sources, output="player", entry="player", sandbox=sandbox)
