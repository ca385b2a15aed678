"""Find the teams' programs in a submissions folder, and every file that will not be played, with why.

The naming rule is :mod:`arena.languages.filenames`, shared with ``arena check`` and ``arena watch``.
"""

from __future__ import annotations

import csv
import hashlib
import io
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

from arena import untrusted
from arena.errors import ConfigError
from arena.languages import language_for
from arena.languages.filenames import name_problem


@dataclass(frozen=True, slots=True)
class Submission:
    """One team's program."""

    team: str
    program: Path
    language: str
    sha256: str


@dataclass(frozen=True, slots=True)
class Skipped:
    """A file of the submissions folder that is not played, and why."""

    name: str
    reason: str


def file_digest(path: Path) -> str:
    """SHA-256 of a file's bytes."""
    return hashlib.sha256(path.read_bytes()).hexdigest()


def find_submissions(folder: Path) -> tuple[list[Submission], list[Skipped]]:
    """The programs in ``folder`` in team order, and every other file with the reason it is not played.

    Two programs for one team is an error naming both: which one the team meant is theirs to say.
    """
    if not folder.is_dir():
        what = "is not a folder" if folder.exists() else "does not exist"
        raise ConfigError(f"submissions folder {folder} {what}")
    found: dict[str, Submission] = {}
    skipped: list[Skipped] = []
    for path in sorted(folder.iterdir()):
        problem = name_problem(path)
        if problem is not None:
            skipped.append(Skipped(untrusted.name(path.name), problem))
            continue
        if path.stem in found:
            raise ConfigError(
                f"team {path.stem} has two programs in {folder}: {found[path.stem].program.name} and "
                f"{path.name}; remove one"
            )
        found[path.stem] = Submission(path.stem, path.resolve(), language_for(path).title, file_digest(path))
    return [found[team] for team in sorted(found)], skipped


def submissions_csv(
    found: list[Submission], skipped: list[Skipped], unbuilt: Mapping[str, str] | None = None
) -> str:
    """``RUN/submissions.csv``: every file of the folder, played or not, with the reason; ``unbuilt``
    (after play) is each team whose program did not build with its compiler's first error."""
    unbuilt = unbuilt or {}
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(["file", "team", "language", "sha256", "played", "reason"])
    rows = []
    for s in found:
        error = unbuilt.get(s.team, "")
        played, reason = ("no", f"did not build: {error.splitlines()[0]}") if error else ("yes", "")
        rows.append((s.program.name, s.team, s.language, s.sha256, played, untrusted.cell(reason)))
    rows += [(untrusted.cell(s.name), "", "", "", "no", s.reason) for s in skipped]
    writer.writerows(sorted(rows))
    return out.getvalue()
