"""Heads-up hold'em against the Monte-Carlo opponent: the pure rules of one hand.

A hand is dealt from one permutation of the deck: Alice (the player) gets ``deck[0:2]``, Bob
``deck[2:4]``, the board is ``deck[4:9]`` (flop, turn, river). The pot starts at 10 dead chips and
both stacks at 100. In each of the four rounds Alice acts once: check (Bob checks), fold, or raise
``x`` with ``1 <= x <= her stack``; Bob answers a raise by calling or folding through a
:class:`BobPolicy`. A showdown compares the best five of seven cards with :func:`arena.evaluator.evaluate`;
a tie splits the (always even) pot. Alice's profit is her final stack minus 100.

No files, processes or clocks here; every applied action returns the events it caused.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from enum import StrEnum, unique

import numpy as np

from arena.evaluator import evaluate

START_STACK = 100
DEAD_POT = 10
BOB_ROLLOUTS = 100
ROUNDS = 4
BOARD_SHOWN = (0, 3, 4, 5)  # community cards visible in rounds 1..4

Outcomes = Callable[[Sequence[int], Sequence[int], int, np.random.Generator], np.ndarray]


@unique
class Move(StrEnum):
    """Alice's choices and Bob's answers."""

    CHECK = "CHECK"
    FOLD = "FOLD"
    RAISE = "RAISE"
    CALL = "CALL"


@dataclass(frozen=True, slots=True)
class HandCards:
    """The cards of one hand, fixed before it starts."""

    alice: tuple[int, int]
    bob: tuple[int, int]
    board: tuple[int, int, int, int, int]

    @classmethod
    def from_deck(cls, deck: Sequence[int]) -> HandCards:
        """Deal from a permuted deck (its first nine cards) in the order Alice, Bob, flop, turn, river."""
        return cls(
            alice=(deck[0], deck[1]),
            bob=(deck[2], deck[3]),
            board=(deck[4], deck[5], deck[6], deck[7], deck[8]),
        )


@dataclass(frozen=True, slots=True)
class BobEstimate:
    """Bob's view of a raise: his 100 rollouts and the two expected values he compared."""

    wins: int
    ties: int
    losses: int
    ev_call: float
    ev_fold: float

    @property
    def calls(self) -> bool:
        """Bob calls iff EV(CALL) > EV(FOLD)."""
        return self.ev_call > self.ev_fold


@dataclass(frozen=True, slots=True)
class AliceActed:
    """Alice's action in a round; ``amount`` is the raise (0 otherwise)."""

    round: int
    move: Move
    amount: int


@dataclass(frozen=True, slots=True)
class BobActed:
    """Bob's answer; ``estimate`` is set when he answered a raise."""

    round: int
    move: Move
    amount: int
    estimate: BobEstimate | None = None


@dataclass(frozen=True, slots=True)
class ShowedDown:
    """Both hands compared: strengths by :func:`arena.evaluator.evaluate`, ``outcome`` +1/0/-1 for Alice."""

    alice_strength: int
    bob_strength: int
    outcome: int


@dataclass(frozen=True, slots=True)
class HandEnded:
    """The hand is over; ``delta`` is Alice's profit (final stack - 100)."""

    delta: int


HandEvent = AliceActed | BobActed | ShowedDown | HandEnded


class BobPolicy:
    """The heads-up statement's Bob: call a raise iff the mean profit of 100 rollouts beats folding.

    ``outcomes(hero, board, samples, rng)`` returns +1/0/-1 per rollout from ``hero``'s side, each
    rollout one uniform permutation of the cards Bob cannot see (Alice's two first, then the missing
    board). Each hand gets its own generator, so nothing Alice asks changes what Bob decides.
    """

    def __init__(self, outcomes: Outcomes, rollouts: int = BOB_ROLLOUTS) -> None:
        self._outcomes = outcomes
        self._rollouts = rollouts

    def uses(self, outcomes: Outcomes, rollouts: int) -> bool:
        """True when this Bob rolls out with ``outcomes``, ``rollouts`` at a time."""
        return self._outcomes is outcomes and self._rollouts == rollouts

    def counts(self, bob: Sequence[int], board: Sequence[int], rng: np.random.Generator) -> tuple[int, int]:
        """(wins, ties) of Bob's rollouts from ``rng``."""
        results = self._outcomes(bob, board, self._rollouts, rng)
        return int(np.count_nonzero(results > 0)), int(np.count_nonzero(results == 0))

    def estimate(
        self,
        *,
        bob: Sequence[int],
        board: Sequence[int],
        pot: int,
        bob_stack: int,
        raise_by: int,
        rng: np.random.Generator,
    ) -> BobEstimate:
        """Bob's two expected values for a raise of ``raise_by`` into ``pot`` (before the raise)."""
        wins, ties = self.counts(bob, board, rng)
        losses = self._rollouts - wins - ties
        final_pot = pot + 2 * raise_by
        after_call = bob_stack - raise_by - START_STACK
        total = wins * (after_call + final_pot) + ties * (after_call + final_pot // 2) + losses * after_call
        return BobEstimate(
            wins=wins,
            ties=ties,
            losses=losses,
            ev_call=total / self._rollouts,
            ev_fold=float(bob_stack - START_STACK),
        )


@dataclass(slots=True)
class HeadsUpHand:
    """The state of one hand; Alice acts through :meth:`apply` until :attr:`over`."""

    deal: HandCards
    round: int = 1
    alice_stack: int = START_STACK
    bob_stack: int = START_STACK
    pot: int = DEAD_POT
    over: bool = False
    delta: int = 0
    events: list[HandEvent] = field(default_factory=list)

    @property
    def board_shown(self) -> tuple[int, ...]:
        """The community cards Alice can see in the current round."""
        return self.deal.board[: BOARD_SHOWN[self.round - 1]]

    def can_raise(self, amount: int) -> bool:
        """A raise must be 1..Alice's stack."""
        return 1 <= amount <= self.alice_stack

    def verify_raise(self, amount: int) -> None:
        """Raise ``ValueError`` naming the amount and the limits when the raise is illegal."""
        if not self.can_raise(amount):
            raise ValueError(f"raise {amount} is outside 1..{self.alice_stack} (Alice's stack)")

    def check(self) -> list[HandEvent]:
        """Alice checks; Bob checks; the next round starts or the hand shows down."""
        new: list[HandEvent] = [AliceActed(self.round, Move.CHECK, 0), BobActed(self.round, Move.CHECK, 0)]
        return self._record(new + self._next_round())

    def fold(self) -> list[HandEvent]:
        """Alice folds; Bob takes the pot."""
        return self._record([AliceActed(self.round, Move.FOLD, 0), *self._end(self.alice_stack)])

    def raise_(self, amount: int, bob: BobPolicy, rng: np.random.Generator) -> list[HandEvent]:
        """Alice raises ``amount``; Bob estimates with ``rng`` and calls or folds."""
        self.verify_raise(amount)
        estimate = bob.estimate(
            bob=self.deal.bob,
            board=self.board_shown,
            pot=self.pot,
            bob_stack=self.bob_stack,
            raise_by=amount,
            rng=rng,
        )
        alice = AliceActed(self.round, Move.RAISE, amount)
        if not estimate.calls:
            folded = BobActed(self.round, Move.FOLD, 0, estimate)
            return self._record([alice, folded, *self._end(self.alice_stack + self.pot)])
        self.alice_stack -= amount
        self.bob_stack -= amount
        self.pot += 2 * amount
        called = BobActed(self.round, Move.CALL, amount, estimate)
        return self._record([alice, called, *self._next_round()])

    def _next_round(self) -> list[HandEvent]:
        if self.round < ROUNDS:
            self.round += 1
            return []
        alice = evaluate((*self.deal.alice, *self.deal.board))
        bob = evaluate((*self.deal.bob, *self.deal.board))
        outcome = (alice > bob) - (alice < bob)
        share = self.pot if outcome > 0 else self.pot // 2 if outcome == 0 else 0
        return [ShowedDown(alice, bob, outcome), *self._end(self.alice_stack + share)]

    def _end(self, final_stack: int) -> list[HandEvent]:
        self.over = True
        self.delta = final_stack - START_STACK
        return [HandEnded(self.delta)]

    def _record(self, new: list[HandEvent]) -> list[HandEvent]:
        self.events.extend(new)
        return new
