"""``arena verify``: every recorded deal of a run against the decks its revealed key (or seed) deals.

For each stage of ``commitment.json``: the revealed key must hash to the committed key hash, each table
secret to its committed hash, and every deal recorded for a table (its ``events.jsonl``, and any other
record the caller adds, such as the tournament's database) must hold exactly the cards the deck deals:
the deck is put through the engine (everyone calls to the end, so the whole board comes out) and each
recorded hole card, board card and shown hand is compared with it. A table of another game (heads-up,
TwoCardDraw: its ``game`` in the commitment) is checked by that game's own check, given the table's seeds.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from arena.cards import cards_text
from arena.decks.commitment import read_json, revealed_keys
from arena.decks.derive import Decks, KeyedDecks, SeededDecks, StreamSeeds, sha256_hex, table_secret
from arena.engines.nlhe.actions import CheckCall
from arena.engines.nlhe.deal import Deal
from arena.engines.nlhe.events import DealStarted, HandShown, HoleCardsDealt, StreetStarted, event_from_dict
from arena.engines.nlhe.rules import TableRules
from arena.errors import ConfigError
from arena.runfolder.layout import COMMITMENT
from arena.runfolder.reader import deal_lines

RecordedDeals = Iterable[tuple[int, list[dict[str, Any]]]]
OtherRecords = Callable[[str, str], Iterable[tuple[str, RecordedDeals]]]
GameCheck = Callable[[StreamSeeds, Path, str], tuple[int, str | None]]
"""Checks a game's record (path, and its name to show) against its seeds: (deals, first problem or None)."""


@dataclass(frozen=True)
class TableVerdict:
    """What ``arena verify`` found for one table."""

    stage: str
    table: str
    deals: int
    problem: str | None

    @property
    def ok(self) -> bool:
        """Whether every check passed."""
        return self.problem is None

    def line(self) -> str:
        """The table's line of the report."""
        if self.problem is not None:
            return f"FAIL {self.stage} {self.table}: {self.problem}"
        return f"ok   {self.stage} {self.table}: {self.deals} deal(s) hold the cards of the committed deck"


def _recorded(cards: tuple[int, ...]) -> str:
    """Cards as the record holds them: a number that is no card (a damaged file) is shown as such."""
    return " ".join(
        cards_text((c,)) if isinstance(c, int) and 0 <= c < 52 else f"(no card: {c!r})" for c in cards
    )


def deal_mismatch(deck: list[int], events: list[dict[str, Any]]) -> str | None:
    """How the recorded cards of one deal differ from what ``deck`` deals (None when they agree)."""
    recorded = [event_from_dict(e) for e in events]
    start = recorded[0]
    if not isinstance(start, DealStarted):
        return "the record does not begin with the deal's start"
    deal = Deal(
        rules=TableRules(seats=len(start.stacks)),
        deal_number=start.deal,
        dealer=start.dealer,
        stacks=start.stacks,
        deck=deck,
    )
    while not deal.is_over:
        deal.apply(CheckCall())
    holes = {e.seat: e.cards for e in deal.events if isinstance(e, HoleCardsDealt)}
    boards = {e.street: e.board for e in deal.events if isinstance(e, StreetStarted)}
    for event in recorded:
        if isinstance(event, HoleCardsDealt | HandShown) and holes.get(event.seat) != event.cards:
            dealt = cards_text(holes[event.seat]) if event.seat in holes else "nothing"
            return f"seat {event.seat} holds {_recorded(event.cards)} in the record, the deck deals {dealt}"
        if isinstance(event, StreetStarted) and boards.get(event.street) != event.board:
            return (
                f"the {event.street.value} board is {_recorded(event.board) or 'empty'} in the record, "
                f"the deck deals {cards_text(boards.get(event.street, ()))}"
            )
    return None


def _events_file(path: Path) -> Iterator[tuple[int, list[dict[str, Any]]]]:
    for line in deal_lines(path):
        yield line.deal, line.records


def _check_table(decks: Decks, sources: Iterable[tuple[str, RecordedDeals]]) -> tuple[int, str | None]:
    """Deals in the table's first record and the first problem found in any of its records."""
    counts = []
    for source, deals in sources:
        counts.append(0)
        for number, events in deals:
            counts[-1] += 1
            problem = deal_mismatch(decks.deck(number), events)
            if problem is not None:
                return counts[0], f"deal {number} ({source}): {problem}"
    return (counts[0] if counts else 0), None


def verify_run(
    run_dir: Path, *, other_records: OtherRecords | None = None, games: Mapping[str, GameCheck] | None = None
) -> list[TableVerdict]:
    """One verdict per committed table of every stage of the run; a table of another game than Code'em
    (its ``game`` in the commitment) is checked by ``games[game]``."""
    stages = read_json(run_dir / COMMITMENT).get("stages", {})
    if not stages:
        raise ConfigError(f"{run_dir}: no {COMMITMENT}; nothing to verify")
    keys = revealed_keys(run_dir)
    verdicts = []
    for stage, entry in stages.items():
        key = keys.get(stage)
        for name, table in entry["tables"].items():
            verdicts.append(
                _verify_table(run_dir, stage, entry, name, table, key, other_records, games or {})
            )
    return verdicts


def _verify_table(
    run_dir: Path,
    stage: str,
    entry: dict[str, Any],
    name: str,
    table: dict[str, Any],
    key: bytes | None,
    other_records: OtherRecords | None,
    games: Mapping[str, GameCheck],
) -> TableVerdict:
    seed, secret = None, None
    if "seed" in entry:
        seed = int(table.get("seed", entry["seed"]))
    elif key is None:
        return TableVerdict(stage, name, 0, "the key is not revealed yet ('arena reveal RUN_DIR')")
    elif sha256_hex(key) != entry["key_sha256"]:
        return TableVerdict(stage, name, 0, "the revealed key does not hash to the committed key hash")
    else:
        secret = table_secret(key, table["deck"])
        if sha256_hex(secret) != entry["decks"].get(table["deck"]):
            differs = f"the secret of deck {table['deck']} differs from its commitment"
            return TableVerdict(stage, name, 0, differs)
    events = run_dir / table["events"]
    if not events.is_file():
        return TableVerdict(stage, name, 0, f"{table['events']} is missing (the table was not played?)")
    game = table.get("game")
    if game is not None:
        check = games.get(game)
        if check is None:
            return TableVerdict(stage, name, 0, f"a {game} record, which this verify cannot check")
        return TableVerdict(stage, name, *check(StreamSeeds(seed or 0, secret), events, table["events"]))
    decks: Decks = KeyedDecks(secret) if secret is not None else SeededDecks(seed or 0)
    sources: list[tuple[str, RecordedDeals]] = [(table["events"], _events_file(events))]
    if other_records is not None:
        sources.extend(other_records(stage, name))
    count, problem = _check_table(decks, sources)
    return TableVerdict(stage, name, count, problem)
