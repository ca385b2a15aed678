"""The compiled hand loop's reply parser (arena/games/headsup/hand_loop.c) fuzzed against the judge's
Python loop.

Every line, arbitrary bytes or a near miss of a reply (signs, spaces, CR, huge numbers, NULs, non-ASCII
digits and spaces), must get the same verdict from both loops: the same kind and the same number, or
malformed for both. The compiled side is the loop's own ``arena_headsup_read_reply`` with the judge's parse
callback; the Python side reads the line as the judge's session does (``Session.read_line``: decoded with
replacement, trailing CRs dropped) and parses it with ``protocol.parse_reply``.
"""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from arena.games.headsup import protocol
from arena.games.headsup.hand_loop import Reply, loop_kernel, read_reply
from arena.games.headsup.loop_match import _Parser

from support.headsup import both_ways

pytestmark = [
    pytest.mark.native,
    pytest.mark.skipif(loop_kernel() is None, reason="no C compiler: the Python loop runs alone"),
]

KINDS = {
    protocol.Move.CHECK: Reply.CHECK,
    protocol.Move.FOLD: Reply.FOLD,
    protocol.Move.RAISE: Reply.RAISE,
}


def python_verdict(line: bytes) -> tuple[Reply, int]:
    """What the judge's Python loop makes of ``line``: a kind and its number, or malformed."""
    try:
        reply = protocol.parse_reply(line.decode(errors="replace").rstrip("\r"))
    except protocol.MalformedLine:
        return Reply.MALFORMED, 0
    if isinstance(reply, protocol.RateRequest):
        return Reply.RATE, reply.samples
    return KINDS[reply.move], reply.amount


def compiled_verdict(line: bytes) -> tuple[Reply, int]:
    """What the compiled loop makes of ``line``: its plain form, else the judge's parser (its callback)."""
    kernel = loop_kernel()
    assert kernel is not None
    kind, value = read_reply(kernel, _Parser(), line)
    return kind, value if kind in (Reply.RATE, Reply.RAISE) else 0


WORDS = ["RATE", "ACTION", "CHECK", "FOLD", "RAISE", "rate", "ACTIONS", "RAIS", ""]
SPACES = [" ", "  ", "\t", "\r", "\x00", "\x0b", "\x1c", "\u00a0", "\u2003", "\u3000", ""]
DIGITS = "0123456789" + "\u0660\u0661\u0669\uff10\uff15\u00b2\u2075\u09e7\U0001d7ce"
SIGNS = ["", "-", "+", "--", "-+", " -"]
ENDS = ["", "\r", "\r\r", " ", "\r ", " \r", "\x00", "\t", "\u00a0", "\ufeff"]

numbers = st.one_of(
    st.integers(min_value=-(10**30), max_value=10**30).map(str),
    st.text(alphabet=DIGITS, min_size=1, max_size=16),
    st.builds(lambda zeros, n: "0" * zeros + str(n), st.integers(0, 14), st.integers(0, 10**12)),
)
near_misses = st.builds(
    lambda lead, words, seps, sign, number, end: (
        lead + "".join(word + sep for word, sep in zip(words, seps, strict=False)) + sign + number + end
    ),
    st.sampled_from(["", " ", "\t", "\x00"]),
    st.lists(st.sampled_from(WORDS), min_size=1, max_size=3),
    st.lists(st.sampled_from(SPACES), min_size=3, max_size=3),
    st.sampled_from(SIGNS),
    numbers,
    st.sampled_from(ENDS),
).map(lambda text: text.encode())
plain_forms = st.builds(
    lambda form, n, end: (form.format(n) + end).encode(),
    st.sampled_from(["RATE {}", "ACTION RAISE {}", "ACTION CHECK", "ACTION FOLD"]),
    st.integers(min_value=-(10**13), max_value=10**13),
    st.sampled_from(ENDS),
)
any_bytes = st.binary(max_size=48)
# arbitrary bytes: a byte replaced in a valid reply (a line never holds a newline)
mutated = st.builds(
    lambda line, at, byte: line[:at] + bytes([byte]) + line[at + 1 :],
    st.sampled_from([b"RATE 12", b"ACTION RAISE -37", b"ACTION CHECK", b"ACTION FOLD"]),
    st.integers(0, 15),
    st.integers(0, 255),
)
lines = st.one_of(any_bytes, near_misses, plain_forms, mutated).map(lambda line: line.replace(b"\n", b""))


@pytest.mark.slow
@settings(max_examples=2000, deadline=None)
@given(lines)
@example(b"RATE 0")
@example(b"RATE 000000000001")
@example(b"RATE 0000000000001")
@example(b"ACTION RAISE -0")
@example(b"ACTION RAISE -999999999999")
@example(b"ACTION RAISE -9999999999999")
@example(b"ACTION RAISE \xd9\xa1")
@example(b"RATE 5\xc2\xa0")
@example(b"RATE 5\xa0")
@example(b"ACTION  CHECK\r\r")
@example(b"ACTION\x1cFOLD")
@example(b"ACTION CHECK\x00")
@example(b"\r")
@example(b"")
def test_both_loops_give_every_line_the_same_verdict(line: bytes) -> None:
    assert compiled_verdict(line) == python_verdict(line), line


def test_the_verdicts_tell_replies_apart() -> None:
    """The comparison above can fail: the verdicts of distinct lines differ, on both sides alike."""
    cases = {
        b"RATE 7": (Reply.RATE, 7),
        b"ACTION RAISE -3\r": (Reply.RAISE, -3),
        b"ACTION CHECK": (Reply.CHECK, 0),
        b"ACTION\tFOLD ": (Reply.FOLD, 0),
        b"RATE 0": (Reply.MALFORMED, 0),
        b"ACTION RAISE 1234567890123": (Reply.MALFORMED, 0),
    }
    for line, verdict in cases.items():
        assert compiled_verdict(line) == python_verdict(line) == verdict, line


# a player that checks, but answers its first decision of hand 2 with the raw bytes of a near miss
RAW_PLAYER = textwrap.dedent(
    """
    import sys
    out = sys.stdout.buffer
    for line in sys.stdin:
        if line.startswith("STATE"):
            number = int(line.split()[1])
        if line.startswith("BOARD"):
            if number == 2:
                out.write({line!r} + b"\\n")
                number = 0
            out.write(b"ACTION CHECK\\n")
            out.flush()
    """
)


@pytest.mark.parametrize(
    "line",
    [
        b"RATE 007\r",
        b"RATE 0",
        b"ACTION RAISE -0",
        b"ACTION RAISE \xd9\xa1",
        b"ACTION\x1cFOLD",
        b"RATE 3\x00",
    ],
)
def test_near_misses_end_a_real_match_alike(
    line: bytes, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The same lines from a real player in a sandbox: both loops show the same hands, results and fault."""
    program = tmp_path / "player.py"
    program.write_text(RAW_PLAYER.format(line=line))
    report = both_ways(program, tmp_path, monkeypatch, hands=4)
    assert report.run is not None
