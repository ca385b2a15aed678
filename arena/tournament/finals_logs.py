"""Code'em's finals log folders, regenerated from the store's events.

``OUT/<finalist>/<opponent>/<table>/number.txt`` holds the opponent's seat at that table and
``deal1.txt ... dealN.txt`` its deals in the exact ``deal.txt`` format; ``OUT/<finalist>/<opponent>/``
also holds ``stats.txt`` and ``stats.json`` (the opponent over all its tables) and ``final_number.txt``
(its seat at the final table). Everything is a pure rendering of stored events: regenerating gives
identical bytes.
"""

from __future__ import annotations

import shutil
from collections.abc import Sequence
from pathlib import Path

from arena.engines.nlhe.events import Event, event_from_dict
from arena.errors import ConfigError
from arena.games.codem.deal_file import render_deal_file
from arena.games.codem.stats import compute_stats, stats_json, stats_text
from arena.runfolder.layout import DB_NAME
from arena.tournament.finalists import FinalistChoice, choose_finalists
from arena.tournament.store import Store, TableKind, TableRow, TableStatus


def require_tournament(run_dir: Path) -> None:
    """A one-line error unless RUN_DIR holds a tournament's database."""
    if not (run_dir / DB_NAME).is_file():
        raise ConfigError(f"{run_dir} holds no tournament ({DB_NAME} not found)")


def open_finished(run_dir: Path) -> Store:
    """The store of a tournament whose tables are all played (else a one-line error)."""
    require_tournament(run_dir)
    store = Store(run_dir)
    unfinished = [t.name for t in store.tables(TableKind.ROUND) if t.status is not TableStatus.DONE]
    if unfinished:
        store.close()
        raise ConfigError(
            f"{len(unfinished)} table(s) of the tournament are not played yet (first: {unfinished[0]}); "
            "run the same 'arena tournament' command again to finish it"
        )
    return store


def _render_table(store: Store, table: TableRow) -> tuple[list[str], list[list[Event]]]:
    texts: list[str] = []
    events: list[list[Event]] = []
    for _deal, dicts in store.deal_events(table.name):
        deal_events = [event_from_dict(d) for d in dicts]
        texts.append(render_deal_file(deal_events, seats=len(table.teams)))
        events.append(deal_events)
    return texts, events


def write_finals_logs(run_dir: Path, out_dir: Path, *, allow_disqualified: bool = False) -> FinalistChoice:
    """Write the folders for every finalist (chosen as ``arena final`` chooses them); return the choice."""
    store = open_finished(run_dir)
    try:
        choice = choose_finalists(store, allow_disqualified=allow_disqualified)
        chosen = list(choice.finalists)
        tables = [t for t in store.tables(TableKind.ROUND) if t.status is TableStatus.DONE]
        out_dir.mkdir(parents=True, exist_ok=True)
        for finalist in chosen:
            shutil.rmtree(out_dir / finalist, ignore_errors=True)
        for opponent in chosen:
            _write_opponent(store, out_dir, opponent, [f for f in chosen if f != opponent], tables, chosen)
    finally:
        store.close()
    return choice


def _write_opponent(
    store: Store,
    out_dir: Path,
    opponent: str,
    viewers: Sequence[str],
    tables: Sequence[TableRow],
    chosen: Sequence[str],
) -> None:
    """Render one opponent's tables once and write them into every other finalist's folder."""
    sample: list[tuple[Sequence[Event], int]] = []
    played = [t for t in tables if opponent in t.teams]
    for table in played:
        seat = table.teams.index(opponent) + 1
        texts, events = _render_table(store, table)
        sample.extend((deal_events, seat) for deal_events in events)
        for viewer in viewers:
            folder = out_dir / viewer / opponent / table.name
            folder.mkdir(parents=True)
            (folder / "number.txt").write_text(f"{seat}\n")
            for number, text in enumerate(texts, start=1):
                (folder / f"deal{number}.txt").write_text(text)
    stats = compute_stats(sample)
    for viewer in viewers:
        folder = out_dir / viewer / opponent
        folder.mkdir(parents=True, exist_ok=True)
        (folder / "stats.txt").write_text(stats_text(opponent, stats, tables=len(played)))
        (folder / "stats.json").write_text(stats_json(opponent, stats, tables=len(played)))
        (folder / "final_number.txt").write_text(f"{chosen.index(opponent) + 1}\n")
