"""The TwoCardDraw judge in-process: method calls, money, the round2 rule, faults, scoring, replay."""

from __future__ import annotations

import io
import json
import random

import numpy as np
import pytest

from arena.engines.twocard.generator import random_strategy
from arena.engines.twocard.hand import IllegalAnswer, play_hand
from arena.engines.twocard.rules import compare
from arena.engines.twocard.strategy import DRAW_SHAPE, ROUND1_SHAPE, ROUND2_SHAPE, Strategy
from arena.engines.twocard.value import best_response
from arena.faults import FaultKind
from arena.games.twocard.judge import case_score, overall_score, run_case
from arena.games.twocard.policy_player import PolicyPlayer
from arena.games.twocard.seats import ObjectSeat, SeatFault, parse_answer


def aggressive_server(bet1: int = 2, bet2: int = 5) -> Strategy:
    """Raises whenever it may, calls at 3 bets, never draws: every hand is scripted by the player."""
    round1 = np.zeros(ROUND1_SHAPE)
    round1[..., 2] = 1.0
    round1[:, 3] = [0, 1, 0]
    draw = np.zeros(DRAW_SHAPE)
    draw[..., 0] = 1.0
    round2 = np.zeros(ROUND2_SHAPE)
    round2[..., 2] = 1.0
    round2[..., 3, :] = [0, 1, 0]
    return Strategy(bet1, bet2, round1, draw, round2)


class Script:
    """Answers from a list, records every call."""

    def __init__(self, answers: list[int]) -> None:
        self.answers = answers
        self.calls: list[str] = []

    def __call__(self, method: str, args: tuple[int, ...]) -> int:
        self.calls.append(" ".join([method, *map(str, args)]))
        return self.answers.pop(0) if method != "showdown" else 0


def test_check_then_fold_to_the_servers_bet_loses_the_ante() -> None:
    script = Script([0, 0])
    record = play_hand(1, aggressive_server(), 0, random.Random(1), script)
    assert record.profit == -1
    assert record.round1 == "k r f"
    c1, c2 = record.you
    assert script.calls == [f"new_hand {c1} {c2} 0", f"round1 {c1} {c2} 1"]


def test_a_full_hand_with_three_bets_and_000s_round2_zero_means_check() -> None:
    # bet, server raises, raise (3 bets, server calls), draw 0, round2 returns 0 (= check), server bets, call
    script = Script([1, 2, 0, 0, 1])
    strategy = aggressive_server(bet1=2, bet2=5)
    record = play_hand(7, strategy, 12, random.Random(7), script)
    c1, c2 = record.you
    assert record.round1 == "b r r c"
    assert record.round2 == "k r c"
    assert record.showdown
    assert record.profit == compare(record.you, record.server) * (1 + 3 * 2 + 1 * 5)
    s1, s2 = record.server
    assert script.calls == [
        f"new_hand {c1} {c2} 12",
        f"round1 {c1} {c2} 2",
        f"draw {c1} {c2} 3",
        f"round2 {c1} {c2} 3 0 0",
        f"round2 {c1} {c2} 3 1 0",
        f"showdown {c1} {c2} {s1} {s2}",
    ]


def test_folding_to_a_reraise_in_round_two_loses_what_was_put_in() -> None:
    # check (server bets), call: 1 bet; draw 2; bet (server raises), fold
    script = Script([0, 1, 2, 2, 0])
    record = play_hand(3, aggressive_server(bet1=1, bet2=3), 0, random.Random(3), script)
    assert record.round1 == "k r c" and record.round2 == "b r f"
    assert record.profit == -(1 + 1 + 3)
    assert record.you_drew == 2 and record.server_drew == 0


@pytest.mark.parametrize(
    ("answers", "method"),
    [
        ([2], "new_hand"),
        ([0, 3], "round1"),
        ([0, 2, 2], "round1"),  # no raise at 3 bets
        ([0, 1, 5], "draw"),
        ([0, 1, 0, -1], "round2"),
    ],
)
def test_answers_the_rules_do_not_allow_are_illegal(answers: list[int], method: str) -> None:
    with pytest.raises(IllegalAnswer) as caught:
        play_hand(1, aggressive_server(), 0, random.Random(1), Script(answers))
    assert caught.value.method == method


class Stubborn:
    """Always answers 7."""

    def __getattr__(self, name: str):
        return lambda *args: 7


def test_an_illegal_answer_ends_the_test_case_with_a_recorded_fault() -> None:
    strategy = aggressive_server()
    result = run_case(1, "s.txt", strategy, -0.5, ObjectSeat(Stubborn(), team="stubborn"), hands=10)
    assert result.fault is not None
    assert result.fault.kind is FaultKind.INVALID_ANSWER
    assert result.fault.deal == 1 and result.fault.stage == "new_hand"
    assert "new_hand" in result.fault.reason and "answered 7" in result.fault.reason
    assert result.score == 0 and result.hands_played == 0


def test_running_out_of_time_is_a_timeout_fault() -> None:
    strategy = random_strategy(1, 2, np.random.default_rng(0))
    seat = ObjectSeat(PolicyPlayer(best_response(strategy).policy), budget_s=0.0)
    result = run_case(1, "s.txt", strategy, -0.5, seat, hands=5)
    assert result.fault is not None and result.fault.kind is FaultKind.TIMEOUT
    assert "thinking time" in result.fault.reason


def test_score_is_profit_plus_ten_thousand_floored_at_zero_and_averaged() -> None:
    assert case_score(-250, None) == 9750
    assert case_score(-12_000, None) == 0
    assert case_score(5_000, None) == 15_000
    strategy = random_strategy(2, 4, np.random.default_rng(1))
    seat = ObjectSeat(PolicyPlayer(best_response(strategy).policy))
    result = run_case(1, "s.txt", strategy, best_response(strategy).value, seat, hands=200)
    assert result.score == result.profit + 10_000
    assert overall_score([result, result]) == result.score


def test_judge_with_the_best_response_player_matches_the_exact_value() -> None:
    strategy = random_strategy(2, 4, np.random.default_rng(8))
    best = best_response(strategy)
    log = io.StringIO()
    hands = 20_000
    result = run_case(
        1, "s.txt", strategy, best.value, ObjectSeat(PolicyPlayer(best.policy)), hands=hands, log=log
    )
    profits = np.array([json.loads(line)["profit"] for line in log.getvalue().splitlines()])
    assert len(profits) == hands and profits.sum() == result.profit
    error = profits.std() / np.sqrt(hands)
    assert abs(profits.mean() + best.value) < 4 * error
    assert result.best_expected_profit == pytest.approx(-best.value * hands)


class Caller:
    """Checks and calls everything, never draws."""

    def __getattr__(self, name: str):
        return lambda *args: 1 if name in ("round1", "round2") else 0


def test_hands_replay_from_the_seed_whatever_the_player_does() -> None:
    strategy = random_strategy(2, 4, np.random.default_rng(2))
    logs = []
    for player in (
        PolicyPlayer(best_response(strategy).policy),
        PolicyPlayer(best_response(strategy).policy),
        Caller(),
    ):
        log = io.StringIO()
        run_case(1, "s.txt", strategy, 0.0, ObjectSeat(player), hands=50, seed=4, log=log)
        logs.append([json.loads(line) for line in log.getvalue().splitlines()])
    assert logs[0] == logs[1]
    assert [(h["you"], h["server"]) for h in logs[0]] == [(h["you"], h["server"]) for h in logs[2]]


@pytest.mark.parametrize(
    ("text", "expected"),
    [("2", 2), (" 1 \r", 1), ("-10", -10), ("+1", 1), ("999999999999", 999999999999)],
)
def test_an_answer_is_a_plain_integer(text: str, expected: int) -> None:
    assert parse_answer("round1", (1, 3, 1), text, "team") == expected


@pytest.mark.parametrize("text", ["1_0", "\u0661", "1.0", "0x1", "1 2", "1" * 13, "9" * 4000, "--1"])
def test_anything_else_is_not_an_integer_with_a_short_reason(text: str) -> None:
    """Python's int() reads the first two and the 4,000 nines; the protocol does not."""
    with pytest.raises(SeatFault) as raised:
        parse_answer("round1", (1, 3, 1), text, "team")
    assert raised.value.fault.kind is FaultKind.NOT_AN_INTEGER
    assert len(raised.value.fault.reason) < 120
