"""The JSON API, beside the pages and under the same rules (issue 23, item 7), one :class:`Row` a route.

A script signs in with ``POST /api/session`` (``{"team": ..., "password": ...}``; the organiser signs in
as team ``organiser``) and sends the token it gets as ``Authorization: Bearer TOKEN``: no cookie, so no
CSRF. A refusal is JSON ``{"error": ...}`` with its status: 401 signed out, 403 wrong role, 404 for what
does not exist or is another team's, 413 too large, 429 too many; never a traceback.
"""

from __future__ import annotations

import datetime as dt
import json
from collections.abc import Callable
from typing import Any, TypeVar

from starlette.concurrency import run_in_threadpool
from starlette.datastructures import UploadFile
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, Response

from arena.contest.contest import ANONYMOUS, Contest, NotFound, Refused, TooLarge, Upload, Viewer
from arena.contest.web.access import Access, Row, Surface, rows_into

T = TypeVar("T")
ROWS: list[Row] = []
route = rows_into(ROWS, Surface.API)
MAX_JSON = 64 * 1024


def contest_of(request: Request) -> Contest:
    contest: Contest = request.app.state.contest
    return contest


def viewer_of(request: Request) -> Viewer:
    viewer = getattr(request.state, "viewer", None)
    return viewer if isinstance(viewer, Viewer) else ANONYMOUS


async def call(function: Callable[..., T], *args: Any) -> T:
    """Run a (synchronous, database-bound) operation in the thread pool."""
    return await run_in_threadpool(function, *args)


async def json_body(request: Request) -> dict[str, Any]:
    """The request's JSON object (400 when it is not one)."""
    body = await request.body()
    if len(body) > MAX_JSON:
        raise TooLarge(f"a JSON body is at most {MAX_JSON} bytes")
    try:
        value = json.loads(body or b"{}")
    except (json.JSONDecodeError, UnicodeDecodeError, RecursionError):  # nested past the parser's depth
        raise Refused("the body is not JSON") from None
    if not isinstance(value, dict):
        raise Refused("the body must be a JSON object")
    return value


def text_field(body: dict[str, Any], name: str, *, required: bool = True) -> str:
    value = body.get(name, "" if not required else None)
    if not isinstance(value, str):
        raise Refused(f"{name!r} must be a string")
    return value


def path_int(request: Request, name: str) -> int:
    """A numeric path parameter (404 when it is not a number: no such thing)."""
    text = request.path_params[name]
    if not text.isdigit() or len(text) > 12:
        raise NotFound(f"no {name} {text!r}")
    return int(text)


async def read_upload(field: object, cap: int) -> Upload:
    """A multipart file field as an :class:`Upload`, read up to its cap (413 beyond)."""
    if not isinstance(field, UploadFile) or not field.filename:
        raise Refused("send the program as the multipart field 'file'")
    data = await field.read(cap + 1)
    if len(data) > cap:
        raise TooLarge(f"{field.filename} is over the cap of {cap} bytes")
    return Upload(field.filename, data)


# signing in ------------------------------------------------------------------------------------------


@route("POST", "/api/session", Access.PUBLIC)
async def sign_in(request: Request) -> Response:
    body = await json_body(request)
    contest = contest_of(request)
    team, password = text_field(body, "team"), text_field(body, "password")
    viewer = await call(contest.authenticate, team, password, request.client.host if request.client else "")
    token = await call(contest.issue_token, viewer)
    return JSONResponse({"token": token, "team": viewer.team, "role": viewer.role.value})


@route("DELETE", "/api/session", Access.SIGNED_IN)
async def sign_out(request: Request) -> Response:
    _, _, token = request.headers.get("authorization", "").partition(" ")
    await call(contest_of(request).revoke_token, token.strip())
    return JSONResponse({"signed_out": True})


@route("GET", "/api/me", Access.SIGNED_IN)
async def me(request: Request) -> Response:
    viewer = viewer_of(request)
    return JSONResponse({"team": viewer.team, "role": viewer.role.value})


# uploads ---------------------------------------------------------------------------------------------


@route("POST", "/api/submissions", Access.TEAM)
async def upload(request: Request) -> Response:
    contest = contest_of(request)
    settings = contest.settings
    async with request.form(max_files=settings.help_files_max + 1, max_fields=20) as form:
        program = await read_upload(form.get("file"), settings.upload_max_bytes)
        helps = [await read_upload(field, settings.help_file_max_bytes) for field in form.getlist("help")]
    number = await call(contest.upload, viewer_of(request), program, helps)
    return JSONResponse({"id": number}, status_code=201)


@route("GET", "/api/submissions", Access.SIGNED_IN)
async def submissions(request: Request) -> Response:
    team = request.query_params.get("team")
    views = await call(contest_of(request).submissions, viewer_of(request), team)
    return JSONResponse({"submissions": [view.to_dict() for view in views]})


@route("GET", "/api/submissions/{id}", Access.SIGNED_IN)
async def submission(request: Request) -> Response:
    view = await call(contest_of(request).submission, viewer_of(request), path_int(request, "id"))
    return JSONResponse(view.to_dict())


@route("POST", "/api/submissions/{id}/check", Access.ORGANISER)
async def recheck(request: Request) -> Response:
    await call(contest_of(request).recheck, viewer_of(request), path_int(request, "id"))
    return JSONResponse({"queued": True})


# public: standings, announcements, the timeline, the tournament's and final's status -----------------


@route("GET", "/api/standings", Access.PUBLIC)
async def standings(request: Request) -> Response:
    return JSONResponse(await call(contest_of(request).standings, viewer_of(request)))


@route("POST", "/api/standings/unfreeze", Access.ORGANISER)
async def unfreeze(request: Request) -> Response:
    await call(contest_of(request).lift_freeze, viewer_of(request))
    return JSONResponse({"frozen": False})


@route("GET", "/api/announcements", Access.PUBLIC)
async def announcements(request: Request) -> Response:
    return JSONResponse({"announcements": await call(contest_of(request).announcements)})


@route("POST", "/api/announcements", Access.ORGANISER)
async def announce(request: Request) -> Response:
    body = await json_body(request)
    contest = contest_of(request)
    number = await call(
        contest.announce, viewer_of(request), text_field(body, "title"), text_field(body, "body")
    )
    return JSONResponse({"id": number}, status_code=201)


@route("GET", "/api/deadlines", Access.PUBLIC)
async def deadlines(request: Request) -> Response:
    contest = contest_of(request)
    times = await call(contest.timeline)
    window = await call(contest.finalists_window)
    answer: dict[str, Any] = {name: at.isoformat() if at else None for name, at in times.items()}
    answer["finalists_window"] = [window[0].isoformat(), window[1].isoformat()] if window else None
    answer["mail"] = contest.mail_enabled
    return JSONResponse(answer)


@route("PUT", "/api/deadlines/{name}", Access.ORGANISER)
async def move_deadline(request: Request) -> Response:
    body = await json_body(request)
    try:
        at = dt.datetime.fromisoformat(text_field(body, "at"))
    except ValueError:
        raise Refused("'at' must be an ISO 8601 time with its timezone") from None
    await call(contest_of(request).move_deadline, viewer_of(request), request.path_params["name"], at)
    return JSONResponse({"moved": True})


@route("GET", "/api/tournament", Access.PUBLIC)
async def tournament(request: Request) -> Response:
    return JSONResponse(await call(contest_of(request).tournament_status, viewer_of(request)))


@route("POST", "/api/tournament", Access.ORGANISER)
async def start_tournament(request: Request) -> Response:
    body = await json_body(request)
    deals = body.get("deals")
    if deals is not None and (not isinstance(deals, int) or isinstance(deals, bool)):
        raise Refused("'deals' must be a whole number")
    teams = await call(contest_of(request).start_tournament, viewer_of(request), deals)
    return JSONResponse({"started": True, "teams": teams}, status_code=202)


# the organiser's teams, mail and log -----------------------------------------------------------------


@route("GET", "/api/teams", Access.ORGANISER)
async def teams(request: Request) -> Response:
    records = await call(contest_of(request).teams, viewer_of(request))
    return JSONResponse(
        {
            "teams": [
                {
                    "team": t.team,
                    "name": t.name,
                    "email": t.email,
                    "active": t.active,
                    "disqualified": t.disqualified,
                    "reason": t.reason,
                }
                for t in records
            ]
        }
    )


@route("POST", "/api/teams", Access.ORGANISER)
async def add_team(request: Request) -> Response:
    body = await json_body(request)
    team = text_field(body, "team")
    await call(
        contest_of(request).add_team,
        viewer_of(request),
        team,
        text_field(body, "name"),
        text_field(body, "email"),
    )
    return JSONResponse(
        {"team": team, "credentials": "written to credentials.csv and mailed"}, status_code=201
    )


@route("POST", "/api/teams/{team}/disable", Access.ORGANISER)
async def disable_team(request: Request) -> Response:
    await call(contest_of(request).set_team_active, viewer_of(request), request.path_params["team"], False)
    return JSONResponse({"active": False})


@route("POST", "/api/teams/{team}/enable", Access.ORGANISER)
async def enable_team(request: Request) -> Response:
    await call(contest_of(request).set_team_active, viewer_of(request), request.path_params["team"], True)
    return JSONResponse({"active": True})


@route("POST", "/api/teams/{team}/reset", Access.ORGANISER)
async def reset_team(request: Request) -> Response:
    await call(contest_of(request).reset_password, viewer_of(request), request.path_params["team"])
    return JSONResponse({"reset": True, "credentials": "written to credentials.csv and mailed"})


@route("POST", "/api/teams/{team}/disqualify", Access.ORGANISER)
async def disqualify(request: Request) -> Response:
    body = await json_body(request)
    team = request.path_params["team"]
    await call(
        contest_of(request).set_disqualified, viewer_of(request), team, True, text_field(body, "reason")
    )
    return JSONResponse({"disqualified": True})


@route("POST", "/api/teams/{team}/reinstate", Access.ORGANISER)
async def reinstate(request: Request) -> Response:
    body = await json_body(request)
    team = request.path_params["team"]
    await call(
        contest_of(request).set_disqualified, viewer_of(request), team, False, text_field(body, "reason")
    )
    return JSONResponse({"disqualified": False})


@route("GET", "/api/outbox", Access.ORGANISER)
async def outbox(request: Request) -> Response:
    mails = await call(contest_of(request).outbox, viewer_of(request))
    return JSONResponse(
        {
            "mail": contest_of(request).mail_enabled,
            "outbox": [
                {
                    "id": m.id,
                    "team": m.team,
                    "kind": m.kind,
                    "subject": m.subject,
                    "sent": m.sent_at is not None,
                    "error": m.error,
                    "attempts": m.attempts,
                }
                for m in mails
            ],
        }
    )


@route("GET", "/api/audit", Access.ORGANISER)
async def audit(request: Request) -> Response:
    return JSONResponse({"audit": await call(contest_of(request).audit_log, viewer_of(request))})


# after the tournament --------------------------------------------------------------------------------


@route("GET", "/api/final", Access.PUBLIC)
async def final(request: Request) -> Response:
    return JSONResponse(await call(contest_of(request).final_status, viewer_of(request)))


@route("POST", "/api/final", Access.ORGANISER)
async def start_final(request: Request) -> Response:
    chosen = await call(contest_of(request).start_final, viewer_of(request))
    return JSONResponse({"started": True, "programs": chosen}, status_code=202)


@route("GET", "/api/finals-logs", Access.TEAM)
async def finals_logs(request: Request) -> Response:
    path = await call(contest_of(request).finals_logs_zip, viewer_of(request))
    return FileResponse(path, media_type="application/zip", filename=path.name)


@route("GET", "/api/certificates/{kind}", Access.TEAM)
async def certificate(request: Request) -> Response:
    pdfs = await call(contest_of(request).certificate, viewer_of(request))
    wanted = request.path_params["kind"]
    for name, data in pdfs:
        if name.endswith(f"-{wanted}.pdf"):
            return Response(
                data,
                media_type="application/pdf",
                headers={"Content-Disposition": f'attachment; filename="{name}"'},
            )
    raise NotFound(f"no {wanted} certificate for your team")


@route("GET", "/api/faults", Access.TEAM)
async def faults(request: Request) -> Response:
    return JSONResponse({"faults": await call(contest_of(request).team_faults, viewer_of(request))})


@route("GET", "/api/hands/{format}", Access.TEAM)
async def hands(request: Request) -> Response:
    fmt = request.path_params["format"]
    data = await call(contest_of(request).team_hands, viewer_of(request), fmt)
    return Response(
        data,
        media_type="application/zip",
        headers={"Content-Disposition": f'attachment; filename="hands-{fmt}.zip"'},
    )


@route("POST", "/api/keys/reveal", Access.ORGANISER)
async def reveal_keys(request: Request) -> Response:
    return JSONResponse({"revealed": await call(contest_of(request).reveal_keys, viewer_of(request))})


@route("GET", "/api/everything", Access.ORGANISER)
async def everything(request: Request) -> Response:
    path = await call(contest_of(request).everything_zip, viewer_of(request))
    return FileResponse(path, media_type="application/zip", filename=path.name)
