"""The heads-up line protocol: the lines the judge prints and the parsing of the player's lines.

Judge to player: ``G``; ``STATE h r a b P k``; ``ALICE c1 v1 c2 v2``; ``BOARD`` and ``2k`` integers;
``RATES w d``; ``OPP CHECK|FOLD|CALL x``; ``RESULT delta``; ``SCORE W``; ``-1`` (the match is over).
Player to judge: ``RATE t`` or ``ACTION CHECK|FOLD|RAISE x``. Cards are ``suit value`` pairs
(value 1..13 for 2..A), see :func:`arena.cards.to_suit_value`.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from arena.cards import to_suit_value
from arena.engines.headsup import Move

ABORT = "-1"


@dataclass(frozen=True, slots=True)
class RateRequest:
    """``RATE t``: the player asks for ``t`` sampled completions."""

    samples: int


@dataclass(frozen=True, slots=True)
class ActionReply:
    """``ACTION CHECK|FOLD|RAISE x``; ``amount`` is 0 unless raising."""

    move: Move
    amount: int = 0


class MalformedLine(ValueError):
    """A player's line that is neither ``RATE t`` nor a well-formed ``ACTION``."""


_INTEGER = re.compile(r"-?[0-9]+")
CARD_TEXT = tuple(f"{s} {v}" for s, v in map(to_suit_value, range(52)))  # "suit value" per card index


def _cards(cards: Sequence[int]) -> str:
    return " ".join([CARD_TEXT[card] for card in cards])


def state_lines(
    *,
    hand: int,
    round_: int,
    alice_stack: int,
    bob_stack: int,
    pot: int,
    alice: Sequence[int],
    board: Sequence[int],
) -> str:
    """The three lines of a decision point (``STATE``, ``ALICE``, ``BOARD``), newline-joined."""
    board_line = f"BOARD {_cards(board)}" if board else "BOARD"
    return (
        f"STATE {hand} {round_} {alice_stack} {bob_stack} {pot} {len(board)}\n"
        f"ALICE {_cards(alice)}\n{board_line}"
    )


def rates_line(win: float, tie: float) -> str:
    """The answer to ``RATE t``."""
    return f"RATES {win:.6f} {tie:.6f}"


def opp_line(move: Move, amount: int) -> str:
    """Bob's answer: ``OPP CHECK``, ``OPP FOLD`` or ``OPP CALL x``."""
    return f"OPP CALL {amount}" if move is Move.CALL else f"OPP {move.value}"


def result_line(delta: int) -> str:
    """The end of a hand."""
    return f"RESULT {delta}"


def score_line(mean: float) -> str:
    """The end of the match."""
    return f"SCORE {mean:.6f}"


def _positive_int(token: str, what: str) -> int:
    if not (token.isascii() and token.isdigit()) or len(token) > 12:
        raise MalformedLine(f"{what} {token!r} is not a positive integer")
    value = int(token)
    if value < 1:
        raise MalformedLine(f"{what} {value} must be at least 1")
    return value


def parse_reply(line: str) -> RateRequest | ActionReply:
    """Parse one line from the player; raise :class:`MalformedLine` naming what is wrong."""
    match line.split():
        case ["RATE", t]:
            return RateRequest(_positive_int(t, "RATE count"))
        case ["ACTION", "CHECK"]:
            return ActionReply(Move.CHECK)
        case ["ACTION", "FOLD"]:
            return ActionReply(Move.FOLD)
        case ["ACTION", "RAISE", x]:
            if _INTEGER.fullmatch(x) is None or len(x) > 12:
                raise MalformedLine(f"raise amount {x!r} is not an integer")
            return ActionReply(Move.RAISE, int(x))
        case _:
            shown = line if len(line) <= 80 else line[:77] + "..."
            raise MalformedLine(f"line {shown!r} is not 'RATE t' or 'ACTION CHECK|FOLD|RAISE x'")
