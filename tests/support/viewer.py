"""Helpers for the browser tests: the viewer served from a thread, Chromium, checked pages, screenshots.

The ``browser`` and ``page`` fixtures of tests/conftest.py are :func:`chromium` and :func:`checked_page`.
"""

from __future__ import annotations

import socket
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import uvicorn
from playwright.sync_api import Browser, Page, sync_playwright

from arena.viewer.app import create_app

CHROMIUM = "/usr/bin/chromium"
ARTIFACTS = Path(__file__).parents[1] / "artifacts"
VIEWPORT = (1280, 900)  # width and height of a page, unless its test module sets its own VIEWPORT


@contextmanager
def chromium() -> Iterator[Browser]:
    """Debian's Chromium driven by Playwright, closed on leaving."""
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
        try:
            yield browser
        finally:
            browser.close()


@contextmanager
def checked_page(browser: Browser, viewport: tuple[int, int] = VIEWPORT) -> Iterator[Page]:
    """A page in a fresh context (its own cookies); a script error or a dialog on it fails the test.

    The check is made after the context is closed, so it also fails a test that passed its own asserts.
    """
    width, height = viewport
    context = browser.new_context(viewport={"width": width, "height": height})
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.on("dialog", lambda dialog: (errors.append(f"dialog: {dialog.message}"), dialog.dismiss()))
    yield page
    context.close()
    assert errors == []


@contextmanager
def serve(run_dir: Path) -> Iterator[str]:
    """The viewer over ``run_dir`` on a free localhost port; yields its base URL.

    The socket is bound and listening before the server thread starts, so the first request waits in
    the backlog instead of racing the start-up.
    """
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.bind(("127.0.0.1", 0))
    sock.listen(64)
    port = sock.getsockname()[1]
    config = uvicorn.Config(create_app(run_dir), log_level="warning", timeout_graceful_shutdown=1)
    server = uvicorn.Server(config)
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{port}/"
    finally:
        server.should_exit = True
        thread.join(timeout=10)
        sock.close()


def screenshot(page: Page, name: str) -> Path:
    """Save a full-page screenshot under tests/artifacts/ (git-ignored) and return its path."""
    ARTIFACTS.mkdir(exist_ok=True)
    path = ARTIFACTS / f"{name}.png"
    page.screenshot(path=str(path), full_page=True)
    return path
