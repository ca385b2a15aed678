"""Export a run folder's hands in one format: one file per table (per team for PokerStars)."""

from __future__ import annotations

from enum import StrEnum, unique
from pathlib import Path

from arena.errors import ConfigError
from arena.exports.acpc import render_acpc, render_headsup_acpc
from arena.exports.logs import TableLog, is_headsup_run, read_headsup, read_table, table_folders
from arena.exports.phh import render_headsup_phh, render_phh
from arena.exports.pokerstars import render_pokerstars
from arena.runfolder.layout import events_record


@unique
class ExportFormat(StrEnum):
    """The hand-history formats ``arena export`` writes."""

    PHH = "phh"
    POKERSTARS = "pokerstars"
    ACPC = "acpc"


_SUFFIX = {ExportFormat.PHH: ".phhs", ExportFormat.POKERSTARS: ".txt", ExportFormat.ACPC: ".log"}


def _file_part(name: str, what: str) -> str:
    """``name`` as part of a file name; a name that could leave the out folder is refused."""
    if not name or name.startswith(".") or "/" in name or "\0" in name:
        raise ConfigError(f"{what} {name!r} cannot name a file")
    return name


def _table_files(log: TableLog, fmt: ExportFormat, team: str | None) -> dict[str, str]:
    """File name -> text of one table in ``fmt`` (``team``: that team's view only)."""
    table = _file_part(log.name, "table")
    suffix = _SUFFIX[fmt]
    if fmt is ExportFormat.POKERSTARS:
        teams = [team] if team is not None else list(log.teams)
        return {f"{table}.{_file_part(t, 'team')}{suffix}": render_pokerstars(log, team=t) for t in teams}
    name = table if team is None else f"{table}.{_file_part(team, 'team')}"
    render = render_phh if fmt is ExportFormat.PHH else render_acpc
    return {f"{name}{suffix}": render(log, team=team)}


def _match_files(run_dir: Path, fmt: ExportFormat) -> dict[str, str]:
    """File name -> text of a heads-up match in ``fmt``."""
    if fmt is ExportFormat.POKERSTARS:
        raise ConfigError(f"{run_dir} is a heads-up match against Bob: export it as phh or acpc")
    match = read_headsup(run_dir)
    render = render_headsup_phh if fmt is ExportFormat.PHH else render_headsup_acpc
    return {f"{_file_part(match.name, 'match')}{_SUFFIX[fmt]}": render(match)}


def _run_files(run_dir: Path, fmt: ExportFormat, table: str | None, team: str | None) -> dict[str, str]:
    """File name -> text of every chosen table of a run in ``fmt``."""
    folders = table_folders(run_dir)
    if not folders:
        raise ConfigError(f"{run_dir} holds no recorded table ({events_record('<name>')}) or match")
    chosen = [(name, folder) for name, folder in folders if table in (None, name)]
    if not chosen:
        raise ConfigError(f"{run_dir} has no table {table!r} (it has {', '.join(n for n, _ in folders)})")
    files: dict[str, str] = {}
    for name, folder in chosen:
        log = read_table(folder, name)
        if team is None or team in log.teams:
            files.update(_table_files(log, fmt, team))
    if not files:
        raise ConfigError(f"team {team!r} sat at none of the tables exported from {run_dir}")
    return files


def export_run(
    run_dir: Path, fmt: ExportFormat, out_dir: Path, *, table: str | None = None, team: str | None = None
) -> list[Path]:
    """Write RUN_DIR's hands in ``fmt`` into ``out_dir``; return the files written, in order."""
    if not run_dir.is_dir():
        raise ConfigError(f"run folder {run_dir} does not exist")
    if is_headsup_run(run_dir):
        if table is not None or team is not None:
            raise ConfigError(f"{run_dir} is a heads-up match: --table and --team do not apply")
        files = _match_files(run_dir, fmt)
    else:
        files = _run_files(run_dir, fmt, table, team)
    out_dir.mkdir(parents=True, exist_ok=True)
    written = []
    for name, text in files.items():
        path = out_dir / name
        path.write_text(text, encoding="utf-8")
        written.append(path)
    return written
