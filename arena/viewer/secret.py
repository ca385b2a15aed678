"""How a deal's replay is watched, and what of the deal each way of watching may put in the page.

``open`` is the record: every step and every hole card from the start (the table page's links, the static
export). The secret ways are served by ``arena view`` one step at a time: the page holds the steps up to
the one shown and the browser asks for the next when it is played, so the log, the deal list, the titles
and the data hold nothing of the future. ``hidden`` and ``broadcast`` (large type, plays by itself) leave
every hole card out of the data until it is shown at the showdown; ``team`` leaves out all but one team's.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum, unique
from urllib.parse import urlencode


@unique
class Mode(StrEnum):
    """The ways of watching a replay."""

    OPEN = "open"
    HIDDEN = "hidden"
    BROADCAST = "broadcast"
    TEAM = "team"


@dataclass(frozen=True, slots=True)
class Viewing:
    """A way of watching: its mode and, for :attr:`Mode.TEAM`, the team whose cards are seen."""

    mode: Mode = Mode.OPEN
    team: str = ""

    @property
    def secret(self) -> bool:
        """True when the page may hold nothing of the future."""
        return self.mode is not Mode.OPEN

    def reveal(self, names: Sequence[str]) -> frozenset[int] | None:
        """The seats whose hole cards are in the data before the showdown (``None``: all of them)."""
        if self.mode is Mode.OPEN:
            return None
        if self.mode is Mode.TEAM:
            return frozenset(seat for seat, name in enumerate(names, start=1) if name == self.team)
        return frozenset()

    def query(self) -> str:
        """The query string that asks for this way of watching (empty for the open record)."""
        if self.mode is Mode.TEAM:
            return urlencode({"view": "team", "team": self.team})
        return "" if self.mode is Mode.OPEN else urlencode({"view": self.mode.value})


RECORD = Viewing()
"""The open record: everything from the first step."""


def viewing_from_query(query: Mapping[str, str]) -> Viewing:
    """The way of watching a page's query asks for: ``view=hidden|broadcast|team`` (with ``team=NAME``);
    the older ``hide=1`` and ``broadcast=1`` mean hidden and broadcast. Anything else is the open record."""
    view = query.get("view", "")
    if view == Mode.TEAM and query.get("team"):
        return Viewing(Mode.TEAM, query["team"])
    if view == Mode.BROADCAST or query.get("broadcast") == "1":
        return Viewing(Mode.BROADCAST)
    if view == Mode.HIDDEN or query.get("hide") == "1":
        return Viewing(Mode.HIDDEN)
    return RECORD
