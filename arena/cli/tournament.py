"""``arena tournament``, ``arena final``, ``arena finals-logs`` and ``arena watch``.

The CLI registry imports only this module for all four: they are one job, hosting a Code'em tournament.
"""

from __future__ import annotations

import argparse
import signal
import threading
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from pydantic import ValidationError
from rich.console import Console
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    ProgressColumn,
    Task,
    TaskID,
    TextColumn,
    TimeElapsedColumn,
    TimeRemainingColumn,
)
from rich.table import Table
from rich.text import Text

from arena.cli.decks import add_deck_options, check_deck_options
from arena.errors import ConfigError

if TYPE_CHECKING:  # the library is imported when a command runs, so ``arena --help`` stays quick
    from arena.tournament.final import FinalReport
    from arena.tournament.standings import Standing


def register(subparsers: Any) -> None:
    """Add the four sub-commands."""
    tournament = subparsers.add_parser(
        "tournament",
        help="play a whole Code'em tournament of the programs in a folder",
        description="Find <TeamId>.<ext> programs, seat them at tables of six so every pair meets, play the "
        "tables in parallel, and write standings.csv, results.json and awards.csv. The decks come from a "
        "secret key committed in commitment.json before the first card ('arena reveal', 'arena verify'). "
        "Each program is hashed when registered and again when each of its tables starts: a changed "
        "program stops the tournament. Running the same command again after an interruption finishes "
        "the tournament.",
    )
    tournament.add_argument(
        "submissions", type=Path, metavar="SUBMISSIONS_DIR", help="folder of <TeamId>.<ext> programs"
    )
    tournament.add_argument(
        "--out",
        type=Path,
        required=True,
        metavar="RUN_DIR",
        help="where the database, tables and standings go",
    )
    tournament.add_argument(
        "--deals", type=int, default=1000, metavar="N", help="deals per table (default 1000)"
    )
    tournament.add_argument(
        "--jobs", type=int, default=1, metavar="J", help="tables played at once (default 1)"
    )
    tournament.add_argument(
        "--scheduler",
        metavar="tcp://HOST:PORT",
        help="play the tables on the Dask cluster of this scheduler instead of local --jobs "
        "(docs/cluster.md)",
    )
    tournament.add_argument("--duplicate", action="store_true", help="replay each table with seats rotated")
    tournament.add_argument(
        "--time-limit", type=float, default=1.0, metavar="T", help="seconds per decision (default 1)"
    )
    add_deck_options(tournament)
    tournament.set_defaults(handler=_tournament)

    final = subparsers.add_parser(
        "final",
        help="play the final table of the top six",
        description="Seat the six best teams of the standings (skipping any team disqualified at a table, "
        "unless --allow-disqualified, and any team whose program never built; the skipped are named) and "
        "play the final with a deck key of its own. Places: chips, then the deal in which a team went out "
        "(later is better), then the stack at the start of that deal, then the seat first after the "
        "button. Writes final.json and awards.csv. Once played, running it again shows the stored result; "
        "--again plays it anew.",
    )
    final.add_argument("run_dir", type=Path, metavar="RUN_DIR", help="a finished tournament's RUN_DIR")
    final.add_argument(
        "--help-files", type=Path, metavar="DIR", help="DIR/<TeamId>/: a finalist's help files"
    )
    final.add_argument(
        "--programs",
        type=Path,
        metavar="DIR",
        help="DIR/<TeamId>.<ext>: a finalist's updated program (its initial code plays if it does not build)",
    )
    final.add_argument(
        "--deals", type=int, default=1000, metavar="N", help="deals at the final table (default 1000)"
    )
    final.add_argument(
        "--allow-disqualified",
        action="store_true",
        help="let teams disqualified at a tournament table be finalists (default: skipped)",
    )
    final.add_argument(
        "--again",
        action="store_true",
        help="play the final again although it was played (e.g. with other help files or programs); the "
        "stored result and its deck commitment are set aside",
    )
    add_deck_options(final, seed=False)
    final.add_argument(
        "--scheduler", metavar="tcp://HOST:PORT", help="play the final on this Dask cluster's workers"
    )
    final.set_defaults(handler=_final)

    logs = subparsers.add_parser("finals-logs", help="write Code'em's finals log folders for the finalists")
    logs.add_argument("run_dir", type=Path, metavar="RUN_DIR", help="a finished tournament's RUN_DIR")
    logs.add_argument("--out", type=Path, required=True, metavar="DIR", help="where the folders go")
    logs.add_argument(
        "--allow-disqualified",
        action="store_true",
        help="choose the finalists as 'arena final --allow-disqualified' does",
    )
    logs.set_defaults(handler=_finals_logs)

    watch = subparsers.add_parser("watch", help="check new and changed programs in a folder as they arrive")
    watch.add_argument("submissions", type=Path, metavar="SUBMISSIONS_DIR", help="the folder to watch")
    watch.add_argument(
        "--quiet",
        type=float,
        default=1.0,
        metavar="SECONDS",
        help="seconds without writes before a check (default 1)",
    )
    watch.set_defaults(handler=_watch)


class RateColumn(ProgressColumn):
    """Completed units per second."""

    def render(self, task: Task) -> Text:
        speed = task.finished_speed or task.speed
        return Text(f"{speed:.1f}/s" if speed else "-/s", style="progress.data.speed")


class BarsOnTerminal:
    """The tournament's progress as two rich bars (tables, deals) and lines on stderr."""

    def __init__(self, console: Console) -> None:
        self.console = console
        self.bars: Progress | None = None
        self.tables: TaskID | None = None
        self.deals: TaskID | None = None

    def note(self, message: str) -> None:
        """A plain line."""
        self.console.print(message, markup=False, highlight=False, soft_wrap=True)

    def warn(self, message: str) -> None:
        """A line that starts with a yellow ``warning:``."""
        self.console.print(Text.assemble(("warning:", "yellow"), " ", message), highlight=False)

    def start(self, label: str, *, tables: int, deals: int) -> None:
        """Show the bars."""
        columns = (
            TextColumn("[bold]{task.description}"),
            BarColumn(),
            MofNCompleteColumn(),
            RateColumn(),
            TimeElapsedColumn(),
            TextColumn("left"),
            TimeRemainingColumn(),
        )
        self.bars = Progress(*columns, console=self.console, transient=False)
        self.bars.start()
        self.tables = self.bars.add_task(label, total=tables)
        self.deals = self.bars.add_task("deals", total=deals)

    def advance(self, *, tables: int = 0, deals: int = 0) -> None:
        """Move the bars."""
        if self.bars is not None and self.tables is not None and self.deals is not None:
            self.bars.advance(self.tables, tables)
            self.bars.advance(self.deals, deals)

    def cluster(self, *, workers: int, in_flight: int) -> None:
        """A line when the cluster's workers or tables in flight change."""
        line = f"cluster: {workers} workers connected, {in_flight} tables in flight"
        self.console.print(line, highlight=False)

    def stop(self) -> None:
        """Leave the bars as they ended."""
        if self.bars is not None:
            self.bars.stop()
            self.bars = None


def standings_table(standings: Sequence[Standing], *, title: str = "Standings") -> Table:
    """The tournament's standings as a rich table for the terminal."""
    table = Table(title=title)
    for header in ("#", "team", "tables", "deals", "profit", "per deal", "±95%", "faults", "DQ", "unbuilt"):
        table.add_column(header, justify="left" if header == "team" else "right")
    for s in standings:
        table.add_row(
            str(s.rank),
            s.team,
            str(s.tables),
            str(s.deals),
            str(s.profit),
            f"{s.profit_per_deal:+.2f}",
            f"{s.ci95_half_width:.2f}",
            str(s.faults),
            str(s.disqualified),
            str(s.build_failed),
        )
    return table


def final_table(report: FinalReport) -> Table:
    """The final's places as a rich table, winner first, titled with the deals played."""
    table = Table(title=f"Final table: {report.deals_played} of {report.deals} deals played")
    for header in ("place", "seat", "team", "chips", "profit", "out in deal", "faults", "DQ"):
        table.add_column(header, justify="left" if header == "team" else "right")
    for p in report.places:
        out = "-" if p.out_in_deal is None else str(p.out_in_deal or "did not build")
        table.add_row(
            str(p.place),
            str(p.seat),
            p.team,
            str(p.final_stack),
            f"{p.profit:+d}",
            out,
            str(p.faults),
            "yes" if p.disqualified else "",
        )
    return table


def _tournament(args: argparse.Namespace) -> int:
    from arena.tournament.host import TournamentSettings, run_tournament

    check_deck_options(args)
    try:
        settings = TournamentSettings(
            deals=args.deals, seed=args.seed, duplicate=args.duplicate, time_limit_s=args.time_limit
        )
    except ValidationError as error:
        raise ConfigError(_first_problem(error)) from None
    report = run_tournament(
        args.submissions,
        args.out,
        settings,
        jobs=args.jobs,
        scheduler=args.scheduler,
        progress=BarsOnTerminal(Console(stderr=True)),
        deck_key=args.deck_key,
        reveal_at_end=args.reveal_at_end,
    )
    console = Console()
    console.print(standings_table(report.standings))
    for standing in report.standings:
        if standing.disqualified_tables:
            tables = ", ".join(standing.disqualified_tables.split())
            console.print(f"{standing.team} was disqualified at {tables}", highlight=False, soft_wrap=True)
    if report.failures:
        raise ConfigError(
            f"{len(report.failures)} table(s) failed (first: {report.failures[0]}); "
            "run the command again to retry"
        )
    return 0


def _final(args: argparse.Namespace) -> int:
    from arena.tournament.final import FinalOptions, run_final

    check_deck_options(args)
    if args.deals < 1:
        raise ConfigError(f"--deals must be at least 1, got {args.deals}")
    options = FinalOptions(
        help_files=args.help_files,
        programs_dir=args.programs,
        deals=args.deals,
        deck_key=args.deck_key,
        allow_disqualified=args.allow_disqualified,
        again=args.again,
        reveal_at_end=args.reveal_at_end,
        scheduler=args.scheduler,
    )
    report = run_final(args.run_dir, options, progress=BarsOnTerminal(Console(stderr=True)))
    console = Console()
    console.print(final_table(report))
    console.print(f"{report.deals_played} deals played; places, tie rules and deals in final.json")
    return 0


def _finals_logs(args: argparse.Namespace) -> int:
    from arena.tournament.finals_logs import write_finals_logs

    choice = write_finals_logs(args.run_dir, args.out, allow_disqualified=args.allow_disqualified)
    for skipped in choice.skipped:
        print(skipped.line())
    chosen = choice.finalists
    print(f"wrote log folders for {len(chosen)} finalists in {args.out}: {', '.join(chosen)}")
    return 0


def _watch(args: argparse.Namespace) -> int:
    from arena.tournament.watch import Checked, watch

    if not args.submissions.is_dir():
        raise ConfigError(f"submissions folder {args.submissions} does not exist")
    console = Console()
    stop = threading.Event()

    def checked(done: Checked) -> None:
        lines = done.report.read_text().splitlines()
        verdict = next((line for line in lines if line.startswith(("verdict:", "result:"))), "checked")
        console.print(f"{done.program.name}: {verdict} -> {done.report.name}", highlight=False)

    signal.signal(signal.SIGTERM, lambda *_: stop.set())
    console.print(f"watching {args.submissions} (Ctrl-C to stop)")
    try:
        watch(args.submissions, quiet_s=args.quiet, on_checked=checked, stop=stop)
    except KeyboardInterrupt:
        stop.set()
    return 0


def _first_problem(error: ValidationError) -> str:
    problem = error.errors()[0]
    field = {"time_limit_s": "--time-limit"}.get(str(problem["loc"][0]), f"--{problem['loc'][0]}")
    return f"{field}: {problem['msg']}"
