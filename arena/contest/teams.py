"""The teams file: CSV with the header ``team,name,email``, one team a line.

A team id follows the submission naming rule (:func:`~arena.languages.filenames.team_id_problem`), so
``<team>.<ext>`` is a program the tournament plays. ``organiser`` is the organiser's sign-in and no
team's. A bad row is refused with its line number.
"""

from __future__ import annotations

import csv
import io
import re
from dataclasses import dataclass
from pathlib import Path

from arena import untrusted
from arena.errors import ConfigError
from arena.languages.filenames import team_id_problem

ORGANISER = "organiser"
HEADER = ["team", "name", "email"]
MAX_FIELD = 200
EMAIL = re.compile(r"[A-Za-z0-9.!#$%&'*+/=?^_`{|}~-]+@[A-Za-z0-9-]+(\.[A-Za-z0-9-]+)+")
"""One plain address (an unquoted local part, an ASCII domain): no second address after a comma, no
display name or angle brackets, nothing the mail's ``To:`` header would read as more than one address."""


@dataclass(frozen=True)
class TeamEntry:
    """One registered team."""

    team: str
    name: str
    email: str


def entry_problem(team: str, name: str, email: str) -> str | None:
    """Why these fields are not a team that can be registered, or None."""
    problem = team_id_problem(team)
    if problem is not None:
        return problem
    if team.lower() == ORGANISER:
        return f"{team!r} is the organiser's sign-in, not a team id"
    if not name.strip() or len(name) > MAX_FIELD:
        return f"the name must be 1 to {MAX_FIELD} characters"
    if untrusted.name(name) != name:
        return f"the name holds a control character: {untrusted.name(name)!r}"
    if not EMAIL.fullmatch(email) or len(email) > MAX_FIELD:
        return f"{untrusted.name(email)[:MAX_FIELD]!r} is not an e-mail address (one address, name@domain)"
    return None


def parse_teams(text: str, where: str) -> list[TeamEntry]:
    """The teams in CSV ``text`` (``where`` names it in errors)."""
    rows = list(csv.reader(io.StringIO(text)))
    if not rows or [cell.strip().lower() for cell in rows[0]] != HEADER:
        raise ConfigError(f"{where}: line 1: the header must be {','.join(HEADER)}")
    teams: list[TeamEntry] = []
    seen: set[str] = set()
    for number, cells in enumerate(rows[1:], start=2):
        if not cells or all(not cell.strip() for cell in cells):
            continue
        if len(cells) != len(HEADER):
            raise ConfigError(f"{where}: line {number}: {len(cells)} fields, expected 3 (team,name,email)")
        team, name, email = (cell.strip() for cell in cells)
        problem = entry_problem(team, name, email)
        if problem is not None:
            raise ConfigError(f"{where}: line {number}: {problem}")
        if team.lower() in seen:
            raise ConfigError(f"{where}: line {number}: team {team!r} is listed twice")
        seen.add(team.lower())
        teams.append(TeamEntry(team, name, email))
    if not teams:
        raise ConfigError(f"{where}: no teams listed")
    return teams


def read_teams(path: Path) -> list[TeamEntry]:
    """The teams in the CSV file at ``path``."""
    try:
        text = path.read_text(encoding="utf-8-sig")
    except FileNotFoundError:
        raise ConfigError(f"{path}: no such teams file") from None
    return parse_teams(text, str(path))
