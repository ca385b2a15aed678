"""Host a tournament: find the programs, schedule, play the tables, write and show the standings."""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass, field, replace
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, model_validator

from arena.atomic import write_atomically
from arena.build_errors import first_build_error
from arena.decks.commitment import TableDeck, commit, open_stage, reveal
from arena.engines.nlhe.events import event_from_dict
from arena.engines.nlhe.rules import TableRules
from arena.errors import ConfigError
from arena.games.codem.stats import PlayerStats, stats_csv, team_stats
from arena.games.codem.table import PlayerSpec, TableConfig
from arena.runfolder.layout import (
    AWARDS,
    BUILDS_DIR,
    DB_NAME,
    STANDINGS_CSV,
    STATS_CSV,
    SUBMISSIONS_CSV,
    events_record,
    results_path,
    tables_dir,
)
from arena.tournament.awards import awards_csv, tournament_awards
from arena.tournament.formats import Format, Planner, default_budget
from arena.tournament.pool import TableRunner, TableTask
from arena.tournament.progress import Progress, Quiet
from arena.tournament.reports import write_team_reports
from arena.tournament.rounds import (
    ROUNDS_NOTE,
    format_standings,
    round_jobs,
    schedule_next_round,
)
from arena.tournament.schedule import TableJob, plan_tournament
from arena.tournament.standings import RankBy, Separation, Standing, separated_standings, standings_csv
from arena.tournament.store import Store, TableKind, TableRow, TableStatus, TeamRow
from arena.tournament.submissions import Skipped, Submission, find_submissions, submissions_csv
from arena.tournament.workers import execute, run_lock

TOURNAMENT = "tournament"


class TournamentSettings(BaseModel):
    """What fixes a tournament's outcome (stored; a resumed run must use the same)."""

    model_config = ConfigDict(frozen=True)

    deals: int = Field(1000, ge=1)
    seed: int | None = None
    """A known seed for tests and demos; None (the default): decks from a secret key (``arena.decks``)."""
    duplicate: bool = False
    time_limit_s: float = Field(1.0, gt=0)
    max_faults: int = Field(10, ge=1)
    small_blind: int = Field(5, ge=1)
    big_blind: int = Field(10, ge=1)
    stack: int = Field(1500, ge=1)
    format: Format = Format.ROUND_ROBIN
    """Round-robin (every pair meets), groups or swiss (``arena.tournament.formats``)."""
    round_tables: int | None = Field(None, ge=1)
    """Swiss: the tables of every round after the first (``Planner.round_tables``); None: n/6 in legs."""
    budget: int | None = Field(None, ge=1)
    """Swiss or groups: the most tables played (the first round is always played); None: a fifth of
    round-robin's (``formats.default_budget``)."""

    @model_validator(mode="after")
    def _blinds_fit(self) -> TournamentSettings:
        if self.small_blind > self.big_blind:
            raise ValueError(
                f"--blinds: the small blind {self.small_blind} exceeds the big blind {self.big_blind}"
            )
        if self.stack < 2 * self.big_blind:
            raise ValueError(f"--stack: {self.stack} is less than two big blinds ({2 * self.big_blind})")
        if self.round_tables is not None and self.format is not Format.SWISS:
            raise ValueError(f"--round-tables is for --format swiss, not {self.format}")
        if self.budget is not None and self.format is Format.ROUND_ROBIN:
            raise ValueError("--budget is for --format swiss or groups; round-robin plays every pair")
        return self

    def rules(self) -> TableRules:
        """The table rules these settings give (seats are set per table)."""
        return TableRules(small_blind=self.small_blind, big_blind=self.big_blind, starting_stack=self.stack)

    def planner(self, teams: int, seed: int) -> Planner:
        """The rounds' planner of a field of ``teams`` (indices in name order): this format, round size and
        budget (a fifth of round-robin's when none is set)."""
        return Planner(self.format, teams, seed, self.budget or default_budget(teams), self.round_tables)


@dataclass(frozen=True)
class TournamentPlan:
    """What a run is about to do, told before the first deal."""

    teams: list[Submission]
    skipped: list[Skipped]
    tables: int
    tables_left: int
    deals_per_table: int
    settings: TournamentSettings
    decks: str = ""
    """Where the cards come from: the committed secret key's hash, or the warning that goes with a seed."""


@dataclass(frozen=True)
class TournamentReport:
    """The outcome of one run of the command."""

    standings: list[Standing]
    tables: int
    played_now: int
    failures: list[str]
    faults: dict[str, dict[str, int]] = field(default_factory=dict)
    """Per team, its faults counted by kind (build failures included, as ``build_failed``)."""
    build_failures: dict[str, str] = field(default_factory=dict)
    """Per team whose program did not build, the compiler's first error (its file and line, the source
    lines under it)."""
    separation: Separation | None = None
    """Which team is ahead of which (the bootstrap of the standings)."""

    @property
    def complete(self) -> bool:
        """Whether every table is recorded."""
        return not self.failures


def table_config(
    settings: TournamentSettings,
    seed: int,
    deals: int | None = None,
    *,
    run_dir: Path,
    secret: bytes | None = None,
) -> TableConfig:
    """The configuration of one table of the tournament; programs are compiled once, into RUN_DIR/builds."""
    return TableConfig(
        deals=deals or settings.deals,
        seed=seed,
        table_secret=secret,
        time_limit_s=settings.time_limit_s,
        max_faults=settings.max_faults,
        rules=settings.rules(),
        build_cache=run_dir / BUILDS_DIR,
    )


def registered_players(store: Store) -> dict[str, PlayerSpec]:
    """Each registered team with its program and the hash the program had when registered."""
    return {t.team: PlayerSpec(t.team, Path(t.program), sha256=t.sha256) for t in store.teams()}


def deck_of(table: TableRow) -> str:
    """The deck a table draws from: the rotations of a duplicate group share their group's deck."""
    return f"table{table.group:03d}" if table.kind is TableKind.ROUND else table.name


def table_decks(tables: Sequence[TableRow]) -> list[TableDeck]:
    """The tables to commit: each with its deck, its record of deals and (a known seed's) table seed."""
    return [TableDeck(t.name, deck_of(t), events_record(t.name), t.seed) for t in tables]


def run_tournament(
    submissions: Path,
    run_dir: Path,
    settings: TournamentSettings,
    *,
    jobs: int = 1,
    scheduler: str | None = None,
    certs: Path | None = None,
    progress: Progress | None = None,
    table_runner: TableRunner | None = None,
    deck_key: Path | None = None,
    reveal_at_end: bool = False,
    announce: Callable[[TournamentPlan], None] | None = None,
    rank_by: RankBy = RankBy.CHIPS,
) -> TournamentReport:
    """Play (or finish) the tournament of the programs in ``submissions``; write RUN_DIR's outputs.

    The decks come from ``deck_key`` (a file), the run's stored key when resuming, or a fresh secret key,
    committed in ``commitment.json`` before the first card (``settings.seed``: a known seed instead).
    ``announce`` hears the plan before the first deal; ``progress`` hears each fault as it happens.
    ``rank_by`` orders the standings (chips by default, as statement 004 ranks; the final's seats follow
    chips whatever it is).
    """
    progress = progress or Quiet()
    if jobs < 1:
        raise ConfigError(f"--jobs must be at least 1, got {jobs}")
    found, skipped = find_submissions(submissions)
    if len(found) < 2:
        unplayed = "; ".join(f"{s.name}: {s.reason}" for s in skipped)
        raise ConfigError(
            f"{submissions} holds {len(found)} program(s); a tournament needs at least 2"
            + (f" (not played: {unplayed})" if unplayed else "")
        )
    _refuse_orphaned_tables(run_dir)
    with run_lock(run_dir):
        store = Store(run_dir)
        try:
            decks = open_stage(run_dir, TOURNAMENT, key_file=deck_key, seed=settings.seed)
            store.initialise(
                settings.model_dump(),
                [TeamRow(s.team, str(s.program), s.language, s.sha256) for s in found],
                _first_round(settings, [s.team for s in found], decks.schedule_seed),
                defaults=TournamentSettings().model_dump(),
            )
            if settings.format is not Format.ROUND_ROBIN and store.note(ROUNDS_NOTE) is None:
                store.set_note(ROUNDS_NOTE, [[t.name for t in store.tables(TableKind.ROUND)]])
            write_atomically(run_dir / SUBMISSIONS_CSV, submissions_csv(found, skipped))
            players = registered_players(store)

            def play(tables: Sequence[TableRow]) -> tuple[int, list[str]]:
                commit(run_dir, decks, table_decks(tables))
                todo = [
                    TableTask(
                        t.name,
                        tuple(players[team] for team in t.teams),
                        table_config(settings, t.seed, run_dir=run_dir, secret=decks.secret(deck_of(t))),
                        group=deck_of(t) if settings.duplicate else "",
                    )
                    for t in tables
                    if t.status is not TableStatus.DONE
                ]
                if todo:
                    decks.require_unrevealed()
                failed = execute(
                    store,
                    run_dir,
                    todo,
                    jobs=jobs,
                    scheduler=scheduler,
                    certs=certs,
                    progress=progress,
                    table_runner=table_runner,
                )
                return len(todo), failed

            tables = store.tables(TableKind.ROUND)
            left = sum(1 for t in tables if t.status is not TableStatus.DONE)
            if announce is not None:
                plan = TournamentPlan(found, skipped, len(tables), left, settings.deals, settings)
                announce(replace(plan, decks=decks.describe()))
            else:
                progress.note(decks.describe())
            played_now, failures = play(tables)
            planner = settings.planner(len(store.teams()), decks.schedule_seed)
            while settings.format is not Format.ROUND_ROBIN and not failures:
                new = schedule_next_round(store, planner, seed=decks.schedule_seed, deals=settings.deals)
                if not new:
                    break
                names = {job.name for job in new}
                progress.note(f"round {len(store.note(ROUNDS_NOTE))}: {len(new)} tables")
                played, failures = play([t for t in store.tables(TableKind.ROUND) if t.name in names])
                played_now += played
            tables = store.tables(TableKind.ROUND)
            ranked, separation = separated_standings(store, duplicate=settings.duplicate, rank_by=rank_by)
            standings = format_standings(store, ranked)
            write_atomically(run_dir / STANDINGS_CSV, standings_csv(standings))
            write_atomically(
                results_path(run_dir),
                json.dumps(results_document(store, settings, standings, separation), indent=2) + "\n",
            )
            stats = tournament_stats(store)
            write_atomically(run_dir / STATS_CSV, stats_csv(stats))
            write_atomically(run_dir / AWARDS, awards_csv(tournament_awards(store, standings)))
            write_team_reports(store, run_dir, settings, stats)
            faults, builds = fault_summary(store)
            write_atomically(run_dir / SUBMISSIONS_CSV, submissions_csv(found, skipped, builds))
            if reveal_at_end and not failures:
                for line in reveal(run_dir, [TOURNAMENT]):
                    progress.note(line)
        finally:
            store.close()
    played = played_now - len(failures)
    return TournamentReport(standings, len(tables), played, failures, faults, builds, separation)


def _first_round(settings: TournamentSettings, teams: list[str], seed: int) -> list[TableJob]:
    """Round-robin's whole schedule, or the first round of a swiss or groups tournament (teams by name)."""
    if settings.format is Format.ROUND_ROBIN:
        return plan_tournament(teams, seed=seed, duplicate=settings.duplicate)
    if settings.duplicate:
        raise ConfigError(
            f"--duplicate is for round-robin; --format {settings.format} seats teams by results"
        )
    named = sorted(teams)
    return round_jobs(
        settings.planner(len(named), seed).next_round([]),
        named,
        first=1,
        seed=seed,
    )


def fault_summary(store: Store) -> tuple[dict[str, dict[str, int]], dict[str, str]]:
    """Faults per team by kind, and the compiler's first error for each unbuilt program."""
    faults: dict[str, dict[str, int]] = {}
    builds: dict[str, str] = {}
    for fault in store.fault_records(TableKind.ROUND):
        kinds = faults.setdefault(fault["team"], {})
        kinds[fault["kind"]] = kinds.get(fault["kind"], 0) + 1
        if fault["kind"] == "build_failed" and fault["team"] not in builds:
            builds[fault["team"]] = first_build_error(fault["stderr"]) or fault["reason"]
    return faults, builds


def _refuse_orphaned_tables(run_dir: Path) -> None:
    """Played tables without their database would be overwritten by a fresh start: refuse instead."""
    tables = tables_dir(run_dir)
    played = [p for p in tables.iterdir() if not p.name.startswith(".")] if tables.is_dir() else []
    if played and not (run_dir / DB_NAME).exists():
        raise ConfigError(
            f"{run_dir} holds {len(played)} played table folder(s) in {tables.name}/ but no {DB_NAME}; "
            "they are left as they are: use a new --out folder, or move tables/ away to start again"
        )


def tournament_stats(store: Store) -> dict[str, PlayerStats]:
    """Every registered team's statistics over the played tables of the rounds (a team dealt no hand too)."""
    tables = [
        (table.teams, ([event_from_dict(e) for e in events] for _, events in store.deal_events(table.name)))
        for table in store.tables(TableKind.ROUND)
        if table.status is TableStatus.DONE
    ]
    stats = team_stats(tables)
    for team in store.teams():
        stats.setdefault(team.team, PlayerStats())
    return stats


def results_document(
    store: Store,
    settings: TournamentSettings,
    standings: Sequence[Standing],
    separation: Separation | None = None,
) -> dict[str, Any]:
    """Everything ``results.json`` holds: settings, standings (ranked by ``rank_by``) and ``ahead`` (per
    team, the share of the bootstrap in which it is ahead of each other team), every table's seats and
    results, faults."""
    results: dict[str, list[dict[str, Any]]] = {}
    for row in store.results(TableKind.ROUND):
        results.setdefault(row.table_name, []).append(
            {k: v for k, v in asdict(row).items() if k != "table_name"}
        )
    tables = store.tables(TableKind.ROUND)
    return {
        "settings": settings.model_dump(),
        "complete": all(t.status is TableStatus.DONE for t in tables),
        "rank_by": str(separation.rank_by if separation else RankBy.CHIPS),
        "standings": [asdict(s) for s in standings],
        "ahead": {
            team: dict(zip(separation.teams, row, strict=True))
            for team, row in zip(separation.teams, separation.ahead, strict=True)
        }
        if separation and separation.ahead
        else {},
        "tables": [
            {
                "name": t.name,
                "group": t.group,
                "rotation": t.rotation,
                "seed": t.seed if settings.seed is not None else None,
                "deck": deck_of(t),
                "seats": list(t.teams),
                "status": t.status,
                "deals_played": t.deals_played,
                "results": results.get(t.name, []),
            }
            for t in tables
        ],
        "faults": store.faults(TableKind.ROUND),
        "build_errors": fault_summary(store)[1],
    }
