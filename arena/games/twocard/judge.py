"""The TwoCardDraw judge: one test case = one server strategy, ``hands`` hands against one seat.

Scoring is TwoCardDraw's: the test case scores ``max(0, profit + 10000)`` and the overall score is the mean
over test cases. A fault (crash, time-out, answer the rules do not allow) ends the test case at once;
it is recorded with its reason and the test case scores 0, as a failed TopCoder test did. Each hand's
cards and server choices come from its own generator (:func:`hand_rng`): seeded from the test case's
secret (``HMAC-SHA256(T, "twocard/<case>/<hand>")``), or from a known seed (demos), so a hand replays alone.
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable
from dataclasses import asdict, dataclass
from typing import IO, Any

from arena import untrusted
from arena.decks.derive import StreamSeeds
from arena.engines.twocard.hand import IllegalAnswer, play_hand
from arena.engines.twocard.strategy import Strategy
from arena.faults import Fault, FaultKind
from arena.games.twocard.seats import Seat, SeatFault

SCORE_OFFSET = 10_000
DEFAULT_HANDS = 10_000
DEFAULT_TIME_S = 20.0


@dataclass
class CaseResult:
    """The outcome of one test case."""

    case: int
    strategy: str
    bet1: int
    bet2: int
    value: float
    hands: int
    hands_played: int
    profit: int
    score: float
    best_expected_profit: float
    share: float | None
    time_s: float
    fault: Fault | None = None

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready form."""
        data = asdict(self)
        data["fault"] = self.fault.to_dict() if self.fault else None
        return data


def case_score(profit: int, fault: Fault | None) -> float:
    """TwoCardDraw's score of a test case: profit + 10,000 floored at 0 (0 after a fault)."""
    return 0.0 if fault else float(max(0, profit + SCORE_OFFSET))


def hand_rng(seeds: StreamSeeds, case: int, hand: int) -> random.Random:
    """The generator of hand ``hand`` of test case ``case``: its eight cards first, then the server's
    choices."""
    return random.Random(seeds.seed_of("twocard", case, hand))


def run_case(
    case: int,
    name: str,
    strategy: Strategy,
    value: float,
    seat: Seat,
    *,
    hands: int = DEFAULT_HANDS,
    seed: int = 0,
    secret: bytes | None = None,
    team: str = "player",
    log: IO[str] | None = None,
    on_hand: Callable[[int], None] | None = None,
) -> CaseResult:
    """Play one test case; ``value`` is the strategy's exact value (for the best achievable profit).

    The hands come from the test case's table ``secret``, or (None) from the known ``seed``.
    """
    seeds = StreamSeeds(seed, secret)
    profit = 0
    played = 0
    fault: Fault | None = None
    try:
        seat.call("init", (strategy.bet1, strategy.bet2))
        for number in range(1, hands + 1):
            rng = hand_rng(seeds, case, number)
            record = play_hand(number, strategy, profit, rng, seat.call)
            profit += record.profit
            played = number
            if log is not None:
                log.write(json.dumps(record.to_dict()) + "\n")
            if on_hand is not None:
                on_hand(number)
    except SeatFault as error:
        fault = error.fault
    except IllegalAnswer as error:
        reason = untrusted.capped(str(error))
        fault = Fault(team, FaultKind.INVALID_ANSWER, reason, deal=played + 1, stage=error.method)
    finally:
        try:
            seat.close()
        except SeatFault as error:
            fault = fault or error.fault
    if fault is not None and not fault.deal:
        fault = Fault(fault.team, fault.kind, fault.reason, played + 1, fault.stage, fault.stderr)
    best = -value * hands
    score = case_score(profit, fault)
    return CaseResult(
        case=case,
        strategy=name,
        bet1=strategy.bet1,
        bet2=strategy.bet2,
        value=value,
        hands=hands,
        hands_played=played,
        profit=profit,
        score=score,
        best_expected_profit=best,
        share=profit / best if best > 0 and fault is None else None,
        time_s=round(seat.used_s, 3),
        fault=fault,
    )


def overall_score(results: list[CaseResult]) -> float:
    """TwoCardDraw's overall score: the mean of the test-case scores."""
    return sum(r.score for r in results) / len(results) if results else 0.0
