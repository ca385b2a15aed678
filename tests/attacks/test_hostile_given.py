"""Help files given for the final (issue 12, item 4): only regular files and folders, no link, within
the limits; anything else is one error naming the file. And a given folder can never become a build
product (issue 12, item 3: a product that is a folder fails the build with its reason)."""

from __future__ import annotations

import os
import socket
import stat
from pathlib import Path

import pytest

from arena.errors import ConfigError
from arena.games.codem.table import PlayerSpec, TableConfig, run_table
from arena.sandbox import Limits
from arena.seats import check_given_help_files
from arena.tournament.final import help_dirs

from support.hostile import HONEST, fingerprint, leftovers, make_canary, tracking_sandboxes
from support.sandbox import TINY, needs_namespaces


@pytest.fixture
def given(tmp_path: Path) -> Path:
    """``given/Team1/`` with two honest help files, one in a sub-folder."""
    team = tmp_path / "given" / "Team1"
    (team / "notes").mkdir(parents=True)
    (team / "book.txt").write_text("opening book\n")
    (team / "notes" / "seen.txt").write_text("seen\n")
    return tmp_path / "given"


def test_regular_files_and_folders_are_accepted(given: Path) -> None:
    assert help_dirs(given, ["Team1", "Team2"]) == {"Team1": given / "Team1"}


def test_a_link_to_a_root_only_file_is_an_error_naming_it(given: Path, tmp_path: Path) -> None:
    secret = make_canary(tmp_path / "canary") / "secret.txt"
    (given / "Team1" / "notes" / "shadow").symlink_to(secret)
    with pytest.raises(ConfigError, match=r"Team1/notes/shadow is a symbolic link; help files must be"):
        help_dirs(given, ["Team1"])


def test_a_linked_team_folder_is_an_error(given: Path, tmp_path: Path) -> None:
    (given / "Team2").symlink_to(make_canary(tmp_path / "canary"))
    with pytest.raises(ConfigError, match=r"Team2 is a symbolic link"):
        help_dirs(given, ["Team1", "Team2"])


def test_fifos_and_sockets_are_errors_naming_them(given: Path) -> None:
    os.mkfifo(given / "Team1" / "pipe")
    with pytest.raises(ConfigError, match=r"Team1/pipe is a FIFO"):
        help_dirs(given, ["Team1"])
    os.unlink(given / "Team1" / "pipe")
    with socket.socket(socket.AF_UNIX) as listener:
        listener.bind(str(given / "Team1" / "sock"))
        with pytest.raises(ConfigError, match=r"Team1/sock is a socket"):
            help_dirs(given, ["Team1"])


def test_too_many_too_large_or_too_deep_is_an_error(given: Path) -> None:
    for number in range(14):
        (given / "Team1" / f"extra{number}.txt").write_text("x")
    with pytest.raises(ConfigError, match=r"holds 16 help files and 1 folders; at most 15 are allowed"):
        help_dirs(given, ["Team1"])
    with pytest.raises(ConfigError, match=r"take 32 bytes; at most 0 MB"):
        check_given_help_files(given / "Team1", Limits(help_files=100, help_bytes_mb=0))
    deep = given / "Team1" / "a" / "b" / "c"
    deep.mkdir(parents=True)
    with pytest.raises(ConfigError, match=r"Team1/a/b/c is a folder deeper than 2 levels"):
        check_given_help_files(given / "Team1", Limits(help_files=100, folder_depth=2))


@needs_namespaces
def test_a_table_refuses_a_link_among_given_files_and_leaves_nothing(given: Path, tmp_path: Path) -> None:
    canary = make_canary(tmp_path / "canary")
    before = fingerprint(canary)
    (given / "Team1" / "environ").symlink_to("/proc/self/environ")
    honest = [PlayerSpec(p.stem, p) for p in HONEST]
    players = [PlayerSpec("Team1", TINY / "TinyC.c", given / "Team1"), *honest]
    mounts = set(Path("/proc/self/mountinfo").read_text().split("\n"))
    with tracking_sandboxes() as traces, pytest.raises(ConfigError, match="environ is a symbolic link"):
        run_table(players, tmp_path / "table", TableConfig(deals=2))
    assert leftovers(traces, {line.split()[4] for line in mounts if line}) == []
    assert fingerprint(canary) == before


@needs_namespaces
def test_given_files_are_copies_the_team_owns_and_a_given_folder_is_never_a_product(
    given: Path, tmp_path: Path
) -> None:
    # javac's products are the *.class files it writes: a given folder of that name stays a help folder
    (given / "Team1" / "Extra.class").mkdir()
    program = tmp_path / "Team1.java"
    program.write_text((TINY / "TinyJava.java").read_text().replace("TinyJava", "Team1"))
    players = [PlayerSpec("Team1", program, given / "Team1"), *(PlayerSpec(p.stem, p) for p in HONEST)]
    result = run_table(players, tmp_path / "table", TableConfig(deals=2))
    team = result.teams[0]
    assert team.built, team.build_output
    assert team.faults == ()
    copied = tmp_path / "table" / "teams" / "Team1"
    assert (copied / "Extra.class").is_dir()
    assert (copied / "notes" / "seen.txt").read_text() == "seen\n"
    assert stat.S_IMODE((copied / "book.txt").stat().st_mode) == 0o644
