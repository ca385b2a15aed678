"""A warm start for Python programs under Code'em's rules: one fork per decision from a fork server.

``WarmPythonTransport`` is a :class:`FileTransport` whose run step asks a fork server (started once in
the team's sandbox with the team's interpreter and flags, with heavy modules such as numpy preloaded)
for a fresh child per decision instead of starting a new interpreter. Files are written, policed and read
exactly as by :class:`FileTransport`; ``tests/test_transports_warm.py`` runs one program both ways and
compares every answer and every help file.
"""

from __future__ import annotations

import json
import signal
from collections.abc import Collection, Sequence

from arena.errors import SandboxError
from arena.sandbox import RunResult, RunStatus, Sandbox, Session
from arena.transports.files import FileTransport

START_TIMEOUT_S = 60.0
REPLY_GRACE_S = 5.0


class WarmPythonTransport(FileTransport):
    """Runs ``<interpreter> <flags> <script>`` through a fork server; same files, same faults."""

    def __init__(
        self,
        sandbox: Sandbox,
        argv: Sequence[str],
        *,
        preload: Sequence[str] = ("numpy",),
        output_name: str = "outputf.txt",
        protected: Collection[str] = (),
        wall_time_s: float | None = None,
    ) -> None:
        super().__init__(sandbox, argv, output_name=output_name, protected=protected, wall_time_s=wall_time_s)
        if len(argv) < 2 or not argv[-1].endswith(".py"):
            raise SandboxError(f"a warm start needs '<python> [flags] <script>.py', got {' '.join(argv)}")
        self.script = argv[-1]
        self.server_argv = [*argv[:-1], sandbox.forkserver_path, *preload]
        self.server: Session | None = None

    def _start_server(self) -> Session:
        server = self.sandbox.start(self.server_argv)
        if server.read_line(START_TIMEOUT_S) != '{"ready": true}':
            result = server.close()
            problem = result.stderr.decode(errors="replace")
            raise SandboxError(f"the Python fork server did not start: {problem}")
        return server

    def _run(self) -> RunResult:
        if self.server is None or not self.server.alive:
            if self.server is not None:
                self.server.close()
            self.server = self._start_server()
        wall = self.wall_time_s if self.wall_time_s is not None else self.sandbox.limits.wall_time_s
        cap = self.sandbox.limits.output_bytes
        self.server.send_line(json.dumps({"script": self.script, "wall": wall, "out_cap": cap}))
        line = self.server.read_line(wall + REPLY_GRACE_S)
        self.sandbox.sweep()
        if line is None:
            # The program killed its own fork server: a crash of this decision; a new server next time.
            self.server.close()
            self.server = None
            return RunResult(
                RunStatus.SIGNALED, None, int(signal.SIGKILL), wall * 1000, 0.0, 0, wall_limit_s=wall
            )
        reply = json.loads(line)
        header = {key: reply[key] for key in ("status", "exit_code", "signal", "wall_ms", "cpu_ms", "maxrss")}
        out, err = reply["stdout"].encode("latin-1"), reply["stderr"].encode("latin-1")
        return self.sandbox._result(header, out, err, wall)

    def close(self) -> None:
        """Stop the fork server."""
        if self.server is not None:
            self.server.close()
            self.server = None
