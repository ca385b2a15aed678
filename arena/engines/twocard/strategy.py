"""A TwoCardDraw server strategy: the probability of each action in each situation, and its file codec.

File format (documented with an example in docs/twocard.md): a first line ``bet1 bet2``, then one line
per situation, fields separated by white space::

    ROUND1 CARD1 CARD2 BETS fold call raise
    DRAW   CARD1 CARD2 BETS FIRST DREW draw0 draw1 draw2
    ROUND2 CARD1 CARD2 BETS1 BETS2 FIRST DREW1 DREW2 fold call raise

``CARD1 <= CARD2`` are the server's cards, ``FIRST`` is 0 when you bet first (or nobody bet) and 1 when
the server did. Every one of the 60 + 315 + 3780 situations must appear exactly once, in any order.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from arena.engines.twocard.rules import (
    BET_COUNTS,
    DRAW_CHOICES,
    HAND_COUNT,
    HANDS,
    MAX_BETS,
    OUTCOMES,
    Action,
    Outcome,
    hand_index,
)
from arena.errors import FormatError

PROBABILITY_TOLERANCE = 1e-6
ROUND1_SHAPE = (HAND_COUNT, BET_COUNTS, 3)
DRAW_SHAPE = (len(OUTCOMES), DRAW_CHOICES, HAND_COUNT, 3)
ROUND2_SHAPE = (len(OUTCOMES), DRAW_CHOICES, DRAW_CHOICES, HAND_COUNT, BET_COUNTS, 3)
_FIELDS = {"ROUND1": 3, "DRAW": 5, "ROUND2": 7}


@dataclass(eq=False)
class Strategy:
    """Bet sizes and three probability tables, last axis = the three choices of the situation.

    ``round1[hand, bets]``, ``draw[outcome, you_drew, hand]`` and
    ``round2[outcome, you_drew, server_drew, hand, bets2]``; ``hand`` indexes :data:`HANDS`.
    """

    bet1: int
    bet2: int
    round1: np.ndarray
    draw: np.ndarray
    round2: np.ndarray

    def copy(self) -> Strategy:
        """A deep copy (the generator mutates one situation at a time)."""
        return Strategy(self.bet1, self.bet2, self.round1.copy(), self.draw.copy(), self.round2.copy())

    def same_as(self, other: Strategy) -> bool:
        """True when bets and every probability are identical."""
        return (
            (self.bet1, self.bet2) == (other.bet1, other.bet2)
            and np.array_equal(self.round1, other.round1)
            and np.array_equal(self.draw, other.draw)
            and np.array_equal(self.round2, other.round2)
        )


@dataclass(frozen=True, slots=True)
class Situation:
    """One situation: which table, the index into it (without the last axis) and its allowed choices."""

    table: str
    index: tuple[int, ...]
    allowed: tuple[bool, bool, bool]

    def label(self) -> str:
        """A readable name, in the field order of the file."""
        return " ".join([self.table.upper(), *_key_fields(self.table, self.index)])


def check_bets(bet1: int, bet2: int) -> None:
    """Raise :class:`FormatError` unless 1 <= bet1 <= 5 and bet1 <= bet2 <= 3*bet1 (TwoCardDraw's limits)."""
    if not (1 <= bet1 <= 5 and bet1 <= bet2 <= 3 * bet1):
        raise FormatError(f"bets {bet1} {bet2}: need 1 <= bet1 <= 5 and bet1 <= bet2 <= 3*bet1")


def legal(bets: int) -> tuple[bool, bool, bool]:
    """Choices the rules allow facing ``bets`` bets: no fold when checking is free, no 4th bet."""
    return (bets > 0, True, bets < MAX_BETS)


def allowed_betting(hand: int, bets: int, *, second_round: bool) -> tuple[bool, bool, bool]:
    """Legal choices narrowed by TwoCardDraw's constraints (4-4 never folds, and raises in round 2)."""
    fold, call, raise_ = legal(bets)
    if HANDS[hand] == (4, 4):
        fold = False
        if second_round and raise_:
            call = False
    return (fold, call, raise_)


def allowed_draw(hand: int) -> tuple[bool, bool, bool]:
    """Draws allowed by the constraints: 4-4 keeps both, a pair never draws one, a 4 never draws two."""
    low, high = HANDS[hand]
    if (low, high) == (4, 4):
        return (True, False, False)
    if low == high:
        return (True, False, True)
    if high == 4:
        return (True, True, False)
    return (True, True, True)


def situations() -> Iterator[Situation]:
    """Every situation of a strategy with its allowed choices, in file order."""
    for hand in range(HAND_COUNT):
        for bets in range(BET_COUNTS):
            yield Situation("round1", (hand, bets), allowed_betting(hand, bets, second_round=False))
    for outcome in OUTCOMES:
        for drew in range(DRAW_CHOICES):
            for hand in range(HAND_COUNT):
                yield Situation("draw", (outcome, drew, hand), allowed_draw(hand))
    for outcome in OUTCOMES:
        for drew1 in range(DRAW_CHOICES):
            for drew2 in range(DRAW_CHOICES):
                for hand in range(HAND_COUNT):
                    for bets in range(BET_COUNTS):
                        yield Situation(
                            "round2",
                            (outcome, drew1, drew2, hand, bets),
                            allowed_betting(hand, bets, second_round=True),
                        )


def constraint_violations(strategy: Strategy) -> list[str]:
    """Situations giving a positive probability to a choice TwoCardDraw's five constraints forbid."""
    problems = []
    for situation in situations():
        probs = getattr(strategy, situation.table)[situation.index]
        bad = [i for i in range(3) if probs[i] > 0 and not situation.allowed[i]]
        if bad:
            problems.append(f"{situation.label()}: choice {bad} has probability {probs[bad].tolist()}")
    return problems


def _key_fields(table: str, index: tuple[int, ...]) -> list[str]:
    if table == "round1":
        hand, bets = index
        return [*map(str, HANDS[hand]), str(bets)]
    if table == "draw":
        outcome, drew, hand = index
        o = Outcome(outcome)
        return [*map(str, HANDS[hand]), str(o.bets), str(o.first), str(drew)]
    outcome, drew1, drew2, hand, bets2 = index
    o = Outcome(outcome)
    return [*map(str, HANDS[hand]), str(o.bets), str(bets2), str(o.first), str(drew1), str(drew2)]


def format_strategy(strategy: Strategy) -> str:
    """The strategy file text (probabilities written exactly, so parsing gives the same floats)."""
    lines = [f"{strategy.bet1} {strategy.bet2}"]
    for situation in situations():
        probs = getattr(strategy, situation.table)[situation.index]
        lines.append(" ".join([situation.label(), *(repr(float(p)) for p in probs)]))
    return "\n".join(lines) + "\n"


def write_strategy(strategy: Strategy, path: Path) -> None:
    """Write :func:`format_strategy` to ``path``."""
    path.write_text(format_strategy(strategy))


def _ints(fields: list[str], where: str) -> list[int]:
    try:
        return [int(f) for f in fields]
    except ValueError:
        raise FormatError(f"{where}: expected integers, got {' '.join(fields)!r}") from None


def _probabilities(fields: list[str], where: str) -> np.ndarray:
    try:
        probs = np.array([float(f) for f in fields])
    except ValueError:
        raise FormatError(f"{where}: expected three probabilities, got {' '.join(fields)!r}") from None
    if not np.all(np.isfinite(probs)) or np.any(probs < 0) or abs(probs.sum() - 1) > PROBABILITY_TOLERANCE:
        raise FormatError(f"{where}: probabilities {fields} must be >= 0 and sum to 1")
    return probs


def _index(kind: str, keys: list[int], where: str) -> tuple[str, tuple[int, ...], int]:
    """Table name, index and the bets the server faces (-1 for a draw) of one line's key fields."""

    def card_hand(c1: int, c2: int) -> int:
        if not (0 <= c1 <= c2 <= 4):
            raise FormatError(f"{where}: cards {c1} {c2} must satisfy 0 <= CARD1 <= CARD2 <= 4")
        return hand_index(c1, c2)

    def outcome(bets: int, first: int) -> Outcome:
        if not (0 <= bets <= MAX_BETS and first in (0, 1)) or (bets == 0 and first == 1):
            raise FormatError(f"{where}: BETS {bets} FIRST {first} is not a first-round outcome")
        return Outcome.of(bets, server_first=first == 1)

    def drew(n: int) -> int:
        if not 0 <= n < DRAW_CHOICES:
            raise FormatError(f"{where}: a draw of {n} cards (must be 0, 1 or 2)")
        return n

    if kind == "ROUND1":
        c1, c2, bets = keys
        if not 0 <= bets <= MAX_BETS:
            raise FormatError(f"{where}: BETS {bets} must be 0..3")
        return "round1", (card_hand(c1, c2), bets), bets
    if kind == "DRAW":
        c1, c2, bets, first, d = keys
        return "draw", (outcome(bets, first), drew(d), card_hand(c1, c2)), -1
    c1, c2, bets1, bets2, first, d1, d2 = keys
    if not 0 <= bets2 <= MAX_BETS:
        raise FormatError(f"{where}: BETS2 {bets2} must be 0..3")
    return "round2", (outcome(bets1, first), drew(d1), drew(d2), card_hand(c1, c2), bets2), bets2


def parse_strategy(text: str, source: str = "strategy") -> Strategy:
    """Parse a strategy file; raise :class:`FormatError` naming the line for anything wrong or missing."""
    lines = [(n, line.split()) for n, line in enumerate(text.splitlines(), 1) if line.strip()]
    if not lines:
        raise FormatError(f"{source}: empty file")
    n, header = lines[0]
    if len(header) != 2:
        raise FormatError(f"{source}:{n}: first line must be 'bet1 bet2'")
    bet1, bet2 = _ints(header, f"{source}:{n}")
    check_bets(bet1, bet2)
    tables = {
        "round1": np.full(ROUND1_SHAPE, np.nan),
        "draw": np.full(DRAW_SHAPE, np.nan),
        "round2": np.full(ROUND2_SHAPE, np.nan),
    }
    for n, fields in lines[1:]:
        where = f"{source}:{n}"
        kind = fields[0]
        if kind not in _FIELDS:
            raise FormatError(f"{where}: unknown line kind {kind!r} (ROUND1, DRAW or ROUND2)")
        if len(fields) != 1 + _FIELDS[kind] + 3:
            raise FormatError(f"{where}: {kind} needs {_FIELDS[kind]} integers and 3 probabilities")
        table, index, bets = _index(kind, _ints(fields[1 : 1 + _FIELDS[kind]], where), where)
        probs = _probabilities(fields[1 + _FIELDS[kind] :], where)
        if bets == 0 and probs[Action.FOLD] > 0:
            raise FormatError(f"{where}: fold has probability {probs[0]} but checking is free at 0 bets")
        if bets == MAX_BETS and probs[Action.RAISE] > 0:
            raise FormatError(f"{where}: raise has probability {probs[2]} but 3 bets is the limit")
        if not np.isnan(tables[table][index][0]):
            raise FormatError(f"{where}: situation given twice")
        tables[table][index] = probs
    for situation in situations():
        if np.isnan(tables[situation.table][situation.index][0]):
            raise FormatError(f"{source}: situation '{situation.label()}' is missing")
    return Strategy(bet1, bet2, tables["round1"], tables["draw"], tables["round2"])


def read_strategy(path: Path) -> Strategy:
    """Parse the strategy file at ``path``."""
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as error:
        raise FormatError(f"{path}: cannot read ({error.strerror})") from None
    except UnicodeDecodeError as error:
        line = path.read_bytes()[: error.start].count(b"\n") + 1
        raise FormatError(f"{path}, line {line}: not UTF-8 text (byte {error.start})") from None
    return parse_strategy(text, str(path))
