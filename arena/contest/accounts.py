"""Credentials and API tokens, from well-kept libraries only.

Passwords are drawn with :mod:`secrets` and stored as argon2 hashes (``argon2-cffi``'s PasswordHasher);
the clear passwords are written once, to ``credentials.csv`` (mode 0600), and mailed only to their team.
API tokens are drawn with :mod:`secrets` and stored as SHA-256 hashes.
"""

from __future__ import annotations

import csv
import hashlib
import io
import os
import secrets
from pathlib import Path

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError

_HASHER = PasswordHasher()
_DUMMY = _HASHER.hash("a password nobody has")


def new_password() -> str:
    """A fresh password (16 URL-safe characters, 96 bits)."""
    return secrets.token_urlsafe(12)


def hash_password(password: str) -> str:
    """The argon2 hash stored for ``password``."""
    return _HASHER.hash(password)


def password_matches(stored: str | None, password: str) -> bool:
    """Whether ``password`` is the one hashed in ``stored`` (an unknown team costs the same time)."""
    try:
        return _HASHER.verify(stored or _DUMMY, password) and stored is not None
    except (VerificationError, InvalidHashError):
        return False


def new_token() -> str:
    """A fresh API token."""
    return secrets.token_urlsafe(32)


def token_digest(token: str) -> str:
    """How a token is stored: its SHA-256, hex."""
    return hashlib.sha256(token.encode()).hexdigest()


def new_secret_key(path: Path) -> None:
    """Write a fresh random key for signing sessions and CSRF tokens to ``path`` (mode 0600)."""
    write_private(path, secrets.token_hex(32) + "\n")


def write_private(path: Path, text: str) -> None:
    """Write ``text`` to ``path`` readable by its owner only (0600 from the start, never wider)."""
    temporary = path.with_name(f".{path.name}.new")
    temporary.unlink(missing_ok=True)
    descriptor = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    with os.fdopen(descriptor, "w", encoding="utf-8") as file:
        file.write(text)
    os.replace(temporary, path)


def read_credentials(path: Path) -> dict[str, str]:
    """team -> clear password, from ``credentials.csv``."""
    with path.open(encoding="utf-8", newline="") as file:
        return {row["team"]: row["password"] for row in csv.DictReader(file)}


def write_credentials(path: Path, passwords: dict[str, str]) -> None:
    """Write ``credentials.csv`` (``team,password``; mode 0600)."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(["team", "password"])
    for team, password in passwords.items():
        writer.writerow([team, password])
    write_private(path, out.getvalue())
