"""The viewer's web app (Starlette): every page of :mod:`.pages`, the static files, the live streams.

Read-only: only ``GET`` (and ``HEAD``) routes, and nothing on the page that a program controls can run:
besides Jinja's escaping, a Content-Security-Policy lets scripts come only from the viewer's own file.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, MutableMapping, Sequence
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import (
    HTMLResponse,
    JSONResponse,
    PlainTextResponse,
    RedirectResponse,
    Response,
    StreamingResponse,
)
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles
from starlette.types import ASGIApp, Receive, Scope, Send

from arena.viewer.live import FolderWatch, follow
from arena.viewer.pages import PageNotFound, render, render_steps
from arena.viewer.runs import Run
from arena.viewer.site import Site, static_dir

POLICY = (
    "default-src 'none'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; "
    "connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'"
)


VIEWER_HEADERS = (
    (b"content-security-policy", POLICY.encode()),
    (b"x-content-type-options", b"nosniff"),
    (b"referrer-policy", b"no-referrer"),
)
"""The security headers of every viewer answer."""


class SecurityHeaders:
    """Adds ``headers`` (the viewer's by default) to every response."""

    def __init__(self, app: ASGIApp, headers: Sequence[tuple[bytes, bytes]] = VIEWER_HEADERS) -> None:
        self.app = app
        self.headers = list(headers)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        async def with_headers(message: MutableMapping[str, Any]) -> None:
            if message["type"] == "http.response.start":
                message["headers"] = [*message.get("headers", []), *self.headers]
            await send(message)

        await self.app(scope, receive, with_headers)


def create_app(run_dir: Path) -> ASGIApp:
    """The app over one run folder."""
    site = Site(Run(run_dir), live=True)
    watch = FolderWatch()

    def page(request: Request) -> Response:
        path = request.path_params["path"]
        try:
            if path.endswith(".json"):
                return JSONResponse(
                    render_steps(site, path, request.query_params), headers={"Cache-Control": "no-store"}
                )
            return HTMLResponse(render(site, path, request.query_params))
        except PageNotFound:
            return PlainTextResponse(f"no page {request.url.path} in this run", status_code=404)

    def home(request: Request) -> Response:
        return RedirectResponse("index.html")

    async def stream(request: Request) -> Response:
        name = request.path_params["name"]
        try:
            site.run.table(name)
        except KeyError:
            return PlainTextResponse(f"no table {name} in this run", status_code=404)
        try:
            after = max(0, int(request.query_params.get("after", "0")))
        except ValueError:
            after = 0
        events = follow(site.run, name, after=after, disconnected=request.is_disconnected, watch=watch)
        return StreamingResponse(
            events, media_type="text/event-stream", headers={"Cache-Control": "no-cache"}
        )

    @asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        yield
        watch.stop()

    app = Starlette(
        routes=[
            Route("/", home),
            Mount("/static", app=StaticFiles(directory=static_dir()), name="static"),
            Route("/live/{name}/stream", stream),
            Route("/{path:path}", page),
        ],
        lifespan=lifespan,
    )
    return SecurityHeaders(app)
