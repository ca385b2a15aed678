"""The contest's HTML pages: one :class:`~arena.contest.web.access.Row` each, in :data:`ROWS`.

Every page reads through :class:`~arena.contest.contest.Contest`, which decides again who may see what;
a page only renders. The app's wrapper checks the row's access before the endpoint runs and answers an
operation's refusal (a sign-in redirect, an error page). Forms post to the same site and carry the CSRF
token (checked by the app's middleware); a form's answer is a redirect (303) back to a page, with what
happened as a one-time message in the session. Everything a team or a program controls reaches the HTML
through Jinja's autoescaping only.
"""

from __future__ import annotations

import datetime as dt
import secrets
from collections.abc import Callable
from functools import cache
from http.cookies import CookieError, SimpleCookie
from pathlib import Path
from typing import Any, TypeVar

from asgi_csrf import DEFAULT_COOKIE_NAME as CSRF_COOKIE  # type: ignore[import-untyped]
from asgi_csrf import DEFAULT_SIGNING_NAMESPACE as CSRF_NAMESPACE
from itsdangerous import BadSignature, URLSafeSerializer
from jinja2 import Environment, PackageLoader, StrictUndefined, select_autoescape
from starlette.datastructures import UploadFile
from starlette.requests import Request
from starlette.responses import (
    FileResponse,
    HTMLResponse,
    PlainTextResponse,
    RedirectResponse,
    Response,
    StreamingResponse,
)
from starlette.types import ASGIApp, Receive, Scope, Send

from arena.contest.certificates import awards_of
from arena.contest.contest import (
    Contest,
    ContestError,
    Forbidden,
    NotFound,
    Refused,
    Role,
    SubmissionView,
    TooLarge,
    Viewer,
)
from arena.contest.state import CheckStatus, now
from arena.contest.web.access import Access, Row, Surface, rows_into
from arena.contest.web.api import call, contest_of, read_upload, viewer_of
from arena.runfolder.layout import DB_NAME as TOURNAMENT_DB
from arena.tournament.final import FINAL as FINAL_TABLE
from arena.viewer.live import FolderWatch, follow
from arena.viewer.pages import PageNotFound
from arena.viewer.pages import render as render_viewer
from arena.viewer.runs import Run
from arena.viewer.site import Site
from arena.viewer.site import static_dir as viewer_static

T = TypeVar("T")
ROWS: list[Row] = []
route = rows_into(ROWS, Surface.PAGE)

SESSION_TEAM = "team"
SESSION_FLASH = "flash"
SESSION_ID = "id"
"""A page session's own random id: signing out records it, so a copy of the cookie is refused."""
REFRESH_S = 2
"""A page showing a check still queued or running reloads itself after this many seconds."""
STATIC = {
    "viewer.css": viewer_static() / "viewer.css",
    "viewer.js": viewer_static() / "viewer.js",
    "hands.js": viewer_static() / "hands.js",
    "contest.css": Path(__file__).parents[1] / "static" / "contest.css",
    "contest.js": Path(__file__).parents[1] / "static" / "contest.js",
}
"""The only files served under /static/: a fixed list, so no name from a URL reaches the file system."""
WATCH = FolderWatch()
"""Wakes the live streams of the tournament's tables (one watchdog observer, a daemon thread)."""


# -- plumbing ---------------------------------------------------------------------------------------


@cache
def environment() -> Environment:
    """Jinja with autoescaping on for every template."""
    return Environment(
        loader=PackageLoader("arena.contest", "templates"),
        autoescape=select_autoescape(default=True, default_for_string=True),
        undefined=StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
    )


def flash(request: Request, text: str, kind: str = "ok") -> None:
    """A message shown once, on the next page."""
    request.session.setdefault(SESSION_FLASH, []).append({"kind": kind, "text": text})


def render(request: Request, template: str, *, status: int = 200, **context: Any) -> HTMLResponse:
    """A page: the template with what every page shows (who is signed in, messages, the CSRF token)."""
    contest = contest_of(request)
    token = request.scope.get("csrftoken")
    html = (
        environment()
        .get_template(template)
        .render(
            contest_name=contest.settings.name,
            viewer=viewer_of(request),
            flashes=request.session.pop(SESSION_FLASH, []),
            csrftoken=token() if callable(token) else "",
            mail_on=contest.mail_enabled,
            played=(contest.folder.tournament / TOURNAMENT_DB).is_file(),
            now=now(),
            refresh=context.pop("refresh", 0),
            **context,
        )
    )
    return HTMLResponse(html, status_code=status)


def back_to(path: str) -> RedirectResponse:
    """A form's answer: see the page at ``path`` (GET)."""
    return RedirectResponse(path, status_code=303)


HEADINGS = {400: "Not done", 403: "Not yours to see", 404: "Not found", 413: "Too large", 429: "Too many"}


def error_page(request: Request, status: int, message: str) -> HTMLResponse:
    heading = HEADINGS.get(status, "Error")
    return render(request, "error.html", status=status, heading=heading, message=message)


# -- public -----------------------------------------------------------------------------------------


@route("GET", "/static/{name}", Access.PUBLIC)
async def static(request: Request) -> Response:
    return await static_file(request.path_params["name"])


@route("GET", "/", Access.PUBLIC)
async def home(request: Request) -> Response:
    contest = contest_of(request)
    announcements = await call(contest.store.announcements)
    timeline = await call(contest.timeline)
    return render(
        request,
        "home.html",
        announcements=[_announcement(a) for a in announcements],
        timeline=_timeline(timeline),
    )


TIMELINE_NAMES = {
    "opens": "Submissions open",
    "error_report": "Every team told of the errors in its code",
    "final_code": "Final-code deadline: the latest upload before it plays",
    "freeze": "The public scoreboard freezes",
}


def _timeline(times: dict[str, dt.datetime | None]) -> list[dict[str, Any]]:
    steps = [{"name": TIMELINE_NAMES.get(k, k), "at": at} for k, at in times.items() if at is not None]
    return sorted(steps, key=lambda step: step["at"])


def _announcement(row: dict[str, Any]) -> dict[str, Any]:
    return {**row, "posted_at": dt.datetime.fromisoformat(row["posted_at"])}


# -- signing in -------------------------------------------------------------------------------------


@route("GET", "/signin", Access.PUBLIC)
async def signin_form(request: Request) -> Response:
    return render(request, "signin.html", team="")


@route("POST", "/signin", Access.PUBLIC)
async def signin(request: Request) -> Response:
    form = await request.form()
    team, password = str(form.get("team", "")), str(form.get("password", ""))
    contest = contest_of(request)
    try:
        viewer = await call(
            contest.authenticate, team, password, request.client.host if request.client else ""
        )
    except ContestError as error:
        flash(request, str(error), "error")
        return render(request, "signin.html", status=error.status, team=team[:64])
    request.session.clear()
    request.session[SESSION_TEAM] = viewer.team
    request.session[SESSION_ID] = secrets.token_urlsafe(18)
    return back_to("/organiser" if viewer.role is Role.ORGANISER else "/team")


@route("POST", "/signout", Access.PUBLIC)
async def signout(request: Request) -> Response:
    session = request.session.get(SESSION_ID)
    if isinstance(session, str) and session:  # the cookie is the client's: end it server-side too
        await call(contest_of(request).end_session, session)
    request.session.clear()
    return back_to("/")


# -- a team -----------------------------------------------------------------------------------------


def _row(view: SubmissionView) -> dict[str, Any]:
    """An upload as the templates show it: the API's answer, with its time as a time."""
    return {**view.to_dict(), "uploaded_at": view.record.uploaded_at}


def _busy(rows: list[dict[str, Any]]) -> bool:
    return any(row["status"] != CheckStatus.DONE for row in rows)


@route("GET", "/team", Access.TEAM)
async def team_home(request: Request) -> Response:
    contest, viewer = contest_of(request), viewer_of(request)
    rows = [_row(view) for view in await call(contest.submissions, viewer)]
    record = await call(contest.store.team, viewer.team)
    closes = await call(contest.deadline, "final_code")
    opens = await call(contest.deadline, "opens")
    moment = now()
    finalists = await call(contest.finalists)
    window = await call(contest.finalists_window)
    done = (await call(contest.tournament_status))["status"] == "done"
    faults = await _or_none(contest.team_faults, viewer) or [] if done else []
    final_running = (await call(contest.final_status))["status"] == "running"
    awards = (
        await call(awards_of, contest.folder.tournament, viewer.team) if done and not final_running else []
    )
    certificates = [kind for kind, _, _ in awards]
    upload_open, closed_reason = True, ""
    if window is not None:
        upload_open, closed_reason = False, "The tournament is over: finalists upload their final code below."
    elif opens is not None and moment < opens:
        upload_open, closed_reason = False, f"Submissions open at {opens.isoformat()}."
    elif closes is not None and moment > closes:
        upload_open, closed_reason = False, f"The final-code deadline {closes.isoformat()} has passed."
    return render(
        request,
        "team.html",
        refresh=REFRESH_S if _busy(rows) else 0,
        team_name=record.name if record else "",
        disqualified=record.reason if record and record.disqualified else "",
        submissions=rows,
        max_kib=contest.settings.upload_max_bytes // 1024,
        deadline=closes,
        upload_open=upload_open,
        upload_closed_reason=closed_reason,
        tournament_done=done,
        fault_count=len(faults),
        certificates=certificates,
        finalist=viewer.team in finalists,
        final_opens=window[0] if window else None,
        final_closes=window[1] if window else None,
        final_open=window is not None and window[0] <= moment <= window[1],
        max_help_files=contest.settings.help_files_max,
    )


async def _or_none(function: Callable[..., T], *args: Any) -> T | None:
    """An operation's answer, or None when it is refused (not yet there, not allowed now)."""
    try:
        return await call(function, *args)
    except ContestError:
        return None


@route("POST", "/team/upload", Access.TEAM)
async def upload(request: Request) -> Response:
    contest, viewer = contest_of(request), viewer_of(request)
    settings = contest.settings
    try:
        async with request.form(max_files=1, max_fields=4) as form:
            program = await read_upload(form.get("file"), settings.upload_max_bytes)
        number = await call(contest.upload, viewer, program)
    except ContestError as error:
        flash(request, f"Upload refused: {error}", "error")
        return back_to("/team")
    flash(request, f"Upload {number} ({program.name}) received; its check is queued.")
    return back_to("/team")


@route("POST", "/team/final", Access.TEAM)
async def final_upload(request: Request) -> Response:
    contest, viewer = contest_of(request), viewer_of(request)
    settings = contest.settings
    try:
        async with request.form(max_files=settings.help_files_max + 1, max_fields=4) as form:
            program = await read_upload(form.get("file"), settings.upload_max_bytes)
            help_files = [
                await read_upload(field, settings.help_file_max_bytes)
                for field in form.getlist("help")
                if isinstance(field, UploadFile) and field.filename
            ]
        number = await call(contest.upload, viewer, program, help_files)
    except ContestError as error:
        flash(request, f"Upload refused: {error}", "error")
        return back_to("/team")
    said = f"{program.name}, {len(help_files)} help files"
    flash(request, f"Final code {number} ({said}) received; its check is queued.")
    return back_to("/team")


def _submission_id(request: Request) -> int:
    text = request.path_params["id"]
    if not text.isdigit() or len(text) > 12:
        raise NotFound(f"no submission {text}")
    return int(text)


async def _submission_page(request: Request, back: str) -> Response:
    contest, viewer = contest_of(request), viewer_of(request)
    view = await call(contest.submission, viewer, _submission_id(request))
    row = _row(view)
    return render(
        request,
        "submission.html",
        refresh=REFRESH_S if _busy([row]) else 0,
        sub=row,
        back=back,
    )


@route("GET", "/team/submissions/{id}", Access.TEAM)
async def team_submission(request: Request) -> Response:
    return await _submission_page(request, "/team")


@route("GET", "/team/faults", Access.TEAM)
async def team_faults(request: Request) -> Response:
    faults = await call(contest_of(request).team_faults, viewer_of(request))
    return render(request, "faults.html", faults=faults)


HAND_FORMATS = {"phh": "phh", "pokerstars": "pokerstars"}


@route("GET", "/team/hands/{format}", Access.TEAM)
async def team_hands(request: Request) -> Response:
    """The team's own hands, its view only, as a zip of PHH or PokerStars files."""
    fmt = HAND_FORMATS.get(request.path_params["format"])
    if fmt is None:
        raise NotFound("hands are given as phh or pokerstars")
    data = await call(contest_of(request).team_hands, viewer_of(request), fmt)
    return Response(data, media_type="application/zip", headers=_attachment(f"hands-{fmt}.zip"))


@route("GET", "/team/finals-logs.zip", Access.TEAM)
async def team_finals_logs(request: Request) -> Response:
    path = await call(contest_of(request).finals_logs_zip, viewer_of(request))
    return FileResponse(path, media_type="application/zip", headers=_attachment(path.name))


@route("GET", "/team/certificates/{kind}", Access.TEAM)
async def team_certificate(request: Request) -> Response:
    pdfs = await call(contest_of(request).certificate, viewer_of(request))
    wanted = request.path_params["kind"]
    for name, data in pdfs:
        if name.endswith(f"-{wanted}.pdf"):
            return Response(data, media_type="application/pdf", headers=_attachment(name))
    raise NotFound(f"no {wanted} certificate for your team")


def _attachment(name: str) -> dict[str, str]:
    """A download's header (names are the site's own: a team id and fixed words)."""
    return {"Content-Disposition": f'attachment; filename="{name}"'}


# -- the scoreboard and the tables ------------------------------------------------------------------


@route("GET", "/standings", Access.PUBLIC)
async def standings(request: Request) -> Response:
    contest, viewer = contest_of(request), viewer_of(request)
    board = await call(contest.standings, viewer)
    status = await call(contest.tournament_status)
    return render(
        request,
        "standings.html",
        refresh=10 if status["status"] == "running" else 0,
        rows=board["standings"],
        frozen=board["frozen"],
        freeze=await call(contest.deadline, "freeze"),
        tournament=status,
    )


def _site(contest: Contest, viewer: Viewer) -> Site:
    """The tournament's run folder through the viewer: faults only for the organiser."""
    run_dir = contest.folder.tournament
    if not (run_dir / TOURNAMENT_DB).is_file():
        raise NotFound("no tournament has been played yet")
    return Site(Run(run_dir), live=True, public=viewer.role is not Role.ORGANISER)


@route("GET", "/tournament/{path:path}", Access.PUBLIC)
async def tournament_pages(request: Request) -> Response:
    """The viewer's pages over the tournament (and its final): standings, tables, replays, live.

    While the scoreboard is frozen they show the standings of now, so only the organiser reads them then
    (the final, followed live, stays open to all)."""
    contest, viewer = contest_of(request), viewer_of(request)
    path = request.path_params["path"] or "index.html"
    if path.startswith("static/"):
        return await static_file(path.removeprefix("static/"))
    if await _frozen_for(contest, viewer) and not path.startswith(f"live/{FINAL_TABLE}"):
        raise Forbidden("the scoreboard is frozen: the tables open again when the organiser lifts the freeze")
    if path.endswith("/stream") and path.startswith("live/"):
        return await _stream(request, contest, viewer, path.removeprefix("live/").removesuffix("/stream"))
    site = _site(contest, viewer)
    try:
        html = await call(render_viewer, site, path)
    except PageNotFound:
        raise NotFound(f"no page {path}") from None
    return HTMLResponse(html)


async def _frozen_for(contest: Contest, viewer: Viewer) -> bool:
    if viewer.role is Role.ORGANISER:
        return False
    return bool((await call(contest.standings, viewer))["frozen"])


async def _stream(request: Request, contest: Contest, viewer: Viewer, name: str) -> Response:
    site = _site(contest, viewer)
    try:
        await call(site.run.table, name)
    except KeyError:
        raise NotFound(f"no table {name}") from None
    text = request.query_params.get("after", "0")
    after = int(text) if text.isdigit() and len(text) < 9 else 0
    events = follow(
        site.run,
        name,
        after=after,
        disconnected=request.is_disconnected,
        watch=WATCH,
        public=site.public,
    )
    return StreamingResponse(events, media_type="text/event-stream", headers={"Cache-Control": "no-cache"})


async def static_file(name: str) -> Response:
    path = STATIC.get(name)
    if path is None:
        raise NotFound(f"no file {name}")
    return FileResponse(path)


# -- the organiser ----------------------------------------------------------------------------------


@route("GET", "/organiser", Access.ORGANISER)
async def organiser(request: Request) -> Response:
    contest, viewer = contest_of(request), viewer_of(request)
    teams = await call(contest.teams, viewer)
    latest: dict[str, dict[str, Any]] = {}
    for view in await call(contest.submissions, viewer):
        latest.setdefault(view.record.team, _row(view))
    tournament = await call(contest.tournament_status)
    final = await call(contest.final_status)
    board = await call(contest.standings, viewer)
    timeline = await call(contest.timeline)
    running = "running" in (tournament["status"], final["status"])
    return render(
        request,
        "organiser.html",
        refresh=5 if running or _busy(list(latest.values())) else 0,
        teams=[
            {
                "team": t.team,
                "name": t.name,
                "email": t.email,
                "disabled": not t.active,
                "disqualified": t.reason if t.disqualified else "",
                "latest": latest.get(t.team),
            }
            for t in teams
            if not t.organiser
        ],
        tournament=tournament,
        final=final,
        frozen=board["frozen"],
        default_deals=contest.settings.tournament.deals,
        deadlines=[
            {"name": name, "label": TIMELINE_NAMES.get(name, name), "value": _iso(at)}
            for name, at in timeline.items()
        ],
        outbox=await call(contest.outbox, viewer),
        audit=[_audit(entry) for entry in reversed(await call(contest.audit_log, viewer))],
    )


def _iso(moment: dt.datetime | None) -> str:
    """A time as the deadlines form shows it (to the second, with its offset)."""
    return moment.isoformat(timespec="seconds") if moment else ""


def _audit(entry: dict[str, Any]) -> dict[str, Any]:
    return {**entry, "at": dt.datetime.fromisoformat(entry["at"])}


@route("GET", "/organiser/submissions/{id}", Access.ORGANISER)
async def organiser_submission(request: Request) -> Response:
    return await _submission_page(request, "/organiser")


async def _form(request: Request) -> dict[str, str]:
    """A small form's text fields (no file)."""
    async with request.form(max_files=0, max_fields=8) as form:
        return {key: value for key, value in form.items() if isinstance(value, str)}


async def _done(
    request: Request, work: Callable[[], T], said: str | Callable[[T], str], refused: str = "Not done"
) -> Response:
    """Run an organiser's action and come back to the organiser's page with what happened (``said``,
    or ``said`` of the action's answer), or why it was refused."""
    try:
        answer = await call(work)
    except (Refused, TooLarge) as error:
        flash(request, f"{refused}: {error}", "error")
    else:
        flash(request, said if isinstance(said, str) else said(answer))
    return back_to("/organiser")


@route("POST", "/organiser/teams", Access.ORGANISER)
async def add_team(request: Request) -> Response:
    contest, viewer = contest_of(request), viewer_of(request)
    form = await _form(request)
    team = form.get("team", "").strip()
    said = f"Team {team} added; its password is in credentials.csv"
    said += " and in its sign-in mail." if contest.mail_enabled else " (mail is off: give it to the team)."
    return await _done(
        request,
        lambda: contest.add_team(viewer, team, form.get("name", "").strip(), form.get("email", "").strip()),
        said,
    )


TEAM_ACTIONS = ("enable", "disable", "reset", "disqualify", "reinstate")


@route("POST", "/organiser/teams/{team}/{action}", Access.ORGANISER)
async def team_action(request: Request) -> Response:
    contest, viewer = contest_of(request), viewer_of(request)
    team, action = request.path_params["team"], request.path_params["action"]
    form = await _form(request)
    reason = form.get("reason", "")
    mailed = " and in the team's mail" if contest.mail_enabled else ""
    work: Callable[[], object]
    match action:
        case "enable" | "disable":
            work, said = lambda: contest.set_team_active(viewer, team, action == "enable"), f"{action}d"
        case "reset":
            work, said = (
                lambda: contest.reset_password(viewer, team),
                f"a new password is in credentials.csv{mailed}",
            )
        case "disqualify" | "reinstate":
            work = lambda: contest.set_disqualified(viewer, team, action == "disqualify", reason)  # noqa: E731
            said = f"{'disqualified' if action == 'disqualify' else 'reinstated'} ({reason.strip()})"
        case _:
            raise NotFound(f"no action {action}")
    return await _done(request, work, f"Team {team}: {said}.")


@route("POST", "/organiser/submissions/{id}/recheck", Access.ORGANISER)
async def recheck(request: Request) -> Response:
    contest, viewer = contest_of(request), viewer_of(request)
    number = _submission_id(request)
    await _form(request)
    await call(contest.recheck, viewer, number)
    flash(request, f"Upload {number}: its check is queued again.")
    return back_to(f"/organiser/submissions/{number}")


@route("POST", "/organiser/announcements", Access.ORGANISER)
async def announce(request: Request) -> Response:
    contest, viewer = contest_of(request), viewer_of(request)
    form = await _form(request)
    said = "Announcement posted" + (
        " and mailed to every team." if contest.mail_enabled else " (mail is off)."
    )
    return await _done(
        request, lambda: contest.announce(viewer, form.get("title", ""), form.get("body", "")), said
    )


@route("POST", "/organiser/deadlines", Access.ORGANISER)
async def deadlines(request: Request) -> Response:
    contest, viewer = contest_of(request), viewer_of(request)
    form = await _form(request)
    current = await call(contest.timeline)
    moved = []
    for name, at in current.items():
        text = form.get(name, "").strip()
        if not text or text == _iso(at):
            continue
        try:
            moment = dt.datetime.fromisoformat(text)
        except ValueError:
            flash(
                request,
                f"Not done: {TIMELINE_NAMES.get(name, name)}: {text!r} is not an ISO 8601 time",
                "error",
            )
            return back_to("/organiser")
        try:
            await call(contest.move_deadline, viewer, name, moment)
        except Refused as error:
            flash(request, f"Not done: {error}", "error")
            return back_to("/organiser")
        moved.append(name)
    flash(request, f"Moved: {', '.join(moved)}." if moved else "No time changed.")
    return back_to("/organiser")


def _deals(form: dict[str, str]) -> int | None:
    text = form.get("deals", "").strip()
    if not text:
        return None
    if not text.isdigit() or len(text) > 7:
        raise Refused(f"deals must be a whole number, not {text[:20]!r}")
    return int(text)


@route("POST", "/organiser/tournament", Access.ORGANISER)
async def start_tournament(request: Request) -> Response:
    contest, viewer = contest_of(request), viewer_of(request)
    form = await _form(request)
    return await _done(
        request,
        lambda: contest.start_tournament(viewer, _deals(form)),
        lambda teams: f"The tournament started: {len(teams)} teams ({', '.join(teams)}).",
        "Not started",
    )


@route("POST", "/organiser/freeze", Access.ORGANISER)
async def lift_freeze(request: Request) -> Response:
    contest, viewer = contest_of(request), viewer_of(request)
    await _form(request)
    return await _done(request, lambda: contest.lift_freeze(viewer), "The scoreboard is live for everyone.")


@route("POST", "/organiser/final", Access.ORGANISER)
async def start_final(request: Request) -> Response:
    contest, viewer = contest_of(request), viewer_of(request)
    await _form(request)
    return await _done(
        request,
        lambda: contest.start_final(viewer),
        lambda chosen: f"The final started ({', '.join(f'{t}: {w}' for t, w in sorted(chosen.items()))}).",
        "Not started",
    )


@route("POST", "/organiser/reveal", Access.ORGANISER)
async def reveal(request: Request) -> Response:
    contest, viewer = contest_of(request), viewer_of(request)
    await _form(request)
    return await _done(
        request,
        lambda: contest.reveal_keys(viewer),
        lambda lines: "The deck keys are revealed: " + "; ".join(lines),
    )


@route("POST", "/organiser/everything.zip", Access.ORGANISER)
async def everything(request: Request) -> Response:
    """The zip of everything, made afresh: a form's post (with its CSRF token), never a link's GET, which
    another site could have the organiser's browser follow over and over."""
    await _form(request)
    path = await call(contest_of(request).everything_zip, viewer_of(request))
    return FileResponse(path, media_type="application/zip", headers=_attachment(path.name))


# -- uploads and their CSRF token -------------------------------------------------------------------


class UploadsCarryToken:
    """Refuses (403) a page's multipart post unless its CSRF token is in the header, and valid.

    ``asgi-csrf`` reads a form's token from the ``X-CSRFToken`` header first, else from the body; its
    reading of a multipart body fails with the python-multipart of today (simonw/asgi-csrf#38). So the
    upload forms send the token in the header (``contest.js``), and a multipart post whose header does
    not hold the token ``asgi-csrf`` will accept (the ``csrftoken`` cookie, signed with the site's key:
    checked with the same itsdangerous serializer) stops here, before ``asgi-csrf`` would try the body.
    The API (Bearer tokens, no cookie, no CSRF) is not concerned.
    """

    def __init__(self, app: ASGIApp, secret: str) -> None:
        self.app = app
        self.signer = URLSafeSerializer(secret)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http" and scope["method"] == "POST" and not scope["path"].startswith("/api/"):
            headers = dict(scope.get("headers", []))
            multipart = headers.get(b"content-type", b"").lower().startswith(b"multipart/")
            if multipart and not self._token_ok(headers):
                response = PlainTextResponse(
                    "an upload carries its CSRF token in the X-CSRFToken header (the site's script sends it)",
                    status_code=403,
                )
                await response(scope, receive, send)
                return
        await self.app(scope, receive, send)

    def _token_ok(self, headers: dict[bytes, bytes]) -> bool:
        given = headers.get(b"x-csrftoken", b"").decode("latin-1")
        cookie = SimpleCookie()
        try:
            cookie.load(headers.get(b"cookie", b"").decode("latin-1"))
        except CookieError:
            return False
        morsel = cookie.get(CSRF_COOKIE)
        if not given or morsel is None or not secrets.compare_digest(given, morsel.value):
            return False
        try:
            self.signer.loads(given, CSRF_NAMESPACE)
        except BadSignature:
            return False
        return True
