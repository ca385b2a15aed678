"""``RUN/reports/<TeamId>.md``: what one team needs after a tournament, rendered from the store.

Its tables and seats, profit per table, every fault with its reason and the ``arena replay`` command
that reruns it, decision times against the limit, help-file use, and its playing statistics.
"""

from __future__ import annotations

import shlex
from collections import defaultdict
from pathlib import Path
from typing import Any

from arena import untrusted
from arena.atomic import write_atomically
from arena.build_errors import first_build_error
from arena.faults import stage_text
from arena.games.codem.protocol import help_files_left
from arena.games.codem.stats import PlayerStats, stats_text
from arena.runfolder.layout import REPORTS_DIR, table_dir, team_dir
from arena.tournament.rounds import format_standings
from arena.tournament.standings import compute_standings
from arena.tournament.store import Store, TableKind

STDERR_LINES = 20
"""A fault's stderr lines shown in the report (the kept stderr is in ``faults.jsonl``)."""


def replay_command(run_dir: Path, fault: dict[str, Any]) -> str:
    """The ``arena replay`` command that reruns the decision a fault happened in."""
    argv = ["arena", "replay", str(run_dir), "--table", fault["table"], "--deal", str(fault["deal"])]
    argv += ["--team", fault["team"]]
    if fault.get("decision"):
        argv += ["--decision", str(fault["decision"])]
    return shlex.join(argv)


def write_team_reports(
    store: Store, run_dir: Path, settings: Any, stats: dict[str, PlayerStats]
) -> list[Path]:
    """Write one report per registered team (``stats``: each team's playing statistics); return the paths."""
    folder = run_dir / REPORTS_DIR
    folder.mkdir(exist_ok=True)
    faults: dict[str, list[dict[str, Any]]] = defaultdict(list)
    for fault in store.fault_records(TableKind.ROUND):
        faults[fault["team"]].append(fault)
    results = defaultdict(list)
    for row in store.results(TableKind.ROUND):
        results[row.team].append(row)
    deals = {t.name: t.deals_played for t in store.tables(TableKind.ROUND)}
    ranked = format_standings(store, compute_standings(store, duplicate=settings.duplicate))
    standings = {s.team: s for s in ranked}
    written = []
    for team in store.teams():
        text = _report(
            team.team,
            Path(team.program).name,
            run_dir,
            settings,
            standing=standings.get(team.team),
            rows=results[team.team],
            deals=deals,
            faults=faults[team.team],
            stats=stats.get(team.team, PlayerStats()),
            teams=len(standings),
        )
        path = folder / f"{team.team}.md"
        write_atomically(path, text)
        written.append(path)
    return written


def _unbuilt(fault: dict[str, Any]) -> list[str]:
    """The report of a program that never built: its compiler's first error and whole output, no play."""
    first = first_build_error(fault["stderr"]) or fault["reason"]
    output = untrusted.printable(fault["stderr"]).rstrip().splitlines() or ["(the build printed nothing)"]
    return [
        "## Build failed",
        "",
        "Sat out every deal: the program did not build, so it has no standing, profit or statistics.",
        "",
        "The compiler's first error:",
        "",
        *(f"    {line}" for line in untrusted.printable(first).splitlines()),
        "",
        "The build's whole output:",
        "",
        *(f"    {line}" for line in output),
        "",
    ]


def _report(
    team: str,
    program: str,
    run_dir: Path,
    settings: Any,
    *,
    standing: Any,
    rows: list[Any],
    deals: dict[str, int],
    faults: list[dict[str, Any]],
    stats: PlayerStats,
    teams: int,
) -> str:
    limit_ms = settings.time_limit_s * 1000
    lines = [
        f"# {team}: tournament report",
        "",
        f"Program `{program}`. Run `{run_dir}`: "
        f"{'a secret deck key' if settings.seed is None else f'seed {settings.seed}'}, "
        f"{settings.deals} deals a table, "
        f"{settings.time_limit_s:g} s a decision, disqualified from a table after {settings.max_faults} "
        f"faults, blinds {settings.small_blind}/{settings.big_blind}, stacks {settings.stack}.",
        "",
    ]
    build = next((f for f in faults if f["kind"] == "build_failed"), None)
    if build is not None and rows and not any(row.built for row in rows):
        return "\n".join(lines + _unbuilt(build))
    if standing is not None:
        lines += [
            f"Standing: **{standing.rank} of {teams}**, profit {standing.profit:+d} over {standing.deals} "
            f"deals ({standing.profit_per_deal:+.2f} a deal, 95% interval "
            f"[{standing.ci95_low:+.2f}, {standing.ci95_high:+.2f}]); with the cards' luck taken out "
            f"{standing.adjusted_per_deal:+.2f} a deal, 95% interval "
            f"[{standing.adjusted_ci95_low:+.2f}, {standing.adjusted_ci95_high:+.2f}] (docs/tournament.md, "
            '"Luck taken out"); this rank in '
            f"{standing.rank_probability:.0%} of resamplings.",
            "",
        ]
    lines += ["## Tables", "", "| table | seat | deals | profit | final stack | faults | status |"]
    lines.append("|---|--:|--:|--:|--:|--:|---|")
    timing_rows, help_rows = [], []
    for row in rows:
        status = "build failed" if not row.built else "disqualified" if row.disqualified else "played"
        lines.append(
            f"| {row.table_name} | {row.seat} | {deals.get(row.table_name, 0)} | {row.profit:+d} | "
            f"{row.final_stack} | {row.faults} | {status} |"
        )
        times = row.times
        if row.decisions:
            timing_rows.append(
                f"| {row.table_name} | {row.decisions} | {times.median_ms:.1f} | {times.p99_ms:.1f} | "
                f"{times.max_ms:.1f} | {100 * times.max_ms / limit_ms:.0f}% |"
            )
        helps = help_files_left(team_dir(table_dir(run_dir, row.table_name), team), program)
        help_faults = sum(
            1 for f in faults if f["table"] == row.table_name and f["kind"] == "help_file_limit"
        )
        names = ", ".join(untrusted.markdown(name) for name in helps[:15])
        help_rows.append(f"| {row.table_name} | {len(helps)} | {help_faults} | {names} |")
    lines += ["", f"## Decision times (limit {limit_ms:.0f} ms)", ""]
    if timing_rows:
        lines += [
            "| table | decisions | median ms | p99 ms | max ms | max of limit |",
            "|---|--:|--:|--:|--:|--:|",
        ]
        lines += timing_rows
    else:
        lines.append("No decisions were run.")
    lines += ["", "## Help files (at the end of each table)", ""]
    lines += ["| table | files | help-file faults | names |", "|---|--:|--:|---|", *help_rows]
    lines += ["", f"## Faults ({len(faults)})", ""]
    if not faults:
        lines.append("None.")
    for number, fault in enumerate(faults, start=1):
        where = f"table {fault['table']}, deal {fault['deal']}, {stage_text(fault['stage'])}"
        if fault.get("seat"):
            where += f", seat {fault['seat']}, decision {fault['decision']}, cards {fault.get('cards', '')}"
        lines += [f"{number}. **{fault['kind']}** at {where}: {untrusted.markdown(fault['reason'])}"]
        if fault["kind"] != "build_failed":
            lines += [f"   replay: `{replay_command(run_dir, fault)}`"]
            stderr = untrusted.printable(fault.get("stderr", "")).rstrip().splitlines()[-STDERR_LINES:]
            if stderr:
                lines += ["", "   what it printed on stderr (the last lines):", ""]
                lines += [f"       {line}" for line in stderr]
                lines.append("")
    lines += [
        "",
        "## Playing statistics",
        "",
        "```",
        stats_text(team, stats, tables=len(rows)).rstrip(),
        "```",
        "",
    ]
    return "\n".join(lines)
