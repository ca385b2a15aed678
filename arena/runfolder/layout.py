"""Where everything in a run folder is: the one place that names its folders and files.

A tournament's run folder (``arena tournament --out RUN_DIR``)::

    RUN_DIR/tournament.sqlite        the store (teams, schedule, every table's deals, faults, results)
    RUN_DIR/commitment.json          the deck commitment, public before the first card (``reveal.json`` after)
    RUN_DIR/results.json             settings and standings once the tournament is over
    RUN_DIR/standings.csv            the standings, one line per team
    RUN_DIR/stats.csv                each team's playing statistics
    RUN_DIR/submissions.csv          the programs found and skipped
    RUN_DIR/final.json               the final table's result, once played
    RUN_DIR/awards.csv               the certificates earned
    RUN_DIR/tournament.lock          held (flock) by the arena playing in the folder
    RUN_DIR/deck-keys/<stage>.key    the deck keys, kept until revealed
    RUN_DIR/builds/                  the build cache (each program built once)
    RUN_DIR/reports/<TeamId>.md      each team's report
    RUN_DIR/tables/<table>/          one table folder per table (below)

A table folder (one table of a tournament, or ``arena table --out DIR`` itself), written by
``arena/games/codem/output.py`` as the table plays::

    teams/<team>/       each team's folder as it ended (program source, help files; not what its build made)
    deals/deal<N>.txt   the final ``deal.txt`` of every deal
    events.jsonl        one line per deal: ``{"deal": N, "events": [...]}`` (read by ``reader.py``)
    times.jsonl         one line per deal: when it started and ended, UTC (``{"deal": N, "started": ...}``);
                        kept apart so ``events.jsonl`` stays the same for the same cards and answers
    faults.jsonl        one line per fault, with the three input files, stdout and stderr of its run
    kept/<team>/deal<N>-decision<K>/  the help files a faulted run started from (``arena replay``)
    seats.json          the teams in seat order, written before the first deal
    results.json        per team: seat, final stack, profit, faults, timing; the seed and versions

A heads-up match's folder holds ``hands.jsonl`` and ``results.json``.
"""

from __future__ import annotations

from pathlib import Path

TABLES_DIR = "tables"
DB_NAME = "tournament.sqlite"
COMMITMENT = "commitment.json"
REVEAL = "reveal.json"
REVEALED_KEYS = "deck-key.txt"
BUILDS_DIR = "builds"
REPORTS_DIR = "reports"
STANDINGS_CSV = "standings.csv"
STATS_CSV = "stats.csv"
SUBMISSIONS_CSV = "submissions.csv"
FINAL_JSON = "final.json"
AWARDS = "awards.csv"
LOCK_NAME = "tournament.lock"
KEYS_DIR = "deck-keys"

EVENTS = "events.jsonl"
TIMES = "times.jsonl"
FAULTS = "faults.jsonl"
SEATS = "seats.json"
RESULTS = "results.json"
DEALS_DIR = "deals"
TEAMS_DIR = "teams"
KEPT_DIR = "kept"
HANDS = "hands.jsonl"


def tables_dir(run_dir: Path) -> Path:
    """``RUN_DIR/tables``: where a tournament's table folders are."""
    return run_dir / TABLES_DIR


def table_dir(run_dir: Path, table: str) -> Path:
    """``RUN_DIR/tables/<table>``: one table's folder."""
    return run_dir / TABLES_DIR / table


def events_path(folder: Path) -> Path:
    """A table folder's ``events.jsonl``."""
    return folder / EVENTS


def faults_path(folder: Path) -> Path:
    """A table folder's ``faults.jsonl``."""
    return folder / FAULTS


def times_path(folder: Path) -> Path:
    """A table folder's ``times.jsonl``."""
    return folder / TIMES


def results_path(folder: Path) -> Path:
    """A table's (or a run's) ``results.json``."""
    return folder / RESULTS


def team_dir(folder: Path, team: str) -> Path:
    """``teams/<team>`` in a table folder: the team's folder as it ended."""
    return folder / TEAMS_DIR / team


def deal_file(folder: Path, deal: int) -> Path:
    """``deals/deal<N>.txt`` in a table folder."""
    return folder / DEALS_DIR / f"deal{deal}.txt"


def events_record(table: str) -> str:
    """A tournament table's ``events.jsonl`` relative to the run folder (as the commitment names it)."""
    return f"{TABLES_DIR}/{table}/{EVENTS}"


def report_path(run_dir: Path, team: str) -> Path:
    """``RUN_DIR/reports/<team>.md``."""
    return run_dir / REPORTS_DIR / f"{team}.md"


def is_table_folder(folder: Path) -> bool:
    """Whether ``folder`` holds a recorded table (its ``events.jsonl``)."""
    return (folder / EVENTS).is_file()


def played_tables(run_dir: Path) -> list[tuple[str, Path]]:
    """``(name, folder)`` of every recorded table of a run, in name order: a single table's folder is
    itself; a tournament's are under ``tables/`` (hidden folders, a table being installed, left out)."""
    if is_table_folder(run_dir):
        return [(run_dir.name, run_dir)]
    tables = tables_dir(run_dir)
    if not tables.is_dir():
        return []
    return [
        (folder.name, folder)
        for folder in sorted(tables.iterdir())
        if not folder.name.startswith(".") and is_table_folder(folder)
    ]
