"""Command-line options several commands share: the table rules a tournament plays by, the kinds of
argument (a program file, a folder to write in, a count), and settings errors in arena's words."""

from __future__ import annotations

import argparse
import re
import socket
from collections.abc import Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

from arena.runfolder.layout import DB_NAME, EVENTS, HANDS

if TYPE_CHECKING:  # the library is imported when a command runs, so ``arena --help`` stays quick
    import pydantic

    from arena.tournament.host import TournamentSettings

RULE_DEFAULTS = {"time_limit": 1.0, "max_faults": 10, "blinds": (5, 10), "stack": 1500}


_FLAGS = {"time_limit_s": "time-limit", "small_blind": "blinds", "big_blind": "blinds"}


def _flag(field: object) -> str:
    return "--" + _FLAGS.get(str(field), str(field).replace("_", "-"))


def _plain(value: object) -> object:
    """A number as a person writes it: ``1`` for ``1.0``."""
    return f"{value:g}" if isinstance(value, float) else value


def _problem(problem: Mapping[str, Any]) -> str:
    """One complaint of a settings model in arena's words (pydantic's "Input should be..." reworded)."""
    limits = {key: _plain(value) for key, value in (problem.get("ctx") or {}).items()}
    got = _plain(problem.get("input"))
    match problem["type"]:
        case "greater_than_equal":
            return f"must be at least {limits['ge']}, got {got}"
        case "greater_than":
            return f"must be more than {limits['gt']}, got {got}"
        case "less_than_equal":
            return f"must be at most {limits['le']}, got {got}"
        case "less_than":
            return f"must be less than {limits['lt']}, got {got}"
        case "int_parsing" | "int_type" | "int_from_float":
            return f"must be a whole number, got {got!r}"
        case "float_parsing" | "float_type" | "finite_number":
            return f"must be a number, got {got!r}"
    return str(problem["msg"]).removeprefix("Value error, ")


def describe_validation(error: pydantic.ValidationError) -> str:
    """A settings model's complaints as one line naming the command-line options (each said once)."""
    said = []
    for problem in error.errors():
        message = _problem(problem)
        line = f"{_flag(problem['loc'][0])}: {message}" if problem["loc"] else message
        if line not in said:
            said.append(line)
    return "; ".join(said)


def blinds(text: str) -> tuple[int, int]:
    """``SB/BB`` as two integers (their sizes are checked with the other settings)."""
    small, slash, big = text.partition("/")
    try:
        if not slash:
            raise ValueError
        return int(small), int(big)
    except ValueError:
        raise argparse.ArgumentTypeError(f"blinds {text!r} are not SB/BB, e.g. 5/10") from None


def add_rule_options(parser: argparse.ArgumentParser, *, what: str) -> None:
    """``--time-limit``, ``--max-faults``, ``--blinds`` and ``--stack``, with the tournament's defaults."""
    parser.add_argument(
        "--time-limit",
        type=float,
        default=RULE_DEFAULTS["time_limit"],
        metavar="T",
        help=f"seconds of CPU time per decision (default 1, {what}; docs/protocol.md, Time)",
    )
    parser.add_argument(
        "--max-faults",
        type=int,
        default=RULE_DEFAULTS["max_faults"],
        metavar="K",
        help=f"faults after which a program is disqualified from a table (default 10, {what})",
    )
    parser.add_argument(
        "--blinds",
        type=blinds,
        default=RULE_DEFAULTS["blinds"],
        metavar="SB/BB",
        help=f"small and big blind (default 5/10, {what})",
    )
    parser.add_argument(
        "--stack",
        type=int,
        default=RULE_DEFAULTS["stack"],
        metavar="CHIPS",
        help=f"every seat's starting stack (default 1500, {what})",
    )


def folder(text: str) -> Path:
    """An option naming a folder to write in: absent (it is made) or a folder, never an existing file."""
    path = Path(text)
    if path.exists() and not path.is_dir():
        raise argparse.ArgumentTypeError(f"{path} is a file, not a folder")
    return path


def require_program(path: Path) -> None:
    """One clear error unless ``path`` is an existing file (a folder named ``Dir.py`` is not a program)."""
    from arena.errors import ConfigError

    if path.is_dir():
        raise ConfigError(f"{path} is a folder, not a program file")
    if not path.is_file():
        raise ConfigError(f"{path}: no such program file")


def new_file(text: str) -> Path:
    """An option naming a file to write: absent or a file, never an existing folder."""
    path = Path(text)
    if path.is_dir():
        raise argparse.ArgumentTypeError(f"{path} is a folder, not a file")
    return path


def at_least_one(text: str) -> int:
    """A whole number of at least 1."""
    try:
        number = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None
    if number < 1:
        raise argparse.ArgumentTypeError(f"must be at least 1, got {number}")
    return number


def seconds(text: str) -> float:
    """A number of seconds, 0 or more."""
    try:
        number = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number of seconds") from None
    if not number >= 0 or number == float("inf"):
        raise argparse.ArgumentTypeError(f"must be 0 seconds or more, got {text}")
    return number


_SCHEDULER = re.compile(r"(?:tcp|tls)://(?P<host>\[[0-9a-fA-F:.]+\]|[A-Za-z0-9.-]+):(?P<port>[0-9]{1,5})")
SCHEDULER_PROBE_S = 5.0
"""How long ``--scheduler`` is given to accept a connection before anything is written."""


def scheduler_address(text: str) -> str:
    """A Dask scheduler's address, ``tcp://HOST:PORT`` or, with certificates, ``tls://HOST:PORT``."""
    match = _SCHEDULER.fullmatch(text)
    if match is None or not 0 < int(match["port"]) < 65536:
        raise argparse.ArgumentTypeError(f"{text!r} is not tls://HOST:PORT or tcp://HOST:PORT")
    return text


def reach_scheduler(address: str) -> None:
    """One clear error, before a run folder is made or a key drawn, when nothing answers at ``address``."""
    from arena.errors import ConfigError

    match = _SCHEDULER.fullmatch(address)
    assert match is not None  # checked by scheduler_address when the command line was read
    host = match["host"].strip("[]")
    try:
        socket.create_connection((host, int(match["port"])), timeout=SCHEDULER_PROBE_S).close()
    except OSError as error:
        why = error.strerror or type(error).__name__
        raise ConfigError(f"--scheduler {address}: nothing answers there ({why}); start it first") from None


RUN_MARKS = (
    (DB_NAME, "arena tournament"),
    (EVENTS, "arena table"),
    (HANDS, "arena headsup"),
    ("case_1", "arena twocard play"),
)
"""A file or folder each command writes at the top of its run folder."""


def refuse_other_run(out: Path, command: str) -> None:
    """One clear error when ``out`` holds what another command wrote (it would be played into)."""
    from arena.errors import ConfigError

    for name, wrote in RUN_MARKS:
        if wrote != command and (out / name).exists():
            raise ConfigError(f"--out {out} holds the run of '{wrote}' ({name}); use a new folder")


def rule_settings(
    args: argparse.Namespace,
    *,
    duplicate: bool = False,
    format: str = "round-robin",
    round_tables: int | None = None,
    budget: int | None = None,
) -> TournamentSettings:
    """The tournament's settings from :func:`add_rule_options`' options (validated once, there)."""
    from arena.tournament.formats import Format
    from arena.tournament.host import TournamentSettings

    small, big = args.blinds
    return TournamentSettings(
        deals=args.deals,
        seed=args.seed,
        duplicate=duplicate,
        time_limit_s=args.time_limit,
        max_faults=args.max_faults,
        small_blind=small,
        big_blind=big,
        stack=args.stack,
        format=Format(format),
        round_tables=round_tables,
        budget=budget,
    )
