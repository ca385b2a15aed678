"""The one reply a decision's watcher gives the arena: written alike by arena's compiled runner
(``runner.c``), the sandbox helper and the Python fork server, and parsed by :func:`parse` alone.

On the wire: one line of ten fields, one space apart, then the detail line, then stdout and stderr bytes::

    <status> <exit_code|-1> <signal|0> <wall_us> <cpu_us> <maxrss_kb> <dirty> <help_files|-1>
        <out_len> <err_len>   (on the same line)
    <detail>
    <stdout bytes><stderr bytes>

``status`` is one of :data:`STATUSES`; ``dirty`` 1 when the helper must end the decision itself (something
in ``/tmp`` or an IPC object that could not be removed, a process that could not be killed); ``help_files``
the team folder's help files and folders when they break no rule (``tally.c``; -1: not counted).
Standard library only: the helper and the fork server load it from beside themselves.
"""

from __future__ import annotations

import os
import resource
from dataclasses import dataclass

STATUSES = ("ok", "exited", "timeout", "cpu", "output", "not_started")
FIELDS = 10
MAX_HEADER = 512  # a header line longer than this is garbage, not a reply still arriving


@dataclass(frozen=True)
class Reply:
    """How one decision's program ended, as its watcher saw it (judged by ``arena.sandbox.judge.Judge``)."""

    status: str
    exit_code: int | None = None
    signal: int | None = None
    wall_us: int = 0
    cpu_us: int = 0
    maxrss_kb: int = 0
    dirty: bool = False
    help_files: int | None = None
    detail: str = ""
    stdout: bytes = b""
    stderr: bytes = b""

    @property
    def wall_ms(self) -> float:
        return self.wall_us / 1000

    @property
    def cpu_ms(self) -> float:
        return self.cpu_us / 1000


def ended(
    status: int,
    usage: resource.struct_rusage,
    wall_ms: float,
    reason: str,
    *,
    cpu_us: int = 0,
    out: bytes | bytearray = b"",
    err: bytes | bytearray = b"",
) -> Reply:
    """The reply for a program that ended with wait ``status`` and ``usage`` (its CPU time the larger of
    its own and ``cpu_us``, the decision cgroup's); ``reason`` names a limit it met, if any."""
    code = os.waitstatus_to_exitcode(status)
    return Reply(
        status=reason or ("ok" if code == 0 else "exited"),
        exit_code=code if code >= 0 else None,
        signal=-code if code < 0 else None,
        wall_us=round(wall_ms * 1000),
        cpu_us=max(round((usage.ru_utime + usage.ru_stime) * 1e6), cpu_us),
        maxrss_kb=usage.ru_maxrss,
        stdout=bytes(out),
        stderr=bytes(err),
    )


def encode(reply: Reply) -> bytes:
    """The reply's bytes on the wire (the runner's ``snprintf`` writes the same)."""
    numbers = (
        -1 if reply.exit_code is None else reply.exit_code,
        reply.signal or 0,
        reply.wall_us,
        reply.cpu_us,
        reply.maxrss_kb,
        int(reply.dirty),
        -1 if reply.help_files is None else reply.help_files,
        len(reply.stdout),
        len(reply.stderr),
    )
    header = " ".join([reply.status, *map(str, numbers)])
    detail = reply.detail.replace("\n", " ").encode(errors="replace")
    return f"{header}\n".encode() + detail + b"\n" + reply.stdout + reply.stderr


def parse(buffer: bytearray) -> Reply | None:
    """The first whole reply in ``buffer``, taken out of it; None while it is still arriving.

    Raises ``ValueError`` when the bytes are not a reply (arena's machinery garbled it).
    """
    first = buffer.find(b"\n")
    if first < 0:
        if len(buffer) > MAX_HEADER:
            raise ValueError(f"not a reply: {bytes(buffer[:80])!r}")
        return None
    line = bytes(buffer[:first])
    fields = line.split(b" ")
    try:
        status = fields[0].decode()
        numbers = [int(field) for field in fields[1:]]
    except (UnicodeDecodeError, ValueError):
        numbers = []
    if len(fields) != FIELDS or len(numbers) != FIELDS - 1 or status not in STATUSES or min(numbers[-2:]) < 0:
        raise ValueError(f"not a reply: {line[:200]!r}")
    second = buffer.find(b"\n", first + 1)
    if second < 0:
        return None
    code, sig, wall_us, cpu_us, maxrss, dirty, help_files, out_len, err_len = numbers
    end = second + 1 + out_len + err_len
    if len(buffer) < end:
        return None
    body = bytes(buffer[second + 1 : end])
    reply = Reply(
        status=status,
        exit_code=code if code >= 0 else None,
        signal=sig or None,
        wall_us=wall_us,
        cpu_us=cpu_us,
        maxrss_kb=maxrss,
        dirty=bool(dirty),
        help_files=help_files if help_files >= 0 else None,
        detail=bytes(buffer[first + 1 : second]).decode(errors="replace"),
        stdout=body[:out_len],
        stderr=body[out_len:],
    )
    del buffer[:end]
    return reply
