"""Issue 24 item 3: one typed reply between arena and whatever watches a decision.

The C runner and the Python helper write the same record and one function parses it: the bytes each
writes are exactly what :func:`record.encode` makes of what :func:`record.parse` read from them, and the
same program gives the same reply on both roads (timings and memory aside).
"""

from __future__ import annotations

import signal
from collections.abc import Iterator
from pathlib import Path

import pytest

from arena.sandbox import Limits, Reply, Sandbox, open_sandbox
from arena.sandbox.inside import record
from arena.sandbox.runner_client import NO_RUNNER

from support.sandbox import needs_namespaces

pytestmark = pytest.mark.native  # the runner's reply, byte for byte

PROGRAMS = {
    "ok": "printf 'a\\nb\\0c'; printf 'err' >&2",
    "exited": "printf out; exit 3",
    "signaled": "printf before; kill -TERM $$",
    "timeout": "sleep 30",
    "output": "cat /dev/zero",  # never ends by itself: stopped at the limit on both roads
}


def test_a_reply_round_trips_through_its_bytes() -> None:
    reply = Reply("exited", 3, None, 1234, 567, 8910, True, 4, "two\nlines", b"out\n\0\xff", b"err")
    buffer = bytearray(record.encode(reply) + b"next")
    assert record.parse(buffer) == Reply(
        "exited", 3, None, 1234, 567, 8910, True, 4, "two lines", b"out\n\0\xff", b"err"
    )
    assert buffer == b"next"


def test_a_reply_is_parsed_only_once_whole_and_garbage_is_refused() -> None:
    data = record.encode(Reply("ok", 0, stdout=b"answer\n", stderr=b"!"))
    buffer = bytearray()
    for byte in data[:-1]:
        buffer.append(byte)
        assert record.parse(buffer) is None
    buffer.append(data[-1])
    assert record.parse(buffer) == Reply("ok", 0, stdout=b"answer\n", stderr=b"!")
    for garbage in (b"ok 0 0 1 2 3 0 -1 5\n\n", b"fine 0 0 1 2 3 0 -1 0 0\n\n", b"ok 0 0 x 2 3 0 -1 0 0\n\n"):
        with pytest.raises(ValueError):
            record.parse(bytearray(garbage))
    with pytest.raises(ValueError):
        record.parse(bytearray(b"x" * (record.MAX_HEADER + 1)))


@pytest.fixture
def captured(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[tuple[bytes, Reply]]]:
    """Every reply parsed during the test, with the exact bytes it was parsed from."""
    seen: list[tuple[bytes, Reply]] = []
    parse = record.parse

    def recording(buffer: bytearray) -> Reply | None:
        before = bytes(buffer)
        reply = parse(buffer)
        if reply is not None:
            seen.append((before[: len(before) - len(buffer)], reply))
        return reply

    monkeypatch.setattr(record, "parse", recording)
    yield seen


def _replies(root: Path, captured: list[tuple[bytes, Reply]]) -> dict[str, Reply]:
    limits = Limits(wall_time_s=0.3, output_bytes=1000)
    replies = {}
    with open_sandbox(root, limits, isolation="namespaces") as sandbox:
        for name, script in PROGRAMS.items():
            captured.clear()
            wall = 0.3 if name == "timeout" else 20.0  # load never turns another into a timeout
            sandbox.run(["/bin/sh", "-c", script], wall_time_s=wall, wall_clock=True)
            (raw, reply), *_ = captured
            assert record.encode(reply) == raw, name  # written exactly as encode writes it
            replies[name] = reply
        replies["road"] = Reply("ok", detail="runner" if _has_runner(sandbox) else "helper")
    return replies


def _has_runner(sandbox: Sandbox) -> bool:
    return sandbox.runner is not None


@needs_namespaces
def test_the_runner_and_the_helper_write_the_same_reply(
    tmp_path: Path, captured: list[tuple[bytes, Reply]], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv(NO_RUNNER, raising=False)
    from_runner = _replies(tmp_path / "runner", captured)
    monkeypatch.setenv(NO_RUNNER, "1")
    from_helper = _replies(tmp_path / "helper", captured)
    if from_runner.pop("road").detail != "runner":
        pytest.skip("no runner here (namespaces, cgroup v2 and a C compiler needed)")
    assert from_helper.pop("road").detail == "helper"
    for name, reply in from_runner.items():
        other = from_helper[name]
        same = ("status", "exit_code", "signal", "stdout", "stderr", "detail", "help_files")
        assert {key: getattr(reply, key) for key in same} == {key: getattr(other, key) for key in same}, name
    assert from_runner["signaled"].signal == signal.SIGTERM
    assert from_runner["output"].status == "output" and len(from_runner["output"].stdout) == 1000
    assert from_runner["output"].signal == signal.SIGKILL  # stopped by arena, not finished
