"""Printing a line whole: Ctrl-C or SIGTERM arriving mid-print waits until the line is out.

rich writes its buffer and then clears it; an interrupt between the two writes the line again when the
console next flushes. While :func:`say` prints, the command's signal handler (``arena.cli.main``) only
notes a signal; it is raised as soon as the line is out, so a line is printed exactly once.
"""

from __future__ import annotations

import signal

from rich.console import Console

from arena.errors import Terminated


class _Hold:
    """Whether a line is being printed, and the signals that arrived meanwhile."""

    def __init__(self) -> None:
        self.active = False
        self.pending: list[int] = []


HOLD = _Hold()


def say(console: Console, text: str) -> None:
    """Print ``text`` as it is (no markup, no highlighting, never wrapped: logs keep a line a line), whole."""
    HOLD.active = True
    try:
        console.print(text, markup=False, highlight=False, soft_wrap=True)
    finally:
        HOLD.active = False
    if HOLD.pending:
        number = HOLD.pending.pop()
        HOLD.pending.clear()
        raise Terminated() if number == signal.SIGTERM else KeyboardInterrupt()
