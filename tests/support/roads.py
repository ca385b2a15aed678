"""The two roads a decision can take: arena's compiled runner, or the Python helper (``ARENA_NO_RUNNER=1``).

Attack tests take the ``road`` fixture to run both ways; a CI line also runs whole suites with the variable.
"""

from __future__ import annotations

import pytest

from arena.sandbox.runner_client import NO_RUNNER


@pytest.fixture(params=["runner", "python"])
def road(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> str:
    """Sandboxes opened in the test run decisions through the runner or through the Python helper."""
    if request.param == "python":
        monkeypatch.setenv(NO_RUNNER, "1")
    else:
        monkeypatch.delenv(NO_RUNNER, raising=False)
    return str(request.param)
