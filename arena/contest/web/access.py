"""Who may reach a route, and the route table's row: the app is built from rows and nothing else.

Every route of the contest's app is one :class:`Row`; :func:`arena.contest.web.app.create_app` routes
exactly the rows of ``api.ROWS`` and ``pages.ROWS`` and wraps each endpoint in one access check, made
before the endpoint runs. Ownership (a team asking for another team's submission) is enforced again by
the :class:`~arena.contest.contest.Contest` operation itself, which answers 404 for it.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from enum import StrEnum, unique

from starlette.requests import Request
from starlette.responses import Response


@unique
class Access(StrEnum):
    """Who may call a route (the wrapper refuses everyone else before the endpoint runs)."""

    PUBLIC = "public"
    """Anyone, signed in or not."""
    SIGNED_IN = "signed in"
    """A team or the organiser; the operation itself decides what each may see (404 for another's)."""
    TEAM = "team"
    """A team (not the organiser): its own uploads, reports, hands, faults, certificate."""
    ORGANISER = "organiser"
    """The organiser only."""


@unique
class Surface(StrEnum):
    """How a route answers one who may not reach it: the API with a status, pages with a redirect."""

    API = "api"
    PAGE = "page"


Endpoint = Callable[[Request], Awaitable[Response]]


@dataclass(frozen=True)
class Row:
    """One route: its methods, its path template, the endpoint and who may reach it."""

    methods: tuple[str, ...]
    path: str
    endpoint: Endpoint
    access: Access
    surface: Surface = Surface.API
    name: str = ""

    def __post_init__(self) -> None:
        if not self.path.startswith("/"):
            raise ValueError(f"a route's path starts with '/': {self.path!r}")
        if self.surface is Surface.API and not self.path.startswith("/api/"):
            raise ValueError(f"an API route lives under /api/: {self.path!r}")

    def label(self) -> str:
        """``GET /api/standings``: how the route is named in tests and docs."""
        return f"{'|'.join(self.methods)} {self.path}"


def rows_into(table: list[Row], surface: Surface) -> Callable[..., Callable[[Endpoint], Endpoint]]:
    """A decorator factory adding each decorated endpoint to ``table`` as one row of ``surface``.

    ``route = rows_into(ROWS, Surface.API)`` then ``@route("GET", "/api/x", Access.PUBLIC)``.
    ``methods`` may name several, separated by ``|``.
    """

    def route(methods: str, path: str, access: Access, name: str = "") -> Callable[[Endpoint], Endpoint]:
        def add(endpoint: Endpoint) -> Endpoint:
            table.append(
                Row(tuple(methods.split("|")), path, endpoint, access, surface, name or endpoint.__name__)
            )
            return endpoint

        return add

    return route
