"""One Code'em table: opens each team's seat, drives the engine deal by deal, asks the seats, records.

The loop is the only place where the engine, the protocol and the seats meet. A program's misbehaviour
becomes a :class:`~arena.faults.Fault` and the documented default action; nothing a program does stops
the table. Seats are opened by :mod:`arena.seats` (sandbox, build, start-up allowance, transport); the
results are :mod:`~arena.games.codem.results`; the table's folder is written by
:mod:`~arena.games.codem.output`, all of it rendered from the events.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from contextlib import ExitStack
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, SecretBytes

from arena import untrusted
from arena.build_errors import first_build_error
from arena.cards import cards_text
from arena.decks.derive import sha256_hex, table_decks
from arena.engines.nlhe.actions import Action, Fold
from arena.engines.nlhe.deal import Deal
from arena.engines.nlhe.events import DealEnded, Street
from arena.engines.nlhe.rules import TableRules, choose_first_dealer, next_dealer
from arena.errors import ConfigError, ProgramChanged
from arena.faults import Fault, FaultKind
from arena.games.codem.deal_file import DealText
from arena.games.codem.inputs import render_deals_money
from arena.games.codem.output import TableFolder
from arena.games.codem.protocol import (
    OUTPUT_FILE,
    PROTOCOL_FILES,
    Reading,
    decision_files,
    default_action,
    read_answer,
)
from arena.games.codem.results import TableResult, TeamResult, timing_summary
from arena.languages import language_for
from arena.runfolder.layout import KEPT_DIR
from arena.sandbox.cores import one_core
from arena.sandbox.limits import Limits
from arena.sandbox.team_folder import copy_given
from arena.seats import (
    breach_kind,
    check_team_name,
    kept_stderr,
    open_player,
    run_fault_kind,
    run_reason,
)
from arena.transports.files import FileReply, FileTransport

__all__ = ["PlayerSpec", "TableConfig", "TableResult", "TeamResult", "run_table"]

KEPT_BYTES = 8 << 20
"""Per team and table: help files kept as they were before faulted runs, at most this many bytes."""
TABLE_LIMITS = Limits(clock="cpu")
"""How a table judges a decision, and ``arena replay`` with it: CPU time (every process and thread) with a
wall-clock cap and the idle rule (docs/protocol.md, "Time")."""


class TableConfig(BaseModel):
    """Everything that fixes a table besides its players, validated once."""

    model_config = ConfigDict(frozen=True, arbitrary_types_allowed=True)

    deals: int = Field(1000, ge=1)
    seed: int = 0
    table_secret: SecretBytes | None = None
    """The table's secret from the run's deck key (``arena.decks``); without it ``seed`` fixes the cards."""
    time_limit_s: float = Field(1.0, gt=0)
    max_faults: int = Field(10, ge=1)
    warm_python: bool = True
    build_cache: Path | None = None
    rules: TableRules = TableRules()
    limits: Limits = TABLE_LIMITS


@dataclass(frozen=True)
class PlayerSpec:
    """A team and its program; ``help_dir`` holds help files given before the table (the final table).

    ``sha256`` is the program's hash when it was registered: the table checks it before it starts.
    """

    team: str
    program: Path
    help_dir: Path | None = None
    sha256: str | None = None


@dataclass
class _Seat:
    """A team at the table: its transport, its faults and its measurements."""

    team: str
    seat: int
    transport: FileTransport | None
    build_output: str = ""
    program_name: str = ""
    """The program's file in the team folder (``Team.c``; a ``.cc`` is built as ``Team.cpp``)."""
    faults: list[Fault] = field(default_factory=list)
    disqualified: bool = False
    wall_ms: list[float] = field(default_factory=list)
    cpu_ms: list[float] = field(default_factory=list)
    peak_memory_kb: int = 0
    deal: int = 0
    runs_in_deal: int = 0
    help_files: dict[str, bytes | None] | None = field(default_factory=dict)
    """The help files as the last run left them (None when over the cap): the next run's start."""
    kept_bytes: int = 0
    allowance_ms: float = 0.0
    """The runtime's start-up, added to this team's wall limit (docs/sandbox.md)."""

    @property
    def plays(self) -> bool:
        return self.transport is not None


@dataclass
class _Run:
    """One run of a program at one decision: what it was given, and what is needed to reproduce it."""

    deal: int
    stage: str
    inputs: dict[str, str]
    hole: tuple[int, int]
    stacks: Sequence[int]
    decision: int = 0
    help_before: dict[str, bytes | None] | None = None
    stdout: bytes = b""


def validate_players(players: Sequence[PlayerSpec]) -> None:
    """One error line unless 2 to 6 programs of distinct teams, each an existing file of a known language."""
    if not 2 <= len(players) <= 6:
        raise ConfigError(f"a table needs 2 to 6 programs, got {len(players)}")
    names = [p.team for p in players]
    if len(set(names)) != len(names):
        raise ConfigError(f"team names repeat at one table: {', '.join(sorted(names))}")
    for player in players:
        check_team_name(player.team, player.program)
        if player.team in PROTOCOL_FILES:  # a C, C++ or Java build would name its binary like the file
            raise ConfigError(f"team {player.team} ({player.program}) is named like a file the table writes")
        if not player.program.is_file():
            raise ConfigError(f"program {player.program} does not exist")
        language_for(player.program)
        if player.sha256 is not None:
            now = sha256_hex(player.program.read_bytes())
            if now != player.sha256:
                raise ProgramChanged(
                    f"the program of team {player.team} ({player.program}) changed since it was registered "
                    f"(SHA-256 {player.sha256[:16]}..., now {now[:16]}...); a run's programs are fixed"
                )


class _Table:
    """The state of a running table (kept small: the engine holds the deal)."""

    def __init__(
        self,
        seats: list[_Seat],
        config: TableConfig,
        folder: TableFolder,
        on_fault: Callable[[Fault], None] | None = None,
    ) -> None:
        self.seats = seats
        self.config = config
        self.folder = folder
        self.on_fault = on_fault
        self._money = (0, "")  # the deal whose deals_money.txt is kept, and that file

    def deals_money(self, number: int, stacks_before: Sequence[int]) -> str:
        """The deal's ``deals_money.txt`` (the same at each of its decisions: rendered once)."""
        if self._money[0] != number:
            self._money = (number, render_deals_money(number, stacks_before))
        return self._money[1]

    def record_in(self, run: _Run, seat: _Seat, kind: FaultKind, reason: str, stderr: bytes) -> None:
        """Record a fault of the decision ``run``, with all that is needed to reproduce it."""
        self.record(seat, kind, reason, deal=run.deal, stage=run.stage, stderr=stderr, run=run)

    def record(
        self,
        seat: _Seat,
        kind: FaultKind,
        reason: str,
        *,
        deal: int,
        stage: str,
        stderr: bytes = b"",
        run: _Run | None = None,
    ) -> None:
        """Record a fault; with ``run``, everything needed to reproduce the decision it happened in."""
        details: dict[str, Any] = {}
        if run is not None:
            details = {
                "seat": seat.seat,
                "decision": run.decision,
                "cards": cards_text(run.hole),
                "stacks": tuple(run.stacks),
                "inputs": run.inputs,
                "stdout": kept_stderr(run.stdout),
                "help_kept": self._keep_help_files(seat, run),
            }
        fault = Fault(
            team=seat.team,
            kind=kind,
            reason=untrusted.capped(untrusted.printable(reason)),
            deal=deal,
            stage=stage,
            stderr=kept_stderr(stderr),
            **details,
        )
        seat.faults.append(fault)
        self.folder.write_fault(fault)
        if self.on_fault is not None:
            self.on_fault(fault)
        if not seat.disqualified and len(seat.faults) >= self.config.max_faults:
            seat.disqualified = True

    def _keep_help_files(self, seat: _Seat, run: _Run) -> str:
        """Write the help files the faulted run started from under ``kept/`` (once per run, capped)."""
        size = sum(len(data) for data in (run.help_before or {}).values() if data is not None)
        if not run.help_before or seat.kept_bytes + size > KEPT_BYTES:
            return ""
        folder = Path(KEPT_DIR) / seat.team / f"deal{run.deal}-decision{run.decision}"
        target = self.folder.out_dir / folder
        if not target.exists():
            target.mkdir(parents=True)
            for name, data in sorted(run.help_before.items()):  # a folder comes before what it holds
                if data is None:
                    (target / name).mkdir(parents=True, exist_ok=True)
                else:
                    (target / name).parent.mkdir(parents=True, exist_ok=True)
                    (target / name).write_bytes(data)
            seat.kept_bytes += size
        return folder.as_posix()

    def exchange(self, seat: _Seat, run: _Run) -> FileReply | None:
        """Run the seat's program once; record run-level faults; the reply if the run was clean."""
        assert seat.transport is not None
        if seat.deal != run.deal:
            seat.deal, seat.runs_in_deal = run.deal, 0
        seat.runs_in_deal += 1
        run.decision = seat.runs_in_deal
        run.help_before = seat.help_files
        reply = seat.transport.exchange(run.inputs)
        result = reply.run
        run.stdout = result.stdout
        seat.help_files = seat.transport.help_files_snapshot(KEPT_BYTES) if reply.help_files else {}
        seat.wall_ms.append(result.wall_ms)
        seat.cpu_ms.append(result.cpu_ms)
        seat.peak_memory_kb = max(seat.peak_memory_kb, result.peak_memory_kb)
        for breach in reply.violations:
            self.record_in(run, seat, breach_kind(breach), breach.reason, result.stderr)
        kind = run_fault_kind(result)
        if kind is not None:
            self.record_in(run, seat, kind, run_reason(result), result.stderr)
            return None
        return reply

    def close(self, seat: _Seat, *, deal: int) -> None:
        """End the seat's sandbox; what its folder held that may not be kept is a fault, never an error."""
        if seat.transport is None:
            return
        sandbox = seat.transport.sandbox
        sandbox.close()
        for stray in sandbox.dropped:
            name = untrusted.name(stray.path)
            reason = f"{name} is {stray.reason}; not kept" if stray.path else stray.reason
            self.record(seat, FaultKind.SANDBOX_VIOLATION, reason, deal=deal, stage="close")

    def decide(
        self, deal: Deal, seat: _Seat, *, number: int, stacks_before: Sequence[int], deal_text: DealText
    ) -> Action:
        if seat.disqualified or not seat.plays:
            return Fold()
        files = decision_files(
            deal,
            seat.seat,
            deal_number=number,
            stacks_before=stacks_before,
            deal_text=deal_text.render(deal.events),
            deals_money=self.deals_money(number, stacks_before),
        )
        run = _Run(number, deal.street.value, files, deal.hole_cards(seat.seat), stacks_before)
        reply = self.exchange(seat, run)
        if reply is None:
            return default_action(deal)
        reading: Reading = read_answer(reply.text, deal, reply.output_size)
        if reading.fault is not None:
            reason = reading.reason
            if reading.fault is FaultKind.NO_ANSWER and reply.run.stdout.strip():
                reason += f" (it printed on stdout instead; the answer goes in {OUTPUT_FILE})"
            self.record(
                seat,
                reading.fault,
                reason,
                deal=number,
                stage=run.stage,
                stderr=reply.run.stderr,
                run=run,
            )
        return reading.action

    def after_showdown(
        self, deal: Deal, *, number: int, stacks_before: Sequence[int], final_text: str
    ) -> None:
        """Code'em: after a showdown every dealt-in program runs once more to update its help files."""
        for seat_no in deal.in_deal:
            seat = self.seats[seat_no - 1]
            if seat.plays and not seat.disqualified:
                money = self.deals_money(number, stacks_before)
                files = decision_files(
                    deal,
                    seat_no,
                    deal_number=number,
                    stacks_before=stacks_before,
                    deal_text=final_text,
                    deals_money=money,
                )
                hole = deal.hole_cards(seat_no)
                self.exchange(seat, _Run(number, Street.SHOWDOWN.value, files, hole, stacks_before))


def _open_seat(
    stack: ExitStack,
    player: PlayerSpec,
    seat_no: int,
    folder: TableFolder,
    config: TableConfig,
    limits: Limits,
) -> tuple[_Seat, str]:
    """The team's seat, and the sandbox's isolation level."""
    workdir = folder.team_folder(player.team)
    # Help files go in before the sandbox opens: it takes in what the folder holds at that moment.
    helps = copy_given(player.help_dir, workdir, limits) if player.help_dir is not None else set()
    opened = open_player(stack, player.team, player.program, workdir, limits, build_cache=config.build_cache)
    isolation = opened.sandbox.isolation_level
    if not opened.built:
        return _Seat(player.team, seat_no, None, opened.build.output, _source_name(player)), isolation
    # A help file the team prepared may share a protocol file's name; the products never count.
    transport = opened.file_transport(protected=set(PROTOCOL_FILES) - helps, warm_python=config.warm_python)
    build = opened.build
    source = _source_name(player)
    seat = _Seat(player.team, seat_no, transport, build.output, source, allowance_ms=build.startup_ms)
    seat.help_files = transport.help_files_snapshot(KEPT_BYTES) if helps else {}
    return seat, isolation


def _source_name(player: PlayerSpec) -> str:
    return player.team + language_for(player.program).extension


def run_table(
    players: Sequence[PlayerSpec],
    out_dir: Path,
    config: TableConfig,
    *,
    on_deal: Callable[[int], None] | None = None,
    notify: Callable[[str], None] | None = None,
    on_fault: Callable[[Fault], None] | None = None,
) -> TableResult:
    """Play one table of ``config.deals`` deals; write its files in ``out_dir``; return the result.

    ``on_deal`` hears each finished deal's number, ``notify`` lines for people, ``on_fault`` each fault.
    """
    validate_players(players)
    rules = replace(config.rules, seats=len(players))
    limits = config.limits.model_copy(update={"wall_time_s": config.time_limit_s})
    stacks = [rules.starting_stack] * len(players)
    deals_played = 0
    with one_core(), TableFolder(out_dir) as folder, ExitStack() as stack:  # arena, runners, programs
        folder.write_seats([player.team for player in players])
        seats: list[_Seat] = []
        isolation = ""
        for seat_no, player in enumerate(players, 1):
            seat, isolation = _open_seat(stack, player, seat_no, folder, config, limits)
            seats.append(seat)
        if notify is not None:
            notify(f"sandbox isolation: {isolation}")
        table = _Table(seats, config, folder, on_fault)
        for seat in seats:
            if not seat.plays:
                table.record(
                    seat,
                    FaultKind.BUILD_FAILED,
                    f"the program did not build (it sits out): {first_build_error(seat.build_output)}",
                    deal=0,
                    stage="build",
                    stderr=seat.build_output.encode(),
                )
                if notify is not None:
                    notify(f"{seat.team}: build failed, sits out\n{seat.build_output}")
        secret = config.table_secret.get_secret_value() if config.table_secret is not None else None
        decks = table_decks(seed=config.seed, secret=secret)
        dealer_rng = decks.dealer_rng()
        dealer = 0
        for number in range(1, config.deals + 1):
            in_play = [s if seats[i].plays else 0 for i, s in enumerate(stacks)]
            if sum(1 for s in in_play if s > 0) < 2:
                break
            dealer = choose_first_dealer(dealer_rng, in_play) if dealer == 0 else next_dealer(in_play, dealer)
            deck = decks.deck(number)
            started = datetime.now(UTC)
            deal = Deal(rules=rules, deal_number=number, dealer=dealer, stacks=in_play, deck=deck)
            deal_text = DealText(seats=len(players))  # brought up to date at each decision
            while not deal.is_over:
                actor = deal.actor
                assert actor is not None
                action = table.decide(
                    deal, seats[actor - 1], number=number, stacks_before=in_play, deal_text=deal_text
                )
                deal.apply(action)
            final_text = deal_text.render(deal.events)
            ended = deal.events[-1]
            assert isinstance(ended, DealEnded)
            if ended.showdown:
                table.after_showdown(deal, number=number, stacks_before=in_play, final_text=final_text)
            for i, chips in enumerate(deal.final_stacks):
                if seats[i].plays:
                    stacks[i] = chips
            folder.write_deal(number, deal.events, final_text, started=started)
            deals_played = number
            if on_deal is not None:
                on_deal(number)
        # Each sandbox closes before the results (so each team folder holds what its program left); what a
        # folder held that may not be kept is the team's fault, never the table's end.
        for seat in seats:
            table.close(seat, deal=deals_played)
    result = TableResult(
        seed=config.seed if secret is None else None,
        deck_sha256=sha256_hex(secret) if secret is not None else None,
        deals_played=deals_played,
        isolation=isolation,
        time_limit_s=config.time_limit_s,
        teams=tuple(
            TeamResult(
                team=s.team,
                seat=s.seat,
                final_stack=stacks[s.seat - 1],
                profit=stacks[s.seat - 1] - rules.starting_stack,
                faults=tuple(s.faults),
                disqualified=s.disqualified,
                built=s.plays,
                decisions=len(s.wall_ms),
                timing={
                    **timing_summary(s.wall_ms),
                    "cpu_median_ms": timing_summary(s.cpu_ms)["median_ms"],
                    "peak_memory_kb": s.peak_memory_kb,
                    "allowance_ms": round(s.allowance_ms, 3),
                },
                build_output=s.build_output,
                program=s.program_name,
            )
            for s in seats
        ),
    )
    folder.write_results(result)
    return result
