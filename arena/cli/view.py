"""``arena view RUN_DIR``: the web viewer over a run folder, or its pages exported as a static site."""

from __future__ import annotations

import argparse
import ipaddress
import socket
from pathlib import Path

from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

from arena.cli.options import folder
from arena.errors import ConfigError


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add the ``view`` sub-command."""
    parser = subparsers.add_parser(
        "view",
        help="see a run in a web browser: standings, tables, deal replays, live tables",
        description="Serve a read-only web viewer over RUN_DIR (a tournament, an `arena table` run, a "
        "heads-up or a TwoCardDraw match): the overview, team and table pages, every deal replayed step "
        "by step, and tables being played followed live. With --export, write the same pages as a static "
        "site instead.",
    )
    parser.add_argument("run_dir", type=Path, metavar="RUN_DIR", help="the run folder to show")
    parser.add_argument("--host", default="127.0.0.1", help="address to listen on (default 127.0.0.1)")
    parser.add_argument("--port", type=int, default=8000, help="port to listen on (default 8000)")
    parser.add_argument(
        "--export",
        type=folder,
        metavar="SITE_DIR",
        default=None,
        help="write every page as static files into SITE_DIR (opens from disk) instead of serving",
    )
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    """Export the site, or serve the viewer until interrupted."""
    from arena.viewer.runs import Run

    console = Console(stderr=True)
    run_dir = Run(args.run_dir)
    kind = run_dir.kind
    if args.export is not None:
        return _export(args.run_dir, args.export, console)
    _check_port(args.host, args.port)
    run_dir.tables()  # a damaged database is one error line now, not a failing page later
    if not _loopback(args.host):
        console.print(f"note: listening on {args.host}: anyone who can reach it can read this run")
    import uvicorn

    from arena.viewer.app import create_app

    app = create_app(args.run_dir)
    console.print(f"{kind.value} {args.run_dir}: http://{_url_host(args.host)}:{args.port}/  (Ctrl-C stops)")
    uvicorn.run(app, host=args.host, port=args.port, log_level="warning")
    return 0


def _export(run_dir: Path, site_dir: Path, console: Console) -> int:
    from arena.viewer.static_site import export_site

    with Progress(
        TextColumn("[bold]pages"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeRemainingColumn(),
        console=console,
        transient=True,
        disable=not console.is_terminal,
    ) as progress:
        task = progress.add_task("pages", total=None)
        count = export_site(
            run_dir, site_dir, on_page=lambda done, total: progress.update(task, completed=done, total=total)
        )
    console.print(f"{count} pages written to {site_dir}; open {site_dir / 'index.html'}")
    return 0


def _loopback(host: str) -> bool:
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return host == "localhost"


def _url_host(host: str) -> str:
    return f"[{host}]" if ":" in host else host


def _check_port(host: str, port: int) -> None:
    """One clear error line when the address cannot be listened on (taken, or not this machine's)."""
    if not 0 <= port <= 65535:
        raise ConfigError(f"port {port} is not 0..65535")
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    with socket.socket(family, socket.SOCK_STREAM) as probe:
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            probe.bind((host, port))
        except OSError as error:
            raise ConfigError(f"cannot listen on {host}:{port}: {error.strerror or error}") from None
