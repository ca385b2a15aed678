"""Engine tables of scripted policies: no sandbox, no files; what the format simulator measures its noise on.

A policy is a function of the deal and the seat to act. :func:`threshold_policy` is the family used:
it plays a hand when its pre-flop score (the higher card's rank, doubled for a pair, plus 2 when suited)
reaches ``play_at`` (calling up to three big blinds), opens for three big blinds with a score of at least
``raise_at`` and never re-raises; after the flop it bets half the pot with such a score when nobody has
bet, else checks, and calls a bet of at most half the pot. A
table of six identical policies has every team's expected profit 0 by symmetry, so the spread of
their table results is pure luck: :func:`table_noise` measures it.
"""

from __future__ import annotations

import math
import statistics
from collections.abc import Callable, Sequence

from arena.cards import derive_seed, rank_of, shuffled_deck, suit_of
from arena.engines.nlhe.actions import Action, CheckCall, Fold, RaiseTo
from arena.engines.nlhe.deal import Deal
from arena.engines.nlhe.luck import deal_luck
from arena.engines.nlhe.rules import TableRules, next_dealer

Policy = Callable[[Deal, int], Action]


def preflop_score(cards: tuple[int, int]) -> int:
    """The higher card's rank (0 for a two .. 12 for an ace), doubled for a pair, plus 2 when suited."""
    high = max(rank_of(cards[0]), rank_of(cards[1]))
    score = 2 * high if rank_of(cards[0]) == rank_of(cards[1]) else high
    return score + (2 if suit_of(cards[0]) == suit_of(cards[1]) else 0)


def threshold_policy(play_at: int, raise_at: int) -> Policy:
    """The scripted family of this module's docstring."""

    def decide(deal: Deal, seat: int) -> Action:
        score = preflop_score(deal.hole_cards(seat))
        owed = deal.to_call(seat)
        big_blind = deal.rules.big_blind
        if not deal.board:
            if score >= raise_at and deal.current_bet <= big_blind and deal.can_raise():
                return RaiseTo(max(deal.min_raise_to(), min(3 * big_blind, deal.max_raise_to())))
            return CheckCall() if owed == 0 or (score >= play_at and owed <= 3 * big_blind) else Fold()
        if owed == 0:
            half_pot = deal.pot_total // 2
            if score >= raise_at and deal.can_raise() and half_pot >= deal.min_raise_to():
                return RaiseTo(min(half_pot, deal.max_raise_to()))
            return CheckCall()
        return CheckCall() if 2 * owed <= deal.pot_total else Fold()

    return decide


def play_engine_table(
    policies: Sequence[Policy], deals: int, *, seed: int, rules: TableRules, adjusted: bool = False
) -> list[float]:
    """Each seat's profit after ``deals`` deals (stacks carry over; a busted seat sits out, as at a table);
    ``adjusted``: its luck-adjusted value summed over the deals instead (``arena.engines.nlhe.luck``)."""
    seats = len(policies)
    rules = TableRules(
        seats=seats,
        small_blind=rules.small_blind,
        big_blind=rules.big_blind,
        starting_stack=rules.starting_stack,
    )
    stacks = [rules.starting_stack] * seats
    values = [0.0] * seats
    dealer = 1 + derive_seed(seed, "dealer") % seats
    for number in range(1, deals + 1):
        if sum(1 for s in stacks if s > 0) < 2:
            break
        if number > 1:
            dealer = next_dealer(stacks, dealer)
        deal = Deal(
            rules=rules,
            deal_number=number,
            dealer=dealer,
            stacks=stacks,
            deck=shuffled_deck(derive_seed(seed, number)),
        )
        while not deal.is_over:
            actor = deal.actor
            assert actor is not None
            deal.apply(policies[actor - 1](deal, actor))
        stacks = list(deal.final_stacks)
        if adjusted:
            values = [v + a for v, a in zip(values, deal_luck(deal.events).adjusted, strict=True)]
    return values if adjusted else [chips - rules.starting_stack for chips in stacks]


def table_noise(
    tables: int,
    deals: int,
    *,
    seed: int,
    rules: TableRules | None = None,
    policy: Policy | None = None,
    adjusted: bool = False,
) -> float:
    """The standard deviation of one team's profit per deal at a table of six equal scripted policies
    (``adjusted``: of its luck-adjusted value per deal, at the same tables).

    Measured over ``tables`` tables of ``deals`` deals; each table's six results sum to zero, so the
    variance of a result is ``(5/6)`` of the independent noise's, which is what is returned (its root).
    """
    rules = rules or TableRules()
    policy = policy or threshold_policy(play_at=9, raise_at=12)
    results: list[float] = []
    for table in range(tables):
        profits = play_engine_table(
            [policy] * 6, deals, seed=derive_seed(seed, "noise", table), rules=rules, adjusted=adjusted
        )
        results.extend(p / deals for p in profits)
    return math.sqrt(statistics.pvariance(results, mu=0.0) * 6 / 5)
