"""A warm start for Python programs under Code'em's rules: one fork per decision from a fork server.

``WarmPythonTransport`` is a :class:`FileTransport` whose run step asks a fork server (started once in
the team's sandbox with the team's interpreter and flags, with heavy modules such as numpy preloaded)
for a fresh child per decision instead of starting a new interpreter. Files are written, policed and read
exactly as by :class:`FileTransport`; ``tests/sandbox/test_transports_warm.py`` runs one program both ways and
compares every answer and every help file.

The decision's stdout and stderr go to files in the sandbox's ``/tmp`` that the arena reads itself: the
server never holds a decision's output. Where the sandbox has a machinery uid (arena as root, on either road)
the server runs under it and no program can kill, stop or trace it. Elsewhere (not root) it runs as arena's
user, as the programs do, so a program can kill or stop it: that decision is judged as it ended (killed, or
past its time), never run again, and the next decision gets a new server.
"""

from __future__ import annotations

import dataclasses
import json
import os
import secrets
import signal
from collections.abc import Collection, Sequence

from arena.errors import SandboxError
from arena.sandbox import Reply, RunResult, Sandbox, Session, tree
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
        """``wall_time_s`` is a warm decision's limit (no interpreter start to allow for)."""
        super().__init__(sandbox, argv, output_name=output_name, protected=protected, wall_time_s=wall_time_s)
        if len(argv) < 2 or not argv[-1].endswith(".py"):
            raise SandboxError(f"a warm start needs '<python> [flags] <script>.py', got {' '.join(argv)}")
        self.script = argv[-1]
        self.server_argv = [*argv[:-1], sandbox.box.forkserver_path, *preload]
        # a cold program's start for each decision; the team's ids when the server is arena's (machinery uid)
        self.server_argv += sandbox.start_options(team=sandbox.machinery_uid is not None)
        self.server: Session | None = None
        self.failures = 0  # decisions whose server a program killed or stopped

    def _start_server(self) -> Session:
        server = self.sandbox.start(self.server_argv, machinery=True)
        if server.read_line(START_TIMEOUT_S) != '{"ready": true}':
            result = server.close()
            problem = result.stderr.decode(errors="replace")
            raise SandboxError(f"the Python fork server did not start: {problem}")
        return server

    def _run(self, arenas_files: Collection[str] = ()) -> RunResult:
        """One decision through the fork server, judged like a fresh interpreter's.

        A server that cannot contain a decision (its child could not join the decision's cgroup) is arena's
        failure: :class:`SandboxError`. A server lost during the decision was lost by the program (without a
        machinery uid it runs as the programs' user): the decision is judged as it ended, and the next one
        starts a new server.
        """
        limit = self.wall_time_s if self.wall_time_s is not None else self.sandbox.limits.wall_time_s
        cap, budget_ms = self.sandbox.judge.clocks(limit)
        if self.server is None or not self.server.alive:
            if self.server is not None:
                self.server.close()
            self.server = self._start_server()
        names = tuple(f".warm-{secrets.token_hex(8)}.{stream}" for stream in ("out", "err"))
        inner = self.sandbox.box.scratch_inside
        request = {
            "script": self.script,
            "wall": cap,
            "budget_ms": budget_ms,
            "cpu": self.sandbox.limits.cpu_seconds(limit),
            "out": f"{inner}/{names[0]}",
            "err": f"{inner}/{names[1]}",
        }
        self.server.send_line(json.dumps(request))
        try:
            reply = self.server.read_reply(cap + REPLY_GRACE_S)
        except SandboxError:  # what the server printed is not a reply: it is the program's now (its uid)
            reply = None
        out, err = (self._take_output(name) for name in names)  # before the sweep empties /tmp
        cpu_us = round(self.sandbox.sweep() * 1000)
        if reply is None:
            reply = self._lost_server()
        elif reply.status == "not_started":
            raise SandboxError(f"the Python fork server could not start a decision: {reply.detail}")
        out_cap = self.sandbox.limits.output_bytes
        status = reply.status
        if status in ("ok", "exited") and max(len(out), len(err)) > out_cap:
            status = "output"
        reply = dataclasses.replace(
            reply, status=status, cpu_us=max(reply.cpu_us, cpu_us), stdout=out[:out_cap], stderr=err[:out_cap]
        )
        return self.sandbox.judge.result(reply, cap, budget_ms)

    def _lost_server(self) -> Reply:
        """The decision whose server a program killed (ended by SIGKILL) or stopped (past its time)."""
        assert self.server is not None
        self.failures += 1
        stopped = not self.server.eof  # no reply in time, its output still open (its pidfd may lag an EOF)
        self.server.close()
        self.server = None
        if stopped:
            return Reply("timeout")
        return Reply("exited", signal=int(signal.SIGKILL))

    def _take_output(self, name: str) -> bytes:
        """One output file of the decision (at most the cap and one byte), read without following a link
        or waiting on a FIFO, then removed; empty when the program removed it or put something else there."""
        folder = tree.open_folder(self.sandbox.box.scratch_outside)
        try:
            data = tree.read_file(folder, name, self.sandbox.limits.output_bytes + 1)
            tree.remove_entry(folder, name)
        finally:
            os.close(folder)
        return data or b""

    def close(self) -> None:
        """Stop the fork server."""
        if self.server is not None:
            self.server.close()
            self.server = None
