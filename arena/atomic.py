"""Replacing a file so that a reader (a person, a web page, a resumed run) never sees half of it."""

from __future__ import annotations

import contextlib
import os
import tempfile
from pathlib import Path


def write_atomically(path: Path, text: str) -> None:
    """Write ``text`` to a new hidden file beside ``path``, then rename it over ``path``.

    The file is made new (``mkstemp``: ``O_CREAT | O_EXCL``, a random name), so a link planted where a
    fixed temporary name would be is never written through; the rename replaces a link at ``path`` itself
    rather than following it.
    """
    handle, partial = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".partial", dir=path.parent)
    try:
        with os.fdopen(handle, "w") as out:
            out.write(text)
        os.chmod(partial, 0o644)
        os.replace(partial, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(partial)
        raise
