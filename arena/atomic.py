"""Replacing a file so that a reader (a person, a web page, a resumed run) never sees half of it, and a
folder so that a writer left over from an interrupted run never writes into the new one."""

from __future__ import annotations

import contextlib
import os
import shutil
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


def fresh_folder(path: Path) -> None:
    """Make ``path`` a new, empty folder, even while a process of an interrupted run still writes into it.

    Removing the old folder in place races with such a writer (a compiler killed a moment after its
    parent): a file it creates during the removal leaves the folder behind. The old folder is first
    renamed into a hidden one beside it, which moves the writer's files with it, and removed there;
    what a late writer leaves is removed the next time.
    """
    path.parent.mkdir(parents=True, exist_ok=True)
    for old in path.parent.glob(f".{path.name}.old-*"):
        shutil.rmtree(old, ignore_errors=True)
    if path.exists() or path.is_symlink():
        trash = Path(tempfile.mkdtemp(prefix=f".{path.name}.old-", dir=path.parent))
        path.rename(trash / path.name)
        shutil.rmtree(trash, ignore_errors=True)
    path.mkdir()
