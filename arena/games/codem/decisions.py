"""A team's decisions in a recorded deal, and the three input files of each, rendered from the events.

The program's K-th run in a deal is its K-th action in that deal; after a showdown it runs once more,
given the final ``deal.txt``. The files are those the table wrote at that moment, byte for byte: the
events before the action are what the program was shown.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from arena.engines.nlhe.events import (
    ActionTaken,
    BlindPosted,
    DealEnded,
    DealStarted,
    Event,
    HoleCardsDealt,
    Street,
    StreetStarted,
)
from arena.errors import ConfigError
from arena.games.codem.deal_file import render_deal_file
from arena.games.codem.inputs import render_deals_money, render_inputf
from arena.games.codem.protocol import DEAL_FILE, INPUT_FILE, MONEY_FILE


@dataclass(frozen=True)
class Decision:
    """One run of a seat's program in a deal: its number, its stage and how many events it was shown."""

    number: int
    stage: str
    shown: int


def decisions(events: Sequence[Event], seat: int) -> list[Decision]:
    """The seat's runs in the deal, in order (its actions, then the showdown run if there was one)."""
    street = Street.PRE_FLOP.value
    found: list[Decision] = []
    for index, event in enumerate(events):
        if isinstance(event, StreetStarted):
            street = event.street.value
        elif isinstance(event, ActionTaken) and event.seat == seat:
            found.append(Decision(len(found) + 1, street, index))
        elif isinstance(event, DealEnded) and event.showdown and _dealt_in(events, seat):
            found.append(Decision(len(found) + 1, Street.SHOWDOWN.value, len(events)))
    return found


def _dealt_in(events: Sequence[Event], seat: int) -> bool:
    return any(isinstance(e, DealStarted) and seat in e.in_deal for e in events)


def decision_inputs(events: Sequence[Event], seat: int, decision: Decision, *, seats: int) -> dict[str, str]:
    """The three input files of one decision, as the table wrote them."""
    shown = events[: decision.shown]
    start = next((e for e in events if isinstance(e, DealStarted)), None)
    cards = next((e.cards for e in events if isinstance(e, HoleCardsDealt) and e.seat == seat), None)
    if start is None or cards is None:
        raise ConfigError(f"seat {seat} was not dealt into this deal")
    spent = sum(_chips_put_in(e) for e in shown if _chips_of(e, seat))
    return {
        INPUT_FILE: render_inputf(cards, seat=seat, spent=spent),
        MONEY_FILE: render_deals_money(start.deal, start.stacks),
        DEAL_FILE: render_deal_file(shown, seats=seats),
    }


def _chips_put_in(event: Event) -> int:
    """The chips a blind or an action put in the pot (0 for any other event)."""
    if isinstance(event, BlindPosted):
        return event.amount
    return event.added if isinstance(event, ActionTaken) else 0


def _chips_of(event: Event, seat: int) -> bool:
    return isinstance(event, BlindPosted | ActionTaken) and event.seat == seat
