"""The luck-adjusted result of a deal (``arena.engines.nlhe.luck``): zero-sum, corrections of mean zero,
and all-in deals valued at the equity the engine itself pays out over every board still to come."""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Sequence
from itertools import chain, combinations

import numpy as np
from hypothesis import example, given, settings
from hypothesis import strategies as st

from arena.engines.nlhe import CheckCall, Deal, Fold, RaiseTo, TableRules
from arena.engines.nlhe.events import DealEnded, Event, HoleCardsDealt, Street, StreetStarted
from arena.engines.nlhe.luck import (
    MODEL,
    NO_BETTING,
    Layer,
    ValueModel,
    board_strengths,
    deal_luck,
    edges,
    even_shares,
    fit_model,
    pot_layers,
    showdown_shares,
)
from arena.evaluator.batch import evaluate_batch
from tests.support.exports import random_deals

Script = Callable[[Deal], None]


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 2**32), seats=st.integers(2, 6))
def test_a_deal_s_adjusted_results_sum_to_zero_like_its_chips(seed: int, seats: int) -> None:
    for events in random_deals(random.Random(seed), seats=seats, deals=3):
        luck = deal_luck(events)
        assert sum(luck.chips) == 0
        assert math.isclose(math.fsum(luck.adjusted), 0.0, abs_tol=1e-6), luck
        for correction in luck.corrections:
            assert math.isclose(math.fsum(correction.luck), 0.0, abs_tol=1e-6), correction
        streets = [c.street for c in luck.corrections]
        assert streets == [Street.PRE_FLOP, Street.FLOP, Street.TURN, Street.RIVER][: len(streets)]


def test_a_deal_without_board_cards_only_corrects_the_hole_cards() -> None:
    deal = Deal(rules=TableRules(seats=3), deal_number=4, dealer=1, stacks=[1500] * 3, deck=list(range(52)))
    deal.apply(Fold())
    deal.apply(Fold())
    luck = deal_luck(deal.events)
    assert [c.street for c in luck.corrections] == [Street.PRE_FLOP]
    hole = luck.corrections[0]
    assert hole.before == (
        5.0,
        5 - 5.0,
        5 - 10.0,
    )  # the blinds' 15 shared evenly by three, less what each put in
    assert math.isclose(math.fsum(hole.after), 0.0, abs_tol=1e-9)
    assert luck.adjusted == tuple(won - lucky for won, lucky in zip(luck.chips, hole.luck, strict=True))
    assert luck.chips == (0, -5, 5)


def _board_event(events: Sequence[Event], street: Street) -> int:
    return next(i for i, e in enumerate(events) if isinstance(e, StreetStarted) and e.street is street)


BETTING = ValueModel({street: 0.5 for street in Street})
"""A value function counting the chips still to bet heavily: every correction must keep its zero mean."""


@settings(max_examples=15, deadline=None)
@given(
    seed=st.integers(0, 2**32), seats=st.integers(2, 4), model=st.sampled_from([NO_BETTING, MODEL, BETTING])
)
def test_the_mean_of_a_turn_or_river_correction_over_every_card_is_zero(
    seed: int, seats: int, model: ValueModel
) -> None:
    """Enumerate every card the turn (or river) could have been: the values after it, the chips still to
    bet included, average to the value before it, so the correction has mean zero whatever the players
    do and whatever the weights."""
    rng = random.Random(seed)
    deal = next(
        (d for d in random_deals(rng, seats=seats, deals=40) if len(deal_luck(d).corrections) == 4), None
    )
    if deal is None:
        return
    luck = deal_luck(deal, model)
    holes = {e.seat: e.cards for e in deal if isinstance(e, HoleCardsDealt)}
    board = tuple(c for e in deal if isinstance(e, StreetStarted) for c in e.board)
    street, shown = rng.choice([(Street.TURN, 3), (Street.RIVER, 4)])
    correction = luck.corrections[[c.street for c in luck.corrections].index(street)]
    put_in, live, capped = _state_before(deal, _board_event(deal, street))
    layers = pot_layers(put_in, live, capped)
    stacks = deal[0].stacks  # type: ignore[union-attr]
    bettors = [s for s in live if s not in capped]
    behind = sorted(stacks[s - 1] - put_in[s] for s in bettors)
    at_stake = behind[-2] if len(behind) > 1 else 0
    dead = {c for cards in holes.values() for c in cards} | set(board[:shown])
    after = []
    for card in (c for c in range(52) if c not in dead):
        seats_, strengths = board_strengths(holes, (*board[:shown], card), None)
        shares = showdown_shares(seats_, strengths, layers)
        equity = showdown_shares(seats_, strengths, [Layer(1, tuple(live))])
        edge = edges(equity, bettors)
        weight = model.weights.get(street, 0.0)
        after.append(
            [
                shares.get(s, 0.0) - put_in.get(s, 0) + weight * edge.get(s, 0.0) * at_stake
                for s in range(1, len(stacks) + 1)
            ]
        )
    mean = np.mean(after, axis=0)
    assert np.allclose(mean, correction.before, atol=1e-6)
    assert any(np.allclose(row, correction.after, atol=1e-6) for row in after)  # the card that came
    assert math.isclose(math.fsum(correction.luck), 0.0, abs_tol=1e-6)


def test_the_fitted_weights_leave_nothing_the_stakes_could_still_predict() -> None:
    """Least squares: with the fitted weights, the chips a seat still wins after each chance event beyond
    its value there are uncorrelated with its edge times the chips at stake (the normal equation), and
    the weights are not all zero on deals where chips are bet after the cards."""
    deals = list(random_deals(random.Random(8), seats=3, deals=80))
    model = fit_model(deals)
    assert model.weights and any(model.weights.values())
    left: dict[Street, float] = {}
    scale: dict[Street, float] = {}
    for events in deals:
        luck = deal_luck(events, model)
        for c in luck.corrections:
            for seat, stake in enumerate(c.stakes):
                left[c.street] = left.get(c.street, 0.0) + stake * (luck.chips[seat] - c.after[seat])
                scale[c.street] = scale.get(c.street, 0.0) + abs(stake * luck.chips[seat])
    for street in model.weights:
        assert abs(left[street]) < 1e-3 * scale[street], street  # the weights are rounded to 4 places
    assert fit_model([]) == NO_BETTING


def _state_before(events: Sequence[Event], index: int) -> tuple[dict[int, int], list[int], list[int]]:
    """Contributions, live seats and all-in seats just before ``events[index]``, rebuilt independently."""
    from arena.engines.nlhe.events import ActionKind, ActionTaken, BlindPosted, UncalledBetReturned

    start = events[0]
    put_in = {s: 0 for s in start.in_deal}  # type: ignore[union-attr]
    live, capped = list(start.in_deal), []  # type: ignore[union-attr]
    for event in events[:index]:
        if isinstance(event, BlindPosted | ActionTaken):
            put_in[event.seat] += event.amount if isinstance(event, BlindPosted) else event.added
            if isinstance(event, ActionTaken) and event.action is ActionKind.FOLD:
                live.remove(event.seat)
            elif event.all_in:
                capped.append(event.seat)
        elif isinstance(event, UncalledBetReturned):
            put_in[event.seat] -= event.amount
    return put_in, live, capped


def test_the_hole_cards_correction_has_mean_zero_over_every_deal_of_two_hands() -> None:
    """The value before the hole cards is each seat's even share, with no chips still to bet: enumerate
    every pair of heads-up hands on a fixed board (the board's own cards cannot favour a seat) and
    compare the mean share and the mean edge."""
    board = np.array([0, 13, 27, 40, 8], dtype=np.uint8)  # a deuce of each suit but one, and a ten
    left = [c for c in range(52) if c not in board]
    hands = np.array(list(combinations(left, 2)), dtype=np.uint8)
    strengths = evaluate_batch(np.hstack([hands, np.broadcast_to(board, (len(hands), 5))]))
    masks = (np.int64(1) << hands[:, 0].astype(np.int64)) | (np.int64(1) << hands[:, 1].astype(np.int64))
    first, second = np.nonzero((masks[:, None] & masks[None, :]) == 0)
    a, b = strengths[first], strengths[second]
    layers = [Layer(15, (1, 2)), Layer(5, (2,))]  # small blind all-in for 5 against the big blind's 10
    wins_one = np.where(a > b, 1.0, np.where(a == b, 0.5, 0.0))
    share_one = 15 * np.mean(wins_one)
    assert math.isclose(share_one, even_shares(layers)[1], rel_tol=1e-12)
    # the value function's edge at the hole cards (equity less the mean equity) has mean zero too
    wins_two = 1 - wins_one
    assert math.isclose(np.mean(wins_one - (wins_one + wins_two) / 2), 0.0, abs_tol=1e-12)
    assert even_shares(layers) == {1: 7.5, 2: 12.5}


def test_pot_layers_cap_the_all_in_seats_only() -> None:
    # seat 1 all-in for 50, seats 2 and 3 in for 200 and 120 and still betting, seat 4 folded after 30
    layers = pot_layers({1: 50, 2: 200, 3: 120, 4: 30}, [1, 2, 3], [1])
    assert layers == [Layer(50 * 3 + 30, (1, 2, 3)), Layer(150 + 70, (2, 3))]
    assert sum(layer.amount for layer in layers) == 400


def _play(deck: Sequence[int], stacks: Sequence[int], script: Script) -> Deal:
    deal = Deal(rules=TableRules(seats=len(stacks)), deal_number=7, dealer=1, stacks=stacks, deck=deck)
    script(deal)
    return deal


def _all_in_on(street: Street, folds: int) -> Script:
    """Limp to ``street``, where the first to act moves all-in and everyone calls (``folds`` seats fold
    first, pre-flop); the same actions whatever the cards."""

    def script(deal: Deal) -> None:
        for _ in range(folds):
            deal.apply(Fold())
        shoved = False
        while not deal.is_over:
            if deal.street is street and not shoved and deal.can_raise():
                deal.apply(RaiseTo(deal.max_raise_to()))
                shoved = True
            else:
                deal.apply(CheckCall())

    return script


@settings(max_examples=12, deadline=None)
@given(
    deck=st.permutations(range(52)),
    stacks=st.lists(st.integers(40, 400), min_size=2, max_size=4),
    folds=st.integers(0, 1),
    street=st.sampled_from([Street.FLOP, Street.TURN]),
)
# Four equal stacks all in on the flop: three-way splits, whose odd chips the engine pays whole.
@example(
    deck=[
        41,
        1,
        2,
        15,
        4,
        8,
        10,
        5,
        7,
        29,
        6,
        11,
        12,
        43,
        14,
        18,
        16,
        17,
        3,
        19,
        20,
        21,
        22,
        23,
        24,
        25,
        26,
        27,
        28,
        9,
        30,
        31,
        32,
        33,
        34,
        35,
        36,
        37,
        38,
        39,
        40,
        0,
        42,
        13,
        44,
        45,
        46,
        47,
        48,
        49,
        50,
        51,
    ],
    stacks=[40, 40, 40, 40],
    folds=0,
    street=Street.FLOP,
)
def test_an_all_in_deal_is_valued_at_the_equity_the_engine_pays_over_every_run_out(
    deck: list[int], stacks: list[int], folds: int, street: Street
) -> None:
    """Once the chips are in (the rest checked down), chips less the corrections of the cards still to
    come is the mean of what the engine itself pays the seat over every run-out (differential: the
    engine's pots and odd chips); the value function counts no chips still to bet where nobody can."""
    script = _all_in_on(street, min(folds, len(stacks) - 2))
    deal = _play(deck, stacks, script)
    luck = deal_luck(deal.events, NO_BETTING)
    if not any(any(c.stakes) for c in deal_luck(deal.events).corrections[1:]):
        assert deal_luck(deal.events).adjusted == luck.adjusted  # nobody can bet: no chips still to bet
    streets = [c.street for c in luck.corrections]
    if street not in streets or deal.events[-1].showdown is False:  # type: ignore[union-attr]
        return
    later = luck.corrections[streets.index(street) + 1 :]
    valued = [won - math.fsum(c.luck[i] for c in later) for i, won in enumerate(luck.chips)]
    board = [c for e in deal.events if isinstance(e, StreetStarted) for c in e.board]
    known = 3 if street is Street.FLOP else 4
    at = [deck.index(card) for card in board[known:]]
    dead = {c for e in deal.events if isinstance(e, HoleCardsDealt) for c in e.cards} | set(board[:known])
    payouts = []
    for run_out in combinations([c for c in range(52) if c not in dead], 5 - known):
        other = list(deck)
        for position, card in zip(at, run_out, strict=True):
            other[other.index(card)], other[position] = other[position], card
        end = _play(other, stacks, script).events[-1]
        assert isinstance(end, DealEnded)
        payouts.append([after - before for after, before in zip(end.stacks, stacks, strict=True)])
    exact = np.mean(payouts, axis=0)
    # The engine pays a split's odd chips whole, to the seats nearest the button; the equity pays each of k
    # winners a k-th: a seat's mean can differ by up to (k - 1) / k of a chip (2/3 in a three-way split).
    assert np.allclose(valued, exact, atol=1.0), (valued, exact)


def test_an_all_in_before_the_flop_is_valued_at_its_equity_within_the_stated_sample() -> None:
    deck = list(range(52))
    random.Random(3).shuffle(deck)
    deal = _play(deck, [1000, 1000], _all_in_on(Street.PRE_FLOP, 0))
    luck = deal_luck(deal.events)
    valued = luck.chips[0] - math.fsum(c.luck[0] for c in luck.corrections[1:])
    holes = {e.seat: e.cards for e in deal.events if isinstance(e, HoleCardsDealt)}
    left = np.array([c for c in range(52) if c not in {*holes[1], *holes[2]}], dtype=np.uint8)
    flat = np.fromiter(chain.from_iterable(combinations(range(48), 5)), dtype=np.intp)
    boards = left[flat.reshape(-1, 5)]
    one = evaluate_batch(np.hstack([np.broadcast_to(np.array(holes[1], np.uint8), (len(boards), 2)), boards]))
    two = evaluate_batch(np.hstack([np.broadcast_to(np.array(holes[2], np.uint8), (len(boards), 2)), boards]))
    equity = np.mean(np.where(one > two, 1.0, np.where(one == two, 0.5, 0.0)))
    exact = 2000 * equity - 1000
    assert abs(valued - exact) < 4 * 2000 * 0.005, (valued, exact)  # four standard errors of the sample
