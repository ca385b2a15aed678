"""The heads-up judge, driven by in-process scripted and simple players."""

from __future__ import annotations

import re
from collections.abc import Callable

import pytest

from arena.cards import parse_cards, shuffled_deck
from arena.engines.headsup import BobActed, BobPolicy
from arena.evaluator.rollouts import rollout_outcomes, win_tie_rates
from arena.faults import FaultKind
from arena.games.headsup.judge import Judge
from arena.games.headsup.judge import JudgeConfig as MatchConfig
from arena.games.headsup.scoring import points
from arena.intervals import mean_interval


class ScriptedPlayer:
    """A channel whose replies are given in advance; it records what the judge sent."""

    def __init__(self, replies: list[str]) -> None:
        self.replies = list(replies)
        self.sent: list[str] = []

    def send(self, line: str, timeout_s: float | None = None) -> None:
        self.sent.extend(line.split("\n"))

    def receive(self, timeout_s: float) -> str | None:
        return self.replies.pop(0) if self.replies else None


class PolicyPlayer:
    """A channel that answers each decision with ``policy(state_line, alice, board) -> list of replies``."""

    def __init__(self, policy: Callable[[list[int], list[int]], list[str]]) -> None:
        self.policy = policy
        self.pending: list[str] = []
        self.lines: list[str] = []

    def send(self, text: str, timeout_s: float | None = None) -> None:
        for line in text.split("\n"):
            self.lines.append(line)
            if line.startswith("BOARD"):
                state = [int(x) for x in self.lines[-3].split()[1:]]
                board = [int(x) for x in line.split()[1:]]
                self.pending.extend(self.policy(state, board))

    def receive(self, timeout_s: float) -> str | None:
        return self.pending.pop(0) if self.pending else None


def stacked(text: str) -> Callable[[int, int], list[int]]:
    cards = parse_cards(text)
    rest = [c for c in shuffled_deck(9) if c not in cards]
    return lambda seed, hand: [*cards, *rest]


def test_a_scripted_hand_with_known_cards_gives_every_line_of_the_transcript() -> None:
    # Alice: As Ah; Bob: 2c 3d; board Ac Ad Kh Qs Js. A raise of 1 is always called; on the river
    # Bob only ties the board at best, so a shove of 99 into 12 (he needs 47.1%) is always folded.
    player = ScriptedPlayer(["RATE 100", "ACTION RAISE 1", "ACTION CHECK", "ACTION CHECK", "ACTION RAISE 99"])
    j = Judge(
        player,
        MatchConfig(hands=1, seed=5),
        bob=BobPolicy(rollout_outcomes),
        rates=win_tie_rates,
        keep_transcript=True,
        deck_for=stacked("AsAh 2c3d AcAdKh QsJs"),
    )
    outcome = j.run()
    assert outcome.completed and outcome.deltas == [11]
    rates = player.sent[4]
    assert re.fullmatch(r"RATES (0|1)\.\d{6} 0\.\d{6}", rates)
    assert player.sent == [
        "1",
        "STATE 1 1 100 100 10 0",
        "ALICE 0 13 2 13",
        "BOARD",
        rates,
        "OPP CALL 1",
        "STATE 1 2 99 99 12 3",
        "ALICE 0 13 2 13",
        "BOARD 1 13 3 13 2 12",
        "OPP CHECK",
        "STATE 1 3 99 99 12 4",
        "ALICE 0 13 2 13",
        "BOARD 1 13 3 13 2 12 0 11",
        "OPP CHECK",
        "STATE 1 4 99 99 12 5",
        "ALICE 0 13 2 13",
        "BOARD 1 13 3 13 2 12 0 11 0 10",
        "OPP FOLD",
        "RESULT 11",
        "SCORE 11.000000",
    ]
    assert outcome.transcript is not None
    assert [line for line in outcome.transcript if line.startswith("<")] == [
        "< RATE 100",
        "< ACTION RAISE 1",
        "< ACTION CHECK",
        "< ACTION CHECK",
        "< ACTION RAISE 99",
    ]
    assert outcome.rate_used == 100 and outcome.raises == 2 and outcome.calls == 1


def test_a_fold_is_answered_by_the_result_alone() -> None:
    player = ScriptedPlayer(["ACTION FOLD"])
    outcome = Judge(
        player,
        MatchConfig(hands=1),
        bob=BobPolicy(rollout_outcomes),
        rates=win_tie_rates,
        deck_for=stacked("AsAh 2c3d AcAdKh QsJs"),
    ).run()
    assert player.sent[-2:] == ["RESULT 0", "SCORE 0.000000"]
    assert outcome.deltas == [0]


@pytest.mark.parametrize(
    ("replies", "kind", "reason"),
    [
        (["ACTION BET 5"], FaultKind.PROTOCOL_ERROR, "is not 'RATE t'"),
        (["ACTION RAISE five"], FaultKind.PROTOCOL_ERROR, "not an integer"),
        (["RATE 0"], FaultKind.PROTOCOL_ERROR, "at least 1"),
        (["ACTION RAISE 0"], FaultKind.INVALID_ANSWER, "RAISE 0 is outside 1..100"),
        (["ACTION RAISE 101"], FaultKind.INVALID_ANSWER, "RAISE 101 is outside 1..100"),
        (["RATE 600", "RATE 401"], FaultKind.RATE_BUDGET, "1001, over the budget of 1000"),
    ],
)
def test_bad_lines_end_the_match_with_minus_one_and_a_recorded_fault(
    replies: list[str],
    kind: FaultKind,
    reason: str,
) -> None:
    player = ScriptedPlayer(replies)
    outcome = Judge(
        player,
        MatchConfig(hands=3, rate_budget=1000, team="t"),
        bob=BobPolicy(rollout_outcomes),
        rates=win_tie_rates,
    ).run()
    assert player.sent[-1] == "-1"
    assert not outcome.completed
    assert outcome.fault is not None
    assert outcome.fault.kind is kind and reason in outcome.fault.reason
    assert (outcome.fault.team, outcome.fault.deal, outcome.fault.stage) == ("t", 1, "round 1")


def test_no_reply_is_a_fault_without_minus_one() -> None:
    player = ScriptedPlayer([])
    outcome = Judge(player, MatchConfig(hands=2), bob=BobPolicy(rollout_outcomes), rates=win_tie_rates).run()
    assert outcome.fault is not None and outcome.fault.kind is FaultKind.NO_ANSWER
    assert player.sent[-1] == "BOARD"


def raise_then_check(state: list[int], board: list[int], *, ask: bool) -> list[str]:
    """Raise a tenth of the stack each round, asking RATE first when ``ask``."""
    _, _, a, _, _, _ = state
    replies = ["RATE 50", "RATE 7"] if ask else []
    return [*replies, f"ACTION RAISE {max(1, a // 10)}" if a else "ACTION CHECK"]


def play(ask: bool, seed: int = 11, hands: int = 150):
    player = PolicyPlayer(lambda s, b: raise_then_check(s, b, ask=ask))
    records = []
    outcome = Judge(
        player,
        MatchConfig(hands=hands, seed=seed),
        bob=BobPolicy(rollout_outcomes),
        rates=win_tie_rates,
        on_hand=records.append,
    ).run()
    return outcome, records


def test_rate_queries_never_change_the_decks_or_bobs_decisions() -> None:
    quiet, quiet_hands = play(ask=False)
    asking, asking_hands = play(ask=True)
    assert asking.rate_used == sum(r.rate_samples for r in asking_hands) > 0
    assert quiet.rate_used == 0
    assert [r.deal for r in quiet_hands] == [r.deal for r in asking_hands]
    bob = [[e for e in r.events if isinstance(e, BobActed)] for r in quiet_hands]
    assert bob == [[e for e in r.events if isinstance(e, BobActed)] for r in asking_hands]
    assert quiet.deltas == asking.deltas
    assert quiet.calls > 0 and quiet.raises > quiet.calls


def test_the_seed_fixes_every_deck_and_another_seed_changes_them() -> None:
    _, first = play(ask=False, seed=3, hands=20)
    _, again = play(ask=False, seed=3, hands=20)
    _, other = play(ask=False, seed=4, hands=20)
    assert [r.deal for r in first] == [r.deal for r in again]
    assert [r.deal for r in first] != [r.deal for r in other]


def test_always_check_wins_half_the_dead_pot() -> None:
    player = PolicyPlayer(lambda s, b: ["ACTION CHECK"])
    outcome = Judge(
        player, MatchConfig(hands=10_000, seed=0), bob=BobPolicy(rollout_outcomes), rates=win_tie_rates
    ).run()
    w = mean_interval(outcome.deltas)
    assert w.low <= 5.0 <= w.high
    assert set(outcome.deltas) <= {0, 5, 10}
    assert player.lines[-1] == f"SCORE {w.mean:.6f}"


@pytest.mark.parametrize(
    ("w", "score"),
    [(8.0, 0), (9.0, 13), (11.0, 40), (12.5, 61), (14.0, 82), (16.0, 88), (20.0, 100)],
)
def test_points_follow_001s_piecewise_formula(w: float, score: int) -> None:
    assert points(w) == score
