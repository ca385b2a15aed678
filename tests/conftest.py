"""What the tests share: fixtures here, helper modules in tests/support/ (imported as ``support.x``).

pytest puts this folder on ``sys.path`` (rootdir-relative ``prepend`` import mode), which is what makes
``from support.sandbox import build`` work in every test module; tests never import each other.
"""

from __future__ import annotations

import shutil
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

if TYPE_CHECKING:  # the browser's modules are imported by the fixtures that use them, not by every test run
    from playwright.sync_api import Browser, Page


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


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    """Debian's Chromium, one per test module (see support.viewer.CHROMIUM; modules skip without it)."""
    from support.viewer import chromium

    with chromium() as opened:
        yield opened


@pytest.fixture
def page(browser: Browser, request: pytest.FixtureRequest) -> Iterator[Page]:
    """A fresh page of ``browser``, sized by the test module's ``VIEWPORT`` (width, height) if it has one;
    a script error or a dialog on it fails the test."""
    from support.viewer import VIEWPORT, checked_page

    with checked_page(browser, getattr(request.module, "VIEWPORT", VIEWPORT)) as opened:
        yield opened
