"""``arena export RUN_DIR --format phh|pokerstars|acpc --out DIR``: hand histories for other poker tools."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from arena import untrusted
from arena.cli.options import folder
from arena.exports.run import ExportFormat, export_run


def register(subparsers: Any) -> None:
    """Add the ``export`` sub-command."""
    parser = subparsers.add_parser(
        "export",
        help="write a run's hands as PHH, PokerStars text or ACPC logs",
        description="Render the recorded hands of a tournament, a final, a single table (arena table) or a "
        "heads-up match (arena headsup; phh and acpc) in a standard hand-history format: one file per "
        "table, PokerStars one per table and team. See docs/exports.md.",
    )
    parser.add_argument("run_dir", type=Path, metavar="RUN_DIR", help="a tournament, table or match folder")
    parser.add_argument(
        "--format",
        required=True,
        choices=[f.value for f in ExportFormat],
        help="phh (.phhs), pokerstars (.txt, one per team) or acpc (.log)",
    )
    parser.add_argument("--out", required=True, type=folder, metavar="DIR", help="where the files go")
    parser.add_argument("--table", metavar="T", help="only the table named T (e.g. table003, final)")
    parser.add_argument(
        "--team", metavar="X", help="team X's view: its tables only, opponents' cards only when shown down"
    )
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    """Export and name the files written."""
    written = export_run(args.run_dir, ExportFormat(args.format), args.out, table=args.table, team=args.team)
    print(f"wrote {len(written)} {args.format} file(s) in {args.out}")
    for path in written:
        print(f"  {untrusted.name(path.name)}")
    return 0
