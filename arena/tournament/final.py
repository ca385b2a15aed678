"""The final table: the top six of the standings, 1000 deals, each with the help files it prepared."""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import asdict
from pathlib import Path

from arena.cards import derive_seed
from arena.errors import ConfigError
from arena.games.codem.table import PlayerSpec
from arena.seats import trial_build
from arena.tournament.atomic import write_atomically
from arena.tournament.finals_logs import finalists, open_finished, require_tournament
from arena.tournament.host import TournamentSettings, programs_by_team, table_config
from arena.tournament.progress import Progress, Quiet
from arena.tournament.runner import TableRunner, TableTask, execute, run_lock
from arena.tournament.schedule import TableJob
from arena.tournament.store import ResultRow, TableKind, TableStatus
from arena.tournament.submissions import find_submissions

FINAL = "final"  # the final table's name in the store, and the label its deck seed is derived with
MAX_HELP_FILES = 15


def help_dirs(folder: Path | None, teams: list[str]) -> dict[str, Path]:
    """Each finalist's prepared help-file folder ``folder/<TeamId>/`` (at most 15 files each)."""
    if folder is None:
        return {}
    if not folder.is_dir():
        raise ConfigError(f"help-files folder {folder} does not exist")
    found: dict[str, Path] = {}
    for team in teams:
        team_dir = folder / team
        if not team_dir.is_dir():
            continue
        files = [p for p in team_dir.rglob("*") if p.is_file()]
        if len(files) > MAX_HELP_FILES:
            raise ConfigError(
                f"{team} prepared {len(files)} help files in {team_dir}; at most {MAX_HELP_FILES} are allowed"
            )
        found[team] = team_dir
    return found


def final_programs(
    folder: Path | None, chosen: list[str], registered: dict[str, Path], note: Callable[[str], None]
) -> dict[str, Path]:
    """Each finalist's program: an updated ``folder/<TeamId>.<ext>`` when it builds, else the initial code.

    The Code'em statement lets finalists change their code before the final: "If for some reason, after
    changes, the codes do not work, initial codes will be considered." An updated program that does not
    build is reported and the team plays its tournament program.
    """
    programs = {team: registered[team] for team in chosen}
    if folder is None:
        return programs
    submissions, _ = find_submissions(folder)
    for submission in submissions:
        if submission.team not in programs:
            continue
        build = trial_build(submission.program)
        if build.ok:
            programs[submission.team] = submission.program
            note(f"{submission.team}: the final table uses the updated {submission.program.name}")
        else:
            note(
                f"{submission.team}: the updated {submission.program.name} does not build, so its initial "
                f"code plays (Code'em statement):\n{build.output}"
            )
    return programs


def run_final(
    run_dir: Path,
    *,
    help_files: Path | None = None,
    programs_dir: Path | None = None,
    deals: int = 1000,
    progress: Progress | None = None,
    table_runner: TableRunner | None = None,
) -> list[ResultRow]:
    """Play (or show, when already played) the final table; write ``final.json``."""
    progress = progress or Quiet()
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
            store.add_table(TableKind.FINAL, deals, TableJob(FINAL, 0, 0, seed, tuple(chosen)))
            stored = store.tables(TableKind.FINAL)[0]
            if stored.deals != deals:
                raise ConfigError(f"the final table was scheduled with {stored.deals} deals, not {deals}")
            if stored.teams != tuple(chosen):
                raise ConfigError(
                    f"the final table was seated {stored.teams}, the standings now give {chosen}"
                )
            if stored.status is not TableStatus.DONE:
                programs = final_programs(programs_dir, chosen, programs_by_team(store), progress.note)
                players = tuple(PlayerSpec(t, programs[t], helps.get(t)) for t in chosen)
                task = TableTask(FINAL, players, table_config(settings, seed, deals, run_dir=run_dir))
                failures = execute(
                    store, run_dir, [task], jobs=1, progress=progress, table_runner=table_runner, label=FINAL
                )
                if failures:
                    raise ConfigError(f"the final table failed: {failures[0]}")
            results = sorted(store.results(TableKind.FINAL), key=lambda r: (-r.profit, r.seat))
            document = {"seed": seed, "deals": deals, "results": [asdict(r) for r in results]}
            write_atomically(run_dir / "final.json", json.dumps(document, indent=2) + "\n")
        finally:
            store.close()
    return results
