"""Rules engine throughput: six-player No-Limit Hold'em deals with in-process random players, ours
against pokerkit's in the same run (goal: at least 100x).

Both engines play the same table (six seats, 1500 chips each at the start of every deal, blinds 5/10)
with the same seeded random player: fold 15 % when facing a bet (else check), call or check 55 %, raise
30 % (to the minimum three times in four, else to a uniform amount up to all-in). Each deal gets a fresh
random deck on both sides: pokerkit shuffles its own, ours comes from a partial Fisher-Yates shuffle of
the 20 positions a six-seat deal deals from (the rest of a deck is never looked at). Every deal's chips
are checked to be conserved.

    python benchmarks/bench_engine.py [--seconds S] [--seed N]
"""

from __future__ import annotations

import argparse
import random
import time
import warnings
from collections.abc import Callable

from rich.console import Console
from rich.progress import Progress

from arena.cards import FULL_DECK
from arena.engines.nlhe import CheckCall, Deal, Fold, RaiseTo, TableRules

SEATS = 6
STACK = 1500
GOAL = 100.0
DEALT = 2 * SEATS + 8  # hole cards, then burn, flop, burn, turn, burn, river


def choose(rng: random.Random, owed: int, may_raise: bool) -> int:
    """The shared player: 0 fold, 1 check/call, 2 raise to the minimum, 3 raise to a random amount."""
    roll = rng.random()
    if roll < 0.15 and owed:
        return 0
    if roll < 0.70 or not may_raise:
        return 1
    return 2 if rng.random() < 0.75 else 3


def play_ours(rng: random.Random, deals: int, first: int) -> int:
    """Play ``deals`` deals with our engine; return the number of actions taken."""
    rules = TableRules(seats=SEATS, starting_stack=STACK)
    stacks = [STACK] * SEATS
    total = STACK * SEATS
    deck = list(FULL_DECK)
    draw = rng.random
    fold, call = Fold(), CheckCall()
    actions = 0
    for number in range(first, first + deals):
        for i in range(DEALT):  # shuffle the cards a six-seat deal can use (Fisher-Yates, first 20)
            j = i + int(draw() * (52 - i))
            deck[i], deck[j] = deck[j], deck[i]
        deal = Deal(rules=rules, deal_number=number, dealer=number % SEATS + 1, stacks=stacks, deck=deck)
        while not deal.is_over:
            seat = deal.actor
            move = choose(rng, deal.to_call(seat), deal.can_raise())
            if move == 1:
                deal.apply(call)
            elif move == 0:
                deal.apply(fold)
            else:
                low = deal.min_raise_to()
                deal.apply(RaiseTo(low if move == 2 else rng.randint(low, deal.max_raise_to())))
            actions += 1
        if sum(deal.final_stacks) != total:
            raise AssertionError(f"deal {number}: chips not conserved: {deal.final_stacks}")
    return actions


def play_pokerkit(rng: random.Random, deals: int, first: int) -> int:
    """Play ``deals`` deals with pokerkit (fully automated dealing); return the number of actions."""
    from pokerkit import Automation, NoLimitTexasHoldem

    automations = (
        Automation.ANTE_POSTING,
        Automation.BET_COLLECTION,
        Automation.BLIND_OR_STRADDLE_POSTING,
        Automation.CARD_BURNING,
        Automation.HOLE_DEALING,
        Automation.BOARD_DEALING,
        Automation.HOLE_CARDS_SHOWING_OR_MUCKING,
        Automation.HAND_KILLING,
        Automation.CHIPS_PUSHING,
        Automation.CHIPS_PULLING,
    )
    total = STACK * SEATS
    actions = 0
    for number in range(first, first + deals):
        state = NoLimitTexasHoldem.create_state(automations, True, 0, (5, 10), 10, (STACK,) * SEATS, SEATS)
        while state.status:
            owed = state.checking_or_calling_amount or 0
            may_raise = state.can_complete_bet_or_raise_to()
            move = choose(rng, owed, may_raise)
            if move == 1:
                state.check_or_call()
            elif move == 0:
                state.fold()
            else:
                low = state.min_completion_betting_or_raising_to_amount
                high = state.max_completion_betting_or_raising_to_amount
                state.complete_bet_or_raise_to(low if move == 2 else rng.randint(low, high))
            actions += 1
        if sum(state.stacks) != total:
            raise AssertionError(f"pokerkit deal {number}: chips not conserved: {state.stacks}")
    return actions


class Meter:
    """Deals, actions and engine seconds of one side; chunks grow until one takes ``slice_s``."""

    def __init__(self, play: Callable[[random.Random, int, int], int], seed: int, slice_s: float) -> None:
        self.play = play
        self.rng = random.Random(seed)
        self.slice_s = slice_s
        self.deals = self.actions = 0
        self.seconds = 0.0
        self.chunk = 5

    def run_slice(self) -> None:
        """Play chunks for about ``slice_s`` seconds."""
        spent = 0.0
        while spent < self.slice_s:
            start = time.perf_counter()
            self.actions += self.play(self.rng, self.chunk, self.deals + 1)
            took = time.perf_counter() - start
            spent += took
            self.deals += self.chunk
            if took < self.slice_s / 4:
                self.chunk *= 2
        self.seconds += spent


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=20.0, help="engine time per side (default 20)")
    parser.add_argument("--seed", type=int, default=2026)
    args = parser.parse_args()
    random.seed(args.seed)  # pokerkit shuffles its decks with the module-level generator
    warnings.simplefilter("ignore")
    console = Console()
    # The two sides alternate in short slices so that a load change on this shared machine hits both.
    sides = {"pokerkit": Meter(play_pokerkit, args.seed, 0.5), "arena": Meter(play_ours, args.seed, 0.5)}
    with Progress(console=console, transient=True) as progress:
        task = progress.add_task("pokerkit and arena, alternating", total=2 * args.seconds)
        while any(meter.seconds < args.seconds for meter in sides.values()):
            for meter in sides.values():
                if meter.seconds < args.seconds:
                    meter.run_slice()
            progress.update(task, completed=sum(min(m.seconds, args.seconds) for m in sides.values()))
    for name, meter in sides.items():
        console.print(
            f"{name:>9}: {meter.deals:>7} deals, {meter.actions:>8} actions in {meter.seconds:6.2f} s = "
            f"{meter.deals / meter.seconds:9.1f} deals/s ({meter.actions / meter.deals:.1f} actions/deal); "
            "chips conserved in every deal"
        )
    pk_rate = sides["pokerkit"].deals / sides["pokerkit"].seconds
    our_rate = sides["arena"].deals / sides["arena"].seconds
    ratio = our_rate / pk_rate
    verdict = "met" if ratio >= GOAL else "NOT met"
    console.print(f"ratio arena/pokerkit: {ratio:.1f}x (goal >= {GOAL:.0f}x: {verdict})")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
