"""The final table: the top six of the standings, 1000 deals, each with the help files it prepared."""

from __future__ import annotations

import json
import tempfile
from dataclasses import asdict
from pathlib import Path

from rich.console import Console
from rich.table import Table

from arena.cards import derive_seed
from arena.errors import ConfigError
from arena.games.codem.table import PlayerSpec
from arena.languages import build_program
from arena.sandbox import open_sandbox
from arena.sandbox.limits import Limits
from arena.sandbox.team_folder import given_files
from arena.tournament.finals_logs import finalists, open_finished, require_tournament
from arena.tournament.host import TournamentSettings, programs_by_team, table_config, write_atomically
from arena.tournament.runner import TableRunner, TableTask, execute, run_lock
from arena.tournament.schedule import TableJob
from arena.tournament.store import ResultRow
from arena.tournament.submissions import find_submissions

FINAL = "final"


def help_dirs(folder: Path | None, teams: list[str], limits: Limits | None = None) -> dict[str, Path]:
    """Each finalist's prepared help-file folder ``folder/<TeamId>/``, checked before the final starts.

    Only regular files and folders, no link, within the help-file count, size and depth limits;
    anything else is a ConfigError naming the file (:func:`arena.sandbox.team_folder.given_files`).
    """
    if folder is None:
        return {}
    if not folder.is_dir():
        raise ConfigError(f"help-files folder {folder} does not exist")
    limits = limits or Limits()
    found: dict[str, Path] = {}
    for team in teams:
        team_dir = folder / team
        if team_dir.is_symlink():
            raise ConfigError(f"{team_dir} is a symbolic link; help files must be in a real folder")
        if not team_dir.is_dir():
            continue
        given_files(team_dir, limits)
        found[team] = team_dir
    return found


def final_programs(
    folder: Path | None, chosen: list[str], registered: dict[str, Path], console: Console
) -> dict[str, Path]:
    """Each finalist's program: an updated ``folder/<TeamId>.<ext>`` when it builds, else the initial code.

    Seed 004 lets finalists change their code before the final: "If for some reason, after changes, the
    codes do not work, initial codes will be considered." An updated program that does not build is
    reported and the team plays its tournament program.
    """
    programs = {team: registered[team] for team in chosen}
    if folder is None:
        return programs
    submissions, _ = find_submissions(folder)
    for submission in submissions:
        if submission.team not in programs:
            continue
        with tempfile.TemporaryDirectory() as scratch, open_sandbox(Path(scratch), Limits()) as sandbox:
            build = build_program(submission.program, Path(scratch), sandbox)
        if build.ok:
            programs[submission.team] = submission.program
            console.print(f"{submission.team}: the final table uses the updated {submission.program.name}")
        else:
            console.print(
                f"{submission.team}: the updated {submission.program.name} does not build, so its initial "
                f"code plays (004):\n{build.output}"
            )
    return programs


def run_final(
    run_dir: Path,
    *,
    help_files: Path | None = None,
    programs_dir: Path | None = None,
    deals: int = 1000,
    console: Console | None = None,
    table_runner: TableRunner | None = None,
) -> list[ResultRow]:
    """Play (or show, when already played) the final table; write ``final.json``."""
    console = console or Console(stderr=True)
    require_tournament(run_dir)
    with run_lock(run_dir):
        store = open_finished(run_dir)
        try:
            settings = TournamentSettings(**store.meta())
            chosen = finalists(store)
            if len(chosen) < 2:
                raise ConfigError(f"a final table needs at least 2 teams, the tournament has {len(chosen)}")
            helps = help_dirs(help_files, chosen)
            seed = derive_seed(settings.seed, FINAL)
            store.add_table(FINAL, deals, TableJob(FINAL, 0, 0, seed, tuple(chosen)))
            stored = store.tables(FINAL)[0]
            if stored.deals != deals:
                raise ConfigError(f"the final table was scheduled with {stored.deals} deals, not {deals}")
            if stored.teams != tuple(chosen):
                raise ConfigError(
                    f"the final table was seated {stored.teams}, the standings now give {chosen}"
                )
            if stored.status != "done":
                programs = final_programs(programs_dir, chosen, programs_by_team(store), console)
                players = tuple(PlayerSpec(t, programs[t], helps.get(t)) for t in chosen)
                task = TableTask(FINAL, players, table_config(settings, seed, deals, run_dir=run_dir))
                failures = execute(
                    store, run_dir, [task], jobs=1, console=console, table_runner=table_runner, label="final"
                )
                if failures:
                    raise ConfigError(f"the final table failed: {failures[0]}")
            results = sorted(store.results(FINAL), key=lambda r: (-r.profit, r.seat))
            document = {"seed": seed, "deals": deals, "results": [asdict(r) for r in results]}
            write_atomically(run_dir / "final.json", json.dumps(document, indent=2) + "\n")
        finally:
            store.close()
    return results


def final_table(results: list[ResultRow]) -> Table:
    """The final's results as a rich table, winner first."""
    table = Table(title="Final table")
    for header in ("#", "seat", "team", "final stack", "profit", "faults", "DQ"):
        table.add_column(header, justify="left" if header == "team" else "right")
    for place, r in enumerate(results, start=1):
        table.add_row(
            str(place),
            str(r.seat),
            r.team,
            str(r.final_stack),
            f"{r.profit:+d}",
            str(r.faults),
            "yes" if r.disqualified else "",
        )
    return table
