"""``arena contest new``: a contest folder with its database, settings, credentials and signing key.

One credential per team and one for the organiser (team ``organiser``), written only to
``credentials.csv`` (mode 0600); the database keeps their argon2 hashes. Each team's sign-in mail waits
in the outbox until the server runs with ``--smtp``.
"""

from __future__ import annotations

from pathlib import Path

from arena.contest.accounts import (
    hash_password,
    new_password,
    new_secret_key,
    write_credentials,
    write_private,
)
from arena.contest.folder import ContestFolder
from arena.contest.mail import queue_signin
from arena.contest.settings import ContestSettings, settings_toml
from arena.contest.state import ContestStore
from arena.contest.teams import ORGANISER, TeamEntry
from arena.errors import ConfigError


def create_contest(
    root: Path, teams: list[TeamEntry], settings: ContestSettings, *, organiser_email: str
) -> ContestFolder:
    """Make the contest folder at ``root`` (absent or empty) for ``teams``."""
    if root.exists() and (not root.is_dir() or any(root.iterdir())):
        raise ConfigError(f"{root}: already exists and is not an empty folder")
    root.mkdir(parents=True, exist_ok=True)
    root.chmod(0o700)
    folder = ContestFolder(root.resolve())
    write_private(folder.settings, settings_toml(settings))
    new_secret_key(folder.secret_key)
    passwords = {ORGANISER: new_password()} | {team.team: new_password() for team in teams}
    write_credentials(folder.credentials, passwords)
    store = ContestStore(folder.database, create=True)
    try:
        store.add_team(
            ORGANISER, "The organiser", organiser_email, hash_password(passwords[ORGANISER]), organiser=True
        )
        for team in teams:
            store.add_team(team.team, team.name, team.email, hash_password(passwords[team.team]))
        for record in store.teams():
            queue_signin(store, record)
    finally:
        store.close()
    for sub in (folder.uploads, folder.certificates):
        sub.mkdir()
    return folder
