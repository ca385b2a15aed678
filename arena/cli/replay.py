"""``arena replay RUN --table T --deal N --team X [--decision K]``: rerun one decision of a played table.

The team's folder is made again as it was at that decision: the three input files rendered from the
recorded events, and the help files as the program had left them, where arena kept them (it keeps them
before every run that faulted). The program is built and run there once, in the sandbox, and its answer,
its stdout and stderr and how the run ended are printed: a team can debug the exact moment.
"""

from __future__ import annotations

import argparse
import json
import shutil
import tempfile
from contextlib import ExitStack
from pathlib import Path
from typing import Any

from arena import untrusted
from arena.cli.options import at_least_one, folder
from arena.engines.nlhe.events import Event, event_from_dict
from arena.errors import ConfigError
from arena.faults import stage_text
from arena.games.codem.decisions import Decision, decision_inputs, decisions
from arena.games.codem.protocol import DEAL_FILE, INPUT_FILE, MONEY_FILE, OUTPUT_FILE, PROTOCOL_FILES
from arena.games.codem.table import TABLE_LIMITS
from arena.languages.filenames import name_problem
from arena.sandbox.team_folder import copy_given
from arena.seats import open_player

TABLES_DIR = "tables"


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add the ``replay`` sub-command."""
    parser = subparsers.add_parser(
        "replay",
        help="rerun a team's program at one recorded decision, in its folder as it was then",
        description="Recreate a team's folder at one decision of a played Code'em table (the three input "
        "files from the events; the help files as they were, where arena kept them) and run the program "
        "there once in the sandbox, printing its answer, stdout and stderr. RUN is a tournament's RUN_DIR "
        "(tables in RUN/tables/), an 'arena check --out' folder (tables seat1/, seat6/...) or an "
        "'arena table --out' folder (give no --table). Every fault in RUN/reports/<TeamId>.md names its "
        "replay command.",
    )
    parser.add_argument("run_dir", type=Path, metavar="RUN", help="the run or table folder")
    parser.add_argument("--table", metavar="T", help="the table's name (its folder in RUN/tables/ or RUN/)")
    parser.add_argument("--deal", type=int, required=True, metavar="N", help="the deal")
    parser.add_argument("--team", required=True, metavar="X", help="the team")
    parser.add_argument(
        "--decision",
        type=at_least_one,
        metavar="K",
        help="the program's K-th run in the deal (default: its first faulted run there, else 1)",
    )
    parser.add_argument(
        "--time-limit",
        type=float,
        metavar="T",
        help="seconds of CPU time, judged as at a table (docs/protocol.md, Time; "
        "default: the limit the table applied)",
    )
    parser.add_argument(
        "--keep", type=folder, metavar="DIR", help="recreate the folder in DIR (new) and keep it"
    )
    parser.set_defaults(handler=run)


def table_folder(run_dir: Path, table: str | None) -> Path:
    """The folder of the table to replay, with a one-line error naming the tables there are."""
    if not run_dir.is_dir():
        raise ConfigError(f"{run_dir} is not a folder")
    if table is None:
        if (run_dir / "events.jsonl").is_file():
            return run_dir
        raise ConfigError(f"{run_dir} is not a table's folder: name one with --table ({_tables(run_dir)})")
    for candidate in (run_dir / TABLES_DIR / table, run_dir / table):
        if (candidate / "events.jsonl").is_file():
            return candidate
    raise ConfigError(f"no played table {table!r} in {run_dir} ({_tables(run_dir)})")


def _tables(run_dir: Path) -> str:
    roots = [run_dir / TABLES_DIR, run_dir]
    names = sorted(
        p.name for root in roots if root.is_dir() for p in root.iterdir() if (p / "events.jsonl").is_file()
    )
    return "tables: " + ", ".join(names) if names else "it holds no played tables"


def deal_events(folder: Path, deal: int) -> list[Event]:
    """The recorded events of one deal."""
    with (folder / "events.jsonl").open() as lines:
        for line in lines:
            record = json.loads(line)
            if record["deal"] == deal:
                return [event_from_dict(event) for event in record["events"]]
    raise ConfigError(f"deal {deal} was not played at {folder}")


def faults_of(folder: Path, team: str, deal: int) -> list[dict[str, Any]]:
    """The team's recorded faults in the deal."""
    path = folder / "faults.jsonl"
    records = [json.loads(line) for line in path.read_text().splitlines()] if path.is_file() else []
    return [f for f in records if f["team"] == team and f.get("deal") == deal]


def team_program(folder: Path, team: str, program: str = "") -> Path:
    """The team's source as the table copied it into its folder: ``program``, the file the table
    recorded as the one that played (results.json). A table of an older arena recorded none: then the
    one ``<TeamId>.<ext>`` there, refused when help files of the same name leave a doubt."""
    where = folder / "teams" / team
    if program:
        if not (where / program).is_file():
            raise ConfigError(f"{where} no longer holds {program}, the program that played")
        return where / program
    sources = sorted(p for p in where.glob(f"{team}.*") if name_problem(p) is None)
    if len(sources) != 1:
        found = ", ".join(p.name for p in sources) or "none"
        raise ConfigError(f"{where}: cannot tell which program of team {team} played ({found})")
    return sources[0]


def run_limit(run_dir: Path, results: dict[str, Any]) -> float:
    """The limit the table judged its decisions against: from the table's ``results`` (its results.json),
    else from the tournament's results.json (a table recorded before tables kept it), else 1 s."""
    if isinstance(results.get("time_limit_s"), int | float):
        return float(results["time_limit_s"])
    try:
        return float(json.loads((run_dir / "results.json").read_text())["settings"]["time_limit_s"])
    except (OSError, ValueError, KeyError, TypeError):
        return 1.0


def run(args: argparse.Namespace) -> int:
    """Recreate the folder, run the program once, print what it did; 0 when the run was clean."""
    folder = table_folder(args.run_dir, args.table)
    results = json.loads((folder / "results.json").read_text())
    seats = {t["team"]: t["seat"] for t in results["teams"]}
    programs = {t["team"]: t.get("program", "") for t in results["teams"]}
    if args.team not in seats:
        raise ConfigError(
            f"team {args.team} did not sit at {folder.name} (teams: {', '.join(sorted(seats))})"
        )
    seat = seats[args.team]
    events = deal_events(folder, args.deal)
    runs = decisions(events, seat)
    faults = faults_of(folder, args.team, args.deal)
    number = args.decision or next((f["decision"] for f in faults if f.get("decision")), 1)
    if not 1 <= number <= len(runs):
        raise ConfigError(
            f"team {args.team} ran {len(runs)} time(s) in deal {args.deal}; "
            f"--decision must be 1 to {len(runs)}"
        )
    decision = runs[number - 1]
    inputs = decision_inputs(events, seat, decision, seats=len(seats))
    kept = next((f.get("help_kept", "") for f in faults if f.get("decision") == number), "")
    limit = args.time_limit or run_limit(args.run_dir, results)
    program = team_program(folder, args.team, programs[args.team])
    _describe(args, folder.name, seat, decision, len(runs), faults, inputs)
    if args.keep is not None:
        if args.keep.exists() and any(args.keep.iterdir()):
            raise ConfigError(f"--keep {args.keep} is not empty")
        args.keep.mkdir(parents=True, exist_ok=True)
        return _run_there(args.keep, program, inputs, folder, kept, limit)
    with tempfile.TemporaryDirectory(prefix="arena-replay-") as scratch:
        return _run_there(Path(scratch), program, inputs, folder, kept, limit)


def _describe(
    args: argparse.Namespace,
    table: str,
    seat: int,
    decision: Decision,
    total: int,
    faults: list[dict[str, Any]],
    inputs: dict[str, str],
) -> None:
    print(
        f"replay: team {args.team}, table {table}, seat {seat}, deal {args.deal}, "
        f"{stage_text(decision.stage)}, decision {decision.number} of {total}"
    )
    for fault in faults:
        if fault.get("decision") == decision.number:
            print(f"recorded fault: {fault['kind']}: {untrusted.printable(fault['reason'])}")
    for name in (INPUT_FILE, MONEY_FILE, DEAL_FILE):
        print(f"--- {name}")
        print(inputs[name], end="")


def _run_there(
    workdir: Path, program: Path, inputs: dict[str, str], table: Path, kept: str, limit_s: float
) -> int:
    """Build the program in ``workdir`` with the kept help files, run it once; print what it did."""
    limits = TABLE_LIMITS.model_copy(update={"wall_time_s": limit_s})
    print(f"--- judged as at a table: {limit_s:g} s of CPU time a decision (docs/protocol.md, Time)")
    source = Path(tempfile.mkdtemp(prefix="arena-replay-src-")) / program.name
    shutil.copyfile(program, source)  # the build copies it in beside the help files
    try:
        helps: set[str] = set()
        if kept and (table / kept).is_dir():
            helps = copy_given(table / kept, workdir, limits)
            print(f"--- help files as they were before the run (kept in {table / kept}):")
            print(untrusted.listing(sorted(helps), shown=len(helps)))
        else:
            print("--- no help files kept for this decision (arena keeps them before runs that faulted)")
        with ExitStack() as stack:
            player = open_player(stack, source.stem, source, workdir, limits)
            if not player.built:
                print(f"--- the program does not build:\n{untrusted.printable(player.build.output)}")
                return 1
            reply = player.file_transport(protected=set(PROTOCOL_FILES) - helps).exchange(inputs)
    finally:
        shutil.rmtree(source.parent, ignore_errors=True)
    print(f"--- the run: {reply.run.describe()}")
    answer = "(missing)" if reply.text is None else repr(reply.text) if reply.text else "(empty)"
    print(f"--- {OUTPUT_FILE}: {answer}")
    for name, data in (("stdout", reply.run.stdout), ("stderr", reply.run.stderr)):
        print(f"--- {name}" + ("" if data else ": (nothing)"))
        if data:
            text = untrusted.printable(data)
            print(text, end="" if text.endswith("\n") else "\n")
    for breach in reply.violations:
        print(f"--- help-file rule: {breach.reason}")
    return 0 if reply.ok else 1
