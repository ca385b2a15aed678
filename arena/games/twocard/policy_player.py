"""An in-process player with the six methods that plays a fixed :class:`Policy` (e.g. the best response)."""

from __future__ import annotations

from arena.engines.twocard.rules import Outcome, hand_index
from arena.engines.twocard.value import Policy


class PolicyPlayer:
    """Answers the method calls from policy tables, tracking what it needs (who bet first, draws)."""

    def __init__(self, policy: Policy) -> None:
        self.policy = policy
        self.opened = 0
        self.outcome = Outcome.NONE
        self.drew = 0

    def init(self, bet1: int, bet2: int) -> int:
        """Bets are not needed: the policy was computed for them."""
        return 0

    def new_hand(self, card1: int, card2: int, winnings: int) -> int:
        """0 check, 1 bet."""
        self.opened = int(self.policy.open1[hand_index(card1, card2)])
        return self.opened

    def round1(self, card1: int, card2: int, bets: int) -> int:
        """0 fold, 1 call, 2 raise."""
        return int(self.policy.respond1[bets, hand_index(card1, card2)])

    def draw(self, card1: int, card2: int, bets: int) -> int:
        """How many cards to draw; the first-round outcome follows from our own opening."""
        self.outcome = Outcome.of(bets, server_first=self.opened == 0 and bets > 0)
        self.drew = int(self.policy.draw[self.outcome, hand_index(card1, card2)])
        return self.drew

    def round2(self, card1: int, card2: int, bets1: int, bets2: int, drew: int) -> int:
        """1 check/call, 2 bet/raise, 0 fold."""
        hand = hand_index(card1, card2)
        if bets2 == 0:
            return int(self.policy.open2[self.outcome, self.drew, drew, hand])
        return int(self.policy.respond2[self.outcome, self.drew, drew, bets2, hand])

    def showdown(self, card1: int, card2: int, opp1: int, opp2: int) -> int:
        """Nothing to learn."""
        return 0
