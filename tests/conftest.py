"""What the tests share: fixtures here, helper modules in tests/support/ (imported as ``support.x``).

pytest puts this folder on ``sys.path`` (rootdir-relative ``prepend`` import mode), which is what makes
``from support.sandbox import build`` work in every test module; tests never import each other.
"""

from __future__ import annotations

import shutil
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest


@pytest.fixture
def open_root(tmp_path: Path) -> Iterator[Path]:
    """A folder every user may enter (the rlimits-only fallback runs programs by their real path)."""
    shared = "/dev/shm" if Path("/dev/shm").is_dir() else None
    folder = Path(tempfile.mkdtemp(prefix="arena-test-", dir=shared))
    folder.chmod(0o711)
    try:
        yield folder
    finally:
        shutil.rmtree(folder, ignore_errors=True)
