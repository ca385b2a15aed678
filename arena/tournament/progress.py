"""How a tournament tells whoever runs it what it is doing, without knowing how that is shown.

The library calls a :class:`Progress`; the CLI draws it (rich bars and coloured lines, in
``arena/cli/tournament.py``), tests may record it, and :class:`Quiet` ignores it.
"""

from __future__ import annotations

from typing import Protocol

from arena.faults import Fault


class Progress(Protocol):
    """What the tournament reports while it runs."""

    def note(self, message: str) -> None:
        """One line for the organiser (resuming, a finalist's program, a table that failed)."""

    def warn(self, message: str) -> None:
        """One line about something the organiser should fix (files ignored in the submissions)."""

    def start(self, label: str, *, tables: int, deals: int) -> None:
        """Playing begins: ``tables`` tables of ``deals`` deals in all."""

    def advance(self, *, tables: int = 0, deals: int = 0) -> None:
        """This many more tables finished and deals played."""

    def fault(self, table: str, fault: Fault) -> None:
        """A team's program faulted at ``table`` (as it happens, before the table is recorded)."""

    def cluster(self, *, workers: int, in_flight: int) -> None:
        """On a Dask cluster: workers connected, tables being played now."""

    def stop(self) -> None:
        """Playing ended (finished, failed or interrupted)."""


class Quiet:
    """A :class:`Progress` that reports nothing."""

    def note(self, message: str) -> None:
        """Nothing."""

    def warn(self, message: str) -> None:
        """Nothing."""

    def start(self, label: str, *, tables: int, deals: int) -> None:
        """Nothing."""

    def advance(self, *, tables: int = 0, deals: int = 0) -> None:
        """Nothing."""

    def fault(self, table: str, fault: Fault) -> None:
        """Nothing."""

    def cluster(self, *, workers: int, in_flight: int) -> None:
        """Nothing."""

    def stop(self) -> None:
        """Nothing."""
