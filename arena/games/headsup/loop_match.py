"""The judge's hands played by the compiled hand loop (:mod:`~arena.games.headsup.hand_loop`), events
from the engine.

:func:`compiled_loop` says whether a match can take the loop: a compiled kernel, a real session to the player,
the standard rollouts, no transcript, at least one hand. :func:`play_compiled` then plays the match in blocks
of hands (a helper thread deals each block ahead and replays it behind): the loop sends the lines, reads the
replies, answers RATE and plays Bob, and leaves a record per hand (Alice's moves, Bob's answers and his
rollout counts). Each record is replayed through the rules engine (:class:`arena.engines.headsup.HeadsUpHand`,
Bob given his recorded counts), which makes the hand's events and checks the loop's profit and Bob's answers;
a disagreement is arena's bug and stops the match loudly. The match comes back as a typed
:class:`LoopResult` (the tallies, and a :class:`LoopFault` when the player's answer ended it early), which
the judge words as on its Python path; this module knows nothing of the judge.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Sequence
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass
from typing import Protocol

import numpy as np

from arena.decks.derive import StreamSeeds
from arena.engines.headsup import (
    BOARD_SHOWN,
    BOB_ROLLOUTS,
    DEAD_POT,
    START_STACK,
    BobActed,
    BobPolicy,
    HandCards,
    HeadsUpHand,
    Move,
)
from arena.errors import ArenaError
from arena.evaluator.rollouts import rollout_outcomes, win_tie_rates
from arena.games.headsup import protocol
from arena.games.headsup.hand_loop import BOB_CALL, Fault, HandLoop, LoopHand, Reply, loop_kernel
from arena.games.headsup.hand_loop import Move as LoopMove
from arena.games.headsup.streams import DECK_BLOCK, bob_seed
from arena.sandbox import Session
from arena.sandbox.cores import spread

_UNUSED = np.random.default_rng(0)  # Bob's generator in a replay: his counts are recorded, nothing is drawn


class MatchSettings(Protocol):
    """What the loop needs of a match's configuration (the judge's ``JudgeConfig`` has it)."""

    @property
    def hands(self) -> int: ...
    @property
    def seed(self) -> int: ...
    @property
    def rate_budget(self) -> int: ...
    @property
    def reply_wait_s(self) -> float: ...
    @property
    def streams(self) -> StreamSeeds: ...


@dataclass(frozen=True, slots=True)
class LoopFault:
    """How the player's answer ended the match early, in numbers: the judge words it.

    ``kind`` is one of the loop's player faults (no ``NONE``, ``SIGNAL`` or ``SYSTEM``); ``overlong_cap``
    is the output cap a line went past without ending (0 when none did); ``value`` and ``limit`` are the
    refused raise and Alice's stack, or the refused RATE query's samples; ``error`` a malformed line's.
    """

    kind: Fault
    hand: int
    round: int
    value: int = 0
    limit: int = 0
    overlong_cap: int = 0
    error: protocol.MalformedLine | None = None


@dataclass(frozen=True, slots=True)
class LoopResult:
    """What the loop played: the match's tallies so far, and the fault that ended it early, if any."""

    rate_used: int
    rate_queries: int
    raises: int
    calls: int
    think_s: float
    fault: LoopFault | None = None


def compiled_loop(
    hands: int, transcript: bool, channel: object, rates: object, bob: BobPolicy
) -> Session | None:
    """The player's session when a match of ``hands`` (its lines kept in a ``transcript`` or not) can be
    played by the compiled loop, else None."""
    session = getattr(channel, "session", None)
    if hands < 1 or transcript:
        return None
    if not isinstance(session, Session) or session.stdin_w < 0:
        return None
    if rates is not win_tie_rates or not bob.uses(rollout_outcomes, BOB_ROLLOUTS):
        return None
    return session if loop_kernel() is not None else None


class _Parser:
    """The judge's parser for lines the loop does not know in their plain form; keeps the last error."""

    def __init__(self) -> None:
        self.error: protocol.MalformedLine | None = None

    def __call__(self, line: bytes) -> tuple[Reply, int]:
        try:
            reply = protocol.parse_reply(line.decode(errors="replace").rstrip("\r"))
        except protocol.MalformedLine as error:
            self.error = error
            return Reply.MALFORMED, 0
        except Exception as error:  # a line the parser chokes on is still the player's malformed line
            self.error = protocol.MalformedLine(f"the line could not be read ({error})")
            return Reply.MALFORMED, 0
        if isinstance(reply, protocol.RateRequest):
            return Reply.RATE, reply.samples
        kinds = {Move.CHECK: Reply.CHECK, Move.FOLD: Reply.FOLD, Move.RAISE: Reply.RAISE}
        return kinds[reply.move], reply.amount


def play_compiled(
    config: MatchSettings,
    session: Session,
    *,
    pending: bytes,
    deck_for: Callable[[int, int], Sequence[int]],
    rate_rng: np.random.Generator,
    finished: Callable[[int, HeadsUpHand, int, int], None],
    unsent: Callable[[bytes], None],
) -> LoopResult:
    """Play every hand of the match through the loop; ``pending`` lines go first.

    ``finished(number, hand, rate_queries, rate_samples)`` hears each hand, replayed, in order. The
    session gets back what the loop read and did not use, the player's stderr, and whether its stdin
    closed; ``unsent`` gets the lines still to be sent.
    """
    kernel = loop_kernel()
    assert kernel is not None
    parser = _Parser()
    limit = session.sandbox.limits.output_bytes
    loop = HandLoop(
        kernel,
        (session.stdin_w, session.stdout_r, session.stderr_r),
        reply_wait_s=config.reply_wait_s,
        output_cap=limit,
        errors_keep=limit - len(session.stderr),
        rate_budget=config.rate_budget,
        rate_rng=rate_rng,
        rules=(START_STACK, DEAD_POT, BOB_ROLLOUTS, BOARD_SHOWN),
        card_text=protocol.CARD_TEXT,
        parse=parser,
    )
    loop.give_input(bytes(session.buffer))
    session.buffer.clear()
    loop.queue(pending)
    # While the loop plays a block of hands, a helper thread (on another CPU when one is free) replays the
    # block before it through the rules and then deals the block after it: one worker, so in that order.
    blocks = [
        range(first, min(first + DECK_BLOCK, config.hands + 1))
        for first in range(1, config.hands + 1, DECK_BLOCK)
    ]
    helper = ThreadPoolExecutor(max_workers=1, thread_name_prefix="headsup-replay", initializer=spread)
    try:
        done: list[Future[None]] = []
        dealt = helper.submit(_deal_block, blocks[0], deck_for, config)
        for index, numbers in enumerate(blocks):
            decks, cards, seeds = dealt.result()
            if index + 1 < len(blocks):
                dealt = helper.submit(_deal_block, blocks[index + 1], deck_for, config)
            hands = loop.play(numbers[0], cards, seeds)
            done.append(helper.submit(_replay_block, numbers, decks, hands, finished))
            if loop.match.fault != Fault.NONE:
                break
        for block in done:
            block.result()  # in order: each hand heard, or a disagreement raised
        if loop.match.fault == Fault.SIGNAL:  # its handler let the match go on: the hand cannot resume
            raise ArenaError("a signal interrupted the heads-up judge in the middle of a hand")
        if loop.match.fault == Fault.SYSTEM:  # arena's failure, as an OSError of the Python loop's reads
            code = loop.match.fault_value
            raise OSError(code, f"the heads-up loop's system call failed: {os.strerror(code)}")
        fault = None
        if loop.match.fault != Fault.NONE:
            fault = _fault(loop, numbers[0] + len(hands), parser)
        match = loop.match
        return LoopResult(
            match.rate_used, match.rate_queries, match.raises, match.calls, match.think_s, fault
        )
    finally:
        helper.shutdown(wait=True, cancel_futures=True)
        session.buffer += loop.take_input()
        session.stderr += loop.take_errors()
        session.eof = session.eof or bool(loop.match.eof)
        if loop.match.stdin_closed and session.stdin_w >= 0:
            session.close_stdin()
        unsent(loop.take_output())


def _deal_block(
    numbers: range, deck_for: Callable[[int, int], Sequence[int]], config: MatchSettings
) -> tuple[list[Sequence[int]], bytes, list[int]]:
    """A block's dealt cards per hand, as the loop takes them, and Bob's seed per hand."""
    decks = [deck_for(config.seed, number)[:9] for number in numbers]
    streams = config.streams
    seeds = [bob_seed(streams, number) for number in numbers]
    return decks, bytes(card for deck in decks for card in deck), seeds


def _replay_block(
    numbers: range,
    decks: list[Sequence[int]],
    hands: list[LoopHand],
    finished: Callable[[int, HeadsUpHand, int, int], None],
) -> None:
    for number, deck, hand in zip(numbers, decks, hands, strict=False):
        finished(number, _replay(number, deck, hand), hand.rate_queries, hand.rate_samples)


def _fault(loop: HandLoop, hand: int, parser: _Parser) -> LoopFault:
    match = loop.match
    fault, round_ = Fault(match.fault), match.fault_round
    if fault in (Fault.TIMEOUT, Fault.NO_ANSWER):
        cap = match.output_cap if match.input_len > match.output_cap else 0  # no line end within the cap
        return LoopFault(fault, hand, round_, overlong_cap=cap)
    if fault == Fault.PROTOCOL:
        assert parser.error is not None
        return LoopFault(fault, hand, round_, error=parser.error)
    return LoopFault(fault, hand, round_, value=match.fault_value, limit=match.fault_limit)


class _RecordedBob(BobPolicy):
    """Bob with the rollout counts the loop drew: the rules decide from them as from his own."""

    def __init__(self, wins: int, ties: int) -> None:
        super().__init__(rollout_outcomes)
        self._counts = wins, ties

    def counts(self, bob: Sequence[int], board: Sequence[int], rng: np.random.Generator) -> tuple[int, int]:
        """The loop's counts; nothing is drawn."""
        return self._counts


def _replay(number: int, deck: Sequence[int], loop_record: LoopHand) -> HeadsUpHand:
    """The hand played again by the rules engine from the loop's record, which it checks."""
    state = HeadsUpHand(HandCards.from_deck(deck))
    for decision in range(loop_record.decisions):
        move = loop_record.moves[decision]
        if move == LoopMove.CHECK:
            state.check()
        elif move == LoopMove.FOLD:
            state.fold()
        else:
            bob = _RecordedBob(loop_record.bob_wins[decision], loop_record.bob_ties[decision])
            answer = state.raise_(loop_record.amounts[decision], bob, _UNUSED)[1]
            assert isinstance(answer, BobActed)
            if (answer.move is Move.CALL) != (loop_record.bob_moves[decision] == BOB_CALL):
                raise ArenaError(f"hand {number}: the compiled loop and the rules disagree on Bob's answer")
    if not state.over or state.delta != loop_record.delta:
        raise ArenaError(f"hand {number}: the compiled loop and the rules disagree on the profit")
    return state
