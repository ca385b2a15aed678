"""What ``arena tournament`` tells people: the plan, a line per fault, the standings, where it all went.

Tables fit the terminal or wrap their text; a number is never cut (its column keeps its full width).
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import asdict
from pathlib import Path

from rich.console import Console

from arena.cli.say import say
from arena.cli.terminal_tables import FittingTable, fitting_table
from arena.faults import Fault, stage_text
from arena.languages.filenames import REPORT_SUFFIX
from arena.sandbox import NAMESPACES, RLIMITS_ONLY
from arena.sandbox.isolation import namespaces_available
from arena.tournament.host import SUBMISSIONS_CSV, TournamentPlan, TournamentReport
from arena.tournament.reports import REPORTS_DIR
from arena.tournament.standings import SURE, Separation, Standing, standings_csv

MOST_TEAMS_AHEAD = 16
"""The terminal shows the table of which team is ahead of which for at most this many teams."""


def standings_table(standings: Sequence[Standing], *, title: str = "Standings") -> FittingTable:
    """The standings as a rich table: team names fold when the terminal is narrow, figures never do.

    Chips and the luck-adjusted value per deal each with its 95% half-width, and ``P(rank)``, the share
    of the bootstrap in which the team holds its rank."""
    rows = [
        (
            str(s.rank),
            s.team,
            str(s.tables),
            str(s.deals),
            *(_figures(s) if s.built else UNBUILT_FIGURES),
            str(s.faults),
            str(s.disqualified),
            str(s.build_failed),
        )
        for s in standings
    ]
    headers = (
        "#",
        "team",
        "tables",
        "deals",
        "profit",
        "chips/deal",
        "±95%",
        "adjusted/deal",
        "±95%",
        "P(rank)",
        "faults",
        "DQ",
        "unbuilt",
    )
    return fitting_table(title, headers, rows)


UNBUILT_FIGURES = ("did not build", "", "", "", "", "")
"""A never-built team's cells in place of its figures: it played no deal, so it has none."""


def _figures(s: Standing) -> tuple[str, ...]:
    """Profit, chips and adjusted value per deal with their half-widths, and ``P(rank)``."""
    return (
        f"{s.profit:+d}",
        f"{s.profit_per_deal:+.2f}",
        f"{s.ci95_half_width:.2f}",
        f"{s.adjusted_per_deal:+.2f}",
        f"{s.adjusted_half_width:.2f}",
        f"{s.rank_probability:.0%}",
    )


def ahead_table(separation: Separation) -> FittingTable:
    """Row team ahead of column team: the share of the bootstrap, bold where at least :data:`SURE`."""
    rows = []
    for rank, (team, shares) in enumerate(zip(separation.teams, separation.ahead, strict=True), start=1):
        cells = ["" if a == team else _share(p) for a, p in zip(separation.teams, shares, strict=True)]
        rows.append((str(rank), team, *cells))
    headers = ("#", "ahead of #", *(str(i) for i in range(1, len(separation.teams) + 1)))
    title = f"Row ahead of column, by {separation.rank_by} (share of resamplings; * at least {SURE:.0%})"
    return fitting_table(title, headers, rows)


def _share(p: float) -> str:
    return f"{p:.0%}*" if p >= SURE else f"{p:.0%}"


def announce_plan(console: Console, plan: TournamentPlan) -> None:
    """Before the first deal: teams, skipped files and why (arena watch's reports counted on one line),
    tables, deals, isolation, deck commitment."""
    s = plan.settings
    say(console, f"teams: {len(plan.teams)} ({', '.join(f'{t.team} [{t.language}]' for t in plan.teams)})")
    reports = [s for s in plan.skipped if s.name.endswith(REPORT_SUFFIX)]
    if reports:  # arena watch writes one beside every file: one line for them all
        say(console, f"skipped: {len(reports)} reports written by arena watch (*{REPORT_SUFFIX})")
    for skipped in plan.skipped:
        if not skipped.name.endswith(REPORT_SUFFIX):
            say(console, f"skipped: {skipped.name}: {skipped.reason}")
    resumed = plan.tables - plan.tables_left
    say(
        console,
        f"tables: {plan.tables} of {min(6, len(plan.teams))} seats ({plan.deals_per_table} deals each"
        + (f"; {resumed} already played, {plan.tables_left} to play" if resumed else "")
        + f"); {s.time_limit_s:g} s a decision, disqualified after {s.max_faults} faults, "
        f"blinds {s.small_blind}/{s.big_blind}, stacks {s.stack}, "
        + ("decks from a secret key" if s.seed is None else f"seed {s.seed}"),
    )
    if plan.decks:
        say(console, plan.decks)
    available, detail = namespaces_available()
    say(console, f"sandbox isolation: {NAMESPACES if available else RLIMITS_ONLY} ({detail})")


def fault_line(table: str, fault: Fault) -> str:
    """One line per fault as it happens."""
    where = f"deal {fault.deal}, {stage_text(fault.stage)}" if fault.deal else fault.stage
    return f"fault: {fault.team} at {table} ({where}): {fault.kind.value}: {fault.reason.splitlines()[0]}"


def print_standings(
    standings: Sequence[Standing], fmt: str, run_dir: Path, separation: Separation | None = None
) -> None:
    """The standings on stdout as a table (and, for a few teams, which is ahead of which), CSV or JSON."""
    match fmt:
        case "csv":
            print(standings_csv(standings), end="")
        case "json":
            print(json.dumps([asdict(s) for s in standings], indent=2))
        case _:
            by = f", ranked by {separation.rank_by}" if separation else ""
            Console().print(standings_table(standings, title=f"Standings ({run_dir}{by})"))
            if separation and separation.ahead and 2 <= len(separation.teams) <= MOST_TEAMS_AHEAD:
                Console().print(ahead_table(separation))


def print_outcome(console: Console, run_dir: Path, report: TournamentReport) -> None:
    """After play: faults and build failures per team, and where every output is."""
    if report.build_failures:
        say(console, "build failures:")
        for team, error in sorted(report.build_failures.items()):
            first, *context = error.splitlines() or [""]
            say(console, f"  {team}: {first}")
            for line in context:
                say(console, f"  {' ' * len(team)}  {line}")
    if report.faults:
        say(console, "faults per team:")
        for team, kinds in sorted(report.faults.items()):
            counted = ", ".join(f"{count} {kind}" for kind, count in sorted(kinds.items()))
            say(console, f"  {team}: {sum(kinds.values())} ({counted})")
    else:
        say(console, "faults: none")
    outputs = [
        ("standings", run_dir / "standings.csv"),
        ("results", run_dir / "results.json"),
        ("submissions", run_dir / SUBMISSIONS_CSV),
        ("team reports", run_dir / REPORTS_DIR),
        ("tables", run_dir / "tables"),
        ("database", run_dir / "tournament.sqlite"),
    ]
    say(console, "outputs:")
    for name, path in outputs:
        say(console, f"  {name + ':':<14}{path}")
