"""The heads-up judge: plays a match against one player over a line channel.

The channel is anything with ``send(line)`` and ``receive(timeout_s) -> str | None`` (the session
transport, or an in-process fake in tests). The judge adds up the wall time it waits for replies (from
its prompt, the last line before a reply is due, to the reply); one reply may take at most
``reply_wait_s`` (the match's CPU limit itself is enforced on the process, see ``match.py``).

A malformed line, an illegal raise, a RATE query past the budget, or no reply in time ends the match:
the judge prints ``-1`` (when the player is still there) and records a :class:`arena.faults.Fault`.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Protocol

import numpy as np

from arena.decks.derive import StreamSeeds
from arena.engines.headsup import BobActed, BobPolicy, HandCards, HandEvent, HeadsUpHand, Move
from arena.faults import Fault, FaultKind
from arena.games.headsup import protocol
from arena.games.headsup.hand_loop import Fault as LoopCode
from arena.games.headsup.loop_match import LoopFault, compiled_loop, play_compiled
from arena.games.headsup.streams import DeckStream, bob_stream, rate_stream
from arena.sandbox import Session

RateFn = Callable[[Sequence[int], Sequence[int], int, np.random.Generator], tuple[float, float]]


class LinePlayer(Protocol):
    """The judge's side of a line session."""

    def send(self, line: str, timeout_s: float | None = None) -> None: ...

    def receive(self, timeout_s: float) -> str | None: ...


@dataclass(frozen=True, slots=True)
class JudgeConfig:
    """What a match is: hands, where its cards come from (a table secret, else the known seed), RATE
    budget, and the longest wall time one reply may take."""

    hands: int = 10_000
    seed: int = 0
    rate_budget: int = 3_000_000
    reply_wait_s: float = 15.0
    team: str = "player"
    secret: bytes | None = field(default=None, repr=False)

    @property
    def streams(self) -> StreamSeeds:
        """The seeds of the match's decks, Bob's draws and RATE answers."""
        return StreamSeeds(self.seed, self.secret)


@dataclass(slots=True)
class HandRecord:
    """One played hand: its cards, what happened, and the RATE rollouts asked during it."""

    hand: int
    deal: HandCards
    events: list[HandEvent]
    delta: int
    rate_queries: int = 0
    rate_samples: int = 0


@dataclass(slots=True)
class MatchOutcome:
    """The whole match. ``fault`` is set when the match ended early."""

    config: JudgeConfig
    deltas: list[int] = field(default_factory=list)
    rate_used: int = 0
    rate_queries: int = 0
    think_s: float = 0.0
    raises: int = 0
    calls: int = 0
    fault: Fault | None = None
    transcript: list[str] | None = None

    @property
    def completed(self) -> bool:
        """True when every hand was played and no fault ended the match."""
        return self.fault is None and len(self.deltas) == self.config.hands


class _Ended(Exception):
    """Internal: the match stops here with a fault."""

    def __init__(self, fault: Fault, *, tell_player: bool) -> None:
        super().__init__(fault.reason)
        self.fault = fault
        self.tell_player = tell_player


class Judge:
    """Plays one match; :meth:`run` returns the :class:`MatchOutcome`.

    ``deck_for(seed, hand)`` gives each hand's dealt cards (the match's deck stream by default; tests
    stack it).
    """

    def __init__(
        self,
        channel: LinePlayer,
        config: JudgeConfig,
        *,
        bob: BobPolicy,
        rates: RateFn,
        on_hand: Callable[[HandRecord], None] | None = None,
        keep_transcript: bool = False,
        deck_for: Callable[[int, int], Sequence[int]] | None = None,
    ) -> None:
        self._channel = channel
        self._config = config
        self._bob = bob
        self._rates = rates
        self._rate_rng = rate_stream(config.streams)
        self._on_hand = on_hand
        decks = DeckStream(config.streams)
        self._deck_for = deck_for or (lambda seed, hand: decks.dealt(hand))
        self.outcome = MatchOutcome(config, transcript=[] if keep_transcript else None)
        self._pending: list[str] = []

    def run(self) -> MatchOutcome:
        """Play every hand, then print ``SCORE W``; stop at the first fault."""
        out = self.outcome
        try:
            self._send(str(self._config.hands))
            transcript = out.transcript is not None
            session = compiled_loop(self._config.hands, transcript, self._channel, self._rates, self._bob)
            if session is not None:  # the same hands, lines and faults, played by compiled code
                played = play_compiled(
                    self._config,
                    session,
                    pending=self._take_pending(),
                    deck_for=self._deck_for,
                    rate_rng=self._rate_rng,
                    finished=self._finished,
                    unsent=self.queue_sent,
                )
                out.rate_used, out.rate_queries = played.rate_used, played.rate_queries
                out.raises, out.calls, out.think_s = played.raises, played.calls, played.think_s
                if played.fault is not None:
                    raise self._loop_fault(played.fault)
            for hand in range(len(out.deltas) + 1, self._config.hands + 1):
                self._play_hand(hand)
            mean = sum(out.deltas) / len(out.deltas) if out.deltas else 0.0
            self._send(protocol.score_line(mean))
        except _Ended as ended:
            out.fault = ended.fault
            if ended.tell_player:
                self._send(protocol.ABORT)
            else:
                self._pending.clear()
        self._flush_quietly()
        return out

    def _play_hand(self, number: int) -> None:
        state = HeadsUpHand(HandCards.from_deck(self._deck_for(self._config.seed, number)))
        record = HandRecord(number, state.deal, state.events, 0)
        bob_rng: np.random.Generator | None = None
        while not state.over:
            board = state.board_shown
            self._send(
                protocol.state_lines(
                    hand=number,
                    round_=state.round,
                    alice_stack=state.alice_stack,
                    bob_stack=state.bob_stack,
                    pot=state.pot,
                    alice=state.deal.alice,
                    board=board,
                )
            )
            while True:
                reply = self._reply(number, state.round)
                if isinstance(reply, protocol.RateRequest):
                    self._answer_rate(reply.samples, state.deal.alice, board, number, state.round, record)
                    continue
                break
            if reply.move is Move.CHECK:
                state.check()
                self._send("OPP CHECK")
            elif reply.move is Move.FOLD:
                state.fold()
            else:
                if not state.can_raise(reply.amount):
                    raise self.bad_raise(reply.amount, state.alice_stack, number, state.round)
                if bob_rng is None:
                    bob_rng = bob_stream(self._config.streams, number)
                events = state.raise_(reply.amount, self._bob, bob_rng)
                answer = events[1]
                assert isinstance(answer, BobActed), answer  # a raise is always answered by Bob
                self.outcome.raises += 1
                self.outcome.calls += answer.move is Move.CALL
                self._send(protocol.opp_line(answer.move, answer.amount))
        record.delta = state.delta
        self.outcome.deltas.append(state.delta)
        self._send(protocol.result_line(state.delta))
        if self._on_hand is not None:
            self._on_hand(record)

    def _finished(self, number: int, state: HeadsUpHand, rate_queries: int, rate_samples: int) -> None:
        """A hand the compiled loop played (its RESULT line sent), replayed by the rules into ``state``."""
        record = HandRecord(number, state.deal, state.events, state.delta, rate_queries, rate_samples)
        self.outcome.deltas.append(state.delta)
        if self._on_hand is not None:
            self._on_hand(record)

    def _answer_rate(
        self,
        samples: int,
        alice: Sequence[int],
        board: Sequence[int],
        hand: int,
        round_: int,
        record: HandRecord,
    ) -> None:
        out = self.outcome
        if out.rate_used + samples > self._config.rate_budget:
            raise self.over_budget(samples, hand, round_)
        out.rate_used += samples
        out.rate_queries += 1
        record.rate_queries += 1
        record.rate_samples += samples
        win, tie = self._rates(alice, board, samples, self._rate_rng)
        self._send(protocol.rates_line(win, tie))

    def _reply(self, hand: int, round_: int) -> protocol.RateRequest | protocol.ActionReply:
        out = self.outcome
        wait = self._config.reply_wait_s
        try:
            self._flush(wait)
        except TimeoutError:  # it stopped reading its input: no reply can come
            raise self.no_reply(True, hand, round_) from None
        start = time.perf_counter()
        line = self._channel.receive(wait)
        waited = time.perf_counter() - start
        out.think_s += waited
        if line is None:
            session = getattr(self._channel, "session", None)
            cap = 0
            if isinstance(session, Session) and session.overlong:
                cap = session.sandbox.limits.output_bytes
            raise self.no_reply(waited >= wait, hand, round_, overlong_cap=cap)
        if out.transcript is not None:
            out.transcript.append("< " + line)
        try:
            return protocol.parse_reply(line)
        except protocol.MalformedLine as error:
            raise self.malformed(error, hand, round_) from None

    def _loop_fault(self, fault: LoopFault) -> _Ended:
        """The fault of the compiled loop's typed ``fault``, worded as the Python loop words it."""
        hand, round_ = fault.hand, fault.round
        if fault.kind in (LoopCode.TIMEOUT, LoopCode.NO_ANSWER):
            over = fault.kind == LoopCode.TIMEOUT
            return self.no_reply(over, hand, round_, overlong_cap=fault.overlong_cap)
        if fault.kind == LoopCode.PROTOCOL:
            assert fault.error is not None
            return self.malformed(fault.error, hand, round_)
        if fault.kind == LoopCode.INVALID_RAISE:
            return self.bad_raise(fault.value, fault.limit, hand, round_)
        return self.over_budget(fault.value, hand, round_)

    def no_reply(self, over: bool, hand: int, round_: int, *, overlong_cap: int = 0) -> _Ended:
        """The fault of a reply that did not come: the wait was ``over``, the line went on past the output
        cap (``overlong_cap``, 0 when it did not), or the output closed first."""
        if overlong_cap:
            reason = f"the program printed a line longer than {overlong_cap:,} bytes without ending it"
            return self._fault(FaultKind.PROTOCOL_ERROR, hand, round_, reason, tell=False)
        if over:
            reason = f"no reply within {self._config.reply_wait_s:g} s (the longest one reply may take)"
            return self._fault(FaultKind.TIMEOUT, hand, round_, reason)
        reason = "the program closed its output (or exited) instead of replying"
        return self._fault(FaultKind.NO_ANSWER, hand, round_, reason, tell=False)

    def bad_raise(self, amount: int, stack: int, hand: int, round_: int) -> _Ended:
        """The fault of a raise outside 1..Alice's stack."""
        reason = f"RAISE {amount} is outside 1..{stack} (Alice's stack)"
        return self._fault(FaultKind.INVALID_ANSWER, hand, round_, reason)

    def over_budget(self, samples: int, hand: int, round_: int) -> _Ended:
        """The fault of a RATE query past the match's budget (``rate_used`` before it)."""
        total, budget = self.outcome.rate_used + samples, self._config.rate_budget
        reason = f"RATE {samples} would bring the match's rollouts to {total}, over the budget of {budget}"
        return self._fault(FaultKind.RATE_BUDGET, hand, round_, reason)

    def malformed(self, error: protocol.MalformedLine, hand: int, round_: int) -> _Ended:
        """The fault of a line that is no reply."""
        return self._fault(FaultKind.PROTOCOL_ERROR, hand, round_, str(error))

    def _fault(self, kind: FaultKind, hand: int, round_: int, reason: str, *, tell: bool = True) -> _Ended:
        stage = f"round {round_}" if round_ else ""
        return _Ended(Fault(self._config.team, kind, reason, deal=hand, stage=stage), tell_player=tell)

    def _send(self, text: str) -> None:
        """Queue lines for the player; they go out together when a reply is due (one write, not many)."""
        if self.outcome.transcript is not None:
            self.outcome.transcript.extend("> " + line for line in text.split("\n"))
        self._pending.append(text)

    def _take_pending(self) -> bytes:
        """The queued lines as the player would receive them, taken out of the queue."""
        text = "".join(line + "\n" for line in self._pending)
        self._pending.clear()
        return text.encode()

    def queue_sent(self, text: bytes) -> None:
        """Queue lines already formatted (each ending in a newline), as :meth:`_send` queues its own."""
        if text:
            self._pending.append(text.decode().removesuffix("\n"))

    def _flush(self, timeout_s: float | None = None) -> None:
        if self._pending:
            text = "\n".join(self._pending)
            self._pending.clear()
            self._channel.send(text, timeout_s)

    def _flush_quietly(self) -> None:
        try:
            self._flush(self._config.reply_wait_s)
        except OSError:  # TimeoutError included: the player is not reading
            return
