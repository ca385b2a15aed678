"""texas: the texas.h interface for Python players, as arena provides it.

A Python player is a module defining ``make_decision(state)`` (``makeDecision`` is accepted too) that
returns ``(action, amount)``: ``(ActionType.CHECK, 0)``, ``(ActionType.RAISE, x)`` with
``1 <= x <= Alice's stack``, or ``(ActionType.FOLD, 0)`` (the strings ``"CHECK"``, ``"RAISE"``, ``"FOLD"``
work as well). ``state.alice``, ``state.bob`` and ``state.community`` are lists of :class:`Card`; an
unknown card is ``Card(-1, -1)``. The helpers are those of ``texas.h``: :func:`get_result` is computed
here; :func:`get_rates_by_sampling` on the state of the current decision is asked of the judge
(``RATE t``, counted in the match budget) and sampled here for any other state.

This file runs inside the player's sandbox, so it depends on nothing but the standard library.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from enum import Enum


class ActionType(Enum):
    """The decisions of ``texas.h``."""

    CHECK = "CHECK"
    CALL = "CALL"
    RAISE = "RAISE"
    FOLD = "FOLD"


@dataclass
class Card:
    """``color`` 0..3 and ``value`` 1..13 (2..A); both -1 when unknown."""

    color: int = -1
    value: int = -1

    @property
    def known(self) -> bool:
        """True for a real card."""
        return 0 <= self.color <= 3 and 1 <= self.value <= 13


def _unknown(n: int) -> list[Card]:
    return [Card() for _ in range(n)]


@dataclass
class State:
    """What Alice sees: her two cards, Bob's two (unknown) and the five community cards."""

    alice: list[Card] = field(default_factory=lambda: _unknown(2))
    bob: list[Card] = field(default_factory=lambda: _unknown(2))
    community: list[Card] = field(default_factory=lambda: _unknown(5))


def _straight_top(mask: int) -> int:
    for top in range(12, 3, -1):
        window = 0x1F << (top - 4)
        if mask & window == window:
            return top
    return 3 if mask & 0x100F == 0x100F else -1


def strength(cards: Sequence[int]) -> tuple[int, ...]:
    """Comparable strength of the best five of seven card indices (``color*13 + value-1``)."""
    counts = [0] * 13
    by_suit = [0, 0, 0, 0]
    for card in cards:
        counts[card % 13] += 1
        by_suit[card // 13] |= 1 << (card % 13)
    for mask in by_suit:
        if mask.bit_count() >= 5:
            top = _straight_top(mask)
            if top >= 0:
                return (8, top)
            return (5, *[r for r in range(12, -1, -1) if mask >> r & 1][:5])
    groups = sorted(((n, r) for r, n in enumerate(counts) if n), reverse=True)
    ranks_by_group = [r for _, r in groups]
    if groups[0][0] == 4:
        return (7, groups[0][1], max(ranks_by_group[1:]))
    if groups[0][0] == 3 and groups[1][0] >= 2:
        return (6, groups[0][1], groups[1][1])
    top = _straight_top(sum(1 << r for r in ranks_by_group))
    if top >= 0:
        return (4, top)
    if groups[0][0] == 3:
        return (3, groups[0][1], *sorted(ranks_by_group[1:], reverse=True)[:2])
    if groups[0][0] == 2 and groups[1][0] == 2:
        return (2, groups[0][1], groups[1][1], max(ranks_by_group[2:]))
    if groups[0][0] == 2:
        return (1, groups[0][1], *sorted(ranks_by_group[1:], reverse=True)[:3])
    return (0, *sorted(ranks_by_group, reverse=True)[:5])


def _index(card: Card) -> int:
    return card.color * 13 + card.value - 1


def get_result(state: State) -> int:
    """1, 0 or -1: Alice's seven cards beat, tie or lose to Bob's (all nine cards known)."""
    board = [_index(c) for c in state.community]
    alice = strength([_index(c) for c in state.alice] + board)
    bob = strength([_index(c) for c in state.bob] + board)
    return (alice > bob) - (alice < bob)


_local = random.Random(20260101)


def _sample_locally(state: State, t: int) -> tuple[float, float]:
    slots = [*state.alice, *state.bob, *state.community]
    used = {_index(c) for c in slots if c.known}
    pool = [c for c in range(52) if c not in used]
    wins = ties = 0
    for _ in range(t):
        drawn = iter(_local.sample(pool, sum(not c.known for c in slots)))
        cards = [_index(c) if c.known else next(drawn) for c in slots]
        alice = strength([cards[0], cards[1], *cards[4:]])
        bob = strength([cards[2], cards[3], *cards[4:]])
        wins += alice > bob
        ties += alice == bob
    return (wins / t, ties / t) if t > 0 else (0.0, 0.0)


class _Judge:
    """The driver's link to the judge: the current decision's state and the RATE exchange."""

    current: State | None = None
    ask: Callable[[int], tuple[float, float]] | None = None


def _same(a: State, b: State) -> bool:
    same = [(x.color, x.value) for x in (*a.alice, *a.community)] == [
        (x.color, x.value) for x in (*b.alice, *b.community)
    ]
    return same and not any(c.known for c in a.bob)


def get_rates_by_sampling(state: State, t: int) -> tuple[float, float]:
    """(win, tie) frequencies over ``t`` random completions of the unknown cards of ``state``."""
    if _Judge.current is not None and _Judge.ask is not None and _same(state, _Judge.current):
        return _Judge.ask(t)
    return _sample_locally(state, t)


getResult = get_result
getRatesBySampling = get_rates_by_sampling
