"""The contest's app: built from the route table's rows, one access check before every endpoint.

Middleware, outermost first: the security headers on every answer (the viewer's Content-Security-Policy,
with forms allowed to post to this site), a cap on request bodies (megabytes only where uploads go),
signed session cookies (Starlette's ``SessionMiddleware``: itsdangerous-signed, HttpOnly, SameSite=Lax,
Secure when ``https_only``), and CSRF tokens on every form (``asgi-csrf``; not on ``/api/``, which takes
no cookie, only a Bearer token). The lifespan starts and stops the check queue, the mailer and whatever
tournament the site started.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager

from asgi_csrf import asgi_csrf  # type: ignore[import-untyped]
from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.middleware.sessions import SessionMiddleware
from starlette.requests import Request
from starlette.responses import JSONResponse, RedirectResponse, Response
from starlette.routing import Route
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from arena.contest.checks import CheckQueue
from arena.contest.contest import (
    ANONYMOUS,
    TOKEN_LIFETIME,
    Contest,
    ContestError,
    Forbidden,
    NotSignedIn,
    Refused,
    Role,
    Viewer,
)
from arena.contest.folder import ContestFolder
from arena.contest.launch import StageRunner
from arena.contest.mail import Mailer, mail_verdict
from arena.contest.web import api, pages
from arena.contest.web.access import Access, Endpoint, Row, Surface
from arena.errors import ArenaError
from arena.viewer.app import POLICY, SecurityHeaders

CONTENT_SECURITY_POLICY = POLICY.replace("form-action 'none'", "form-action 'self'")
"""The viewer's policy (scripts from this site only, no inline script), with forms posting here."""
SESSION_COOKIE = "arena_session"
SESSION_TEAM = "team"
SESSION_STAMP = "stamp"
BODY_SLACK = 256 * 1024
"""Room in a request body for the form's other fields and the multipart framing; the whole cap of a
body sent anywhere but :data:`UPLOAD_PATHS`."""
UPLOAD_PATHS = frozenset({"/api/submissions", "/team/upload", "/team/final"})
"""The routes that take a program and help files: the only ones whose body may run to megabytes."""
log = logging.getLogger("arena.contest")


def all_rows() -> list[Row]:
    """Every route of the app: the API's and the pages'. A path and method appear once."""
    rows = [*api.ROWS, *pages.ROWS]
    seen: set[tuple[str, str]] = set()
    for row in rows:
        for method in row.methods:
            if (method, row.path) in seen:
                raise ValueError(f"two rows for {method} {row.path}")
            seen.add((method, row.path))
    if missing := UPLOAD_PATHS - {path for method, path in seen if method == "POST"}:
        raise ValueError(f"no POST row for the upload paths {sorted(missing)}")
    return rows


def bearer_token(request: Request) -> str | None:
    """The token of an ``Authorization: Bearer TOKEN`` header, or None."""
    scheme, _, token = request.headers.get("authorization", "").partition(" ")
    return token.strip() or None if scheme.lower() == "bearer" else None


async def viewer_of(request: Request, surface: Surface) -> Viewer:
    """Who is asking: by Bearer token on the API, by the signed session cookie on pages."""
    contest: Contest = request.app.state.contest
    if surface is Surface.API:
        token = bearer_token(request)
        return ANONYMOUS if token is None else await run_in_threadpool(contest.viewer_of_token, token)
    team = request.session.get(SESSION_TEAM)
    if not isinstance(team, str):
        return ANONYMOUS
    stamp, session = request.session.get(SESSION_STAMP), request.session.get(pages.SESSION_ID)
    viewer = await run_in_threadpool(
        contest.viewer_of_team,
        team,
        stamp if isinstance(stamp, str) else "",
        session if isinstance(session, str) else "",
    )
    if not viewer.signed_in:
        request.session.clear()  # a reset password or a disabled team ends the session
    return viewer


def allowed(access: Access, viewer: Viewer) -> ContestError | None:
    """Why ``viewer`` may not reach a route of ``access`` (None when it may)."""
    match access:
        case Access.PUBLIC:
            return None
        case _ if not viewer.signed_in:
            return NotSignedIn("sign in first")
        case Access.SIGNED_IN:
            return None
        case Access.TEAM if viewer.role is not Role.TEAM:
            return Forbidden("only a team may do this")
        case Access.ORGANISER if viewer.role is not Role.ORGANISER:
            return Forbidden("only the organiser may do this")
    return None


def refusal(request: Request, surface: Surface, error: ContestError) -> Response:
    """How a refused request is answered: JSON on the API; on pages a sign-in redirect or an error page."""
    if surface is Surface.API:
        return JSONResponse({"error": str(error)}, status_code=error.status)
    if isinstance(error, NotSignedIn):
        return RedirectResponse("/signin", status_code=303)
    return pages.error_page(request, error.status, str(error))


def guarded(row: Row) -> Endpoint:
    """The row's endpoint behind its access check (and with the operations' refusals answered)."""

    async def endpoint(request: Request) -> Response:
        viewer = await viewer_of(request, row.surface)
        request.state.viewer = viewer
        problem = allowed(row.access, viewer)
        if problem is not None:
            return refusal(request, row.surface, problem)
        try:
            response = await row.endpoint(request)
            if row.surface is Surface.PAGE:
                await _stamp_session(request)
            return response
        except ContestError as error:
            return refusal(request, row.surface, error)
        except ArenaError as error:  # the library refused (a bad file, a stage not ready): one line, 400
            return refusal(request, row.surface, Refused(str(error)))

    endpoint.__name__ = row.name or row.endpoint.__name__
    return endpoint


async def _stamp_session(request: Request) -> None:
    """A session just signed in gets its credential's stamp, so a password reset ends it."""
    team = request.session.get(SESSION_TEAM)
    if isinstance(team, str) and SESSION_STAMP not in request.session:
        contest: Contest = request.app.state.contest
        request.session[SESSION_STAMP] = await run_in_threadpool(contest.session_stamp, team)


CONTEST_HEADERS = (
    (b"content-security-policy", CONTENT_SECURITY_POLICY.encode()),
    (b"x-content-type-options", b"nosniff"),
    (b"referrer-policy", b"no-referrer"),
    (b"x-frame-options", b"DENY"),
    (b"cache-control", b"no-store"),
)
"""The viewer's security headers with the contest's policy (forms post to the site itself), and no
framing or caching of pages that may hold a team's own data."""
HTTPS_HEADERS = ((b"strict-transport-security", b"max-age=31536000"),)
"""Added when the site is served over HTTPS only: browsers keep to HTTPS for a year (no first request
in plain HTTP that a network could read or rewrite)."""


class BodyCap:
    """Refuses a request body over its cap with 413, by its length or while it streams: ``uploads``
    bytes on :data:`UPLOAD_PATHS`, ``limit`` anywhere else."""

    def __init__(self, app: ASGIApp, limit: int, *, uploads: int) -> None:
        self.app = app
        self.limit = limit
        self.uploads = uploads

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        limit = self.uploads if scope.get("path") in UPLOAD_PATHS else self.limit
        length = dict(scope.get("headers", [])).get(b"content-length")
        if length is not None and (not length.isdigit() or int(length) > limit):
            await _too_large(send, limit)
            return
        received = 0
        started = False

        async def counted() -> Message:
            nonlocal received
            message = await receive()
            if message["type"] == "http.request":
                received += len(message.get("body", b""))
                if received > limit:
                    raise _BodyTooLarge
            return message

        async def watched(message: Message) -> None:
            nonlocal started
            started = started or message["type"] == "http.response.start"
            await send(message)

        try:
            await self.app(scope, counted, watched)
        except _BodyTooLarge:
            if not started:
                await _too_large(send, limit)


class _BodyTooLarge(Exception):
    pass


async def _too_large(send: Send, limit: int) -> None:
    body = f'{{"error": "the request is over {limit} bytes"}}'.encode()
    await send(
        {
            "type": "http.response.start",
            "status": 413,
            "headers": [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode())],
        }
    )
    await send({"type": "http.response.body", "body": body})


async def _every_second(task: Callable[[], None]) -> None:
    """Run ``task`` in the thread pool once a second, for as long as the app runs."""
    while True:
        try:
            await run_in_threadpool(task)
        except Exception:  # keep the clock going; the next second tries again
            log.exception("a timed task failed")
        await asyncio.sleep(1)


def create_app(
    folder: ContestFolder,
    *,
    jobs: int = 1,
    smtp: str | None = None,
    scheduler: str | None = None,
) -> ASGIApp:
    """The contest's app over ``folder``: checks on ``jobs`` workers, mail over ``smtp`` (HOST:PORT)."""
    contest = Contest(folder, mail_enabled=smtp is not None)
    mailer = Mailer(folder, smtp)
    queue = CheckQueue(folder, jobs=jobs, on_checked=lambda record: mail_verdict(contest.store, record))
    runner = StageRunner(folder, scheduler=scheduler)
    contest.on_upload(queue.wake)
    contest.attach(runner=runner, mailer=mailer)
    settings = contest.settings

    @asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        runner.recover()
        queue.start()
        mailer.start()
        if queue.requeued:
            log.warning("checks interrupted by the last stop queued again: %s", queue.requeued)
        clock = asyncio.create_task(_every_second(contest.freeze_if_due))
        try:
            yield
        finally:
            clock.cancel()
            queue.stop()
            mailer.stop()
            runner.stop()

    rows = all_rows()
    app = Starlette(
        routes=[Route(row.path, guarded(row), methods=list(row.methods)) for row in rows],
        lifespan=lifespan,
    )
    app.state.contest = contest
    app.state.rows = rows
    secret = folder.secret_key.read_text(encoding="utf-8").strip()
    protected: ASGIApp = pages.UploadsCarryToken(
        asgi_csrf(
            app,
            signing_secret=secret,
            skip_if_scope=lambda scope: str(scope.get("path", "")).startswith("/api/"),
            cookie_secure=settings.https_only,
            cookie_samesite="Strict",
            always_protect={"/signin"},
        ),
        secret,
    )
    sessions = SessionMiddleware(
        protected,
        secret_key=secret,
        session_cookie=SESSION_COOKIE,
        max_age=int(TOKEN_LIFETIME.total_seconds()),  # a page session lasts as long as a token
        same_site="lax",
        https_only=settings.https_only,
    )
    uploads = settings.upload_max_bytes + settings.help_files_max * settings.help_file_max_bytes + BODY_SLACK
    headers = CONTEST_HEADERS + (HTTPS_HEADERS if settings.https_only else ())
    return SecurityHeaders(BodyCap(sessions, BODY_SLACK, uploads=uploads), headers)
