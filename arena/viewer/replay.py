"""A deal's replay: the table as a spectator sees it after each visible event, computed from the events.

:func:`replay` walks a deal's events once and returns one :class:`Step` per thing that happens on the
table (the button, each blind, the hole cards, each street's cards, each action, an uncalled bet going
back, each hand shown, each pot awarded, the end). A step holds every seat's stack, the bet in front of
it, its cards and whether they are face up, the board, and the pots in the middle: the chips of finished
betting rounds cut into main and side pots by the engine's own rule (:func:`arena.engines.nlhe.pots.
side_pots`). The browser only steps through these states; no poker rule is written in JavaScript.

A fault (``faults.jsonl`` records its team, deal and street) is put on that seat's decision in that
street which played the fault's default action: a check or fold, or a check or call for a raise below the
minimum (``arena.games.codem.protocol``); the n-th fault of a seat in a street goes on the n-th such
decision.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from arena.engines.nlhe.events import (
    ActionKind,
    ActionTaken,
    BlindPosted,
    DealEnded,
    DealStarted,
    Event,
    HandShown,
    HoleCardsDealt,
    PotAwarded,
    Street,
    StreetEnded,
    StreetStarted,
    UncalledBetReturned,
    event_to_dict,
)
from arena.engines.nlhe.pots import side_pots
from arena.faults import FaultKind
from arena.viewer.equity import all_in_equity
from arena.viewer.names import card_code, hand_name

STREET_NAMES = {
    Street.PRE_FLOP: "pre-flop",
    Street.FLOP: "flop",
    Street.TURN: "turn",
    Street.RIVER: "river",
    Street.SHOWDOWN: "showdown",
}
_PLAYED_AS_CALL = {FaultKind.RAISE_BELOW_MINIMUM.value}
_DEFAULT_FOR_FAULT = (ActionKind.CHECK, ActionKind.FOLD)
_DEFAULT_FOR_SHORT_RAISE = (ActionKind.CHECK, ActionKind.CALL)


@dataclass(frozen=True, slots=True)
class SeatView:
    """One seat at one step. ``cards`` is empty for a seat not dealt in; ``shown`` is true once the
    seat's cards are face up at the showdown (a broadcast hides the others)."""

    seat: int
    stack: int
    bet: int
    cards: tuple[int, ...]
    shown: bool
    folded: bool
    all_in: bool
    in_deal: bool
    hand: str = ""
    blind: str = ""


@dataclass(frozen=True, slots=True)
class PotView:
    """A pot in the middle; once awarded, its ``winners``, their ``shares`` and the winning ``hand``."""

    name: str
    amount: int
    eligible: tuple[int, ...]
    awarded: bool = False
    winners: tuple[int, ...] = ()
    shares: tuple[int, ...] = ()
    hand: str = ""


@dataclass(frozen=True, slots=True)
class FaultNote:
    """A fault at the decision it happened: its kind, the reason and the default action played."""

    team: str
    kind: str
    reason: str
    played: str
    stderr: str = ""


@dataclass(frozen=True, slots=True)
class Step:
    """The table after one visible event; ``text`` is its line in the action log."""

    street: Street
    text: str
    actor: int | None
    seats: tuple[SeatView, ...]
    board: tuple[int, ...]
    pots: tuple[PotView, ...]
    dealer: int
    fault: FaultNote | None = None
    to_act: int | None = None
    to_call: int = 0
    equity: tuple[tuple[int, float], ...] = ()
    """At an all-in with board cards to come: each live seat's share of the pot over the run-outs."""

    @property
    def in_middle(self) -> int:
        """All chips in the middle: the pots not yet awarded and the bets in front of the seats."""
        return sum(p.amount for p in self.pots if not p.awarded) + sum(s.bet for s in self.seats)

    def _shown(self, seat: int) -> bool:
        return any(s.seat == seat and s.shown for s in self.seats)

    @property
    def pot_odds(self) -> float | None:
        """The share of the pot after a call that the call is: ``to_call / (in_middle + to_call)``."""
        if self.to_act is None or not self.to_call:
            return None
        return self.to_call / (self.in_middle + self.to_call)

    def to_dict(self, reveal: frozenset[int] | None = None) -> dict[str, Any]:
        """JSON-ready form for the browser (cards as two-character codes). With ``reveal`` given, only
        the hole cards of those seats and of seats shown at the showdown are included: the others are
        left out of the data, not merely drawn face down."""
        return {
            "street": STREET_NAMES[self.street],
            "text": self.text,
            "actor": self.actor,
            "to_act": self.to_act,
            "to_call": self.to_call,
            "pot_odds": self.pot_odds,
            "equity": [
                {"seat": seat, "share": share}
                for seat, share in self.equity
                if reveal is None or all(s in reveal or self._shown(s) for s, _ in self.equity)
            ],
            "dealer": self.dealer,
            "board": [card_code(c) for c in self.board],
            "pot": self.in_middle,
            "pots": [
                {
                    "name": p.name,
                    "amount": p.amount,
                    "eligible": list(p.eligible),
                    "awarded": p.awarded,
                    "winners": list(p.winners),
                    "shares": list(p.shares),
                    "hand": p.hand,
                }
                for p in self.pots
            ],
            "seats": [
                {
                    "seat": s.seat,
                    "stack": s.stack,
                    "bet": s.bet,
                    "cards": [card_code(c) for c in s.cards]
                    if reveal is None or s.shown or s.seat in reveal
                    else [""] * len(s.cards),
                    "shown": s.shown,
                    "folded": s.folded,
                    "all_in": s.all_in,
                    "in_deal": s.in_deal,
                    "hand": s.hand,
                    "blind": s.blind,
                }
                for s in self.seats
            ],
            "fault": None
            if self.fault is None
            else {
                "team": self.fault.team,
                "kind": self.fault.kind,
                "reason": self.fault.reason,
                "played": self.fault.played,
                "stderr": self.fault.stderr,
            },
        }


def pot_name(index: int) -> str:
    """``main pot`` for pot 0, ``side pot N`` after it."""
    return "main pot" if index == 0 else f"side pot {index}"


def _action_text(event: ActionTaken) -> str:
    match event.action:
        case ActionKind.FOLD:
            text = "folds"
        case ActionKind.CHECK:
            text = "checks"
        case ActionKind.CALL:
            text = f"calls {event.added}"
        case ActionKind.BET:
            text = f"bets {event.street_total}"
        case ActionKind.RAISE:
            text = f"raises to {event.street_total}"
    return text + (" and is all-in" if event.all_in else "")


class _Table:
    """The mutable table while the events are walked (seat numbers index the lists directly)."""

    def __init__(self, start: DealStarted, names: Sequence[str]) -> None:
        count = len(start.stacks)
        self.names = [f"seat {n}" for n in range(1, count + 1)]
        for i, name in enumerate(names[:count]):
            self.names[i] = name
        self.dealer = start.dealer
        self.in_deal = set(start.in_deal)
        self.stacks = [0, *start.stacks]
        self.bets = [0] * (count + 1)
        self.collected = [0] * (count + 1)
        self.cards: dict[int, tuple[int, ...]] = {}
        self.shown: set[int] = set()
        self.folded: set[int] = set()
        self.all_in: set[int] = set()
        self.board: tuple[int, ...] = ()
        self.street = Street.PRE_FLOP
        self.awarded: list[PotView] = []
        self.strengths: dict[int, int] = {}
        self.blinds: dict[int, str] = {}
        self.equities: dict[tuple[tuple[int, ...], tuple[int, ...]], tuple[tuple[int, float], ...]] = {}

    def name(self, seat: int) -> str:
        return self.names[seat - 1]

    def pots(self) -> tuple[PotView, ...]:
        """Awarded pots, then the rest of the collected chips cut by the engine's side-pot rule."""
        if self.awarded:
            return tuple(self.awarded)
        contributions = {s: c for s, c in enumerate(self.collected) if s and c}
        if not contributions:
            return ()
        return tuple(
            PotView(pot_name(i), pot.amount, pot.eligible)
            for i, pot in enumerate(side_pots(contributions, self.folded))
        )

    def step(self, text: str, *, actor: int | None = None, fault: FaultNote | None = None) -> Step:
        seats = tuple(
            SeatView(
                seat=s,
                stack=self.stacks[s],
                bet=self.bets[s],
                cards=self.cards.get(s, ()),
                shown=s in self.shown,
                folded=s in self.folded,
                all_in=s in self.all_in,
                in_deal=s in self.in_deal,
                hand=hand_name(self.strengths[s]) if s in self.shown else "",
                blind=self.blinds.get(s, ""),
            )
            for s in range(1, len(self.stacks))
        )
        return Step(
            self.street, text, actor, seats, self.board, self.pots(), self.dealer, fault, equity=self.equity()
        )

    def equity(self) -> tuple[tuple[int, float], ...]:
        """Each live hand's share of the pot once no one can bet any more and board cards are to come."""
        live = sorted(self.in_deal - self.folded)
        able = [s for s in live if s not in self.all_in]
        if len(live) < 2 or len(able) > 1 or self.street is Street.SHOWDOWN or len(self.board) >= 5:
            return ()
        if able and self.bets[able[0]] < max(self.bets):
            return ()  # the one who can still act has a call to decide
        key = (tuple(live), self.board)
        if key not in self.equities:
            shares = all_in_equity({s: self.cards[s] for s in live if s in self.cards}, self.board)
            self.equities[key] = tuple(sorted(shares.items()))
        return self.equities[key]

    def deciding(self, step: Step, seat: int) -> Step:
        """``step`` with the decision that follows it: who acts and what a call would add."""
        owed = max(self.bets) - self.bets[seat]
        return replace(step, to_act=seat, to_call=min(owed, self.stacks[seat]))

    def collect(self) -> None:
        for seat, bet in enumerate(self.bets):
            self.collected[seat] += bet
        self.bets = [0] * len(self.bets)

    def award(self, event: PotAwarded) -> str:
        if not self.awarded:
            self.awarded = list(self.pots()) or [PotView(pot_name(0), event.amount, event.eligible)]
        hand = ""
        if event.showdown:
            hand = hand_name(self.strengths[event.winners[0]])
        while len(self.awarded) <= event.pot:
            self.awarded.append(PotView(pot_name(len(self.awarded)), 0, ()))
        self.awarded[event.pot] = PotView(
            pot_name(event.pot), event.amount, event.eligible, True, event.winners, event.shares, hand
        )
        for seat, share in zip(event.winners, event.shares, strict=True):
            self.stacks[seat] += share
        takers = " and ".join(
            f"{self.name(w)} {share}" for w, share in zip(event.winners, event.shares, strict=True)
        )
        verb = "split" if len(event.winners) > 1 else "won"
        with_hand = f" with {hand}" if hand else ""
        return f"{pot_name(event.pot).capitalize()} of {event.amount} {verb}: {takers}{with_hand}"


def replay(
    events: Sequence[Event],
    *,
    names: Sequence[str] = (),
    faults: Sequence[Mapping[str, Any]] = (),
) -> list[Step]:
    """The steps of one deal. ``names[i]`` names seat ``i+1``; ``faults`` are this deal's fault records
    (dicts with ``team``, ``kind``, ``reason`` and ``stage`` as in ``faults.jsonl``)."""
    start = events[0]
    if not isinstance(start, DealStarted):
        raise ValueError(f"a deal's events start with deal_started, not {event_to_dict(start)['kind']}")
    table = _Table(start, names)
    pending = _pending_faults(faults, table.names)
    steps = [table.step(f"Deal {start.deal}: {table.name(start.dealer)} has the button")]
    for event in events[1:]:
        match event:
            case BlindPosted(seat=seat, blind=blind, amount=amount, all_in=all_in):
                table.stacks[seat] -= amount
                table.bets[seat] += amount
                table.blinds[seat] = blind
                if all_in:
                    table.all_in.add(seat)
                short = " and is all-in" if all_in else ""
                text = f"{table.name(seat)} posts the {blind} blind {amount}{short}"
                steps.append(table.step(text, actor=seat))
            case HoleCardsDealt(seat=seat, cards=cards):
                table.cards[seat] = cards
            case StreetStarted(street=street, board=board):
                table.street = street
                table.board += board
                if street is Street.PRE_FLOP:
                    steps.append(table.step("Hole cards are dealt"))
                else:
                    codes = " ".join(card_code(c) for c in board)
                    steps.append(table.step(f"{STREET_NAMES[street].capitalize()}: {codes}"))
            case ActionTaken(seat=seat, action=action, added=added, street_total=total, all_in=all_in):
                steps[-1] = table.deciding(steps[-1], seat)
                table.stacks[seat] -= added
                table.bets[seat] = total
                if action is ActionKind.FOLD:
                    table.folded.add(seat)
                if all_in:
                    table.all_in.add(seat)
                fault = _take_fault(pending, seat, table.street, action)
                text = f"{table.name(seat)} {_action_text(event)}"
                if fault is not None:
                    text += f" (default after a fault: {fault.kind})"
                steps.append(table.step(text, actor=seat, fault=fault))
            case StreetEnded():
                table.collect()
            case UncalledBetReturned(seat=seat, amount=amount):
                from_bet = min(amount, table.bets[seat])
                table.bets[seat] -= from_bet
                table.collected[seat] -= amount - from_bet
                table.stacks[seat] += amount
                steps.append(table.step(f"Uncalled {amount} returned to {table.name(seat)}", actor=seat))
            case HandShown(seat=seat, cards=cards, strength=strength, folded=folded):
                table.street = Street.SHOWDOWN
                table.strengths[seat] = strength
                if not folded:
                    table.shown.add(seat)
                    codes = " ".join(card_code(c) for c in cards)
                    steps.append(
                        table.step(f"{table.name(seat)} shows {codes}: {hand_name(strength)}", actor=seat)
                    )
            case PotAwarded():
                steps.append(table.step(table.award(event)))
            case DealEnded(stacks=stacks):
                table.stacks = [0, *stacks]
                changes = ", ".join(
                    f"{table.name(s)} {stacks[s - 1] - start.stacks[s - 1]:+d}"
                    for s in sorted(table.in_deal)
                    if stacks[s - 1] != start.stacks[s - 1]
                )
                steps.append(table.step(f"Deal over: {changes or 'no chips changed hands'}"))
    return steps


def _pending_faults(
    faults: Sequence[Mapping[str, Any]], names: Sequence[str]
) -> dict[tuple[int, str], list[Mapping[str, Any]]]:
    """This deal's decision faults by (seat, street), in the order they were recorded."""
    seat_of = {name: seat for seat, name in enumerate(names, start=1)}
    pending: dict[tuple[int, str], list[Mapping[str, Any]]] = {}
    for fault in faults:
        seat = seat_of.get(fault.get("team", ""))
        if seat is not None:
            pending.setdefault((seat, fault.get("stage", "")), []).append(fault)
    return pending


def _take_fault(
    pending: dict[tuple[int, str], list[Mapping[str, Any]]], seat: int, street: Street, action: ActionKind
) -> FaultNote | None:
    waiting = pending.get((seat, street.value))
    if not waiting:
        return None
    fault = waiting[0]
    kind = str(fault.get("kind", ""))
    if action not in (_DEFAULT_FOR_SHORT_RAISE if kind in _PLAYED_AS_CALL else _DEFAULT_FOR_FAULT):
        return None
    waiting.pop(0)
    return FaultNote(
        str(fault.get("team", "")),
        kind,
        str(fault.get("reason", "")),
        action.value,
        str(fault.get("stderr", "")),
    )


def unplaced_faults(
    faults: Sequence[Mapping[str, Any]], events: Sequence[Event], names: Sequence[str]
) -> list[Mapping[str, Any]]:
    """The faults of a deal that :func:`replay` does not put on a decision (e.g. a run after the
    showdown, or a build failure): shown beside the replay instead."""
    pending = _pending_faults(faults, names)
    street = Street.PRE_FLOP
    for event in events:
        if isinstance(event, StreetStarted):
            street = event.street
        elif isinstance(event, ActionTaken):
            _take_fault(pending, event.seat, street, event.action)
    return [fault for waiting in pending.values() for fault in waiting] + [
        fault for fault in faults if fault.get("team") not in names
    ]
