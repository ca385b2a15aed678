"""One heads-up match of a program against Bob: build, run the judge over the session, write the files."""

from __future__ import annotations

import tempfile
import time
from collections.abc import Callable
from contextlib import ExitStack
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

import pydantic

from arena.decks.commitment import StageDecks, TableDeck, start_stage
from arena.engines.headsup import BobPolicy, Outcomes
from arena.errors import ConfigError
from arena.evaluator.rollouts import rollout_outcomes, win_tie_rates
from arena.faults import Fault, FaultKind
from arena.games.headsup.judge import HandRecord, Judge, JudgeConfig, MatchOutcome, RateFn
from arena.games.headsup.log import HandLog, write_results
from arena.games.headsup.player import HeadsUpInterface, build_player, guess_interface
from arena.games.headsup.scoring import points
from arena.intervals import MeanInterval, mean_interval, sample_stdev
from arena.sandbox import Limits, RunResult, RunStatus
from arena.sandbox.cores import one_core
from arena.seats import kept_stderr, open_player, run_fault_kind

REPLY_SLACK_S = 5.0  # one reply may take the whole CPU limit of the match plus this much wall time
STAGE = "headsup"  # the match's stage and table in commitment.json


class HeadsUpSettings(pydantic.BaseModel, frozen=True):
    """A match as the user asked for it, validated once."""

    hands: int = pydantic.Field(default=10_000, ge=1, le=1_000_000)
    seed: int | None = pydantic.Field(default=None, ge=0)
    """A known seed (tests, demos): anyone who knows it knows every card. None: a secret deck key."""
    deck_key: Path | None = None
    """The organiser's key file; None: a fresh key (with no seed)."""
    rate_budget: int = pydantic.Field(default=3_000_000, ge=0)
    time_limit_s: float = pydantic.Field(default=10.0, gt=0)
    interface: HeadsUpInterface | None = None
    memory_mb: int = pydantic.Field(default=512, ge=16)
    isolation: str = "auto"


@dataclass(frozen=True, slots=True)
class MatchReport:
    """What a match produced: the figures the CLI prints and ``results.json`` holds."""

    program: str
    interface: HeadsUpInterface
    outcome: MatchOutcome
    w: MeanInterval
    w_stdev: float
    points: int
    player_cpu_s: float
    time_limit_s: float
    judge_cpu_s: float
    run: RunResult | None
    fault: Fault | None

    @property
    def scored(self) -> bool:
        """The heads-up statement scores only programs that finish every hand within the limits and budget."""
        return self.fault is None and self.outcome.completed

    @property
    def call_rate(self) -> float:
        """Bob's calls per raise he faced."""
        return self.outcome.calls / self.outcome.raises if self.outcome.raises else 0.0

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready form for ``results.json``."""
        out = self.outcome
        cfg = out.config
        return {
            "program": self.program,
            "interface": self.interface.value,
            "hands": cfg.hands,
            "hands_played": len(out.deltas),
            "seed": cfg.seed if cfg.secret is None else None,
            "W": self.w.mean,
            "W_ci95": [self.w.low, self.w.high],
            "W_stdev": self.w_stdev,
            "points": self.points,
            "scored": self.scored,
            "bob_raises_faced": out.raises,
            "bob_calls": out.calls,
            "bob_call_rate": self.call_rate,
            "rate_queries": out.rate_queries,
            "rate_rollouts": out.rate_used,
            "rate_budget": cfg.rate_budget,
            "time_limit_s": self.time_limit_s,
            "reply_wait_s": cfg.reply_wait_s,
            "player_cpu_s": self.player_cpu_s,
            "player_wait_s": out.think_s,
            "judge_cpu_s": self.judge_cpu_s,
            "player_exit": self.run.describe() if self.run is not None else "not started",
            "fault": self.fault.to_dict() if self.fault is not None else None,
        }


def _limits(settings: HeadsUpSettings) -> Limits:
    wall = settings.time_limit_s + REPLY_SLACK_S
    # RLIMIT_CPU one second above the limit: a program that spins is stopped, and any run whose measured
    # CPU is over the limit is a timeout fault (rlimit accounting alone lags by a few ticks).
    return Limits(wall_time_s=wall, cpu_time_s=settings.time_limit_s + 1.0, memory_mb=settings.memory_mb)


def _run_fault(team: str, run: RunResult, limit_s: float, judged: Fault | None) -> Fault | None:
    """The judge's fault, made precise by how the program ended (the seat layer's rule), or a CPU overrun.

    The heads-up time limit is the program's CPU time over the whole match: using more is this game's
    ``timeout``, whatever else happened.
    """
    stderr = kept_stderr(run.stderr)
    if run.cpu_ms > limit_s * 1000:
        reason = f"used {run.cpu_ms / 1000:.2f} s of CPU, over the {limit_s:g} s limit of the match"
        if judged is None:
            return Fault(team, FaultKind.TIMEOUT, reason, stage="match", stderr=stderr)
        return replace(judged, kind=FaultKind.TIMEOUT, reason=reason, stderr=stderr)
    if judged is None:
        return None
    ended = run_fault_kind(run)
    explained = judged.kind is FaultKind.NO_ANSWER or (
        judged.kind is FaultKind.TIMEOUT and run.status is RunStatus.CPU_LIMIT
    )
    if explained and ended is not None:
        return replace(judged, kind=ended, reason=f"the program {run.describe()}", stderr=stderr)
    return replace(judged, stderr=stderr)


def open_decks(settings: HeadsUpSettings, out_dir: Path | None) -> StageDecks:
    """The match's decks: a secret key (a fresh one, or ``settings.deck_key``) committed in
    ``out_dir/commitment.json`` before the first hand, or the known ``settings.seed``."""
    table = TableDeck(STAGE, STAGE, "hands.jsonl", game=STAGE)
    return start_stage(out_dir, STAGE, key_file=settings.deck_key, seed=settings.seed, tables=[table])


def play_headsup(
    program: Path,
    settings: HeadsUpSettings,
    out_dir: Path | None = None,
    *,
    on_hand: Callable[[HandRecord], None] | None = None,
    bob_outcomes: Outcomes = rollout_outcomes,
    rates: RateFn = win_tie_rates,
    decks: StageDecks | None = None,
) -> MatchReport:
    """Build ``program``, play ``settings.hands`` hands against Bob, write results.json and hands.jsonl.

    The decks and Bob's draws come from ``decks``, by default :func:`open_decks`. ``bob_outcomes`` and
    ``rates`` are the rollout functions (the benchmark swaps in plain-Python ones).
    """
    program = program.resolve()
    if not program.is_file():
        raise ConfigError(f"{program}: no such program file")
    interface = settings.interface or guess_interface(program)
    decks = decks or open_decks(settings, out_dir)
    config = JudgeConfig(
        hands=settings.hands,
        seed=settings.seed or 0,
        secret=decks.secret(STAGE),
        rate_budget=settings.rate_budget,
        reply_wait_s=settings.time_limit_s + REPLY_SLACK_S,
        team=program.stem,
    )
    with tempfile.TemporaryDirectory(prefix="arena-headsup-") as scratch:
        workdir = Path(scratch) / "player"
        workdir.mkdir()
        workdir.chmod(0o777)
        Path(scratch).chmod(0o755)
        log = HandLog(out_dir / "hands.jsonl") if out_dir is not None else None

        def record(hand: HandRecord) -> None:
            if log is not None:
                log.write(hand)
            if on_hand is not None:
                on_hand(hand)

        try:
            with one_core(), ExitStack() as stack:  # the judge and the player take turns
                player = open_player(
                    stack,
                    program.stem,
                    program,
                    workdir,
                    _limits(settings),
                    isolation=settings.isolation,
                    build=lambda sandbox: build_player(program, interface, sandbox),
                )
                if not player.built:
                    reason = kept_stderr(player.build.output)
                    fault = Fault(program.stem, FaultKind.BUILD_FAILED, reason, stage="build")
                    outcome = MatchOutcome(config, fault=fault)
                    return _finish(program, interface, outcome, None, 0.0, settings, out_dir)
                transport = player.line_transport()
                transport.start()
                judge = Judge(transport, config, bob=BobPolicy(bob_outcomes), rates=rates, on_hand=record)
                cpu_start = time.process_time()
                outcome = judge.run()
                judge_cpu = time.process_time() - cpu_start
                run = transport.close()
        finally:
            if log is not None:
                log.close()
    return _finish(program, interface, outcome, run, judge_cpu, settings, out_dir)


def _finish(
    program: Path,
    interface: HeadsUpInterface,
    outcome: MatchOutcome,
    run: RunResult | None,
    judge_cpu: float,
    settings: HeadsUpSettings,
    out_dir: Path | None,
) -> MatchReport:
    fault = outcome.fault
    if run is not None:
        fault = _run_fault(program.stem, run, settings.time_limit_s, fault)
    w = mean_interval(outcome.deltas)
    report = MatchReport(
        program=str(program),
        interface=interface,
        outcome=outcome,
        w=w,
        w_stdev=sample_stdev(outcome.deltas),
        points=points(w.mean) if outcome.completed and fault is None else 0,
        player_cpu_s=run.cpu_ms / 1000 if run is not None else 0.0,
        time_limit_s=settings.time_limit_s,
        judge_cpu_s=judge_cpu,
        run=run,
        fault=fault,
    )
    if out_dir is not None:
        write_results(out_dir / "results.json", report.to_dict())
    return report
