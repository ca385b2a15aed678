"""``arena verify`` for a heads-up match: every hand of ``hands.jsonl`` against its committed key.

Each hand's nine cards are dealt again from the match's deck stream and compared with the record
(Alice's, Bob's, the board); each of Bob's recorded rollout counts is drawn again from his generator for
the hand, in order, over the board he saw, and compared with the record.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from arena.cards import cards_text, parse_cards
from arena.decks.derive import StreamSeeds
from arena.engines.headsup import BOARD_SHOWN, BobPolicy, HandCards
from arena.evaluator.rollouts import rollout_outcomes
from arena.games.headsup.streams import DeckStream, bob_stream


def _cards_differ(who: str, recorded: str, dealt: Sequence[int]) -> str | None:
    if parse_cards(recorded) == list(dealt):
        return None
    return f"{who} {recorded} in the record, the key deals {cards_text(dealt)}"


def hand_mismatch(seeds: StreamSeeds, cards: HandCards, record: dict[str, Any]) -> str | None:
    """How one recorded hand differs from what the key deals and Bob draws (None when they agree)."""
    for who, recorded, dealt in (
        ("Alice holds", record["alice"], cards.alice),
        ("Bob holds", record["bob"], cards.bob),
        ("the board is", record["board"], cards.board),
    ):
        problem = _cards_differ(who, recorded, dealt)
        if problem is not None:
            return problem
    bob = BobPolicy(rollout_outcomes)
    rng = bob_stream(seeds, int(record["hand"]))
    for entry in record["rounds"]:
        estimate = entry.get("bob_estimate")
        if estimate is None:
            continue
        round_ = int(entry["round"])
        if not 1 <= round_ <= len(BOARD_SHOWN):
            raise ValueError(round_)
        wins, ties = bob.counts(cards.bob, cards.board[: BOARD_SHOWN[round_ - 1]], rng)
        recorded = int(estimate["wins"]), int(estimate["ties"])
        if recorded != (wins, ties):
            return (
                f"Bob's rollouts in round {round_} are {recorded[0]} wins and {recorded[1]} ties in the "
                f"record, the key draws {wins} and {ties}"
            )
    return None


def verify_hands(seeds: StreamSeeds, path: Path, source: str) -> tuple[int, str | None]:
    """Hands in the match's record and the first problem found (None when every hand agrees)."""
    decks = DeckStream(seeds)
    count = 0
    with path.open(errors="replace") as lines:
        for count, line in enumerate(lines, 1):
            try:
                record = json.loads(line)
                hand = int(record["hand"])
                if not 1 <= hand <= 1_000_000:
                    raise ValueError(hand)
                problem = hand_mismatch(seeds, HandCards.from_deck(decks.dealt(hand)), record)
            except (ValueError, KeyError, TypeError, IndexError, AttributeError):
                return count, f"line {count} ({source}): not a hand record arena wrote"
            if problem is not None:
                return count, f"hand {hand} ({source}): {problem}"
    return count, None
