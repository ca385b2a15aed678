"""The body cap: a request body over its cap is refused with 413, by its announced length or, when it
comes without one (chunked), as soon as the bytes received pass the cap."""

from __future__ import annotations

import asyncio

from starlette.types import Message, Receive, Scope, Send

from arena.contest.web.app import BodyCap

LIMIT = 1000


async def _read_all(scope: Scope, receive: Receive, send: Send) -> None:
    """An app that reads the whole body, then answers 200 with its length."""
    size = 0
    while True:
        message = await receive()
        size += len(message.get("body", b""))
        if not message.get("more_body"):
            break
    await send({"type": "http.response.start", "status": 200, "headers": []})
    await send({"type": "http.response.body", "body": str(size).encode()})


def _post(path: str, chunks: list[bytes], headers: list[tuple[bytes, bytes]]) -> tuple[int, int, bytes]:
    """The status and body the cap answers, and how many chunks the app asked for."""
    sent: list[Message] = []
    asked = 0

    async def receive() -> Message:
        nonlocal asked
        asked += 1
        return {"type": "http.request", "body": chunks[asked - 1], "more_body": asked < len(chunks)}

    async def send(message: Message) -> None:
        sent.append(message)

    scope = {"type": "http", "method": "POST", "path": path, "headers": headers}
    asyncio.run(BodyCap(_read_all, LIMIT, uploads=10 * LIMIT)(scope, receive, send))
    return sent[0]["status"], asked, b"".join(m.get("body", b"") for m in sent[1:])


def test_a_chunked_body_is_refused_once_it_passes_the_cap_and_no_more_is_read() -> None:
    status, asked, body = _post("/signin", [b"a" * 400] * 10, [])
    assert status == 413 and b"over 1000 bytes" in body
    assert asked == 3  # 400, 800, 1200: the third chunk passes the cap and nothing after it is read


def test_an_announced_length_over_the_cap_is_refused_before_a_byte_is_read() -> None:
    status, asked, _ = _post("/signin", [b"a" * 400] * 10, [(b"content-length", b"4000")])
    assert (status, asked) == (413, 0)


def test_a_length_that_is_not_a_number_is_refused() -> None:
    status, asked, _ = _post("/signin", [b"a"], [(b"content-length", b"12x")])
    assert (status, asked) == (413, 0)


def test_an_upload_path_takes_the_larger_cap_and_a_body_under_it_passes_whole() -> None:
    status, asked, body = _post("/api/submissions", [b"a" * 400] * 10, [])
    assert (status, asked, body) == (200, 10, b"4000")
    status, _, _ = _post("/signin", [b"a" * 400] * 2, [])
    assert status == 200
