"""Every page of the viewer as a function of the run folder and a relative path.

The server and the static export call the same :func:`render`; pages link to each other by relative
paths ending in ``.html`` (``root`` climbs back to the site's top), so an exported site opens from disk.

==================================  =====================================================================
path                                page
==================================  =====================================================================
``index.html``                      the run: tournament overview, the table, or the match
``teams/<team>.html``               a team's tables, chips over deals, statistics and faults
``tables/<table>.html``             a table's chips chart and its deals, filtered and sorted
``tables/<table>/deal<N>.html``     a deal's replay
``live/<table>.html``               a table followed as it is played (server only)
``hands/<page>.html``               a heads-up match's hands, a page at a time
``cases/<n>/<page>.html``           a TwoCardDraw test case's hands, a page at a time
==================================  =====================================================================

Everything a team or a program controls reaches the page through Jinja's autoescaping only.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

from jinja2 import Environment, PackageLoader, StrictUndefined, select_autoescape

from arena.cards import parse_cards
from arena.games.codem.stats import PlayerStats
from arena.tournament.host import TournamentSettings
from arena.tournament.standings import compute_standings
from arena.tournament.store import TableKind
from arena.viewer.charts import PALETTE, line_chart
from arena.viewer.matches import (
    HANDS_PER_PAGE,
    count_hands,
    hands_page,
    pages,
    running_mean,
    running_total,
)
from arena.viewer.names import SUIT_SYMBOLS, card_code, card_name
from arena.viewer.replay import replay, unplaced_faults
from arena.viewer.runs import Run, RunKind, TableInfo, TableState
from arena.viewer.tables import (
    FAULTS,
    RESULTS,
    DealSummary,
    TableLog,
    read_json,
    read_json_lines,
    seat_records,
)

BIGGEST_POTS = 20
STAT_LABELS = {
    "vpip": "VPIP (put chips in voluntarily pre-flop)",
    "pfr": "PFR (raised pre-flop)",
    "aggression_factor": "aggression factor (bets+raises / calls after the flop)",
    "went_to_showdown": "went to showdown (of the flops it saw)",
    "won_at_showdown": "won at showdown",
    "profit_per_hand": "profit per hand",
}
_PATH = re.compile(
    r"(?P<index>index\.html)"
    r"|teams/(?P<team>[^/]+)\.html"
    r"|tables/(?P<table>[^/]+)\.html"
    r"|tables/(?P<deal_table>[^/]+)/deal(?P<deal>[1-9][0-9]*)\.html"
    r"|live/(?P<live>[^/]+)\.html"
    r"|hands/(?P<hands>[1-9][0-9]*)\.html"
    r"|cases/(?P<case>[1-9][0-9]*)/(?P<case_page>[1-9][0-9]*)\.html"
)


class PageNotFound(LookupError):
    """The run has no page at that path."""


@dataclass(frozen=True, slots=True)
class Site:
    """A run seen through the viewer: ``live`` is false for a static export (no live pages)."""

    run: Run
    live: bool = True


def render(site: Site, path: str) -> str:
    """The HTML of the page at ``path`` (relative, e.g. ``tables/table001.html``)."""
    match = _PATH.fullmatch(path)
    if match is None:
        raise PageNotFound(path)
    groups = match.groupdict()
    run = site.run
    try:
        if groups["index"]:
            return _index(site)
        if groups["team"]:
            return _team_page(site, _team_of_slug(run, groups["team"]))
        if groups["table"]:
            return _table_page(site, run.table(groups["table"]), root="../")
        if groups["deal_table"]:
            return _deal_page(site, run.table(groups["deal_table"]), int(groups["deal"]))
        if groups["live"] and site.live:
            return _live_page(site, run.table(groups["live"]))
        if groups["hands"] and run.kind is RunKind.HEADSUP:
            return _headsup_page(site, int(groups["hands"]), root="../")
        if groups["case"] and run.kind is RunKind.TWOCARD:
            return _twocard_case(site, int(groups["case"]), int(groups["case_page"]))
    except KeyError as missing:
        raise PageNotFound(path) from missing
    raise PageNotFound(path)


def site_paths(run: Run) -> Iterator[str]:
    """Every page of a static export."""
    yield "index.html"
    if run.kind is RunKind.HEADSUP:
        yield from (f"hands/{p}.html" for p in range(1, pages(count_hands(run.folder / "hands.jsonl")) + 1))
    if run.kind is RunKind.TWOCARD:
        for case in _twocard_cases(run):
            path = run.folder / f"case_{case['case']}" / "hands.jsonl"
            yield from (f"cases/{case['case']}/{p}.html" for p in range(1, pages(count_hands(path)) + 1))
    for slug in run.team_slugs().values():
        yield f"teams/{slug}.html"
    for info in run.tables():
        log = run.log(info)
        if log is None:
            continue
        yield f"tables/{info.name}.html"
        yield from (f"tables/{info.name}/deal{n}.html" for n in range(1, log.deals + 1))


# -- the template environment -----------------------------------------------------------------------


@cache
def environment() -> Environment:
    """Jinja with autoescaping on for every template (they are all HTML)."""
    env = Environment(
        loader=PackageLoader("arena.viewer", "templates"),
        autoescape=select_autoescape(default=True, default_for_string=True),
        undefined=StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
    )
    env.filters["signed"] = lambda value, digits=0: f"{value:+.{digits}f}"
    env.filters["percent"] = lambda value: "-" if value is None else f"{100 * value:.1f}%"
    env.filters["cards"] = lambda text: [card_code(c) for c in parse_cards(text)] if text else []
    env.globals.update(
        card_name=lambda code: card_name(parse_cards(code)[0]),
        suit_symbol=lambda code: SUIT_SYMBOLS[code[1]],
        palette=PALETTE,
    )
    return env


def _page(template: str, site: Site, *, root: str, **context: Any) -> str:
    return environment().get_template(template).render(
        root=root, run=site.run, live=site.live, kind=site.run.kind.value, **context
    )


# -- the overview ---------------------------------------------------------------------------------


def _index(site: Site) -> str:
    run = site.run
    match run.kind:
        case RunKind.TOURNAMENT:
            return _tournament_page(site)
        case RunKind.TABLE:
            return _table_page(site, run.tables()[0], root="")
        case RunKind.HEADSUP:
            return _headsup_page(site, 1, root="")
        case RunKind.TWOCARD:
            return _twocard_page(site)


def _tournament_page(site: Site) -> str:
    run = site.run
    with run.store() as store:
        settings = TournamentSettings(**store.meta())
        standings = compute_standings(store, duplicate=settings.duplicate)
        results = store.results(TableKind.ROUND)
        final_results = sorted(store.results(TableKind.FINAL), key=lambda r: (-r.profit, r.seat))
        faults = store.faults(TableKind.ROUND) + store.faults(TableKind.FINAL)
    tables = run.tables()
    rounds = [t for t in tables if t.kind != TableKind.FINAL]
    final = next((t for t in tables if t.kind == TableKind.FINAL), None)
    teams = [s.team for s in standings]
    return _page(
        "tournament.html",
        site,
        root="",
        settings=settings,
        standings=standings,
        interval_scale=_interval_scale(standings),
        crosstable=_crosstable(teams, rounds, results),
        tables=rounds,
        final=final,
        final_results=final_results,
        faults=faults,
        fault_kinds=sorted({f["kind"] for f in faults}),
        fault_counts=_fault_counts(faults),
        slugs=run.team_slugs(),
        awards=(read_json(run.folder / "results.json") or {}).get("awards"),
    )


def _interval_scale(standings: Sequence[Any]) -> dict[str, float]:
    """The common x scale of the standings' interval bars: ``low``..``high`` over every interval and 0."""
    values = [0.0] + [s.ci95_low for s in standings] + [s.ci95_high for s in standings]
    low, high = min(values), max(values)
    return {"low": low, "span": (high - low) or 1.0}


def _crosstable(teams: Sequence[str], tables: Sequence[TableInfo], results: Sequence[Any]) -> dict:
    """Cell (A, B): A's profit per deal at the played tables where B sat too, and those tables' count."""
    deals = {t.name: t.deals_played for t in tables}
    seated = {t.name: set(t.teams) for t in tables}
    profit: dict[tuple[str, str], int] = {}
    played: dict[tuple[str, str], int] = {}
    shared: dict[tuple[str, str], int] = {}
    for row in results:
        for other in seated.get(row.table_name, ()):
            if other != row.team:
                key = (row.team, other)
                profit[key] = profit.get(key, 0) + row.profit
                played[key] = played.get(key, 0) + deals.get(row.table_name, 0)
                shared[key] = shared.get(key, 0) + 1
    return {
        key: {"per_deal": profit[key] / played[key] if played[key] else 0.0, "tables": shared[key]}
        for key in profit
    }


def _fault_counts(faults: Sequence[dict[str, Any]]) -> dict[str, dict[str, int]]:
    counts: dict[str, dict[str, int]] = {}
    for fault in faults:
        line = counts.setdefault(fault["team"], {})
        line[fault["kind"]] = line.get(fault["kind"], 0) + 1
    return counts


# -- a table ----------------------------------------------------------------------------------------


def _chips_chart(names: Sequence[str], summaries: Sequence[DealSummary]) -> Any:
    if not summaries:
        return None
    series = []
    for i, name in enumerate(names):
        values = [summaries[0].stacks_before[i]] + [s.stacks_after[i] for s in summaries]
        series.append((f"{i + 1}. {name}", values))
    return line_chart(series, x_label="deal", y_label="chips")


def _table_page(site: Site, info: TableInfo, *, root: str) -> str:
    log = site.run.log(info)
    summaries = log.summaries if log is not None else []
    names = list(info.teams) or (log.seat_names() if log is not None else [])
    faults = log.faults() if log is not None else []
    fault_counts: dict[int, int] = {}
    for fault in faults:
        fault_counts[fault.get("deal", 0)] = fault_counts.get(fault.get("deal", 0), 0) + 1
    biggest = {s.deal for s in sorted(summaries, key=lambda s: (-s.pot, s.deal))[:BIGGEST_POTS]}
    results = log.results() if log is not None else None
    return _page(
        "table.html",
        site,
        root=root,
        info=info,
        names=names,
        summaries=summaries,
        chart=_chips_chart(names, summaries),
        fault_counts=fault_counts,
        biggest=biggest,
        faults=faults,
        results=results,
        slugs=site.run.team_slugs(),
        running=info.status is TableState.RUNNING,
    )


# -- a deal -----------------------------------------------------------------------------------------


def deal_payload(info: TableInfo, log: TableLog, deal: int) -> dict[str, Any]:
    """Everything the replay needs of one deal, JSON-ready: names, steps, summary."""
    events = log.events(deal)
    names = list(info.teams) or log.seat_names()
    faults = [f for f in log.faults() if f.get("deal") == deal]
    steps = replay(events, names=names, faults=faults)
    return {
        "table": info.name,
        "deal": deal,
        "names": names,
        "steps": [step.to_dict() for step in steps],
        "other_faults": [
            {"team": f.get("team", ""), "kind": f.get("kind", ""), "reason": f.get("reason", ""),
             "stage": f.get("stage", "")}
            for f in unplaced_faults(faults, events, names)
        ],
    }


def _deal_page(site: Site, info: TableInfo, deal: int) -> str:
    log = site.run.log(info)
    if log is None:
        raise KeyError(info.name)
    payload = deal_payload(info, log, deal)
    return _page(
        "deal.html",
        site,
        root="../../",
        info=info,
        deal=deal,
        deals=log.deals,
        payload=payload,
        first=payload["steps"][0],
        slugs=site.run.team_slugs(),
    )


def _live_page(site: Site, info: TableInfo) -> str:
    log = site.run.log(info)
    deals = log.deals if log is not None else 0
    payload = deal_payload(info, log, deals) if log is not None and deals else None
    seats = len(info.teams) or (len(payload["names"]) if payload else 0)
    names = list(info.teams) or (payload["names"] if payload else [])
    return _page(
        "live.html",
        site,
        root="../",
        info=info,
        deals=deals,
        payload=payload,
        names=names,
        seats=seats,
        first=payload["steps"][-1] if payload else None,
        slugs=site.run.team_slugs(),
    )


# -- a team -----------------------------------------------------------------------------------------


def _summed(one: PlayerStats, other: PlayerStats) -> PlayerStats:
    """Two seats' counts added up (the rates follow from the counts)."""
    names = one.__dataclass_fields__
    return PlayerStats(**{name: getattr(one, name) + getattr(other, name) for name in names})


def _team_of_slug(run: Run, slug: str) -> str:
    for team, known in run.team_slugs().items():
        if known == slug:
            return team
    raise KeyError(slug)


def _team_page(site: Site, team: str) -> str:
    """The team's tables, chips won deal by deal over them, its statistics summed over them, its faults."""
    run = site.run
    stats = PlayerStats()
    rows = []
    chips: list[float] = [0.0]
    marks: list[tuple[int, str]] = []
    faults: list[dict[str, Any]] = []
    for info in run.tables():
        if team not in info.teams:
            continue
        seat = info.teams.index(team) + 1
        row: dict[str, Any] = {"info": info, "seat": seat, "profit": None, "deals": 0, "faults": 0}
        rows.append(row)
        if info.folder is None:
            continue
        records = seat_records(info.folder)
        if len(records.chips) >= seat:
            own = records.chips[seat - 1]
            marks.append((len(chips) - 1, info.name))
            base = chips[-1]
            chips.extend(base + after - own[0] for after in own[1:])
            row["deals"], row["profit"] = len(own) - 1, own[-1] - own[0]
            stats = _summed(stats, records.stats[seat - 1])
        table_faults = [dict(f, table=info.name) for f in read_json_lines(info.folder / FAULTS)
                        if f.get("team") == team]
        row["faults"] = len(table_faults)
        results = read_json(info.folder / RESULTS)
        if results is not None:
            mine = next((t for t in results["teams"] if t["team"] == team), None)
            row["disqualified"] = bool(mine and mine["disqualified"])
            row["built"] = bool(mine and mine["built"])
        faults += table_faults
    if not rows:
        raise KeyError(team)
    chart = line_chart([(team, chips)], x_label="deal (over its tables in order)", y_label="chips won",
                       marks=marks) if len(chips) > 1 else None
    return _page(
        "team.html",
        site,
        root="../",
        team=team,
        rows=rows,
        chart=chart,
        stats=stats,
        rates=stats.rates(),
        stat_labels=STAT_LABELS,
        faults=faults,
        slugs=run.team_slugs(),
    )


# -- the other games --------------------------------------------------------------------------------


def _headsup_page(site: Site, page: int, *, root: str) -> str:
    folder = site.run.folder
    log = folder / "hands.jsonl"
    total = count_hands(log)
    if page > pages(total):
        raise KeyError(page)
    running = running_mean(log, "delta")
    chart = (
        line_chart([("W", running.values)], xs=running.hands, band=(running.lows, running.highs),
                   x_label="hand", y_label="W (mean chips a hand)")
        if running.values
        else None
    )
    hands = hands_page(log, page)
    return _page(
        "headsup.html",
        site,
        root=root,
        results=read_json(folder / "results.json"),
        total=total,
        page=page,
        pages=pages(total),
        hands=hands,
        first_hand=(page - 1) * HANDS_PER_PAGE + 1,
        chart=chart,
        slugs={},
    )


def _twocard_cases(run: Run) -> list[dict[str, Any]]:
    results = read_json(run.folder / "results.json") or {}
    cases = results.get("cases")
    if isinstance(cases, list):
        return cases
    return [{"case": int(p.name.split("_")[1])} for p in sorted(run.folder.glob("case_[0-9]*"))]


def _twocard_page(site: Site) -> str:
    return _page(
        "twocard.html",
        site,
        root="",
        results=read_json(site.run.folder / "results.json"),
        cases=_twocard_cases(site.run),
        slugs={},
    )


def _twocard_case(site: Site, number: int, page: int) -> str:
    case = next((c for c in _twocard_cases(site.run) if c.get("case") == number), None)
    if case is None:
        raise KeyError(number)
    log = site.run.folder / f"case_{number}" / "hands.jsonl"
    total = count_hands(log)
    if page > pages(total):
        raise KeyError(page)
    profit = running_total(log, "profit")
    series = [("profit", profit.values)]
    value = case.get("value")
    if isinstance(value, (int, float)):
        series.append(("best achievable (expected)", [-value * n for n in profit.hands]))
    chart = (
        line_chart(series, xs=profit.hands, x_label="hand", y_label="chips") if profit.values else None
    )
    return _page(
        "twocard_case.html",
        site,
        root="../../",
        case=case,
        total=total,
        page=page,
        pages=pages(total),
        hands=hands_page(log, page),
        first_hand=(page - 1) * HANDS_PER_PAGE + 1,
        chart=chart,
        slugs={},
    )


def static_dir() -> Path:
    """The viewer's CSS and JavaScript."""
    return Path(__file__).with_name("static")
