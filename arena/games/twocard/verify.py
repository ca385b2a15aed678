"""``arena verify`` for a TwoCardDraw test case: every hand of its ``hands.jsonl`` against the key.

Each hand is played again through the rules (:func:`arena.engines.twocard.hand.play_hand`) from its
generator, with the test case's server strategy (``strategy.txt`` beside the log) and the player's
answers read back from the record; the replayed hand must be the recorded one, field by field: the cards
dealt and drawn, both rounds' actions (the server's drawn from the key), the server's draw, the profit.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from arena.decks.derive import StreamSeeds
from arena.engines.twocard.hand import ACTION_LETTERS, IllegalAnswer, play_hand
from arena.engines.twocard.strategy import Strategy, parse_strategy
from arena.errors import ArenaError
from arena.games.twocard.judge import hand_rng
from arena.untrusted import capped

FIELDS = {
    "you": "you hold",
    "server": "the server holds",
    "round1": "round 1 is",
    "you_drew": "you drew",
    "server_drew": "the server drew",
    "you_after": "you hold after the draw",
    "server_after": "the server holds after the draw",
    "round2": "round 2 is",
    "showdown": "the showdown is",
    "profit": "the profit is",
}


class _Unreadable(Exception):
    """The record is not one arena wrote."""


def _answers(record: dict[str, Any]) -> dict[str, Iterator[int]]:
    """The player's answers in the record, per method, in order (a round's letters alternate, the
    server first after the opening)."""

    def responses(letters: str) -> list[int]:
        return [ACTION_LETTERS.index(letter) for letter in letters.split()[2::2]]

    round1 = str(record["round1"])
    round2 = str(record["round2"])
    opening2 = [2 if round2.split()[0] == "b" else 1] if round2 else []
    return {
        "new_hand": iter([1 if round1.split()[0] == "b" else 0]),
        "round1": iter(responses(round1)),
        "draw": iter([int(record["you_drew"])]),
        "round2": iter(opening2 + (responses(round2) if round2 else [])),
        "showdown": iter([0]),
    }


def hand_mismatch(seeds: StreamSeeds, case: int, strategy: Strategy, record: dict[str, Any]) -> str | None:
    """How one recorded hand differs from its replay from the key (None when they agree)."""
    answers = _answers(record)

    def ask(method: str, args: tuple[int, ...]) -> int:
        answer = next(answers[method], None)
        if answer is None:
            raise _Unreadable(method)
        return answer

    number = int(record["hand"])
    replayed = play_hand(number, strategy, 0, hand_rng(seeds, case, number), ask).to_dict()
    for name, label in FIELDS.items():
        if record[name] != replayed[name]:
            recorded = capped(json.dumps(record[name]))
            return f"{label} {recorded} in the record, the key gives {json.dumps(replayed[name])}"
    return None


def _case_number(name: str) -> int | None:
    prefix, _, number = name.partition("_")
    return int(number) if prefix == "case" and number.isdigit() and len(number) < 9 else None


def verify_cases(seeds: StreamSeeds, path: Path, source: str) -> tuple[int, str | None]:
    """Hands in a test case's record and the first problem found (None when every hand agrees)."""
    strategy_file = path.parent / "strategy.txt"
    try:
        strategy = parse_strategy(strategy_file.read_text(), str(strategy_file))
    except (OSError, ArenaError, UnicodeDecodeError):
        return 0, f"{Path(source).parent / 'strategy.txt'} is missing or unreadable"
    case = _case_number(path.parent.name)
    if case is None:
        return 0, f"{source} is not in a test case's folder (case_N)"
    count = 0
    with path.open(errors="replace") as lines:
        for count, line in enumerate(lines, 1):
            try:
                record = json.loads(line)
                problem = hand_mismatch(seeds, case, strategy, record)
            except (_Unreadable, IllegalAnswer, ValueError, KeyError, TypeError, IndexError, AttributeError):
                return count, f"line {count} ({source}): not a hand record arena wrote"
            if problem is not None:
                return count, f"hand {int(record['hand'])} ({source}): {problem}"
    return count, None
