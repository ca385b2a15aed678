"""The heads-up hand engine: Bob's rule, chips, showdown with the shared evaluator."""

from __future__ import annotations

import numpy as np
import pytest

import arena.engines.headsup as engine
from arena.cards import parse_cards, shuffled_deck
from arena.engines.headsup import BobPolicy, HandEnded, HeadsUpHand, Move, ShowedDown
from arena.engines.headsup import HandCards as Deal
from arena.evaluator import evaluate
from arena.evaluator.rollouts import rollout_outcomes


def fixed_outcomes(wins: int, ties: int, losses: int):
    """An outcomes function that always answers the same counts (to test Bob's arithmetic)."""

    def outcomes(hero, board, samples, rng):
        assert samples == wins + ties + losses
        return np.array([1] * wins + [0] * ties + [-1] * losses, dtype=np.int8)

    return outcomes


def deal_of(text: str) -> Deal:
    cards = parse_cards(text)
    rest = [c for c in shuffled_deck(1) if c not in cards]
    return Deal.from_deck([*cards, *rest])


@pytest.mark.parametrize(
    ("wins", "ties", "calls"),
    [
        (33, 1, True),
        (33, 0, False),
        (34, 0, True),
        (0, 66, False),
        (0, 67, True),
        (100, 0, True),
        (0, 0, False),
    ],
)
def test_bob_calls_iff_mean_profit_of_calling_beats_folding(wins: int, ties: int, calls: bool) -> None:
    # Pot 10, raise 10: calling wins 30 on a win, 15 on a tie, so he calls iff 30w + 15t > 1000.
    bob = BobPolicy(fixed_outcomes(wins, ties, 100 - wins - ties))
    estimate = bob.estimate(
        bob=(0, 1), board=(), pot=10, bob_stack=100, raise_by=10, rng=np.random.default_rng(0)
    )
    assert estimate.ev_fold == 0.0
    assert estimate.ev_call == pytest.approx((wins * 20 + ties * 5 - (100 - wins - ties) * 10) / 100)
    assert estimate.calls is calls


def test_chips_move_as_001_says_through_a_called_raise_and_a_showdown() -> None:
    hand = HeadsUpHand(deal_of("AsAh 2c3d AcAdKh QsJs"))
    bob = BobPolicy(fixed_outcomes(100, 0, 0))
    events = hand.raise_(30, bob, np.random.default_rng(0))
    assert [type(e).__name__ for e in events] == ["AliceActed", "BobActed"]
    assert events[1].move is Move.CALL and events[1].amount == 30
    assert (hand.alice_stack, hand.bob_stack, hand.pot, hand.round) == (70, 70, 70, 2)
    hand.check()
    hand.check()
    last = hand.check()
    assert isinstance(last[-2], ShowedDown) and last[-2].outcome == 1
    assert last[-1] == HandEnded(40)
    assert hand.over and hand.delta == 40


def test_bob_folding_gives_alice_the_pot_with_her_raise() -> None:
    hand = HeadsUpHand(deal_of("2s7h AcKc 9d9h4c 5s Jd"))
    events = hand.raise_(100, BobPolicy(fixed_outcomes(0, 0, 100)), np.random.default_rng(0))
    assert events[1].move is Move.FOLD
    assert events[-1] == HandEnded(10)


def test_folding_loses_what_alice_put_in() -> None:
    hand = HeadsUpHand(deal_of("2s7h AcKc 9d9h4c 5s Jd"))
    hand.raise_(20, BobPolicy(fixed_outcomes(100, 0, 0)), np.random.default_rng(0))
    assert hand.fold()[-1] == HandEnded(-20)


def test_a_tie_splits_the_pot() -> None:
    hand = HeadsUpHand(deal_of("2s3h 2c3d AcKdQh JsTs"))  # both play the board's straight
    for _ in range(4):
        events = hand.check()
    assert events[-1] == HandEnded(5)


@pytest.mark.parametrize("amount", [0, -1, 101])
def test_raises_outside_one_to_the_stack_are_illegal(amount: int) -> None:
    hand = HeadsUpHand(deal_of("2s3h 2c3d AcKdQh JsTs"))
    assert not hand.can_raise(amount)
    with pytest.raises(ValueError, match=r"outside 1\.\.100"):
        hand.raise_(amount, BobPolicy(fixed_outcomes(100, 0, 0)), np.random.default_rng(0))


def test_showdown_uses_the_shared_evaluator() -> None:
    assert engine.evaluate is evaluate
    rng = np.random.default_rng(7)
    for _ in range(300):
        deck = [int(c) for c in rng.permutation(52)]
        hand = HeadsUpHand(Deal.from_deck(deck))
        for _ in range(4):
            events = hand.check()
        shown = events[-2]
        assert isinstance(shown, ShowedDown)
        assert shown.alice_strength == evaluate([*deck[0:2], *deck[4:9]])
        assert shown.bob_strength == evaluate([*deck[2:4], *deck[4:9]])
        assert hand.delta == {1: 10, 0: 5, -1: 0}[shown.outcome]


def test_bob_with_real_rollouts_calls_a_tiny_raise_and_folds_a_hopeless_shove() -> None:
    rng = np.random.default_rng(3)
    bob = BobPolicy(rollout_outcomes)
    hand = HeadsUpHand(deal_of("AsAh 2c3d AcAdKh QsJs"))
    assert hand.raise_(1, bob, rng)[1].move is Move.CALL
    hand.check()
    hand.check()
    answer = hand.raise_(99, bob, rng)[1]
    assert answer.move is Move.FOLD
    assert answer.estimate is not None and answer.estimate.wins == 0
