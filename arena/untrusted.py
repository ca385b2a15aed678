"""Text a program controls (names, stderr, answers, build output): made safe to store and to show.

Such text may hold terminal escape sequences, bytes that are not UTF-8, or rich markup such as
``[/x]``. :func:`printable` turns it into text that always encodes as UTF-8 (JSON, SQLite, files) and
shows no control character: each is written as a visible ``\\xNN`` escape, so a person sees exactly
what the program wrote without a terminal acting on it. Line breaks and tabs stay. The command line
adds ``rich.markup.escape`` when it prints such text inside markup (``arena.cli``).
"""

from __future__ import annotations

import os
from collections.abc import Sequence

REASON_CHARS = 600


def _escaped(char: str) -> str:
    code = ord(char)
    if 0xDC80 <= code <= 0xDCFF:  # an undecodable byte kept by surrogateescape
        return f"\\x{code - 0xDC00:02x}"
    if code <= 0xFF:
        return f"\\x{code:02x}"
    return f"\\u{code:04x}"


# Line and paragraph separators, and every bidirectional control (CVE-2021-42574: embeddings, overrides,
# isolates and their ends), which reorder the text a person reads around them.
_INVISIBLE = frozenset("\u2028\u2029\u200e\u200f\u061c" + "".join(map(chr, range(0x202A, 0x202F))))
_INVISIBLE |= frozenset(map(chr, range(0x2066, 0x206A)))


def _unsafe(char: str) -> bool:
    code = ord(char)
    if char in "\n\t":
        return False
    return code < 0x20 or 0x7F <= code < 0xA0 or 0xD800 <= code <= 0xDFFF or char in _INVISIBLE


def printable(text: str | bytes) -> str:
    """``text`` with every control character and undecodable byte escaped (``\\x1b``, ``\\xff``)."""
    if isinstance(text, bytes):
        text = text.decode("utf-8", "surrogateescape")
    if text.isprintable():
        return text
    return "".join(_escaped(char) if _unsafe(char) else char for char in text)


def name(raw: str | bytes | os.PathLike[str]) -> str:
    """A file name a program chose, as one safe line (a line break in it is escaped too)."""
    text = printable(os.fsdecode(raw) if not isinstance(raw, bytes) else raw)
    return text.replace("\n", "\\n").replace("\t", "\\t")


_MARKDOWN = str.maketrans({char: "\\" + char for char in "\\`*_[]<>|#!"})


def markdown(text: str | bytes | os.PathLike[str]) -> str:
    """A name or reason a program controls, as plain text inside Markdown (a table cell, a list item): one
    line (:func:`name`), every character Markdown or HTML would act on escaped with a backslash."""
    return name(text).translate(_MARKDOWN)


def cell(text: str | bytes | os.PathLike[str]) -> str:
    """A name a program or a team chose, as one spreadsheet cell: :func:`name`, and a leading ``'`` when it
    starts like a formula (``=``, ``+``, ``-``, ``@``), so a spreadsheet shows it instead of running it."""
    safe = name(text)
    return f"'{safe}" if safe[:1] in ("=", "+", "-", "@") else safe


def capped(text: str, limit: int = REASON_CHARS) -> str:
    """``text`` cut to at most ``limit`` characters, saying how much was left out."""
    if len(text) <= limit:
        return text
    note = f" ... ({len(text) - limit} more characters)"
    return text[: max(0, limit - len(note))] + note


def listing(names: Sequence[str], *, shown: int = 5) -> str:
    """``a, b, c and 79,997 more``: a few safe names of a long list."""
    head = ", ".join(name(item) for item in names[:shown])
    rest = len(names) - shown
    return f"{head} and {rest:,} more" if rest > 0 else head
