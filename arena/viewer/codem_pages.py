"""The Code'em pages: the tournament overview, a table, a deal's replay, a live table, a team."""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from arena.build_errors import first_build_error
from arena.engines.nlhe import TableRules
from arena.faults import FaultKind
from arena.games.codem.stats import PlayerStats
from arena.runfolder.layout import AWARDS, results_path
from arena.runfolder.reader import table_faults as recorded_faults
from arena.tournament.host import TournamentSettings
from arena.tournament.rounds import format_standings
from arena.tournament.standings import SURE, RankBy, RunningTable, read_running_table, separated_standings
from arena.tournament.store import Store, TableKind, TableStatus
from arena.viewer.charts import line_chart
from arena.viewer.replay import replay, unplaced_faults
from arena.viewer.runs import Run, RunKind, TableInfo, TableState
from arena.viewer.secret import RECORD, Mode, Viewing
from arena.viewer.site import Site, render_template
from arena.viewer.tables import DealSummary, TableLog, read_json, seat_records

BIGGEST_POTS = 20
STAT_LABELS = {
    "vpip": "VPIP (put chips in voluntarily pre-flop)",
    "pfr": "PFR (raised pre-flop)",
    "three_bet": "3-bet (re-raised pre-flop when it could)",
    "aggression_factor": "aggression factor (bets+raises / calls after the flop)",
    "went_to_showdown": "went to showdown (of the flops it saw)",
    "won_at_showdown": "won at showdown",
    "profit_per_hand": "profit per hand",
}


# -- the overview ---------------------------------------------------------------------------------


def tournament_page(site: Site) -> str:
    """The overview; while tables are played, standings and faults include what they hold so far."""
    run = site.run
    tables = run.tables()
    with run.store() as store:
        settings = TournamentSettings(**store.meta())
        running = _running_tables(store, tables)
        ranked, separation = separated_standings(
            store,
            duplicate=settings.duplicate,
            rank_by=_rank_by(results_path(run.folder)),
            running=running,
        )
        standings = format_standings(store, ranked)
        results = store.results(TableKind.ROUND)
        final_results = sorted(store.results(TableKind.FINAL), key=lambda r: (-r.profit, r.seat))
        faults = [] if site.public else store.faults(TableKind.ROUND) + store.faults(TableKind.FINAL)
    if not site.public:
        faults += [fault for table in running for fault in table.faults]
    rounds = [t for t in tables if t.kind != TableKind.FINAL]
    final = next((t for t in tables if t.kind == TableKind.FINAL), None)
    teams = [s.team for s in standings]
    return render_template(
        "tournament.html",
        site,
        root="",
        settings=settings,
        standings=standings,
        separation=separation,
        sure=SURE,
        interval_scale=_interval_scale(standings),
        crosstable=_crosstable(teams, rounds, results),
        tables=rounds,
        final=final,
        final_results=final_results,
        partial=bool(running),
        deals_so_far={table.row.name: len(table.deals) for table in running},
        faults=faults,
        fault_kinds=sorted({f["kind"] for f in faults}),
        fault_counts=_fault_counts(faults),
        slugs=run.team_slugs(),
        awards=_awards(run.folder / AWARDS),
    )


def _running_tables(store: Store, tables: Sequence[TableInfo]) -> list[RunningTable]:
    """The round tables being played now, as far as their folders go (one stored meanwhile is left out:
    the store has it whole)."""
    folders = {t.name: t.folder for t in tables if t.status is TableState.RUNNING and t.folder is not None}
    return [
        read_running_table(row, folders[row.name])
        for row in store.tables(TableKind.ROUND)
        if row.name in folders and row.status is not TableStatus.DONE
    ]


def _awards(path: Path) -> list[dict[str, str]]:
    """The certificates of ``awards.csv`` (written by the tournament once it has standings), as rows."""
    try:
        text = path.read_text(encoding="utf-8")
    except (FileNotFoundError, UnicodeDecodeError):
        return []
    return list(csv.DictReader(io.StringIO(text)))


def _rank_by(results: Path) -> RankBy:
    """What the tournament ranked by, as its ``results.json`` says (chips when it does not say)."""
    try:
        return RankBy(json.loads(results.read_text(encoding="utf-8")).get("rank_by", RankBy.CHIPS))
    except (OSError, ValueError, AttributeError):
        return RankBy.CHIPS


def _interval_scale(standings: Sequence[Any]) -> dict[str, float]:
    """The common x scale of the standings' interval bars (chips and adjusted): ``low``..``high`` over
    every interval and 0."""
    values = [0.0] + [s.ci95_low for s in standings] + [s.ci95_high for s in standings]
    values += [s.adjusted_ci95_low for s in standings] + [s.adjusted_ci95_high for s in standings]
    low, high = min(values), max(values)
    return {"low": low, "span": (high - low) or 1.0}


def _crosstable(
    teams: Sequence[str], tables: Sequence[TableInfo], results: Sequence[Any]
) -> dict[tuple[str, str], dict[str, float]]:
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


def table_page(site: Site, info: TableInfo, *, root: str) -> str:
    log = site.run.log(info)
    summaries = log.summaries if log is not None else []
    names = list(info.teams) or (log.seat_names() if log is not None else [])
    faults = log.faults() if log is not None and not site.public else []
    fault_counts = log.fault_counts() if log is not None and not site.public else {}
    biggest = {s.deal for s in sorted(summaries, key=lambda s: (-s.pot, s.deal))[:BIGGEST_POTS]}
    results = log.results() if log is not None else None
    return render_template(
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
        seat_status=_seat_status(site, info, names, faults, results),
        slugs=site.run.team_slugs(),
        running=info.status is TableState.RUNNING,
    )


def _seat_status(
    site: Site, info: TableInfo, names: Sequence[str], faults: Sequence[dict[str, Any]], results: Any
) -> list[str]:
    """Each seat's status: from ``results.json`` once played; while playing, from the faults so far
    (its build failed, disqualified at the tournament's fault limit) or ``playing``."""
    if results is not None:
        teams = results["teams"]
        return [
            "build failed" if not t["built"] else "disqualified" if t["disqualified"] else "ok" for t in teams
        ]
    if info.status is not TableState.RUNNING:
        return [""] * len(names)
    limit = None
    if site.run.kind is RunKind.TOURNAMENT:
        with site.run.store() as store:
            limit = TournamentSettings(**store.meta()).max_faults
    status = []
    for name in names:
        own = [f for f in faults if f.get("team") == name]
        if any(f.get("kind") == FaultKind.BUILD_FAILED for f in own):
            status.append("build failed")
        elif limit is not None and len(own) >= limit:
            status.append("disqualified")
        else:
            status.append("playing")
    return status


# -- a deal -----------------------------------------------------------------------------------------


def deal_payload(
    info: TableInfo,
    log: TableLog,
    deal: int,
    viewing: Viewing = RECORD,
    *,
    upto: int = 0,
    public: bool = False,
) -> dict[str, Any]:
    """Everything the replay needs of one deal, JSON-ready: names, steps, summary (no fault if ``public``).

    Watched a secret way, only the steps up to ``upto`` (0 the first; -1 every step) are included, with
    the hole cards ``viewing`` may not see left out, and ``more`` says whether steps follow."""
    events = log.events(deal)
    names = list(info.teams) or log.seat_names()
    faults = [] if public else [f for f in log.faults() if f.get("deal") == deal]
    steps = replay(events, names=names, faults=faults)
    steps_known = steps[: upto + 1] if viewing.secret and upto >= 0 else steps
    more = len(steps_known) < len(steps)
    reveal = viewing.reveal(names)
    return {
        "table": info.name,
        "deal": deal,
        "names": names,
        "view": viewing.mode.value,
        "team": viewing.team,
        "big_blind": TableRules().big_blind,
        "steps": [step.to_dict(reveal) for step in steps_known],
        "more": more,
        "other_faults": []
        if more
        else [
            {
                "team": f.get("team", ""),
                "kind": f.get("kind", ""),
                "reason": f.get("reason", ""),
                "stage": f.get("stage", ""),
            }
            for f in unplaced_faults(faults, events, names)
        ],
    }


def deal_steps(
    site: Site, info: TableInfo, deal: int, viewing: Viewing, start: int, upto: int
) -> dict[str, Any]:
    """Steps ``start``..``upto`` of a deal watched a secret way (what the browser asks for as it plays)."""
    log = site.run.log(info)
    if log is None or not 1 <= deal <= log.deals:
        raise KeyError(info.name)
    payload = deal_payload(info, log, deal, viewing, upto=upto, public=site.public)
    payload["steps"] = payload["steps"][max(0, start) :]
    return payload


def deal_page(site: Site, info: TableInfo, deal: int, viewing: Viewing = RECORD, upto: int = 0) -> str:
    log = site.run.log(info)
    if log is None:
        raise KeyError(info.name)
    if not site.live:
        viewing = RECORD  # a static export is the record: the secret ways need the server
    if site.public and info.status is TableState.RUNNING:
        viewing, upto = Viewing(Mode.BROADCAST), -1  # a table still played shows no card not shown
    payload = deal_payload(info, log, deal, viewing, upto=upto, public=site.public)
    return render_template(
        "deal.html",
        site,
        root="../../",
        info=info,
        deal=deal,
        deals=log.deals,
        payload=payload,
        first=payload["steps"][-1 if viewing.secret else 0],
        viewing=viewing,
        modes=Mode,
        slugs=site.run.team_slugs(),
    )


def live_page(site: Site, info: TableInfo) -> str:
    log = site.run.log(info)
    deals = log.deals if log is not None else 0
    payload = deal_payload(info, log, deals, public=site.public) if log is not None and deals else None
    seats = len(info.teams) or (len(payload["names"]) if payload else 0)
    names = list(info.teams) or (payload["names"] if payload else [])
    return render_template(
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


def team_of_slug(run: Run, slug: str) -> str:
    for team, known in run.team_slugs().items():
        if known == slug:
            return team
    raise KeyError(slug)


def team_page(site: Site, team: str) -> str:
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
            stats = stats + records.stats[seat - 1]
        table_faults = [
            dict(f, table=info.name)
            for f in ([] if site.public else recorded_faults(info.folder))
            if f.get("team") == team
        ]
        row["faults"] = len(table_faults)
        results = read_json(results_path(info.folder))
        if results is not None:
            mine = next((t for t in results["teams"] if t["team"] == team), None)
            row["disqualified"] = bool(mine and mine["disqualified"])
            row["built"] = bool(mine and mine["built"])
        faults += table_faults
    if not rows:
        raise KeyError(team)
    never_built = all(row.get("built") is False for row in rows)
    build = next((f for f in faults if f.get("kind") == "build_failed"), None)
    build_error = first_build_error(str(build.get("stderr", ""))) if never_built and build else ""
    chart = (
        line_chart(
            [(team, chips)], x_label="deal (over its tables in order)", y_label="chips won", marks=marks
        )
        if len(chips) > 1
        else None
    )
    return render_template(
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
        build_error=build_error,
        slugs=run.team_slugs(),
    )
