"""One persistent process per program, exchanging lines on stdin/stdout (TwoCardDraw and heads-up)."""

from __future__ import annotations

from collections.abc import Sequence

from arena.errors import SandboxError
from arena.sandbox import RunResult, Sandbox, Session


class LineTransport:
    """Starts the program once in its sandbox and exchanges lines with it."""

    def __init__(self, sandbox: Sandbox, argv: Sequence[str]) -> None:
        self.sandbox = sandbox
        self.argv = tuple(argv)
        self.session: Session | None = None

    def start(self) -> None:
        """Start the program (once)."""
        if self.session is None:
            self.session = self.sandbox.start(self.argv)

    def send(self, line: str, timeout_s: float | None = None) -> None:
        """Send one line (a newline is added); ``TimeoutError`` when it is not taken within ``timeout_s``."""
        self._session().send_line(line, timeout_s)

    def receive(self, timeout_s: float) -> str | None:
        """The program's next line, or None on timeout or when it has stopped answering."""
        return self._session().read_line(timeout_s)

    @property
    def alive(self) -> bool:
        """True while the program runs."""
        return self.session is not None and self.session.alive

    def close(self) -> RunResult:
        """End the program and return how it ran."""
        return self._session().close()

    def _session(self) -> Session:
        if self.session is None:
            raise SandboxError("the line transport was not started")
        return self.session
