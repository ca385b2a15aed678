"""The per-hand log (``hands.jsonl``, one JSON object a line) and ``results.json`` of a match."""

from __future__ import annotations

import json
from pathlib import Path
from typing import IO, Any

from arena.cards import cards_text
from arena.engines.headsup import AliceActed, BobActed, HandEnded, ShowedDown
from arena.games.headsup.judge import HandRecord


def hand_to_dict(record: HandRecord) -> dict[str, Any]:
    """A hand as a student reads it: cards, each round's actions with Bob's estimate, the result."""
    deal = record.deal
    rounds: list[dict[str, Any]] = []
    showdown: dict[str, Any] | None = None
    for event in record.events:
        if isinstance(event, AliceActed):
            amount = f" {event.amount}" if event.amount else ""
            rounds.append({"round": event.round, "alice": f"{event.move.value}{amount}"})
        elif isinstance(event, BobActed):
            amount = f" {event.amount}" if event.amount else ""
            rounds[-1]["bob"] = f"{event.move.value}{amount}"
            if event.estimate is not None:
                est = event.estimate
                rounds[-1]["bob_estimate"] = {
                    "wins": est.wins,
                    "ties": est.ties,
                    "losses": est.losses,
                    "ev_call": est.ev_call,
                    "ev_fold": est.ev_fold,
                }
        elif isinstance(event, ShowedDown):
            showdown = {"alice": event.alice_strength, "bob": event.bob_strength, "outcome": event.outcome}
        elif isinstance(event, HandEnded):
            pass
    return {
        "hand": record.hand,
        "alice": cards_text(deal.alice),
        "bob": cards_text(deal.bob),
        "board": cards_text(deal.board),
        "rounds": rounds,
        "showdown": showdown,
        "rate_queries": record.rate_queries,
        "rate_rollouts": record.rate_samples,
        "delta": record.delta,
    }


class HandLog:
    """Appends one line per hand to ``hands.jsonl`` in the output folder."""

    def __init__(self, path: Path) -> None:
        path.parent.mkdir(parents=True, exist_ok=True)
        self.path = path
        self._file: IO[str] = path.open("w", encoding="utf-8")

    def write(self, record: HandRecord) -> None:
        """Record one finished hand."""
        self._file.write(json.dumps(hand_to_dict(record), separators=(",", ":")) + "\n")

    def close(self) -> None:
        """Flush and close the file."""
        self._file.close()


def write_results(path: Path, results: dict[str, Any]) -> None:
    """Write ``results.json`` (indented, keys in insertion order)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(results, indent=2) + "\n", encoding="utf-8")
