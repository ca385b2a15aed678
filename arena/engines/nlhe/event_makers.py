"""Fast positional constructors for the events the engine emits on its hot path.

An event is a ``NamedTuple``; its class's ``__new__`` is a Python function that binds keywords and
defaults. Each maker here builds the very same object with one ``tuple.__new__`` call, about twice as
fast, and a deal makes some forty-five events. At import each maker's parameters are checked against
its class's fields, so a new field in ``events.py`` fails loudly here instead of shifting the values.
``tests/test_nlhe_event_makers.py`` compares every maker with its class's constructor.

Events are frozen values, so the engine also shares equal ones between deals: :func:`memoized` wraps a
maker with a bounded cache keyed by its arguments (blinds and one-card streets recur in most deals).
"""

from __future__ import annotations

import inspect
from collections.abc import Callable
from typing import Any

from arena.engines.nlhe.events import (
    ActionKind,
    ActionTaken,
    BlindPosted,
    DealEnded,
    DealStarted,
    HandShown,
    HoleCardsDealt,
    PotAwarded,
    Street,
    StreetStarted,
    UncalledBetReturned,
)

_new = tuple.__new__


def deal_started(deal: int, dealer: int, stacks: tuple[int, ...], in_deal: tuple[int, ...]) -> DealStarted:
    return _new(DealStarted, (deal, dealer, stacks, in_deal))


def blind_posted(seat: int, blind: str, amount: int, all_in: bool) -> BlindPosted:
    return _new(BlindPosted, (seat, blind, amount, all_in))


def hole_cards_dealt(seat: int, cards: tuple[int, int]) -> HoleCardsDealt:
    return _new(HoleCardsDealt, (seat, cards))


def street_started(street: Street, board: tuple[int, ...]) -> StreetStarted:
    return _new(StreetStarted, (street, board))


def action_taken(seat: int, action: ActionKind, added: int, street_total: int, all_in: bool) -> ActionTaken:
    return _new(ActionTaken, (seat, action, added, street_total, all_in))


def uncalled_bet_returned(seat: int, amount: int) -> UncalledBetReturned:
    return _new(UncalledBetReturned, (seat, amount))


def hand_shown(seat: int, cards: tuple[int, int], strength: int, folded: bool) -> HandShown:
    return _new(HandShown, (seat, cards, strength, folded))


def pot_awarded(
    pot: int,
    amount: int,
    eligible: tuple[int, ...],
    winners: tuple[int, ...],
    shares: tuple[int, ...],
    showdown: bool,
) -> PotAwarded:
    return _new(PotAwarded, (pot, amount, eligible, winners, shares, showdown))


def deal_ended(stacks: tuple[int, ...], showdown: bool) -> DealEnded:
    return _new(DealEnded, (stacks, showdown))


def memoized(maker: Callable[..., Any], limit: int = 1 << 16) -> Callable[..., Any]:
    """``maker`` returning one shared event per distinct argument tuple (hashable arguments only).

    The cache is emptied when it reaches ``limit`` entries, so memory stays bounded whatever the chips.
    """
    cache: dict[tuple[Any, ...], Any] = {}
    get = cache.get

    def make(*args: Any) -> Any:
        event = get(args)
        if event is None:
            if len(cache) >= limit:
                cache.clear()
            event = cache[args] = maker(*args)
        return event

    return make


def check_maker(cls: type, maker: Callable[..., Any]) -> None:
    """Raise ``TypeError`` unless ``maker`` takes exactly ``cls``'s fields, in order."""
    names = tuple(inspect.signature(maker).parameters)
    if names != cls._fields:  # type: ignore[attr-defined]
        raise TypeError(f"{cls.__name__} has fields {cls._fields}; its maker takes {names}")  # type: ignore[attr-defined]


MAKERS: dict[type, Callable[..., Any]] = {
    DealStarted: deal_started,
    BlindPosted: blind_posted,
    HoleCardsDealt: hole_cards_dealt,
    StreetStarted: street_started,
    ActionTaken: action_taken,
    UncalledBetReturned: uncalled_bet_returned,
    HandShown: hand_shown,
    PotAwarded: pot_awarded,
    DealEnded: deal_ended,
}
for _cls, _maker in MAKERS.items():
    check_maker(_cls, _maker)
