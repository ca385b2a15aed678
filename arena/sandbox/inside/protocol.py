"""The helper's end of the arena's socket (fd 0): the ``init`` request with the cgroup descriptors beside
it, then one JSON request line (plus raw stdin bytes) at a time, answered by a JSON header line and raw
stdout/stderr bytes, or by the one reply record (``record.py``). A session's pipe ends and pidfd are
passed beside its answer (SCM_RIGHTS), so the arena talks to the process directly.

Standard library only: the sandbox helper loads it from beside itself (``helper.py``).
"""

from __future__ import annotations

import fcntl
import json
import os
import socket
import time
from typing import Any

HIGH_FD = 100  # the cgroup descriptors move up here: clear of the 0-2 and 3+ every child is given


class Channel:
    """The socket to the arena, read unbuffered (a request's raw bytes follow its line)."""

    def __init__(self, sock: socket.socket) -> None:
        self.sock = sock
        self.reader = sock.makefile("rb", buffering=0)

    def receive_init(self) -> tuple[dict[str, Any], dict[str, list[int]]]:
        """The ``init`` request, and the descriptors of the decision's cgroup passed beside it, by name."""
        data, fds, _, _ = socket.recv_fds(self.sock, 1 << 16, 16)
        while not data.endswith(b"\n"):
            more = self.sock.recv(1 << 16)
            if not more:
                raise EOFError("arena closed the channel")
            data += more
        request: dict[str, Any] = json.loads(data)
        high = [fcntl.fcntl(fd, fcntl.F_DUPFD_CLOEXEC, HIGH_FD) for fd in fds]  # clear of what children get
        for fd in fds:
            os.close(fd)
        named = {name: [high[i] for i in indexes] for name, indexes in request["cgroup"].items()}
        return request, named

    def next_request(self) -> dict[str, Any] | None:
        """The next request line; None once the arena closed the socket."""
        line = self.reader.readline()
        if not line:
            return None
        request: dict[str, Any] = json.loads(line)
        return request

    def read_exact(self, size: int) -> bytes:
        chunks = []
        while size > 0:
            chunk = self.reader.read(size)
            if not chunk:
                raise EOFError("arena closed the channel")
            chunks.append(chunk)
            size -= len(chunk)
        return b"".join(chunks)

    def reply(self, header: dict[str, Any], stdout: bytes = b"", stderr: bytes = b"") -> None:
        header = {**header, "stdout_len": len(stdout), "stderr_len": len(stderr)}
        self.sock.sendall(json.dumps(header).encode() + b"\n" + stdout + stderr)

    def send(self, data: bytes) -> None:
        """Bytes already framed: an encoded reply record."""
        self.sock.sendall(data)

    def send_session(self, session: int, fds: tuple[int, ...], header: dict[str, Any]) -> None:
        """Answer with ``header`` and the session's id, passing its pipes and pidfd beside the line (then
        closed here: they are the arena's)."""
        line = {**header, "id": session, "started": time.monotonic()}
        socket.send_fds(self.sock, [json.dumps(line).encode() + b"\n"], list(fds))
        for fd in fds:
            os.close(fd)
