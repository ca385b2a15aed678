"""``arena cluster certs DIR``: a contest CA and the certificates of its Dask cluster (docs/cluster.md)."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any


def register(subparsers: Any) -> None:
    """Add ``arena cluster`` and its ``certs`` sub-command."""
    cluster = subparsers.add_parser("cluster", help="set up a Dask cluster for tournaments")
    actions = cluster.add_subparsers(dest="action", required=True, metavar="ACTION")
    certs = actions.add_parser(
        "certs",
        help="make a contest CA and TLS certificates for the scheduler, the workers and the organiser",
        description="Write DIR/ca.pem (the contest's CA; ca-key.pem signs and stays with the organiser), "
        "and scheduler, worker and client certificates with their keys (readable by their owner only). "
        "With them the scheduler and workers speak tls:// and refuse any peer without a certificate "
        "of this CA: 'arena tournament --scheduler tls://HOST:8786 --certs DIR'.",
    )
    certs.add_argument("folder", type=Path, metavar="DIR", help="a new or empty folder for the files")
    certs.add_argument(
        "--host",
        action="append",
        default=[],
        metavar="NAME",
        help="a host name or address the certificates also name (repeatable; localhost, 127.0.0.1 and "
        "'scheduler' always)",
    )
    certs.add_argument("--days", type=int, default=365, metavar="N", help="days they last (default 365)")
    certs.set_defaults(handler=_certs)


def _certs(args: argparse.Namespace) -> int:
    from arena.tournament.certs import make_certs

    written = make_certs(args.folder, hosts=args.host, days=args.days)
    for path in written:
        print(path)
    print(f"keep {args.folder / 'ca-key.pem'} on this machine; give each machine ca.pem and its role's pair")
    return 0
