"""``arena contest new DIR --teams FILE`` and ``arena contest serve DIR``: the contest's site.

The library is :mod:`arena.contest`; this module parses, calls and prints. ``new`` never prints a
credential: they are in ``DIR/credentials.csv`` (mode 0600) and in each team's sign-in mail.
"""

from __future__ import annotations

import argparse
from pathlib import Path

from rich.console import Console

from arena.cli.say import say


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add the ``contest`` sub-command with ``new`` and ``serve``."""
    parser = subparsers.add_parser(
        "contest",
        help="host a contest: teams sign in, upload and read their reports; the organiser runs it",
        description="The contest's site (docs/contest.md): 'new' makes a contest folder, 'serve' serves it.",
    )
    commands = parser.add_subparsers(dest="contest_command", metavar="new|serve", required=True)
    new = commands.add_parser(
        "new",
        help="make a contest folder with one credential per team and one for the organiser",
        description="Make the contest folder DIR: the database, the settings, and the credentials of every "
        "team and of the organiser in DIR/credentials.csv (mode 0600; never printed).",
    )
    new.add_argument("dir", type=Path, metavar="DIR", help="the contest folder to make (absent or empty)")
    new.add_argument("--teams", type=Path, required=True, metavar="FILE", help="CSV: team,name,email")
    new.add_argument("--settings", type=Path, metavar="FILE", help="TOML settings (docs/contest.md)")
    new.add_argument(
        "--organiser-email", default="organiser@localhost", metavar="ADDRESS", help="the organiser's address"
    )
    new.set_defaults(handler=run_new)
    serve = commands.add_parser(
        "serve",
        help="serve the contest's site",
        description="Serve the contest folder DIR: pages and the JSON API, each upload checked in a queue.",
    )
    serve.add_argument("dir", type=Path, metavar="DIR", help="a folder made by 'arena contest new'")
    serve.add_argument("--host", default="127.0.0.1", help="address to listen on (default 127.0.0.1)")
    serve.add_argument("--port", type=int, default=8000, help="port (default 8000)")
    serve.add_argument("--smtp", metavar="HOST:PORT", help="send mail through this SMTP server (else none)")
    serve.add_argument("--jobs", type=int, default=1, metavar="J", help="checks run at once (default 1)")
    serve.add_argument(
        "--scheduler", metavar="ADDRESS", help="a Dask scheduler: the tournament's tables play on its cluster"
    )
    serve.set_defaults(handler=run_serve)


def run_new(args: argparse.Namespace) -> int:
    """Make the folder; print where things are (never a credential)."""
    from arena.contest.settings import default_settings, read_settings
    from arena.contest.setup import create_contest
    from arena.contest.state import now
    from arena.contest.teams import read_teams

    teams = read_teams(args.teams)
    settings = read_settings(args.settings) if args.settings else default_settings(now())
    folder = create_contest(args.dir, teams, settings, organiser_email=args.organiser_email)
    console = Console()
    say(console, f"contest folder {folder.root}: {len(teams)} teams and the organiser")
    say(
        console,
        f"credentials: {folder.credentials} (mode 0600; each team's is mailed to it when served with --smtp)",
    )
    say(console, f"serve it: arena contest serve {args.dir}")
    return 0


def run_serve(args: argparse.Namespace) -> int:
    """Serve until interrupted."""
    import uvicorn

    from arena.contest.folder import ContestFolder
    from arena.contest.mail import smtp_address
    from arena.contest.web.app import create_app
    from arena.errors import ConfigError
    from arena.sandbox.isolation import namespaces_available

    if not 0 < args.port < 65536:
        raise ConfigError(f"--port {args.port} is not a port number")
    if args.jobs < 1:
        raise ConfigError(f"--jobs must be at least 1, got {args.jobs}")
    if args.smtp:
        smtp_address(args.smtp)
    folder = ContestFolder.existing(args.dir)
    available, reason = namespaces_available()
    if not available:  # rlimits only: a team's program could read the folder (credentials, session key)
        raise ConfigError(f"the teams' programs run only in the namespaced sandbox, and here: {reason}")
    app = create_app(folder, jobs=args.jobs, smtp=args.smtp, scheduler=args.scheduler)
    mail = f"mail through {args.smtp}" if args.smtp else "mail off (no --smtp)"
    say(
        Console(),
        f"serving the contest {folder.root} at http://{args.host}:{args.port}/ "
        f"({mail}, {args.jobs} check job(s))",
    )
    uvicorn.run(app, host=args.host, port=args.port, log_level="info", timeout_graceful_shutdown=5)
    return 0
