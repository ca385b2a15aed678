"""``arena twocard play``: build a program, then one sandboxed test case per server strategy.

Each test case gets a fresh sandboxed folder (``<out>/case_<n>/player``), a freshly started program
and the player's own time budget. Results go to ``<out>/results.json`` and every hand to
``<out>/case_<n>/hands.jsonl``.
"""

from __future__ import annotations

import functools
import json
import shutil
import tempfile
from collections.abc import Callable, Sequence
from contextlib import ExitStack
from dataclasses import dataclass, field
from enum import StrEnum, unique
from importlib import resources
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from arena.decks.commitment import StageDecks, TableDeck, start_stage
from arena.engines.twocard.strategy import Strategy, format_strategy
from arena.engines.twocard.value import strategy_value
from arena.errors import ConfigError
from arena.faults import Fault, FaultKind
from arena.games.twocard.judge import DEFAULT_HANDS, DEFAULT_TIME_S, CaseResult, overall_score, run_case
from arena.games.twocard.seats import INPUT_FILE, OUTPUT_FILE, FileSeat, LineSeat, Seat
from arena.languages import CPP, JAVA, PYTHON, BuildResult, build_in_sandbox
from arena.runfolder.layout import HANDS, RESULTS
from arena.sandbox import Limits, Sandbox
from arena.sandbox.cores import one_core
from arena.seats import kept_stderr, open_player

STRATEGY_FOR_PLAYER = "strategy.txt"
STAGE = "twocard"  # the run's stage in commitment.json; its tables are the test cases, case_1, case_2...
CASE_STRATEGY = "strategy.txt"  # the server's strategy of a test case, in its folder: verify replays it
CLASS_NAME = "TwoCardDraw"
BUILD_TIME_S = 120.0
_CLASS_LANGUAGES = {".py": PYTHON, ".java": JAVA, ".cpp": CPP, ".cc": CPP, ".cxx": CPP}


@unique
class TwoCardInterface(StrEnum):
    """How the judge talks to a program (docs/twocard.md)."""

    LINES = "lines"
    FILES = "files"
    CLASS = "class"


class TwoCardSettings(BaseModel):
    """Options of ``arena twocard play``, validated once."""

    model_config = ConfigDict(frozen=True)

    hands: int = Field(default=DEFAULT_HANDS, ge=1)
    seed: int | None = None
    """A known seed (tests, demos): anyone who knows it knows every card. None: a secret deck key."""
    deck_key: Path | None = None
    """The organiser's key file; None: a fresh key (with no seed)."""
    time_limit_s: float = Field(default=DEFAULT_TIME_S, gt=0)
    memory_mb: int = Field(default=512, ge=64)
    give_strategy: bool = False
    interface: TwoCardInterface | None = None


@dataclass
class MatchResult:
    """Every test case of one program, the interface used and the overall score."""

    program: str
    interface: str
    cases: list[CaseResult] = field(default_factory=list)
    build_output: str = ""

    def to_dict(self) -> dict[str, Any]:
        """The content of results.json."""
        return {
            "program": self.program,
            "interface": self.interface,
            "score": overall_score(self.cases),
            "cases": [case.to_dict() for case in self.cases],
            "build_output": self.build_output,
        }


def guess_interface(program: Path) -> TwoCardInterface:
    """``class`` if the source defines class TwoCardDraw (Python, Java, C++), ``files`` if it mentions
    ``inputf.txt``, else ``lines``."""
    try:
        text = program.read_text(errors="replace")
    except OSError as error:
        raise ConfigError(f"{program}: cannot read ({error.strerror})") from None
    if program.suffix in _CLASS_LANGUAGES and f"class {CLASS_NAME}" in text and "__main__" not in text:
        return TwoCardInterface.CLASS
    if INPUT_FILE in text:
        return TwoCardInterface.FILES
    return TwoCardInterface.LINES


def _driver_text(name: str) -> str:
    return resources.files("arena.games.twocard").joinpath("drivers").joinpath(name).read_text()


def _build_class(program: Path, sandbox: Sandbox) -> BuildResult:
    """Put the solution and its driver in the sandbox's folder and build them together."""
    language = _CLASS_LANGUAGES.get(program.suffix)
    if language is None:
        raise ConfigError(f"{program}: the class interface takes a .py, .java or .cpp file")
    folder = sandbox.folder
    if language is PYTHON:
        shutil.copyfile(program, folder / "TwoCardDraw.py")
        (folder / "twocard_driver.py").write_text(_driver_text("twocard_driver.py"))
        sources, output, entry = ["TwoCardDraw.py"], "", "twocard_driver.py"
    elif language is JAVA:
        shutil.copyfile(program, folder / "TwoCardDraw.java")
        (folder / "TwoCardDrawDriver.java").write_text(_driver_text("TwoCardDrawDriver.java"))
        sources, output, entry = ["TwoCardDraw.java", "TwoCardDrawDriver.java"], "", "TwoCardDrawDriver"
    else:
        shutil.copyfile(program, folder / "TwoCardDraw.cpp")
        (folder / "twocard_driver.cpp").write_text(_driver_text("twocard_driver.cpp"))
        sources, output, entry = ["twocard_driver.cpp"], "twocard_player", "twocard_player"
    return build_in_sandbox(
        language, sources, output=output, entry=entry, sandbox=sandbox, wall_time_s=BUILD_TIME_S
    )


def _open_seat(
    stack: ExitStack,
    program: Path,
    interface: TwoCardInterface,
    workdir: Path,
    config: TwoCardSettings,
    team: str,
) -> tuple[Seat | None, str]:
    """Build and start the player in a fresh sandbox; (None, build output) when it does not build."""
    session_wall = max(BUILD_TIME_S, 20 * config.time_limit_s)
    limits = Limits(
        wall_time_s=config.time_limit_s if interface is TwoCardInterface.FILES else session_wall,
        memory_mb=config.memory_mb,
    )
    build = (lambda sandbox: _build_class(program, sandbox)) if interface is TwoCardInterface.CLASS else None
    player = open_player(stack, team, program, workdir, limits, build=build)
    if not player.built:
        return None, player.build.output
    if interface is TwoCardInterface.FILES:
        protected = {STRATEGY_FOR_PLAYER, INPUT_FILE}
        transport = player.file_transport(output_name=OUTPUT_FILE, protected=protected)
        return FileSeat(transport, team=team, budget_s=config.time_limit_s), player.build.output
    return LineSeat(player.line_transport(), team=team, budget_s=config.time_limit_s), player.build.output


def case_name(case: int) -> str:
    """The folder, table and deck of test case ``case`` (1-based)."""
    return f"case_{case}"


def open_decks(config: TwoCardSettings, out_dir: Path | None, cases: int) -> StageDecks:
    """The run's decks: a secret key (a fresh one, or ``config.deck_key``) committed in
    ``out_dir/commitment.json`` before the first hand, each test case its own deck; or the known seed."""
    tables = [
        TableDeck(case_name(n), case_name(n), f"{case_name(n)}/hands.jsonl", game=STAGE)
        for n in range(1, cases + 1)
    ]
    return start_stage(out_dir, STAGE, key_file=config.deck_key, seed=config.seed, tables=tables)


def play_match(
    program: Path,
    strategies: Sequence[tuple[Path, Strategy]],
    config: TwoCardSettings,
    *,
    out_dir: Path | None = None,
    on_hand: Callable[[int, int], None] | None = None,
    decks: StageDecks | None = None,
) -> MatchResult:
    """Play every strategy as one test case; write results.json and hand logs when ``out_dir`` is given.

    The hands come from ``decks``, by default :func:`open_decks`. ``on_hand(case, hands)`` is called as
    hands are played (a progress bar).
    """
    if not program.is_file():
        raise ConfigError(f"{program}: no such program file")
    interface = config.interface or guess_interface(program)
    result = MatchResult(program=str(program), interface=interface.value)
    team = program.stem
    with one_core(), ExitStack() as outer:  # the judge and the program take turns
        base = out_dir if out_dir is not None else Path(outer.enter_context(tempfile.TemporaryDirectory()))
        base.mkdir(parents=True, exist_ok=True)
        decks = decks or open_decks(config, out_dir, len(strategies))
        for case, (path, strategy) in enumerate(strategies, 1):
            case_dir = base / case_name(case)
            if case_dir.exists():
                shutil.rmtree(case_dir)
            workdir = case_dir / "player"
            workdir.mkdir(parents=True)
            (case_dir / CASE_STRATEGY).write_text(format_strategy(strategy))
            if config.give_strategy:
                (workdir / STRATEGY_FOR_PLAYER).write_text(format_strategy(strategy))
            value = strategy_value(strategy)
            with ExitStack() as stack:
                seat, build_output = _open_seat(stack, program, interface, workdir, config, team)
                result.build_output = build_output
                if seat is None:
                    fault = Fault(
                        team,
                        FaultKind.BUILD_FAILED,
                        "the program did not build",
                        stage="build",
                        stderr=kept_stderr(build_output),
                    )
                    result.cases.append(_unplayed(case, path, strategy, value, config, fault))
                    continue
                with (case_dir / HANDS).open("w") as log:
                    result.cases.append(
                        run_case(
                            case,
                            str(path),
                            strategy,
                            value,
                            seat,
                            hands=config.hands,
                            seed=config.seed or 0,
                            secret=decks.secret(case_name(case)),
                            team=team,
                            log=log,
                            on_hand=functools.partial(on_hand, case) if on_hand else None,
                        )
                    )
        if out_dir is not None:
            (out_dir / RESULTS).write_text(json.dumps(result.to_dict(), indent=2) + "\n")
    return result


def _unplayed(
    case: int, path: Path, strategy: Strategy, value: float, config: TwoCardSettings, fault: Fault
) -> CaseResult:
    return CaseResult(
        case=case,
        strategy=str(path),
        bet1=strategy.bet1,
        bet2=strategy.bet2,
        value=value,
        hands=config.hands,
        hands_played=0,
        profit=0,
        score=0.0,
        best_expected_profit=-value * config.hands,
        share=None,
        time_s=0.0,
        fault=fault,
    )
