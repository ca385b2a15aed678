"""Faults: a team program's misbehaviour as a value with a kind and a reason, never an exception."""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from enum import StrEnum, unique
from typing import Any


@unique
class FaultKind(StrEnum):
    """The closed vocabulary of what a program can do wrong."""

    BUILD_FAILED = "build_failed"
    TIMEOUT = "timeout"
    CPU_LIMIT = "cpu_limit"
    FILE_SIZE_LIMIT = "file_size_limit"
    NOT_STARTED = "not_started"
    CRASH = "crash"
    MEMORY_LIMIT = "memory_limit"
    OUTPUT_LIMIT = "output_limit"
    NO_ANSWER = "no_answer"
    NOT_AN_INTEGER = "not_an_integer"
    INVALID_ANSWER = "invalid_answer"
    RAISE_BELOW_MINIMUM = "raise_below_minimum"
    HELP_FILE_LIMIT = "help_file_limit"
    SANDBOX_VIOLATION = "sandbox_violation"
    PROTOCOL_ERROR = "protocol_error"
    RATE_BUDGET = "rate_budget"


STAGE_WORDS = {
    "Pre_Flop": "pre-flop",
    "Flop": "flop",
    "Fourth_Street": "turn",
    "Fifth_Street": "river",
    "Show_Down": "the run after the showdown",
}
"""Code'em's stage names (the protocol's, in ``deal.txt``) in the words the docs use."""


def stage_text(stage: str) -> str:
    """A fault's stage as people read it: ``Fourth_Street`` is the turn; other stages as they are."""
    return STAGE_WORDS.get(stage, stage)


@dataclass(frozen=True, slots=True)
class Fault:
    """One fault of one team: where it happened, what it was, and what the program printed.

    At a Code'em table a fault also carries what a team needs to reproduce it: its ``seat``, the
    ``decision`` (the program's K-th run in that deal), its ``cards`` and the ``stacks`` before the deal,
    the three ``inputs`` files exactly as given, ``stdout`` (capped like ``stderr``) and where its help
    files were kept as they were before the run (``help_kept``, a folder relative to the table's).
    """

    team: str
    kind: FaultKind
    reason: str
    deal: int = 0
    stage: str = ""
    stderr: str = ""
    seat: int = 0
    decision: int = 0
    cards: str = ""
    stacks: tuple[int, ...] = ()
    inputs: dict[str, str] = field(default_factory=dict)
    stdout: str = ""
    help_kept: str = ""

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready form."""
        data = asdict(self)
        data["stacks"] = list(self.stacks)
        return data

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Fault:
        """Inverse of :meth:`to_dict`."""
        return cls(**{**data, "kind": FaultKind(data["kind"]), "stacks": tuple(data.get("stacks", ()))})
