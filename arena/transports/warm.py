"""A warm start for Python programs under Code'em's rules: one fork per decision from a fork server.

``WarmPythonTransport`` is a :class:`FileTransport` whose run step asks a fork server (started once in
the team's sandbox with the team's interpreter and flags, with heavy modules such as numpy preloaded)
for a fresh child per decision instead of starting a new interpreter. Files are written, policed and read
exactly as by :class:`FileTransport`; ``tests/sandbox/test_transports_warm.py`` runs one program both ways and
compares every answer and every help file.
"""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Collection, Sequence

from arena.errors import SandboxError
from arena.sandbox import RunResult, Sandbox, Session
from arena.transports.files import FileTransport

START_TIMEOUT_S = 60.0
REPLY_GRACE_S = 5.0
MAX_SERVER_FAILURES = 3
MIN_RERUN_S = 0.001  # a cold rerun whose budget the warm attempt spent still runs, and is judged


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
        cold_wall_time_s: float | None = None,
    ) -> None:
        """``wall_time_s`` is a warm decision's limit (no interpreter start to allow for); a decision rerun
        cold after a failure of the server gets ``cold_wall_time_s`` (with the start-up allowance)."""
        super().__init__(sandbox, argv, output_name=output_name, protected=protected, wall_time_s=wall_time_s)
        self.cold_wall_time_s = cold_wall_time_s if cold_wall_time_s is not None else wall_time_s
        if len(argv) < 2 or not argv[-1].endswith(".py"):
            raise SandboxError(f"a warm start needs '<python> [flags] <script>.py', got {' '.join(argv)}")
        self.script = argv[-1]
        self.server_argv = [*argv[:-1], sandbox.forkserver_path, *preload]
        self.server: Session | None = None
        self.failures = 0

    def _start_server(self) -> Session:
        server = self.sandbox.start(self.server_argv, machinery=True)
        if server.read_line(START_TIMEOUT_S) != '{"ready": true}':
            result = server.close()
            problem = result.stderr.decode(errors="replace")
            raise SandboxError(f"the Python fork server did not start: {problem}")
        return server

    def _run(self, arenas_files: Collection[str] = ()) -> RunResult:
        """One decision through the fork server; if arena's server fails, the decision runs cold instead.

        A server that dies or cannot contain a decision is arena's failure, never the team's: the decision
        is run again with a fresh interpreter and the result carries the incident. After
        ``MAX_SERVER_FAILURES`` in one sandbox the team runs cold for the rest of it (a program that kills
        its own server each time gains nothing by it).
        """
        if self.failures >= MAX_SERVER_FAILURES:
            return self.sandbox.run(self.argv, wall_time_s=self.cold_wall_time_s, arenas_files=arenas_files)
        limit = self.wall_time_s if self.wall_time_s is not None else self.sandbox.limits.wall_time_s
        cap, budget_ms = self.sandbox.clocks(limit)
        try:
            if self.server is None or not self.server.alive:
                if self.server is not None:
                    self.server.close()
                self.server = self._start_server()
            request = {
                "script": self.script,
                "wall": cap,
                "budget_ms": budget_ms,
                "cpu": self.sandbox.limits.cpu_seconds(limit),
                "out_cap": self.sandbox.limits.output_bytes,
            }
            self.server.send_line(json.dumps(request))
            line = self.server.read_line(cap + REPLY_GRACE_S)
        except SandboxError as error:
            line, problem = None, str(error)
        else:
            problem = "the Python fork server stopped during the decision"
        cpu_ms = self.sandbox.sweep()
        reply = json.loads(line) if line is not None else {"status": "not_started", "detail": problem}
        if reply["status"] == "not_started":
            return self._rerun_cold(reply.get("detail", problem), used_ms=cpu_ms)
        header = {key: reply[key] for key in ("status", "exit_code", "signal", "wall_ms", "cpu_ms", "maxrss")}
        header["cpu_ms"] = max(header["cpu_ms"], cpu_ms)
        out, err = reply["stdout"].encode("latin-1"), reply["stderr"].encode("latin-1")
        return self.sandbox._result(header, out, err, cap, budget_ms)

    def _rerun_cold(self, problem: str, *, used_ms: float) -> RunResult:
        """Run the decision again cold, with what is left of its budget: the CPU the decision's own
        processes used before the server failed is spent (a program that kills its server mid-decision,
        or blocks it, must not get a second full budget for one answer)."""
        self.failures += 1
        if self.server is not None:
            self.server.close()
            self.server = None
        budget = self.cold_wall_time_s
        if budget is None:
            budget = self.sandbox.limits.wall_time_s
        if used_ms > 0:
            budget = max(budget - used_ms / 1000, MIN_RERUN_S)
        result = self.sandbox.run(self.argv, wall_time_s=budget)
        incident = f"arena's Python fork server failed ({problem}); the decision was run again cold"
        return dataclasses.replace(result, incidents=(*result.incidents, incident))

    def close(self) -> None:
        """Stop the fork server."""
        if self.server is not None:
            self.server.close()
            self.server = None
