"""Replacing a file so that a reader (a person, a web page, a resumed run) never sees half of it."""

from __future__ import annotations

import os
from pathlib import Path


def write_atomically(path: Path, text: str) -> None:
    """Write ``text`` to a hidden ``.<name>.partial`` beside ``path``, then rename it over ``path``."""
    partial = path.with_name(f".{path.name}.partial")
    partial.write_text(text)
    os.replace(partial, path)
