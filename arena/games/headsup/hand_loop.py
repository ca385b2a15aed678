"""The heads-up judge's compiled hand loop (``hand_loop.c``): its build, ctypes structures, a match's state.

:class:`HandLoop` owns the buffers the loop reads and writes (the player's unread output, its kept
stderr, the lines waiting to be sent) and plays blocks of hands over the player's pipes, the GIL
released; :mod:`arena.games.headsup.loop_match` turns its records into the judge's hands and typed faults.
:func:`loop_kernel` is the loop built with the evaluator's rollouts it calls into one library.
"""

from __future__ import annotations

import contextlib
import ctypes
import functools
import os
import signal
import threading
from collections.abc import Callable, Iterator, Sequence
from enum import IntEnum
from pathlib import Path
from typing import NamedTuple

import numpy as np

from arena.evaluator.kernel import RolloutKernel, bitgen_address, load_kernel

SOURCE = Path(__file__).with_name("hand_loop.c")
ROUNDS = 4
READ_CHUNK = 65536
OUTPUT_BYTES = 1 << 20  # lines waiting to be sent: a hand's are a few hundred bytes


@functools.cache
def loop_kernel() -> RolloutKernel | None:
    """The hand loop and the rollouts in one library, or None (no C compiler, or ``ARENA_NO_KERNELS`` set)."""
    return load_kernel("headsup", (SOURCE,))


class Fault(IntEnum):
    """How the loop stopped early (``FAULT_*`` of hand_loop.c)."""

    NONE = 0
    TIMEOUT = 1
    NO_ANSWER = 2
    PROTOCOL = 3
    INVALID_RAISE = 4
    RATE_BUDGET = 5
    SIGNAL = 6  # a signal interrupted the loop mid-hand (its Python handler runs when the loop returns)
    SYSTEM = 7  # a system call of the loop's own failed (errno in fault_value): arena's failure


class Reply(IntEnum):
    """A reply's kind, as the parse callback returns it (``REPLY_*`` of hand_loop.c)."""

    RATE = 0
    CHECK = 1
    FOLD = 2
    RAISE = 3
    MALFORMED = -1
    STOP = -2  # the callback raised: the loop stops and the exception is raised again in Python


class Move(IntEnum):
    """Alice's move and Bob's answer in a hand's record (``MOVE_*``, ``BOB_*``)."""

    CHECK = 1
    FOLD = 2
    RAISE = 3


BOB_CALL, BOB_FOLD = 1, 2

_Rounds = ctypes.c_int32 * ROUNDS
ParseFn = ctypes.CFUNCTYPE(ctypes.c_int32, ctypes.c_void_p, ctypes.c_int64, ctypes.POINTER(ctypes.c_int64))


class _HandRecord(ctypes.Structure):
    """``hand_t``: one finished hand's moves, Bob's answers and rollout counts, RATE tallies, profit."""

    _fields_ = [
        ("delta", ctypes.c_int32),
        ("decisions", ctypes.c_int32),
        ("rate_queries", ctypes.c_int32),
        ("rate_samples", ctypes.c_int64),
        ("moves", _Rounds),
        ("amounts", _Rounds),
        ("bob_moves", _Rounds),
        ("bob_wins", _Rounds),
        ("bob_ties", _Rounds),
    ]


_WORDS = ctypes.sizeof(_HandRecord) // 4  # a record read as int32 words: 3, padding, 2 for the int64, 5 x 4


class LoopHand(NamedTuple):
    """A finished hand as the loop recorded it (per decision: Alice's move, amount, Bob's answer, counts)."""

    delta: int
    decisions: int
    rate_queries: int
    rate_samples: int
    moves: list[int]
    amounts: list[int]
    bob_moves: list[int]
    bob_wins: list[int]
    bob_ties: list[int]


def _hands(records: ctypes.Array[_HandRecord], count: int) -> list[LoopHand]:
    """The first ``count`` records as Python values (read as int32 words at once: no ctypes per field)."""
    rows = (
        np.frombuffer(memoryview(records), dtype=np.int32, count=count * _WORDS)
        .reshape(count, _WORDS)
        .tolist()
    )
    return [
        LoopHand(
            row[0],
            row[1],
            row[2],
            row[4] & 0xFFFFFFFF | row[5] << 32,
            row[6:10],
            row[10:14],
            row[14:18],
            row[18:22],
            row[22:26],
        )
        for row in rows
    ]


class _Match(ctypes.Structure):
    """``match_t`` of hand_loop.c, field for field."""

    _fields_ = [
        ("to_player", ctypes.c_int32),
        ("from_player", ctypes.c_int32),
        ("player_errors", ctypes.c_int32),
        ("stdin_closed", ctypes.c_int32),
        ("eof", ctypes.c_int32),
        ("fault", ctypes.c_int32),
        ("fault_round", ctypes.c_int32),
        ("fault_value", ctypes.c_int64),
        ("fault_limit", ctypes.c_int64),
        ("reply_wait_ns", ctypes.c_int64),
        ("output_cap", ctypes.c_int64),
        ("rate_budget", ctypes.c_int64),
        ("rate_used", ctypes.c_int64),
        ("rate_queries", ctypes.c_int64),
        ("raises", ctypes.c_int64),
        ("calls", ctypes.c_int64),
        ("think_s", ctypes.c_double),
        ("rate_rng", ctypes.c_void_p),
        ("start_stack", ctypes.c_int32),
        ("dead_pot", ctypes.c_int32),
        ("bob_rollouts", ctypes.c_int32),
        ("board_shown", _Rounds),
        ("card_text", ctypes.c_char_p),
        ("input", ctypes.c_void_p),
        ("input_cap", ctypes.c_int64),
        ("input_len", ctypes.c_int64),
        ("errors", ctypes.c_void_p),
        ("errors_cap", ctypes.c_int64),
        ("errors_len", ctypes.c_int64),
        ("errors_keep", ctypes.c_int64),
        ("output", ctypes.c_void_p),
        ("output_cap_bytes", ctypes.c_int64),
        ("output_len", ctypes.c_int64),
        ("parse", ParseFn),
        ("wake_fd", ctypes.c_int32),
    ]


class HandLoop:
    """One match's compiled hand loop over the player's pipes (stdin, stdout, stderr descriptors).

    ``parse(line)`` reads a line the loop does not know in its plain form: ``(Reply, value)``, with
    ``Reply.MALFORMED`` for a line that is no reply. ``rules`` are (start stack, dead pot, Bob's rollouts,
    board cards shown per round); ``card_text`` the 52 cards' protocol texts.
    """

    def __init__(
        self,
        kernel: RolloutKernel,
        pipes: tuple[int, int, int],
        *,
        reply_wait_s: float,
        output_cap: int,
        errors_keep: int,
        rate_budget: int,
        rate_rng: np.random.Generator,
        rules: tuple[int, int, int, Sequence[int]],
        card_text: Sequence[str],
        parse: Callable[[bytes], tuple[Reply, int]],
    ) -> None:
        self._play = kernel.library.arena_headsup_hands
        self._play.restype = ctypes.c_int32
        address, count = ctypes.c_void_p, ctypes.c_int32
        self._play.argtypes = [address, count, count, ctypes.c_char_p, address, address]
        self._input = ctypes.create_string_buffer(output_cap + 2 * READ_CHUNK)
        self._errors = ctypes.create_string_buffer(max(errors_keep, 0) + READ_CHUNK)
        self._output = ctypes.create_string_buffer(OUTPUT_BYTES)
        self._cards = b"".join(text.encode().ljust(8, b"\0") for text in card_text)
        self._rate_rng = rate_rng  # the loop draws from its bit generator: keep it alive
        self._parse = ParseFn(self._parse_line)
        self._parse_python = parse
        self._raised: BaseException | None = None  # what the parse callback raised, raised again after
        start, dead, rollouts, shown = rules
        to_player, from_player, player_errors = pipes
        self.match = _Match(  # the fields left out start at zero
            to_player=to_player,
            from_player=from_player,
            player_errors=player_errors,
            reply_wait_ns=int(reply_wait_s * 1e9),
            output_cap=output_cap,
            rate_budget=rate_budget,
            rate_rng=bitgen_address(rate_rng),
            start_stack=start,
            dead_pot=dead,
            bob_rollouts=rollouts,
            board_shown=_Rounds(*shown),
            card_text=self._cards,
            input=ctypes.addressof(self._input),
            input_cap=len(self._input),
            errors=ctypes.addressof(self._errors),
            errors_cap=len(self._errors),
            errors_keep=errors_keep,
            output=ctypes.addressof(self._output),
            output_cap_bytes=len(self._output),
            parse=self._parse,
        )

    def _parse_line(self, address: int, length: int, value: ctypes._Pointer[ctypes.c_int64]) -> int:
        try:
            kind, number = self._parse_python(ctypes.string_at(address, length))
        except BaseException as error:  # ctypes would drop it (a Ctrl-C, say): stop the loop, raise it after
            self._raised = error
            return int(Reply.STOP)
        value[0] = number
        return int(kind)

    def play(self, first_hand: int, cards: bytes, bob_seeds: Sequence[int]) -> list[LoopHand]:
        """Play ``len(bob_seeds)`` hands from ``first_hand`` (9 cards each in ``cards``); their records.

        Fewer records than hands when a fault stopped the loop (see :attr:`match` ``.fault``). In the main
        thread a signal stops the loop at once, even one that comes just before it waits: Python's
        signal wake-up descriptor is one of the descriptors it waits on.
        """
        count = len(bob_seeds)
        records = (_HandRecord * count)()
        seeds = (ctypes.c_uint64 * count)(*bob_seeds)
        with self._rate_rng.bit_generator.lock, _signal_wakeup() as wake_fd:
            self.match.wake_fd = wake_fd
            at = ctypes.addressof
            done = self._play(at(self.match), first_hand, count, cards, at(seeds), at(records))
        if self._raised is not None:
            raised, self._raised = self._raised, None
            raise raised
        return _hands(records, done)

    def queue(self, text: bytes) -> None:
        """Put ``text`` ahead of the loop's own lines (sent at the next reply)."""
        match = self.match
        if match.output_len + len(text) > len(self._output):
            raise ValueError("the loop's output buffer is full")
        ctypes.memmove(match.output + match.output_len, text, len(text))
        match.output_len += len(text)

    def take_output(self) -> bytes:
        """The lines still waiting to be sent, taken out of the loop."""
        text = ctypes.string_at(self.match.output, self.match.output_len)
        self.match.output_len = 0
        return text

    def take_input(self) -> bytes:
        """What the player printed that no reply took yet, taken out of the loop."""
        data = ctypes.string_at(self.match.input, self.match.input_len)
        self.match.input_len = 0
        return data

    def give_input(self, data: bytes) -> None:
        """Put the player's earlier, unread output in front of the loop's input."""
        if len(data) > len(self._input) - READ_CHUNK:
            raise ValueError("more unread output than the loop's input buffer holds")
        ctypes.memmove(self.match.input, data, len(data))
        self.match.input_len = len(data)

    def take_errors(self) -> bytes:
        """The player's stderr the loop kept, taken out of the loop."""
        data = ctypes.string_at(self.match.errors, self.match.errors_len)
        self.match.errors_keep -= self.match.errors_len
        self.match.errors_len = 0
        return data


@contextlib.contextmanager
def _signal_wakeup() -> Iterator[int]:
    """A descriptor that becomes readable when a signal arrives (in the main thread; elsewhere -1)."""
    if threading.current_thread() is not threading.main_thread():
        yield -1
        return
    read, write = os.pipe2(os.O_NONBLOCK | os.O_CLOEXEC)
    try:
        previous = signal.set_wakeup_fd(write, warn_on_full_buffer=False)
        try:
            yield read
        finally:
            signal.set_wakeup_fd(previous)
    finally:
        os.close(read)
        os.close(write)


def default_rng_doubles(kernel: RolloutKernel, seed: int, count: int) -> list[float]:
    """The first ``count`` draws of the loop's rebuild of ``numpy.random.default_rng(seed).random()``."""
    out = (ctypes.c_double * count)()
    function = kernel.library.arena_default_rng_doubles
    function.restype = None
    function.argtypes = [ctypes.c_uint64, ctypes.c_int64, ctypes.c_void_p]
    function(seed, count, out)
    return list(out)


def read_reply(
    kernel: RolloutKernel, parse: Callable[[bytes], tuple[Reply, int]], line: bytes
) -> tuple[Reply, int]:
    """How the loop reads the reply ``line`` (its plain form, else ``parse``'s verdict): for the tests, which
    fuzz it against the judge's Python loop. ``parse`` must not raise."""

    def callback(address: int, length: int, value: ctypes._Pointer[ctypes.c_int64]) -> int:
        kind, number = parse(ctypes.string_at(address, length))
        value[0] = number
        return int(kind)

    function = kernel.library.arena_headsup_read_reply
    function.restype = ctypes.c_int32
    function.argtypes = [ParseFn, ctypes.c_char_p, ctypes.c_int64, ctypes.POINTER(ctypes.c_int64)]
    value = ctypes.c_int64(0)
    kind = function(ParseFn(callback), line, len(line), ctypes.byref(value))
    return Reply(kind), value.value
