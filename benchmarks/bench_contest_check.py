"""The contest site's check: the time from an upload to its report, against ``arena check`` of the same file.

A contest folder is made and served (``arena contest serve``, a real process on 127.0.0.1, one check job);
its checks use ``arena check``'s defaults (50 deals in each of 3 seats). Then, interleaved ROUNDS times so
both see the same machine load, for a C program and a Python program (the house bots Tight.c and
Caller.py, named as the team's):

* reference: ``arena check FILE --deals 50 --seats 3`` run from the command line, start to exit;
* site: ``POST /api/submissions`` with the file, then ``GET /api/submissions/{id}`` every 50 ms until the
  report is there (what a team waits for; the upload's own time included).

Medians are printed with their ratio to the reference.

    python benchmarks/bench_contest_check.py [--rounds 3] [--deals 50]
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import os
import secrets
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any

from arena.contest.accounts import read_credentials
from arena.contest.settings import CheckOptions, ContestSettings
from arena.contest.setup import create_contest
from arena.contest.teams import TeamEntry

BOTS = Path(__file__).parents[1] / "bots" / "codem"
PROGRAMS = {"C": ("Tight.c", "TeamA.c"), "Python": ("Caller.py", "TeamA.py")}


def _call(
    url: str, method: str = "GET", body: bytes | None = None, headers: dict[str, str] | None = None
) -> Any:
    request = urllib.request.Request(url, data=body, method=method, headers=headers or {})
    with urllib.request.urlopen(request, timeout=60) as answer:
        return json.loads(answer.read())


def _multipart(name: str, data: bytes) -> tuple[bytes, str]:
    boundary = "bench" + secrets.token_hex(8)
    head = f'--{boundary}\r\nContent-Disposition: form-data; name="file"; filename="{name}"\r\n\r\n'.encode()
    return head + data + f"\r\n--{boundary}--\r\n".encode(), f"multipart/form-data; boundary={boundary}"


def _wait_ready(url: str, process: subprocess.Popen[bytes]) -> None:
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise SystemExit("the contest server exited")
        try:
            _call(url + "api/deadlines")
            return
        except OSError:
            time.sleep(0.1)
    raise SystemExit("the contest server did not answer within 60 s")


def site_check(url: str, token: str, name: str, data: bytes) -> float:
    """Seconds from sending the upload to reading its report."""
    body, content_type = _multipart(name, data)
    auth = {"Authorization": f"Bearer {token}"}
    start = time.perf_counter()
    number = _call(url + "api/submissions", "POST", body, {**auth, "Content-Type": content_type})["id"]
    while True:
        state = _call(f"{url}api/submissions/{number}", headers=auth)
        if state["status"] == "done":
            elapsed = time.perf_counter() - start
            if state["verdict"] != "PASS":
                raise SystemExit(f"{name}: the site's check did not pass:\n{state['report']}")
            return elapsed
        time.sleep(0.05)


def cli_check(path: Path, deals: int) -> float:
    """Seconds ``arena check`` takes from start to exit."""
    start = time.perf_counter()
    done = subprocess.run(
        [sys.executable, "-m", "arena", "check", str(path), "--deals", str(deals), "--seats", "3"],
        capture_output=True,
        check=False,
    )
    elapsed = time.perf_counter() - start
    if done.returncode != 0:
        raise SystemExit(f"arena check {path.name} failed:\n{done.stdout.decode()[-2000:]}")
    return elapsed


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--deals", type=int, default=50)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="bench-contest-") as scratch:
        root = Path(scratch) / "contest"
        moment = dt.datetime.now(dt.UTC)
        settings = ContestSettings(
            opens=moment - dt.timedelta(hours=1),
            error_report=moment + dt.timedelta(days=1),
            final_code=moment + dt.timedelta(days=2),
            uploads_per_hour=1000,
            check=CheckOptions(deals=args.deals, seats=3),
        )
        create_contest(
            root, [TeamEntry("TeamA", "A", "a@example.org")], settings, organiser_email="o@example.org"
        )
        files = {}
        for language, (bot, name) in PROGRAMS.items():
            (Path(scratch) / language).mkdir()
            files[language] = Path(scratch) / language / name
            files[language].write_bytes((BOTS / bot).read_bytes())
        with socket.socket() as sock:
            sock.bind(("127.0.0.1", 0))
            port = sock.getsockname()[1]
        url = f"http://127.0.0.1:{port}/"
        log = (Path(scratch) / "server.log").open("wb")
        server = subprocess.Popen(
            [sys.executable, "-m", "arena", "contest", "serve", str(root), "--port", str(port)],
            stdout=log,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
        try:
            _wait_ready(url, server)
            password = read_credentials(root / "credentials.csv")["TeamA"]
            body = json.dumps({"team": "TeamA", "password": password}).encode()
            token = _call(url + "api/session", "POST", body, {"Content-Type": "application/json"})["token"]
            times: dict[tuple[str, str], list[float]] = {}
            for number in range(1, args.rounds + 1):
                for language, path in files.items():
                    cli = cli_check(path, args.deals)
                    site = site_check(url, token, path.name, path.read_bytes())
                    times.setdefault((language, "cli"), []).append(cli)
                    times.setdefault((language, "site"), []).append(site)
                    print(
                        f"round {number}: {language}: arena check {cli:.2f} s, site {site:.2f} s", flush=True
                    )
        finally:
            os.killpg(server.pid, signal.SIGTERM)
            server.wait(timeout=30)
            log.close()
    print(f"upload → report, {args.deals} deals in each of 3 seats, median of {args.rounds} (interleaved):")
    for language in files:
        cli = statistics.median(times[(language, "cli")])
        site = statistics.median(times[(language, "site")])
        print(
            f"  {language:7s} arena check (reference) {cli:6.2f} s   site upload → report {site:6.2f} s"
            f"   ratio {site / cli:.2f}"
        )


if __name__ == "__main__":
    main()
