"""Every page of the viewer as a function of the run folder and a relative path.

The server and the static export call the same :func:`render`.

==================================  =====================================================================
path                                page
==================================  =====================================================================
``index.html``                      the run: tournament overview, the table, or the match
``teams/<team>.html``               a team's tables, chips over deals, statistics and faults
``teams/<team>/hands.html``         a team's hands, filtered in the browser; its results by position and
                                    against each opponent (chips per deal, bb/100)
``tables/<table>.html``             a table's chips chart and its deals, filtered and sorted
``tables/<table>/deal<N>.html``     a deal's replay (``?view=hidden|broadcast|team&team=T``: a step at
                                    a time, server only; ``&step=K`` the step shown first)
``tables/<table>/deal<N>.json``     steps of a replay watched a secret way (``?view=...&from=I&step=K``)
``live/<table>.html``               a table followed as it is played (server only)
``hands/<page>.html``               a heads-up match's hands, a page at a time
``cases/<n>/<page>.html``           a TwoCardDraw test case's hands, a page at a time
==================================  =====================================================================
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping
from typing import Any

from arena.runfolder.layout import HANDS
from arena.viewer.codem_pages import (
    deal_page,
    deal_steps,
    live_page,
    table_page,
    team_of_slug,
    team_page,
    tournament_page,
)
from arena.viewer.hands import team_hands_page
from arena.viewer.match_pages import headsup_page, twocard_case, twocard_cases, twocard_page
from arena.viewer.matches import count_hands, page_count
from arena.viewer.runs import Run, RunKind
from arena.viewer.secret import viewing_from_query
from arena.viewer.site import Site

_PATH = re.compile(
    r"(?P<index>index\.html)"
    r"|teams/(?P<team>[^/]+)\.html"
    r"|teams/(?P<hands_team>[^/]+)/hands\.html"
    r"|tables/(?P<table>[^/]+)\.html"
    r"|tables/(?P<deal_table>[^/]+)/deal(?P<deal>[1-9][0-9]*)\.html"
    r"|live/(?P<live>[^/]+)\.html"
    r"|hands/(?P<hands>[1-9][0-9]*)\.html"
    r"|cases/(?P<case>[1-9][0-9]*)/(?P<case_page>[1-9][0-9]*)\.html"
)


class PageNotFound(LookupError):
    """The run has no page at that path."""


_STEPS = re.compile(r"tables/(?P<table>[^/]+)/deal(?P<deal>[1-9][0-9]*)\.json")


def _number(query: Mapping[str, str], key: str, default: int) -> int:
    """A whole number of the query (``-1`` allowed: every step), else ``default``."""
    text = query.get(key, "")
    return int(text) if re.fullmatch(r"-1|[0-9]{1,6}", text) else default


def render_steps(site: Site, path: str, query: Mapping[str, str]) -> dict[str, Any]:
    """The steps the browser asks for while it plays a deal watched a secret way (server only)."""
    match = _STEPS.fullmatch(path)
    viewing = viewing_from_query(query)
    if match is None or not site.live or not viewing.secret:
        raise PageNotFound(path)
    try:
        info = site.run.table(match["table"])
        return deal_steps(
            site, info, int(match["deal"]), viewing, _number(query, "from", 0), _number(query, "step", 0)
        )
    except KeyError as missing:
        raise PageNotFound(path) from missing


def render(site: Site, path: str, query: Mapping[str, str] | None = None) -> str:
    """The HTML of the page at ``path`` (relative, e.g. ``tables/table001.html``); ``query`` is the
    request's query (the way a replay is watched, the step it starts at)."""
    query = query or {}
    match = _PATH.fullmatch(path)
    if match is None:
        raise PageNotFound(path)
    groups = match.groupdict()
    run = site.run
    try:
        if groups["index"]:
            return _index(site)
        if groups["team"]:
            return team_page(site, team_of_slug(run, groups["team"]))
        if groups["hands_team"] and run.kind in (RunKind.TOURNAMENT, RunKind.TABLE):
            return team_hands_page(site, team_of_slug(run, groups["hands_team"]))
        if groups["table"]:
            return table_page(site, run.table(groups["table"]), root="../")
        if groups["deal_table"]:
            return deal_page(
                site,
                run.table(groups["deal_table"]),
                int(groups["deal"]),
                viewing_from_query(query),
                _number(query, "step", 0),
            )
        if groups["live"] and site.live:
            return live_page(site, run.table(groups["live"]))
        if groups["hands"] and run.kind is RunKind.HEADSUP:
            return headsup_page(site, int(groups["hands"]), root="../")
        if groups["case"] and run.kind is RunKind.TWOCARD:
            return twocard_case(site, int(groups["case"]), int(groups["case_page"]))
    except KeyError as missing:
        raise PageNotFound(path) from missing
    raise PageNotFound(path)


def site_paths(run: Run) -> Iterator[str]:
    """Every page of a static export."""
    yield "index.html"
    if run.kind is RunKind.HEADSUP:
        hands = count_hands(run.folder / HANDS)
        yield from (f"hands/{p}.html" for p in range(1, page_count(hands) + 1))
    if run.kind is RunKind.TWOCARD:
        for case in twocard_cases(run):
            path = run.folder / f"case_{case['case']}" / HANDS
            yield from (f"cases/{case['case']}/{p}.html" for p in range(1, page_count(count_hands(path)) + 1))
    for slug in run.team_slugs().values():
        yield f"teams/{slug}.html"
        if run.kind in (RunKind.TOURNAMENT, RunKind.TABLE):
            yield f"teams/{slug}/hands.html"
    for info in run.tables():
        log = run.log(info)
        if log is None:
            continue
        yield f"tables/{info.name}.html"
        yield from (f"tables/{info.name}/deal{n}.html" for n in range(1, log.deals + 1))


def _index(site: Site) -> str:
    run = site.run
    match run.kind:
        case RunKind.TOURNAMENT:
            return tournament_page(site)
        case RunKind.TABLE:
            return table_page(site, run.tables()[0], root="")
        case RunKind.HEADSUP:
            return headsup_page(site, 1, root="")
        case RunKind.TWOCARD:
            return twocard_page(site)
