"""The final table: the six finalists, 1000 deals, each with the help files it prepared.

The final is a stage of the run with its own deck key (committed before its first card, revealed on its
own). Once played, its result is kept: running ``arena final`` again shows it, and playing it again with
other help files or programs is an explicit choice (``--again``), which discards the stored result.
"""

from __future__ import annotations

import json
import shutil
from collections.abc import Callable
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from arena.atomic import write_atomically
from arena.cards import derive_seed
from arena.decks.commitment import commit, discard_stage, open_stage, reveal
from arena.decks.derive import sha256_hex
from arena.errors import ConfigError
from arena.games.codem.table import PlayerSpec
from arena.seats import check_given_help_files, trial_build
from arena.tournament.awards import AWARDS, awards_csv, tournament_awards
from arena.tournament.finalists import FinalistChoice, choose_finalists
from arena.tournament.finals_logs import open_finished, require_tournament
from arena.tournament.host import TournamentSettings, registered_players, table_config, table_decks
from arena.tournament.places import TIE_RULES, Place, final_places
from arena.tournament.pool import TableRunner, TableTask
from arena.tournament.progress import Progress, Quiet
from arena.tournament.rounds import format_standings
from arena.tournament.schedule import TableJob
from arena.tournament.standings import compute_standings
from arena.tournament.store import Store, TableKind, TableStatus
from arena.tournament.submissions import find_submissions
from arena.tournament.workers import TABLES_DIR, execute, run_lock

FINAL = "final"  # the final table's name in the store, the label its seed is derived with, its deck stage
INPUTS_NOTE = "final_inputs"


@dataclass(frozen=True)
class FinalReport:
    """The final as played (now or before): its places, how many deals, and how the six were chosen."""

    places: list[Place]
    deals: int
    deals_played: int
    choice: FinalistChoice
    played: bool
    """False when the stored result is shown instead of playing."""


def help_dirs(folder: Path | None, teams: list[str]) -> dict[str, Path]:
    """Each finalist's prepared help-file folder ``folder/<TeamId>/``, checked before the final starts.

    Only regular files and folders, no link, within the help-file count, size and depth limits;
    anything else is a ConfigError naming the file (:func:`arena.seats.check_given_help_files`).
    """
    if folder is None:
        return {}
    if not folder.is_dir():
        raise ConfigError(f"help-files folder {folder} does not exist")
    found: dict[str, Path] = {}
    for team in teams:
        team_dir = folder / team
        if team_dir.is_symlink():
            raise ConfigError(f"{team_dir} is a symbolic link; help files must be in a real folder")
        if not team_dir.is_dir():
            continue
        check_given_help_files(team_dir)
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


def final_inputs(help_files: Path | None, programs_dir: Path | None, teams: list[str]) -> dict[str, Any]:
    """What the organiser hands to the final: each finalist's help files and updated program, by hash."""
    helps = {
        team: {
            path.relative_to(folder).as_posix(): sha256_hex(path.read_bytes())
            for path in folder.rglob("*")
            if path.is_file()
        }
        for team, folder in help_dirs(help_files, teams).items()
    }
    programs = {}
    if programs_dir is not None:
        submissions, _ = find_submissions(programs_dir)
        programs = {s.team: s.sha256 for s in submissions if s.team in teams}
    return {"help_files": helps, "programs": programs}


@dataclass(frozen=True)
class FinalOptions:
    """What the organiser chooses for the final (``arena final``'s options)."""

    help_files: Path | None = None
    programs_dir: Path | None = None
    deals: int = 1000
    deck_key: Path | None = None
    allow_disqualified: bool = False
    again: bool = False
    reveal_at_end: bool = False
    scheduler: str | None = None
    certs: Path | None = None
    """The client certificate's folder for a ``tls://`` scheduler (``arena cluster certs``)."""


def run_final(
    run_dir: Path,
    options: FinalOptions,
    *,
    progress: Progress | None = None,
    table_runner: TableRunner | None = None,
) -> FinalReport:
    """Play the final table (or show it when already played and not ``again``); write ``final.json``.

    The finalists are chosen by :func:`choose_finalists`. Its decks come from a key of its own
    (``deck_key`` or a fresh one; from ``derive_seed(S, "final")`` when the tournament had a known seed).
    """
    progress = progress or Quiet()
    require_tournament(run_dir)
    with run_lock(run_dir):
        store = open_finished(run_dir)
        try:
            return _run_final(store, run_dir, options, progress, table_runner)
        finally:
            store.close()


def _run_final(
    store: Store, run_dir: Path, options: FinalOptions, progress: Progress, table_runner: TableRunner | None
) -> FinalReport:
    settings = TournamentSettings(**store.meta())
    choice = choose_finalists(store, allow_disqualified=options.allow_disqualified)
    for skipped in choice.skipped:
        progress.note(skipped.line())
    chosen = list(choice.finalists)
    if len(chosen) < 2:
        raise ConfigError(f"a final table needs at least 2 teams, the policy leaves {len(chosen)}")
    inputs = final_inputs(options.help_files, options.programs_dir, chosen)
    played = next((t for t in store.tables(TableKind.FINAL) if t.status is TableStatus.DONE), None)
    if played is not None and options.again:
        progress.note("--again: the stored final is set aside and the final is played again")
        store.discard_table(FINAL)
        discard_stage(run_dir, FINAL)
        shutil.rmtree(run_dir / TABLES_DIR / FINAL, ignore_errors=True)
        played = None
    if played is not None:
        given = options.help_files is not None or options.programs_dir is not None
        if given and inputs != store.note(INPUTS_NOTE):
            raise ConfigError(
                "the final was already played with other help files or programs; "
                "pass --again to play it again (its stored result is then discarded)"
            )
        progress.note("the final was already played: its stored result follows (--again plays it again)")
    seed = derive_seed(settings.seed, FINAL) if settings.seed is not None else None
    store.add_table(TableKind.FINAL, options.deals, TableJob(FINAL, 0, 0, seed or 0, tuple(chosen)))
    stored = store.tables(TableKind.FINAL)[0]
    if stored.deals != options.deals:
        raise ConfigError(f"the final table was scheduled with {stored.deals} deals, not {options.deals}")
    if stored.teams != tuple(chosen):
        raise ConfigError(
            f"the final table was seated {', '.join(stored.teams)}; the finalists are now "
            f"{', '.join(chosen)} (--again plays it again with them)"
        )
    if stored.status is not TableStatus.DONE:
        _play_final(
            store, run_dir, options, progress, table_runner, settings=settings, seed=seed, inputs=inputs
        )
    final = store.tables(TableKind.FINAL)[0]
    places = final_places(store.results(TableKind.FINAL), store.deal_events(FINAL))
    document = {
        "seed": seed,
        "deals": final.deals,
        "deals_played": final.deals_played,
        "policy": {
            "allow_disqualified": choice.allow_disqualified,
            "skipped": [asdict(s) for s in choice.skipped],
        },
        "tie_rules": TIE_RULES,
        "results": [asdict(p) for p in places],
    }
    write_atomically(run_dir / "final.json", json.dumps(document, indent=2) + "\n")
    standings = format_standings(store, compute_standings(store, duplicate=settings.duplicate))
    write_atomically(run_dir / AWARDS, awards_csv(tournament_awards(store, standings, places=places)))
    played_now = stored.status is not TableStatus.DONE
    return FinalReport(places, final.deals, final.deals_played, choice, played=played_now)


def _play_final(
    store: Store,
    run_dir: Path,
    options: FinalOptions,
    progress: Progress,
    table_runner: TableRunner | None,
    *,
    settings: TournamentSettings,
    seed: int | None,
    inputs: dict[str, Any],
) -> None:
    """Commit the final's decks, seat the finalists with their programs and help files, play it."""
    stored = store.tables(TableKind.FINAL)[0]
    chosen = list(stored.teams)
    decks = open_stage(run_dir, FINAL, key_file=options.deck_key, seed=seed)
    decks.require_unrevealed()
    commit(run_dir, decks, table_decks([stored]))
    progress.note(decks.describe())
    registered = registered_players(store)
    paths = {team: spec.program for team, spec in registered.items()}
    programs = final_programs(options.programs_dir, chosen, paths, progress.note)
    helps = help_dirs(options.help_files, chosen)
    players = tuple(
        PlayerSpec(t, programs[t], helps.get(t), sha256=_hash_of(programs[t], registered[t])) for t in chosen
    )
    store.set_note(INPUTS_NOTE, inputs)
    secret = decks.secret(FINAL)
    config = table_config(settings, stored.seed, options.deals, run_dir=run_dir, secret=secret)
    task = TableTask(FINAL, players, config)
    failures = execute(
        store,
        run_dir,
        [task],
        scheduler=options.scheduler,
        certs=options.certs,
        progress=progress,
        table_runner=table_runner,
        label=FINAL,
    )
    if failures:
        raise ConfigError(f"the final table failed: {failures[0]}")
    if options.reveal_at_end:
        for line in reveal(run_dir, [FINAL]):
            progress.note(line)


def _hash_of(program: Path, registered: PlayerSpec) -> str:
    """The hash the final checks: the registered one, or an updated program's hash as chosen now."""
    if program == registered.program and registered.sha256 is not None:
        return registered.sha256
    return sha256_hex(program.read_bytes())
