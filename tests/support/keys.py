"""Deck keys as the tests look at them: where a run keeps its key, and nowhere else."""

from __future__ import annotations

from pathlib import Path


def assert_only_its_key_file_holds_the_key(out: Path, stage: str) -> None:
    """``out/deck-keys/<stage>.key`` is the owner's alone (0600), and no other file of the run holds the
    key, as hex text or as bytes."""
    key_path = out / "deck-keys" / f"{stage}.key"
    assert oct(key_path.stat().st_mode & 0o777) == "0o600"
    key = key_path.read_text().strip()
    for path in out.rglob("*"):
        if path.is_file() and path != key_path:
            assert key.encode() not in path.read_bytes() and bytes.fromhex(key) not in path.read_bytes(), path
