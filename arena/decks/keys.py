"""Deck keys: drawn from the operating system, or read from the organiser's file; kept out of reach.

A key is 32 bytes or more. It is written and read as hex text (``arena reveal`` writes it so, and
``openssl rand -hex 32`` makes one). A run keeps its unrevealed keys in ``RUN_DIR/deck-keys/<stage>.key``
(folder 0700, file 0600): outside every sandbox, which sees only its own team folder (docs/sandbox.md).
A key never goes on a command line, into an environment variable or a log.
"""

from __future__ import annotations

import os
import secrets
from pathlib import Path

from arena.errors import ConfigError
from arena.runfolder.layout import KEYS_DIR

KEY_BYTES = 32


def new_key() -> bytes:
    """A fresh key from the operating system's randomness."""
    return secrets.token_bytes(KEY_BYTES)


def parse_key(text: str, *, source: str) -> bytes:
    """The key written as hex in ``text`` (one clear error naming ``source`` otherwise)."""
    digits = "".join(text.split())
    try:
        key = bytes.fromhex(digits)
    except ValueError:
        raise ConfigError(f"{source}: a deck key is hex text (e.g. from 'openssl rand -hex 32')") from None
    if len(key) < KEY_BYTES:
        raise ConfigError(
            f"{source}: the deck key has {len(key)} bytes, at least {KEY_BYTES} are needed "
            f"({2 * KEY_BYTES} hex digits)"
        )
    return key


def read_key_file(path: Path) -> bytes:
    """The organiser's key from ``--deck-key FILE``."""
    try:
        text = path.read_text()
    except FileNotFoundError:
        raise ConfigError(f"--deck-key {path}: no such file") from None
    except (OSError, UnicodeDecodeError) as error:
        raise ConfigError(f"--deck-key {path}: cannot be read ({error})") from None
    return parse_key(text, source=f"--deck-key {path}")


def _secret_path(run_dir: Path, stage: str) -> Path:
    return run_dir / KEYS_DIR / f"{stage}.key"


def keep_secret(run_dir: Path, stage: str, key: bytes) -> None:
    """Store a stage's key for resuming and revealing: readable by arena's user only."""
    folder = run_dir / KEYS_DIR
    folder.mkdir(mode=0o700, parents=True, exist_ok=True)
    os.chmod(folder, 0o700)
    path = _secret_path(run_dir, stage)
    partial = path.with_name(f".{path.name}.partial")
    partial.unlink(missing_ok=True)
    fd = os.open(partial, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    with os.fdopen(fd, "w") as out:
        out.write(key.hex() + "\n")
    os.replace(partial, path)


def kept_secret(run_dir: Path, stage: str) -> bytes | None:
    """A stage's stored key, or None when the run has none."""
    path = _secret_path(run_dir, stage)
    if not path.is_file():
        return None
    return parse_key(path.read_text(), source=str(path))


def forget_secret(run_dir: Path, stage: str) -> None:
    """Remove a stage's stored key (its result is being discarded)."""
    _secret_path(run_dir, stage).unlink(missing_ok=True)
