"""The compiled hand loop against the judge's Python loop: real players in real sandboxes, both ways.

Every match is played twice with the same seed, once by the compiled loop
(arena/games/headsup/hand_loop.c) and once by the Python loop (``ARENA_NO_KERNELS``), and everything a
user sees must be the same: every hand's log line, the results (but for clocks), the fault with its reason,
the player's kept stderr.
"""

from __future__ import annotations

import errno
import os
import signal
import subprocess
import sys
import textwrap
from collections.abc import Callable
from pathlib import Path

import numpy as np
import pytest

from arena.cards import derive_seed
from arena.faults import FaultKind
from arena.games.headsup import loop_match as compiled_module
from arena.games.headsup.hand_loop import Fault, HandLoop, Reply, default_rng_doubles, loop_kernel
from arena.games.headsup.protocol import CARD_TEXT

from support.headsup import both_ways

pytestmark = [
    pytest.mark.native,
    pytest.mark.skipif(loop_kernel() is None, reason="no C compiler: the Python loop runs alone"),
]

BOTS = Path(__file__).resolve().parents[3] / "bots" / "headsup"

# A player whose replies come in every form the protocol allows: odd spacing, tabs, a trailing CR, a
# no-break space (UTF-8), two replies in one write, stderr between lines; random but seeded.
ODD_PLAYER = textwrap.dedent(
    """
    import os, random, sys
    rng = random.Random(17)
    out = sys.stdout
    stack = 100
    for line in sys.stdin:
        words = line.split()
        if not words or words[0] != "BOARD":
            if words and words[0] == "STATE":
                stack = int(words[3])
            continue
        if rng.random() < 0.1:
            print("thinking about", stack, file=sys.stderr, flush=True)
        ask = rng.random()
        if ask < 0.5:
            rate = rng.choice(["RATE {}", "RATE  {}", "RATE\\t{}", "  RATE {}\\r", "RATE\\u00a0{}"])
            out.write(rate.format(rng.randint(1, 40)) + "\\n")
            out.flush()
            if rng.random() < 0.5:
                sys.stdin.readline()  # the RATES line
            else:  # the action goes out before the answer comes back
                pass
        move = rng.random()
        if stack > 0 and move < 0.3:
            form = rng.choice(["ACTION RAISE {}", "ACTION  RAISE\\t{}", "ACTION RAISE {}\\r"])
            out.write(form.format(rng.randint(1, stack)) + "\\n")
        elif move < 0.45:
            out.write("ACTION FOLD\\n")
        else:
            out.write(rng.choice(["ACTION CHECK", "ACTION\\tCHECK", " ACTION CHECK \\r"]) + "\\n")
        out.flush()
    """
)


def _fault_player(hand: int, reply: str) -> str:
    """A player that checks until hand ``hand``, where its first reply is ``reply`` (Python source)."""
    return textwrap.dedent(
        f"""
        import sys, time
        for line in sys.stdin:
            if line.startswith("STATE"):
                number = int(line.split()[1])
            if line.startswith("BOARD"):
                if number == {hand}:
                    {reply}
                print("ACTION CHECK", flush=True)
        """
    )


PROTOCOL, RAISE = FaultKind.PROTOCOL_ERROR, FaultKind.INVALID_ANSWER
# Asks and asks and never reads an answer: the pipe to it fills, and the judge must not block on it.
DEAF = "import sys\nwhile True:\n    sys.stdout.write('RATE 1\\n' * 100)\n    sys.stdout.flush()\n"
FLOOD = "sys.stdout.write('x' * 200_000); sys.stdout.flush(); sys.stdin.read()"  # past the output cap
FAULTS = {
    "malformed": (_fault_player(5, "print('HELLO', flush=True)"), {}, PROTOCOL),
    "rate zero": (_fault_player(3, "print('RATE 0', flush=True)"), {}, PROTOCOL),
    "double minus": (_fault_player(2, "print('ACTION RAISE --5', flush=True)"), {}, PROTOCOL),
    "raise too big": (_fault_player(4, "print('ACTION RAISE 101', flush=True)"), {}, RAISE),
    "raise zero": (_fault_player(2, "print('ACTION RAISE 0', flush=True)"), {}, RAISE),
    "over budget": (
        _fault_player(1, "print('RATE 30', flush=True); sys.stdin.readline(); print('RATE 30', flush=True)"),
        {"rate_budget": 50},
        FaultKind.RATE_BUDGET,
    ),
    "closes output": (_fault_player(6, "sys.exit(0)"), {}, FaultKind.NO_ANSWER),
    "silent": (_fault_player(2, "sys.stdin.read()"), {"time_limit_s": 0.2}, FaultKind.TIMEOUT),
    "flood": (_fault_player(3, FLOOD), {}, None),
    "never reads": (DEAF, {"time_limit_s": 0.2}, FaultKind.TIMEOUT),
}


def test_example2_plays_the_same_handsboth_ways(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    report = both_ways(BOTS / "example2.cpp", tmp_path, monkeypatch, hands=300)
    assert report.scored and report.outcome.rate_used > 0 and report.outcome.raises > 0


@pytest.mark.parametrize("player", ["example2", "fault in the third block"])
def test_blocks_dealt_ahead_and_replayed_behind_play_the_same_hands(
    player: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The loop plays blocks of 64 hands here (1,000 in a match), so a helper thread deals the next block
    and replays the last one while each block is played, and a fault lands in a later block."""
    monkeypatch.setattr(compiled_module, "DECK_BLOCK", 64)
    if player == "example2":
        report = both_ways(BOTS / "example2.cpp", tmp_path, monkeypatch, hands=300)
        assert report.scored and len(report.outcome.deltas) == 300
    else:
        program = tmp_path / "player.py"
        program.write_text(_fault_player(150, "print('ACTION RAISE 101', flush=True)"))
        report = both_ways(program, tmp_path, monkeypatch, hands=300)
        assert report.fault is not None and report.fault.kind is RAISE and len(report.outcome.deltas) == 149


def test_odd_but_valid_replies_are_read_alike(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    program = tmp_path / "odd.py"
    program.write_text(ODD_PLAYER)
    report = both_ways(program, tmp_path, monkeypatch, hands=150)
    assert report.scored, report.fault
    assert report.outcome.rate_queries > 50 and report.outcome.raises > 10
    assert report.run is not None and b"thinking about" in report.run.stderr


SLOW_FAULTS = {"silent", "never reads"}  # each waits out a player's wall cap, both ways: over 5 s


@pytest.mark.parametrize(
    "case",
    [pytest.param(name, marks=pytest.mark.slow) if name in SLOW_FAULTS else name for name in sorted(FAULTS)],
)
def test_a_fault_is_found_and_worded_alike(
    case: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    source, settings, kind = FAULTS[case]
    program = tmp_path / "player.py"
    program.write_text(source)
    report = both_ways(program, tmp_path, monkeypatch, **settings)
    assert not report.scored
    assert report.fault is not None
    assert kind is None or report.fault.kind is kind, report.fault


def test_bobs_generator_in_the_loop_is_numpys_default_rng() -> None:
    kernel = loop_kernel()
    assert kernel is not None
    edges = [0, 1, 2**32 - 1, 2**32, 2**63, 2**64 - 1]
    seeds = edges + [derive_seed(11, "headsup", "bob", hand) for hand in range(1, 2001)]
    for seed in seeds:
        assert default_rng_doubles(kernel, seed, 40) == np.random.default_rng(seed).random(40).tolist(), seed


def test_ctrl_c_stops_a_match_while_the_loop_waits_for_the_player(tmp_path: Path) -> None:
    """SIGINT reaches the judge mid-hand, not when the 65 s reply wait or the block of hands ends."""
    player = tmp_path / "stalls.py"
    player.write_text("import sys\nsys.stdin.read()\n")
    harness = tmp_path / "harness.py"
    harness.write_text(
        textwrap.dedent(
            """
            import signal
            import sys
            from pathlib import Path
            from arena.games.headsup.match import HeadsUpSettings, play_headsup
            from arena.games.headsup import hand_loop as headsup

            real = headsup.HandLoop.play

            def play(self, *args):
                print("playing", flush=True)
                return real(self, *args)

            headsup.HandLoop.play = play
            signal.signal(signal.SIGINT, signal.default_int_handler)  # even if a shell's & left it ignored
            try:
                play_headsup(Path(sys.argv[1]), HeadsUpSettings(hands=10, seed=1, time_limit_s=60))
            except KeyboardInterrupt:
                print("interrupted", flush=True)
                sys.exit(130)
            """
        )
    )
    child = subprocess.Popen(
        [sys.executable, str(harness), str(player)], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
    )
    try:
        assert child.stdout is not None
        assert child.stdout.readline() == "playing\n"
        child.send_signal(signal.SIGINT)
        out, err = child.communicate(timeout=30)
    finally:
        if child.poll() is None:  # it did not stop: leave nothing behind
            child.kill()
            child.wait()
    assert child.returncode == 130, err
    assert out == "interrupted\n"


def _loop(pipes: tuple[int, int, int], parse: Callable[[bytes], tuple[Reply, int]]) -> HandLoop:
    """A loop of one match over ``pipes`` (the player's stdin, stdout, stderr), replies waited for 5 s."""
    kernel = loop_kernel()
    assert kernel is not None
    return HandLoop(
        kernel,
        pipes,
        reply_wait_s=5.0,
        output_cap=65536,
        errors_keep=65536,
        rate_budget=1000,
        rate_rng=np.random.default_rng(0),
        rules=(100, 10, 100, (0, 3, 4, 5)),
        card_text=CARD_TEXT,
        parse=parse,
    )


def test_what_the_parser_raises_stops_the_loop_and_is_raised_again() -> None:
    """A Ctrl-C that lands in the parser (called from C) must not be dropped by ctypes."""
    kernel = loop_kernel()
    assert kernel is not None
    to_player, from_judge = os.pipe()[::-1]
    from_player, to_judge = os.pipe()
    errors, errors_w = os.pipe()
    os.write(to_judge, b"RATE  5\n")  # not in the plain form: the loop asks the parser

    def parse(line: bytes) -> tuple[Reply, int]:
        raise KeyboardInterrupt

    loop = _loop((to_player, from_player, errors), parse)
    try:
        with pytest.raises(KeyboardInterrupt):
            loop.play(1, bytes(range(9)), [7])
        assert loop.match.fault == Fault.SIGNAL
        assert os.read(from_judge, 1000).startswith(b"STATE 1 1 100 100 10 0\nALICE ")
    finally:
        for fd in (to_player, from_judge, from_player, to_judge, errors, errors_w):
            os.close(fd)


def test_a_system_call_of_the_loop_that_fails_is_arenas_failure_not_a_timeout() -> None:
    """The player's output on a descriptor the loop cannot read (write-only: poll says readable, read
    fails with EBADF): FAULT_SYSTEM with the errno at once, never a timeout charged to the player."""
    to_player, from_judge = os.pipe()[::-1]
    errors, errors_w = os.pipe()
    unreadable = os.open(os.devnull, os.O_WRONLY)
    loop = _loop((to_player, unreadable, errors), lambda line: (Reply.MALFORMED, 0))
    try:
        assert loop.play(1, bytes(range(9)), [7]) == []
        assert loop.match.fault == Fault.SYSTEM and loop.match.fault_value == errno.EBADF
    finally:
        for fd in (to_player, from_judge, errors, errors_w, unreadable):
            os.close(fd)
