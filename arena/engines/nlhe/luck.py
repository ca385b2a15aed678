"""Luck taken out of a deal's result: AIVAT-style chance corrections, read from the deal's events.

A seat's *value* at a moment of the deal is what it would get back if every seat still in checked the
hand down from there, less what it has put in: the pots as they stand (a seat that is all-in only shares
the pots it reached; a seat that can still bet shares every pot) split by each live hand's showdown
equity over the cards still to come, a split pot counting as a fraction. Once no seat can bet any more
this is the exact all-in equity, and on a full board it is the chips the showdown gives.

At each chance event (the hole cards, the flop, the turn, the river) the *correction* is the value after
the cards less the mean of that value over every outcome the cards could have had (the cards not yet
dealt). For the board that mean is the value just before the cards, since a seat's equity before a card
is the mean of its equities after it; for the hole cards it is, by symmetry, each seat's even share of
the blinds' pots. The *adjusted* result is the chips won less the corrections: every correction has
mean zero over the cards, so the adjusted result has the same expectation as chips whatever the value
function (Burch et al., AAAI 2018), and, the values summing to zero over the seats, it is zero-sum too.

Equities are exact where the boards to come number at most :data:`ENUMERATED_BOARDS` (every flop, turn
and river); before the flop :data:`PRE_FLOP_SAMPLES` boards are drawn, seeded from the deal's number and
its hole cards (known once the deal is over and fixed before the board), so anyone can compute the same
figures from the recorded events and the draw cannot depend on the board.
"""

from __future__ import annotations

import hashlib
import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from itertools import combinations

import numpy as np

from arena.engines.nlhe.events import (
    ActionKind,
    ActionTaken,
    BlindPosted,
    DealEnded,
    DealStarted,
    Event,
    HoleCardsDealt,
    Street,
    StreetStarted,
    UncalledBetReturned,
)
from arena.evaluator.batch import few_strengths_from_sums
from arena.evaluator.card_keys import card_bit_array, card_key_array

PRE_FLOP_SAMPLES = 10_000
"""Boards drawn for an equity before the flop (its standard error is at most half a percent of a pot)."""
ENUMERATED_BOARDS = 20_000
"""Board completions up to this many are enumerated: every equity on the flop, turn and river is exact."""
_KEYS = card_key_array()
_BITS = card_bit_array()
_COMBINATIONS: dict[tuple[int, int], np.ndarray] = {}


@dataclass(frozen=True, slots=True)
class Correction:
    """One chance event: each seat's value (seat ``i+1`` at index ``i``) before and after its cards."""

    street: Street
    """``PRE_FLOP`` for the hole cards, then the street the board cards open."""
    before: tuple[float, ...]
    after: tuple[float, ...]
    stakes: tuple[float, ...]
    """Per seat, its :func:`edges` after the cards times the chips at stake (0 for a seat that cannot bet),
    what the street's :class:`ValueModel` weight multiplies."""

    @property
    def luck(self) -> tuple[float, ...]:
        """Per seat, what the cards gave it: ``after - before``."""
        return tuple(a - b for a, b in zip(self.after, self.before, strict=True))


@dataclass(frozen=True, slots=True)
class DealLuck:
    """A deal's result per seat (seat ``i+1`` at index ``i``): chips won and the luck-adjusted value."""

    chips: tuple[int, ...]
    adjusted: tuple[float, ...]
    corrections: tuple[Correction, ...]


@dataclass(frozen=True, slots=True)
class Layer:
    """``amount`` chips in the middle and the live seats that share them."""

    amount: int
    sharers: tuple[int, ...]


def edges(equity: Mapping[int, float], bettors: Sequence[int]) -> dict[int, float]:
    """Each seat that can still bet: its showdown ``equity`` less the mean of theirs (they sum to zero).

    Fewer than two such seats: nothing is left to bet, so no edges."""
    if len(bettors) < 2:
        return {}
    mean = math.fsum(equity.get(s, 0.0) for s in bettors) / len(bettors)
    return {s: equity.get(s, 0.0) - mean for s in bettors}


@dataclass(frozen=True, slots=True)
class ValueModel:
    """The chips still to be bet after a chance event, as a value function counts them.

    A seat that can still bet is worth, beyond its share of the pot, its *edge* (:func:`edges`) times
    the chips at stake (the second largest stack behind among the seats that can bet: the most one of
    them can still win from another) times the weight of the event's street. The term is linear in the
    equities and fixed stakes, so its mean over the cards to come is its value at the equities before
    them: the corrections keep their zero mean whatever the weights.
    """

    weights: Mapping[Street, float]


NO_BETTING = ValueModel({})
"""The pot-times-equity value alone (every weight zero)."""

MODEL = ValueModel({Street.PRE_FLOP: 0.0362, Street.FLOP: 0.0647, Street.TURN: 0.0753, Street.RIVER: 0.0478})
"""The weights :func:`fit_model` found on 24 tables of 200 deals of the sample programs of ``bots/codem/``
(``python benchmarks/bench_luck.py --fit 24``), tables played for this alone: an equity edge of +0.5
with 1,000 chips behind is worth +18 chips at the hole cards, +32 at the flop, +38 at the turn, +24 at
the river."""


def pot_layers(contributions: Mapping[int, int], live: Sequence[int], capped: Sequence[int]) -> list[Layer]:
    """The chips in the middle cut at the contribution levels of the ``capped`` (all-in) live seats.

    A live seat that is not capped shares every layer; a capped one the layers up to what it put in.
    Chips no live seat may share (every seat that reached them folded) go to the live seats that put in
    the most.
    """
    levels = sorted(
        {contributions[s] for s in capped if s in live} | {max(contributions.values(), default=0)}
    )
    layers: list[Layer] = []
    previous = 0
    for level in levels:
        amount = sum(min(chips, level) - previous for chips in contributions.values() if chips > previous)
        sharers = tuple(s for s in live if s not in capped or contributions[s] >= level)
        if not sharers:
            top = max(contributions[s] for s in live)
            sharers = tuple(s for s in live if contributions[s] == top)
        if amount:
            layers.append(Layer(amount, sharers))
        previous = level
    return layers


def even_shares(layers: Sequence[Layer]) -> dict[int, float]:
    """Each seat's share of the layers split evenly: its mean share over every way the cards can fall."""
    shares: dict[int, float] = {}
    for layer in layers:
        for seat in layer.sharers:
            shares[seat] = shares.get(seat, 0.0) + layer.amount / len(layer.sharers)
    return shares


def board_strengths(
    holes: Mapping[int, tuple[int, int]], board: Sequence[int], rng: np.random.Generator | None
) -> tuple[tuple[int, ...], np.ndarray]:
    """(seats, strengths): every seat's hand over the boards completing ``board`` (one row a board).

    The cards left are those no seat holds and the board does not show. Completions are enumerated when
    at most :data:`ENUMERATED_BOARDS`, otherwise :data:`PRE_FLOP_SAMPLES` are drawn with ``rng``.
    """
    seats = tuple(sorted(holes))
    dead = {card for cards in holes.values() for card in cards} | set(board)
    left = np.array([card for card in range(52) if card not in dead], dtype=np.uint8)
    missing = 5 - len(board)
    if math.comb(len(left), missing) <= ENUMERATED_BOARDS:
        completions = left[_combinations(len(left), missing)]
    else:
        if rng is None:
            raise ValueError(f"{math.comb(len(left), missing)} boards to come need a random generator")
        completions = left[_distinct_picks(rng, len(left), missing)]
    board_keys = _KEYS[completions].sum(axis=1) + int(_KEYS[list(board)].sum())
    board_bits = _BITS[completions].sum(axis=1) + int(_BITS[list(board)].sum())
    columns = [
        few_strengths_from_sums(
            board_keys + int(_KEYS[list(holes[s])].sum()), board_bits | int(_BITS[list(holes[s])].sum())
        )
        for s in seats
    ]
    return seats, np.column_stack(columns)


def _distinct_picks(rng: np.random.Generator, n: int, k: int) -> np.ndarray:
    """:data:`PRE_FLOP_SAMPLES` rows of ``k`` distinct indices below ``n``, each row uniform over the
    ``k``-subsets: a fixed table of distinct rows (drawn once) seen through a permutation drawn now."""
    if (n, -k) not in _COMBINATIONS:
        table = np.random.default_rng(n * 8 + k).random((PRE_FLOP_SAMPLES, n))
        _COMBINATIONS[(n, -k)] = np.argpartition(table, k, axis=1)[:, :k]
    picks: np.ndarray = rng.permutation(n)[_COMBINATIONS[(n, -k)]]
    return picks


def _combinations(n: int, k: int) -> np.ndarray:
    """Every ``k``-subset of ``range(n)`` as rows (cached)."""
    if (n, k) not in _COMBINATIONS:
        rows = list(combinations(range(n), k)) if k else [()]
        _COMBINATIONS[(n, k)] = np.array(rows, dtype=np.intp).reshape(len(rows), k)
    return _COMBINATIONS[(n, k)]


def showdown_shares(seats: Sequence[int], strengths: np.ndarray, layers: Sequence[Layer]) -> dict[int, float]:
    """Each seat's mean share of ``layers`` over the boards of ``strengths`` (rows: boards, columns:
    ``seats``), each layer going to its strongest sharers, split evenly among ties."""
    column = {seat: i for i, seat in enumerate(seats)}
    shares: dict[int, float] = {}
    by_sharers: dict[tuple[int, ...], int] = {}
    for layer in layers:
        by_sharers[layer.sharers] = by_sharers.get(layer.sharers, 0) + layer.amount
    for sharers, amount in by_sharers.items():
        if len(sharers) == 1:
            shares[sharers[0]] = shares.get(sharers[0], 0.0) + amount
            continue
        own = strengths[:, [column[s] for s in sharers]]
        best = own == own.max(axis=1, keepdims=True)
        split = (best / best.sum(axis=1, keepdims=True)).mean(axis=0)
        for seat, part in zip(sharers, split.tolist(), strict=True):
            shares[seat] = shares.get(seat, 0.0) + amount * part
    return shares


def pre_flop_rng(deal: int, holes: Mapping[int, tuple[int, int]]) -> np.random.Generator:
    """The draw of boards before the flop: seeded from the deal's number and every seat's hole cards."""
    text = f"arena luck {deal} " + " ".join(f"{s}:{a},{b}" for s, (a, b) in sorted(holes.items()))
    return np.random.default_rng(int.from_bytes(hashlib.sha256(text.encode()).digest()[:16], "little"))


class _Walk:
    """The state :func:`deal_luck` follows through the events."""

    def __init__(self, start: DealStarted, model: ValueModel) -> None:
        self.seats = len(start.stacks)
        self.deal = start.deal
        self.stacks = start.stacks
        self.model = model
        self.put_in = {seat: 0 for seat in start.in_deal}
        self.live = list(start.in_deal)
        self.capped: set[int] = set()
        self.holes: dict[int, tuple[int, int]] = {}
        self.board: tuple[int, ...] = ()
        self._strengths: dict[int, tuple[tuple[int, ...], np.ndarray]] = {}

    def strengths(self, board: tuple[int, ...]) -> tuple[tuple[int, ...], np.ndarray]:
        """Every seat's hand over the boards completing ``board`` (computed once per board size)."""
        if len(board) not in self._strengths:
            rng = pre_flop_rng(self.deal, self.holes) if not board else None
            self._strengths[len(board)] = board_strengths(self.holes, board, rng)
        return self._strengths[len(board)]

    def values(self, board: tuple[int, ...] | None, street: Street) -> tuple[tuple[float, ...], list[float]]:
        """Each seat's value now, the chips still to bet weighed as ``street``'s correction weighs them, and
        each seat's edge times the chips at stake; ``board`` None: before the hole cards (even shares, and
        no edges: every hand has the same chance, so an edge's mean over the hole cards is zero)."""
        layers = pot_layers(self.put_in, self.live, sorted(self.capped))
        stakes = [0.0] * self.seats
        if board is None:
            shares = even_shares(layers)
        else:
            seats, strengths = self.strengths(board)
            everyone = tuple(self.live)
            equity = showdown_shares(seats, strengths, [Layer(1, everyone)])
            if all(layer.sharers == everyone for layer in layers):  # no side pot: one split
                total = sum(layer.amount for layer in layers)
                shares = {seat: part * total for seat, part in equity.items()}
            else:
                shares = showdown_shares(seats, strengths, layers)
            bettors = [s for s in self.live if s not in self.capped]
            behind = sorted(self.stacks[s - 1] - self.put_in[s] for s in bettors)
            at_stake = behind[-2] if len(behind) >= 2 else 0
            for seat, edge in edges(equity, bettors).items():
                stakes[seat - 1] = edge * at_stake
        weight = self.model.weights.get(street, 0.0)
        values = tuple(
            shares.get(s, 0.0) - self.put_in.get(s, 0) + weight * stakes[s - 1]
            for s in range(1, self.seats + 1)
        )
        return values, stakes


def deal_luck(events: Sequence[Event], model: ValueModel | None = None) -> DealLuck:
    """Chips won, the corrections at every chance event and the adjusted result of one recorded deal,
    the betting still to come weighed by ``model`` (:data:`MODEL` when None)."""
    start = events[0]
    if not isinstance(start, DealStarted):
        raise ValueError(f"a deal's events start with deal_started, not {type(start).__name__}")
    walk = _Walk(start, MODEL if model is None else model)
    corrections: list[Correction] = []
    end: tuple[int, ...] = start.stacks
    for event in events:
        if isinstance(event, BlindPosted):
            walk.put_in[event.seat] += event.amount
            if event.all_in:
                walk.capped.add(event.seat)
        elif isinstance(event, HoleCardsDealt):
            walk.holes[event.seat] = event.cards
        elif isinstance(event, ActionTaken):
            walk.put_in[event.seat] += event.added
            if event.action is ActionKind.FOLD:
                walk.live.remove(event.seat)
            elif event.all_in:
                walk.capped.add(event.seat)
        elif isinstance(event, UncalledBetReturned):
            walk.put_in[event.seat] -= event.amount
        elif isinstance(event, StreetStarted):
            if event.street is Street.PRE_FLOP:
                before, _ = walk.values(None, event.street)
                after, stakes = walk.values((), event.street)
            else:
                before, _ = walk.values(walk.board, event.street)
                walk.board += event.board
                after, stakes = walk.values(walk.board, event.street)
            corrections.append(Correction(event.street, before, after, tuple(stakes)))
        elif isinstance(event, DealEnded):
            end = event.stacks
    chips = tuple(after - before for after, before in zip(end, start.stacks, strict=True))
    luck = [math.fsum(c.luck[i] for c in corrections) for i in range(len(chips))]
    adjusted = tuple(won - lucky for won, lucky in zip(chips, luck, strict=True))
    return DealLuck(chips, adjusted, tuple(corrections))


def fit_model(deals: Iterable[Sequence[Event]]) -> ValueModel:
    """The weights that best predict, by least squares, the chips a seat still wins after each chance
    event beyond its share of the pot, from its edge times the chips at stake, over the recorded
    ``deals`` (tables kept apart from those the model will adjust, so the weights cannot depend on the
    outcomes they correct)."""
    products: dict[Street, list[float]] = {}
    squares: dict[Street, list[float]] = {}
    for events in deals:
        luck = deal_luck(events, NO_BETTING)
        for correction in luck.corrections:
            for seat, stake in enumerate(correction.stakes):
                if stake:
                    won = luck.chips[seat] - correction.after[seat]
                    products.setdefault(correction.street, []).append(stake * won)
                    squares.setdefault(correction.street, []).append(stake * stake)
    return ValueModel(
        {street: round(math.fsum(products[street]) / math.fsum(squares[street]), 4) for street in products}
    )


__all__ = [
    "ENUMERATED_BOARDS",
    "MODEL",
    "NO_BETTING",
    "PRE_FLOP_SAMPLES",
    "Correction",
    "DealLuck",
    "Layer",
    "ValueModel",
    "board_strengths",
    "deal_luck",
    "edges",
    "even_shares",
    "fit_model",
    "pot_layers",
    "showdown_shares",
]
