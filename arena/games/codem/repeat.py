"""``arena check --repeat``: run every decision of a finished check twice and name those whose answers differ.

For each table of the check (``out/seat<N>/``) the program is built in two fresh folders, side by side,
and given every one of its recorded decisions in order (the three input files rendered from the events by
:mod:`arena.games.codem.decisions`, as ``arena replay`` does, the showdown runs included so help files
evolve as at the table). Both folders start empty and see the same inputs, so as long as the program is
deterministic they hold the same help files before every decision: a decision whose two answers differ is
nondeterminism on identical inputs and help files. A table stops at its first difference, since after it
the two folders' help files may no longer be the same.
"""

from __future__ import annotations

import json
import tempfile
from collections.abc import Callable
from contextlib import ExitStack
from dataclasses import dataclass
from pathlib import Path

from arena import untrusted
from arena.engines.nlhe.events import Street
from arena.errors import ConfigError
from arena.games.codem.decisions import decision_inputs, decisions
from arena.games.codem.protocol import PROTOCOL_FILES
from arena.runfolder.layout import is_table_folder, results_path
from arena.runfolder.reader import typed_deals
from arena.sandbox import Limits
from arena.seats import open_player
from arena.transports.files import FileReply


@dataclass(frozen=True)
class Difference:
    """A decision whose two runs answered differently (``None``: no answer, the run faulted)."""

    table: str
    deal: int
    decision: int
    stage: str
    first: str | None
    second: str | None

    def describe(self) -> str:
        """One line naming the decision and both answers."""
        return (
            f"{self.table}, deal {self.deal}, decision {self.decision} ({self.stage}): "
            f"answered {_shown(self.first)}, then {_shown(self.second)} on the same input and help files"
        )


@dataclass(frozen=True)
class RepeatReport:
    """What ``--repeat`` found: the decisions compared and the first difference of each table."""

    compared: int
    differences: list[Difference]

    def lines(self, team: str) -> list[str]:
        """The report's lines: a verdict, then each difference with its ``arena replay`` decision."""
        if not self.compared:
            return [f"repeat: {team} made no decision to run again"]
        if not self.differences:
            return [f"repeat: {self.compared} decisions run twice: {team} answered the same each time"]
        head = (
            f"repeat: {team} answered differently on identical inputs at {len(self.differences)} of the "
            f"tables ({self.compared} decisions compared); a program should not depend on chance or time"
        )
        return [head, *(f"  {d.describe()}" for d in self.differences)]


def _shown(answer: str | None) -> str:
    return "no answer" if answer is None else repr(untrusted.printable(answer)[:40])


def _answer(reply: FileReply) -> str | None:
    """The first line of the answer, as the table reads it; None when the run failed or wrote nothing."""
    if not reply.ok or not reply.text or not reply.text.strip():
        return None
    return reply.text.strip().splitlines()[0].strip()


def repeat_table(
    table: Path, program: Path, limits: Limits, on_decision: Callable[[], None] | None = None
) -> tuple[int, Difference | None]:
    """Run the program's decisions at one table twice; how many were compared and the first difference."""
    results = json.loads(results_path(table).read_text())
    seats = {t["team"]: t["seat"] for t in results["teams"]}
    if program.stem not in seats:
        raise ConfigError(f"team {program.stem} did not sit at {table}")
    seat = seats[program.stem]
    compared = 0
    with ExitStack() as stack:
        transports = []
        for _ in range(2):
            workdir = Path(stack.enter_context(tempfile.TemporaryDirectory(prefix="arena-repeat-")))
            player = open_player(stack, program.stem, program, workdir, limits)
            if not player.built:
                return 0, None  # the check's report already says it did not build
            transports.append(player.file_transport(protected=set(PROTOCOL_FILES), warm_python=True))
        for deal, events in typed_deals(table):
            for decision in decisions(events, seat):
                inputs = decision_inputs(events, seat, decision, seats=len(seats))
                first, second = (_answer(t.exchange(inputs)) for t in transports)
                if on_decision is not None:
                    on_decision()
                if decision.stage == Street.SHOWDOWN.value:
                    continue  # its answer is ignored; the run only updates help files
                compared += 1
                if first != second:
                    return compared, Difference(
                        table.name, deal, decision.number, decision.stage, first, second
                    )
    return compared, None


def repeat_check(
    out: Path, program: Path, limits: Limits, on_decision: Callable[[], None] | None = None
) -> RepeatReport:
    """Repeat every table of the check kept in ``out`` (its ``seat<N>/`` folders)."""
    tables = sorted(p for p in out.glob("seat*") if is_table_folder(p))
    compared = 0
    differences = []
    for table in tables:
        count, difference = repeat_table(table, program, limits, on_decision)
        compared += count
        if difference is not None:
            differences.append(difference)
    return RepeatReport(compared, differences)
