"""A run's deck keys: chosen before the first card, committed by hash, revealed at the organiser's word.

A run folder holds one or more *stages* (``tournament`` and ``final``, or ``table``, or ``check``), each
with its own key, so revealing the tournament's key tells nothing of the final's cards.

``RUN_DIR/commitment.json`` (public, written before the first card of a stage)::

    {"scheme": "arena-deck-1", "stages": {"tournament": {
        "committed_at": "...", "key_sha256": "<SHA-256 of the key>",
        "decks": {"table001": "<SHA-256 of the table secret>", ...},
        "tables": {"table001": {"deck": "table001", "events": "tables/table001/events.jsonl"}, ...}}}}

``RUN_DIR/reveal.json`` and ``RUN_DIR/deck-key.txt`` (written by ``arena reveal`` or at the end of a
stage with ``--reveal-at-end``) publish the keys. A stage played from a known seed (``--seed``) records
``"seed"`` instead of a key hash and has nothing to reveal.
"""

from __future__ import annotations

import datetime
import json
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from arena.atomic import write_atomically
from arena.decks.derive import sha256_hex, table_secret
from arena.decks.keys import forget_secret, keep_secret, kept_secret, new_key, parse_key, read_key_file
from arena.errors import ConfigError
from arena.runfolder.layout import COMMITMENT, EVENTS, REVEAL, REVEALED_KEYS

SCHEME = "arena-deck-1"
DERIVATION = (
    "table secret = HMAC-SHA256(key, 'arena/table/' + deck); deal key = HMAC-SHA256(table secret, "
    "'deal/' + N); deck = Fisher-Yates from the bytes of HMAC-SHA256(deal key, counter) (docs/tournament.md)"
)
SEED_WARNING = "a known seed means known cards: for tests and demos only"


@dataclass(frozen=True)
class TableDeck:
    """A table of a stage: the deck it draws from, where its deals are recorded (relative path), and the
    seed its cards come from when the stage has a known seed instead of a key."""

    name: str
    deck: str
    events: str
    seed: int | None = None
    game: str | None = None
    """The game whose record ``events`` is (``headsup``, ``twocard``); None for Code'em's deals."""


@dataclass(frozen=True)
class StageDecks:
    """Where a stage's cards come from: its secret key, or a known seed."""

    stage: str
    key: bytes | None = field(repr=False)
    seed: int | None = None
    revealed: bool = False
    """The key is public (``reveal.json``): the stage's recorded deals stand, no more may be dealt."""

    def require_unrevealed(self) -> None:
        """One clear error when cards would be dealt with a key that is already public."""
        if self.revealed:
            raise ConfigError(
                f"the {self.stage}'s deck key is revealed ({REVEAL}); no more cards are dealt with it"
            )

    def secret(self, deck: str) -> bytes | None:
        """The table secret of ``deck`` (None for a seeded stage)."""
        return table_secret(self.key, deck) if self.key is not None else None

    @property
    def schedule_seed(self) -> int:
        """The seed of the seating order: the known seed, or one drawn from the key."""
        if self.key is None:
            return self.seed or 0
        return int.from_bytes(table_secret(self.key, "schedule")[:8], "big")

    def describe(self) -> str:
        """One line for the terminal: the commitment, or the warning that goes with a known seed."""
        if self.key is None:
            return f"warning: --seed {self.seed}: {SEED_WARNING} (anyone who knows the seed knows every card)"
        return f"deck key ({self.stage}): secret; committed as SHA-256 {sha256_hex(self.key)} in {COMMITMENT}"


def now() -> str:
    """The time, UTC, to the second."""
    return datetime.datetime.now(datetime.UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


def read_json(path: Path) -> dict[str, Any]:
    """A JSON object from ``path`` (empty when missing; one clear error when unreadable)."""
    if not path.is_file():
        return {}
    try:
        document = json.loads(path.read_text())
    except (OSError, ValueError) as error:
        raise ConfigError(f"{path}: not readable JSON ({error})") from None
    if not isinstance(document, dict):
        raise ConfigError(f"{path}: expected a JSON object")
    return document


def _write_json(path: Path, document: dict[str, Any]) -> None:
    write_atomically(path, json.dumps(document, indent=2) + "\n")


def revealed_keys(run_dir: Path) -> dict[str, bytes]:
    """The keys ``reveal.json`` publishes, by stage."""
    stages = read_json(run_dir / REVEAL).get("stages", {})
    return {stage: parse_key(entry["key"], source=str(run_dir / REVEAL)) for stage, entry in stages.items()}


def open_stage(run_dir: Path, stage: str, *, key_file: Path | None, seed: int | None) -> StageDecks:
    """The decks of ``stage`` for a run (a resumed run gets its stored key back).

    A seed (tests, demos) excludes a key. Otherwise the organiser's key, or the stored one on a resumed
    run, or a fresh one from the operating system; it is stored for resuming and revealing. A key already
    revealed is marked so: whoever would deal with it calls :meth:`StageDecks.require_unrevealed`.
    """
    committed = read_json(run_dir / COMMITMENT).get("stages", {}).get(stage, {})
    if seed is not None:
        if key_file is not None:
            raise ConfigError("--seed and --deck-key exclude each other: a known seed or a secret key")
        if "key_sha256" in committed:
            raise ConfigError(f"{run_dir}: the {stage}'s decks come from a secret key, not --seed")
        return StageDecks(stage, None, seed)
    if "seed" in committed:
        raise ConfigError(f"{run_dir}: the {stage} was played with --seed {committed['seed']}; give it again")
    given = read_key_file(key_file) if key_file is not None else None
    kept = kept_secret(run_dir, stage)
    if kept is not None and given is not None and kept != given:
        raise ConfigError(f"--deck-key {key_file}: not the key this run's {stage} was committed with")
    if kept is None and "key_sha256" in committed and given is None:
        raise ConfigError(
            f"{run_dir}: the {stage}'s key is missing from {run_dir / 'deck-keys'}; give it with --deck-key"
        )
    key = kept or given or new_key()
    if "key_sha256" in committed and committed["key_sha256"] != sha256_hex(key):
        raise ConfigError(f"--deck-key {key_file}: not the key this run's {stage} was committed with")
    revealed = sha256_hex(key) in {sha256_hex(k) for k in revealed_keys(run_dir).values()}
    if kept is None:
        keep_secret(run_dir, stage, key)
    return StageDecks(stage, key, None, revealed=revealed)


def commit(run_dir: Path, decks: StageDecks, tables: Sequence[TableDeck]) -> None:
    """Write the stage's commitment (before its first card); a resumed stage keeps its first one."""
    path = run_dir / COMMITMENT
    document = read_json(path) or {"scheme": SCHEME, "derivation": DERIVATION, "stages": {}}
    entry = document["stages"].get(decks.stage)
    if entry is None:
        entry = {"committed_at": now()}
        if decks.key is not None:
            entry["key_sha256"] = sha256_hex(decks.key)
        else:
            entry.update(seed=decks.seed, warning=SEED_WARNING)
        entry.update(decks={}, tables={})
        document["stages"][decks.stage] = entry
    for table in tables:
        secret = decks.secret(table.deck)
        if secret is not None:
            entry["decks"].setdefault(table.deck, sha256_hex(secret))
        record: dict[str, Any] = {"deck": table.deck, "events": table.events}
        if table.game is not None:
            record["game"] = table.game
        if decks.key is None:
            record["seed"] = table.seed if table.seed is not None else decks.seed
        entry["tables"].setdefault(table.name, record)
    run_dir.mkdir(parents=True, exist_ok=True)
    _write_json(path, document)


def start_single_table(
    run_dir: Path, stage: str, *, key_file: Path | None, seed: int | None, tables: Sequence[str] = ("",)
) -> StageDecks:
    """The committed decks of a run whose tables all deal the stage's one deck (``arena table``, ``arena
    check``) in ``run_dir``.

    Each run deals anew: an earlier run's commitment in the folder is set aside and a fresh key is drawn
    (unless the organiser gives one). ``tables`` are the tables' folders in ``run_dir``: ``""`` is one
    table named after the stage recording ``events.jsonl``; a folder ``seat1`` is a table of that name
    recording ``seat1/events.jsonl``. With none, the tables are committed later (:func:`commit_tables`).
    """
    return start_stage(run_dir, stage, key_file=key_file, seed=seed, tables=_one_deck(stage, tables))


def start_stage(
    run_dir: Path | None, stage: str, *, key_file: Path | None, seed: int | None, tables: Sequence[TableDeck]
) -> StageDecks:
    """The committed decks of a run of ``tables`` in ``run_dir``, dealt anew (as :func:`start_single_table`).

    Without a run folder nothing is recorded, so nothing is committed: the key (the organiser's, or a
    fresh one) lives in memory only and dies with the run.
    """
    if run_dir is None:
        if seed is not None and key_file is not None:
            raise ConfigError("--seed and --deck-key exclude each other: a known seed or a secret key")
        key = None if seed is not None else read_key_file(key_file) if key_file is not None else new_key()
        return StageDecks(stage, key, seed)
    discard_stage(run_dir, stage)
    decks = open_stage(run_dir, stage, key_file=key_file, seed=seed)
    decks.require_unrevealed()
    commit(run_dir, decks, tables)
    return decks


def _one_deck(stage: str, folders: Sequence[str]) -> list[TableDeck]:
    return [TableDeck(folder or stage, stage, f"{folder}/{EVENTS}".lstrip("/")) for folder in folders]


def commit_tables(run_dir: Path, decks: StageDecks, folders: Sequence[str]) -> None:
    """Commit tables dealing the stage's deck, one per folder (see :func:`start_single_table`)."""
    commit(run_dir, decks, _one_deck(decks.stage, folders))


def discard_stage(run_dir: Path, stage: str) -> None:
    """Set a stage's commitment and reveal aside (under ``discarded``), forget its key: it is played anew."""
    for path in (run_dir / COMMITMENT, run_dir / REVEAL):
        document = read_json(path)
        entry = document.get("stages", {}).pop(stage, None)
        if entry is not None:
            document.setdefault("discarded", []).append({"stage": stage, "discarded_at": now(), **entry})
            _write_json(path, document)
    forget_secret(run_dir, stage)


def reveal(run_dir: Path, stages: Sequence[str] | None = None) -> list[str]:
    """Publish the stored keys of ``stages`` (all keyed stages when None); one line each to show."""
    committed = read_json(run_dir / COMMITMENT).get("stages", {})
    if not committed:
        raise ConfigError(f"{run_dir}: no {COMMITMENT}; nothing to reveal")
    unknown = sorted(set(stages or ()) - set(committed))
    if unknown:
        raise ConfigError(
            f"--stage {unknown[0]}: {run_dir} has no such stage (it has {', '.join(committed)})"
        )
    wanted = [s for s in committed if "key_sha256" in committed[s] and (stages is None or s in stages)]
    document = read_json(run_dir / REVEAL) or {"stages": {}}
    shown = []
    for stage in wanted:
        key = kept_secret(run_dir, stage)
        if key is None:
            raise ConfigError(f"{run_dir}: the {stage}'s key is not stored in {run_dir / 'deck-keys'}")
        if sha256_hex(key) != committed[stage]["key_sha256"]:
            raise ConfigError(f"{run_dir}: the stored {stage} key does not match its commitment")
        document["stages"].setdefault(
            stage, {"key": key.hex(), "key_sha256": sha256_hex(key), "revealed_at": now()}
        )
        shown.append(
            f"deck key ({stage}) revealed in {REVEAL} and {REVEALED_KEYS}: its SHA-256 {sha256_hex(key)} "
            "is the committed one"
        )
    if not wanted:
        raise ConfigError(f"{run_dir}: no secret key to reveal (its decks came from a known seed)")
    _write_json(run_dir / REVEAL, document)
    lines = "".join(f"{stage} {entry['key']}\n" for stage, entry in document["stages"].items())
    write_atomically(run_dir / REVEALED_KEYS, lines)
    return shown
