"""The arena's end of the Unix socket to a sandbox helper: JSON header lines, raw bytes, passed fds."""

from __future__ import annotations

import array
import json
import socket
from collections.abc import Sequence
from typing import Any

from arena.errors import SandboxError
from arena.sandbox.inside import record
from arena.sandbox.inside.record import Reply

_FD_SPACE = socket.CMSG_SPACE(8 * array.array("i").itemsize)


class Channel:
    """Reads and writes the helper protocol; collects file descriptors the helper sends."""

    def __init__(self, sock: socket.socket) -> None:
        self.sock = sock
        self.buffer = bytearray()
        self.fds: list[int] = []

    def send(self, request: dict[str, Any], payload: bytes = b"", *, fds: Sequence[int] = ()) -> None:
        """Send one request line and its payload (and descriptors, passed with the line)."""
        line = json.dumps(request).encode() + b"\n"
        try:
            if fds:
                sent = socket.send_fds(self.sock, [line], list(fds))
                line = line[sent:]
            self.sock.sendall(line + payload)
        except OSError as error:
            raise SandboxError(f"the sandbox helper is gone ({error})") from error

    def receive(self) -> tuple[dict[str, Any], bytes, bytes]:
        """One reply: its header and the stdout/stderr bytes that follow it."""
        while b"\n" not in self.buffer:
            self._fill()
        line, _, rest = bytes(self.buffer).partition(b"\n")
        self.buffer = bytearray(rest)
        header = json.loads(line)
        need = header.get("stdout_len", 0) + header.get("stderr_len", 0)
        while len(self.buffer) < need:
            self._fill()
        body = bytes(self.buffer[:need])
        del self.buffer[:need]
        split = header.get("stdout_len", 0)
        return header, body[:split], body[split:]

    def receive_reply(self) -> Reply:
        """One decision's reply (:mod:`arena.sandbox.inside.record`)."""
        while True:
            try:
                reply = record.parse(self.buffer)
            except ValueError as error:
                raise SandboxError(f"the sandbox helper answered nonsense ({error})") from error
            if reply is not None:
                return reply
            self._fill()

    def take_fds(self, count: int) -> list[int]:
        """The next ``count`` descriptors the helper passed."""
        if len(self.fds) < count:
            raise SandboxError("the sandbox helper did not pass the session's pipes")
        taken, self.fds = self.fds[:count], self.fds[count:]
        return taken

    def _fill(self) -> None:
        try:
            data, ancillary, _, _ = self.sock.recvmsg(1 << 20, _FD_SPACE)
        except OSError as error:
            raise SandboxError(f"lost the sandbox helper ({error})") from error
        for level, kind, blob in ancillary:
            if level == socket.SOL_SOCKET and kind == socket.SCM_RIGHTS:
                fds = array.array("i")
                fds.frombytes(blob[: len(blob) - (len(blob) % fds.itemsize)])
                self.fds.extend(fds)
        if not data:
            raise SandboxError("the sandbox helper exited unexpectedly")
        self.buffer += data
