"""Find the teams' programs: ``<TeamId>.<ext>`` in one folder, ext one of Code'em's six languages."""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass
from pathlib import Path

from arena.errors import ConfigError
from arena.languages import LANGUAGES as ALL_LANGUAGES

# The six languages of Code'em by their canonical extension (arena.languages also accepts aliases such as
# .cc for single programs; a submissions folder holds Code'em's names only).
LANGUAGES = {language.suffix: language.title for language in ALL_LANGUAGES}
TEAM_ID = re.compile(r"[A-Za-z0-9][A-Za-z0-9_-]*")
REPORT_SUFFIX = ".report.txt"


@dataclass(frozen=True, slots=True)
class Submission:
    """One team's program."""

    team: str
    program: Path
    language: str
    sha256: str


def is_program_name(path: Path) -> bool:
    """Whether a file name has the form ``<TeamId>.<ext>`` of a program."""
    return path.suffix[1:] in LANGUAGES and TEAM_ID.fullmatch(path.stem) is not None


def file_digest(path: Path) -> str:
    """SHA-256 of a file's bytes."""
    return hashlib.sha256(path.read_bytes()).hexdigest()


def find_submissions(folder: Path) -> tuple[list[Submission], list[str]]:
    """The programs in ``folder`` in team order, and the names of the other files found there."""
    if not folder.is_dir():
        raise ConfigError(f"submissions folder {folder} does not exist")
    found: dict[str, Submission] = {}
    ignored: list[str] = []
    for path in sorted(folder.iterdir()):
        if path.name.startswith(".") or path.name.endswith(REPORT_SUFFIX) or path.stem.upper() == "README":
            continue  # hidden files, the watcher's reports and the folder's own README are not submissions
        if not path.is_file() or not is_program_name(path):
            ignored.append(path.name)
            continue
        if path.stem in found:
            raise ConfigError(
                f"team {path.stem} has two programs: {found[path.stem].program.name} and {path.name}"
            )
        found[path.stem] = Submission(
            path.stem, path.resolve(), LANGUAGES[path.suffix[1:]], file_digest(path)
        )
    return [found[team] for team in sorted(found)], ignored


def ignored_warning(ignored: list[str]) -> str:
    """One line naming the files that are not programs."""
    exts = "|".join(LANGUAGES)
    return f"ignored {len(ignored)} file(s) not named <TeamId>.{{{exts}}}: {', '.join(ignored)}"
