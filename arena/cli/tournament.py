"""``arena tournament``, ``arena final``, ``arena finals-logs`` and ``arena watch``.

The CLI registry imports only this module for all four: they are one job, hosting a Code'em tournament.
"""

from __future__ import annotations

import argparse
import threading
from pathlib import Path
from typing import TYPE_CHECKING, Any

from rich.console import Console
from rich.progress import (
    BarColumn,
    Progress,
    ProgressColumn,
    Task,
    TaskID,
    TextColumn,
    TimeElapsedColumn,
    TimeRemainingColumn,
)
from rich.text import Text

from arena import untrusted
from arena.cli.decks import add_deck_options, check_deck_options
from arena.cli.options import (
    add_rule_options,
    at_least_one,
    folder,
    reach_scheduler,
    refuse_other_run,
    rule_settings,
    scheduler_address,
    seconds,
)
from arena.cli.say import say
from arena.cli.terminal_tables import FittingTable, fitting_table
from arena.cli.tournament_view import announce_plan, fault_line, print_outcome, print_standings
from arena.errors import ConfigError
from arena.faults import Fault
from arena.tournament.standings import RankBy

if TYPE_CHECKING:  # the library is imported when a command runs, so ``arena --help`` stays quick
    from arena.tournament.final import FinalReport


def register(subparsers: Any) -> None:
    """Add the four sub-commands."""
    tournament = subparsers.add_parser(
        "tournament",
        help="play a whole Code'em tournament of the programs in a folder",
        description="Find <TeamId>.<ext> programs (every other file is listed with the reason it is not "
        "played), seat them at tables of six so every pair meets, play the tables in parallel, and write "
        "standings.csv, results.json, submissions.csv and reports/<TeamId>.md (every fault with its "
        "'arena replay' command). Says what it plays before play, each fault as it happens, and where every "
        "output went. Running the same command again after an interruption (Ctrl-C, SIGTERM, a crash) "
        "finishes the tournament. The decks come from a secret key committed in commitment.json before the "
        "first card ('arena reveal', 'arena verify'); a program changed after registration stops the "
        "tournament.",
    )
    tournament.add_argument(
        "submissions", type=Path, metavar="SUBMISSIONS_DIR", help="folder of <TeamId>.<ext> programs"
    )
    tournament.add_argument(
        "--out",
        type=folder,
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
        type=scheduler_address,
        metavar="tls://HOST:PORT",
        help="play the tables on the Dask cluster of this scheduler instead of local --jobs "
        "(docs/cluster.md)",
    )
    add_certs_option(tournament)
    tournament.add_argument("--duplicate", action="store_true", help="replay each table with seats rotated")
    add_rule_options(tournament, what="at every table and the final")
    tournament.add_argument(
        "--format",
        default="round-robin",
        metavar="round-robin|groups|swiss",
        help="the tournament's format: every pair meets (round-robin, the default); groups of at most 40 "
        "whose best 8 advance, the last group playing until its top six are separated; or swiss rounds "
        "seating teams of similar standing until the top six are separated (docs/tournament.md)",
    )
    tournament.add_argument(
        "--round-tables",
        type=int,
        metavar="N",
        help="swiss: the tables of every round after the first (default: the field seated once); a "
        "multiple of the cluster's cores keeps every wave of tables full (docs/tournament.md)",
    )
    tournament.add_argument(
        "--budget",
        type=int,
        metavar="TABLES",
        help="swiss or groups: the most tables played, the first round always whole (default: a fifth "
        "of round-robin's); with --round-tables it bounds the hours on a cluster (docs/tournament.md)",
    )
    tournament.add_argument(
        "--standings-format",
        choices=STANDINGS_FORMATS,
        default="table",
        help="the standings on stdout as a terminal table (default), CSV or JSON; the rest goes to stderr",
    )
    tournament.add_argument(
        "--rank-by",
        choices=[r.value for r in RankBy],
        default=RankBy.CHIPS.value,
        help="order the standings by chips won per deal (default, as statement 004 ranks) or by the "
        "luck-adjusted value per deal (docs/tournament.md); both are always shown",
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
        "--scheduler",
        type=scheduler_address,
        metavar="tls://HOST:PORT",
        help="play the final on this Dask cluster's workers",
    )
    add_certs_option(final)
    final.set_defaults(handler=_final)

    logs = subparsers.add_parser("finals-logs", help="write Code'em's finals log folders for the finalists")
    logs.add_argument("run_dir", type=Path, metavar="RUN_DIR", help="a finished tournament's RUN_DIR")
    logs.add_argument("--out", type=folder, required=True, metavar="DIR", help="where the folders go")
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
        type=seconds,
        default=1.0,
        metavar="SECONDS",
        help="seconds without writes before a check (default 1)",
    )
    watch.add_argument(
        "--jobs", type=at_least_one, default=1, metavar="N", help="programs checked at once (default 1)"
    )
    watch.set_defaults(handler=_watch)


def add_certs_option(parser: argparse.ArgumentParser) -> None:
    """``--certs DIR``: the organiser's certificate for a ``tls://`` scheduler."""
    parser.add_argument(
        "--certs",
        type=Path,
        metavar="DIR",
        help="the folder 'arena cluster certs DIR' wrote: a tls:// --scheduler is reached with its CA and "
        "client certificate",
    )


class RateColumn(ProgressColumn):
    """Completed units per second, or per minute when fewer than one a second."""

    def render(self, task: Task) -> Text:
        speed = task.finished_speed or task.speed
        if not speed:
            text = "-/s"
        elif speed < 1:
            text = f"{speed * 60:.1f}/min"
        else:
            text = f"{speed:.1f}/s"
        return Text(text, style="progress.data.speed")


class BarsOnTerminal:
    """The tournament's progress as two rich bars (tables, deals: ``3 of 10 done · 6.0/min · 0:00:30
    elapsed · 0:01:00 left``) and lines on stderr."""

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
            TextColumn("{task.completed} of {task.total} done ·"),
            RateColumn(),
            TextColumn("·"),
            TimeElapsedColumn(),
            TextColumn("elapsed ·"),
            TimeRemainingColumn(),
            TextColumn("left"),
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

    def fault(self, table: str, fault: Fault) -> None:
        """One line per fault, above the bars, as it happens."""
        say(self.console, fault_line(table, fault))

    def cluster(self, *, workers: int, in_flight: int) -> None:
        """A line when the cluster's workers or tables in flight change."""
        line = f"cluster: {workers} workers connected, {in_flight} tables in flight"
        self.console.print(line, highlight=False)

    def stop(self) -> None:
        """Leave the bars as they ended."""
        if self.bars is not None:
            self.bars.stop()
            self.bars = None


def final_table(report: FinalReport) -> FittingTable:
    """The final's places, winner first, titled with the deals played (figures never cut)."""
    rows = []
    for p in report.places:
        out = "-" if p.out_in_deal is None else str(p.out_in_deal or "did not build")
        rows.append([f"{p.place}", f"{p.seat}", p.team, f"{p.final_stack}", f"{p.profit:+d}", out])
        rows[-1] += [f"{p.faults}", "yes" if p.disqualified else ""]
    headers = ("place", "seat", "team", "chips", "profit", "out in deal", "faults", "DQ")
    return fitting_table(f"Final table: {report.deals_played} of {report.deals} deals played", headers, rows)


STANDINGS_FORMATS = ("table", "csv", "json")
TOURNAMENT_FORMATS = ("round-robin", "groups", "swiss")


def tournament_format(value: str) -> str:
    """``--format``'s value, or one line saying what to use (it named the standings' format before)."""
    if value in STANDINGS_FORMATS:
        raise ConfigError(
            f"--format now chooses the tournament's format ({', '.join(TOURNAMENT_FORMATS)}); "
            f"for the standings as {value} use --standings-format {value}"
        )
    if value not in TOURNAMENT_FORMATS:
        raise ConfigError(f"--format {value!r}: choose one of {', '.join(TOURNAMENT_FORMATS)}")
    return value


def _tournament(args: argparse.Namespace) -> int:
    from arena.tournament.host import run_tournament

    check_deck_options(args)
    settings = rule_settings(
        args,
        duplicate=args.duplicate,
        format=tournament_format(args.format),
        round_tables=args.round_tables,
        budget=args.budget,
    )
    refuse_other_run(args.out, "arena tournament")
    if args.scheduler:
        reach_scheduler(args.scheduler)
    console = Console(stderr=True)
    report = run_tournament(
        args.submissions,
        args.out,
        settings,
        jobs=args.jobs,
        scheduler=args.scheduler,
        certs=args.certs,
        progress=BarsOnTerminal(console),
        deck_key=args.deck_key,
        reveal_at_end=args.reveal_at_end,
        announce=lambda plan: announce_plan(console, plan),
        rank_by=RankBy(args.rank_by),
    )
    print_standings(report.standings, args.standings_format, args.out, report.separation)
    for standing in report.standings:
        if standing.disqualified_tables:
            tables = ", ".join(standing.disqualified_tables.split())
            say(console, f"{standing.team} was disqualified at {tables}")
    print_outcome(console, args.out, report)
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
    if args.scheduler:
        reach_scheduler(args.scheduler)
    options = FinalOptions(
        help_files=args.help_files,
        programs_dir=args.programs,
        deals=args.deals,
        deck_key=args.deck_key,
        allow_disqualified=args.allow_disqualified,
        again=args.again,
        reveal_at_end=args.reveal_at_end,
        scheduler=args.scheduler,
        certs=args.certs,
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
        what = "is not a folder" if args.submissions.exists() else "does not exist"
        raise ConfigError(f"submissions folder {args.submissions} {what}")
    console = Console()

    def checked(done: Checked) -> None:
        lines = done.report.read_text().splitlines()
        verdict = next((line for line in lines if line.startswith(("verdict:", "result:"))), "checked")
        console.print(f"{done.program.name}: {verdict} -> {done.report.name}", highlight=False, markup=False)

    jobs = f", {args.jobs} programs at once" if args.jobs > 1 else ""
    say(console, f"watching {args.submissions}{jobs} (Ctrl-C to stop)")

    def starting(program: Path) -> None:
        console.print(f"checking {untrusted.name(program.name)}", highlight=False, markup=False)

    stop = threading.Event()
    watch(
        args.submissions, quiet_s=args.quiet, on_checked=checked, stop=stop, jobs=args.jobs, on_start=starting
    )
    return 0
