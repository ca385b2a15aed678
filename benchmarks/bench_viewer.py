"""The viewer over a 1000-deal table: how long its table page takes, against reading its events.jsonl.

A table folder of DEALS deals is made with the engine itself (six seats, a seeded random policy that
folds, calls and raises; a seat that busts buys in again so the table lasts), the way ``run_table`` writes
it. Then, interleaved ROUNDS times so every measurement sees the same machine load:

* reference: read ``events.jsonl`` line by line with ``json.loads`` (the least any viewer must do);
* table page, cold: the index dropped first, so the file is read and summarised again;
* table page, warm: the index kept (what a second visit costs);
* table page over HTTP: a GET to the real server (uvicorn in a thread) with a cold index;
* a team page with its seat records dropped (one pass over the table computes every seat's statistics
  and chips), then another team's page at the same table;
* one deal's replay page.

Medians are printed with their ratio to the reference, and the peak memory Python allocated for a cold
table page beside the file's size.

    python benchmarks/bench_viewer.py [--deals 1000] [--rounds 7]
"""

from __future__ import annotations

import argparse
import json
import os
import random
import socket
import statistics
import tempfile
import threading
import time
import tracemalloc
import urllib.request
from collections.abc import Callable
from pathlib import Path

import uvicorn

from arena.cards import derive_seed, shuffled_deck
from arena.engines.nlhe import CheckCall, Deal, Fold, RaiseTo, TableRules, choose_first_dealer, next_dealer
from arena.engines.nlhe.events import event_to_dict
from arena.viewer import tables
from arena.viewer.app import create_app
from arena.viewer.pages import render
from arena.viewer.runs import Run
from arena.viewer.site import Site

TEAMS = ["Pr0001", "Pr0002", "Pr0003", "Pr0004", "Pr0005", "Pr0006"]


def make_table(folder: Path, deals: int, seed: int = 7) -> None:
    """A table folder of ``deals`` engine deals (events.jsonl, seats.json, faults.jsonl, results.json)."""
    rules = TableRules()
    policy = random.Random(seed)
    stacks = [rules.starting_stack] * 6
    dealer = 0
    with (folder / "events.jsonl").open("w") as out:
        for number in range(1, deals + 1):
            stacks = [s if s > 0 else rules.starting_stack for s in stacks]
            dealer = choose_first_dealer(policy, stacks) if dealer == 0 else next_dealer(stacks, dealer)
            deal = Deal(
                rules=rules,
                deal_number=number,
                dealer=dealer,
                stacks=stacks,
                deck=shuffled_deck(derive_seed(seed, "deal", number)),
            )
            while not deal.is_over:
                roll = policy.random()
                if roll < 0.25 and not deal.can_check():
                    deal.apply(Fold())
                elif roll > 0.85 and deal.can_raise():
                    low, high = deal.min_raise_to(), deal.max_raise_to()
                    deal.apply(RaiseTo(high if roll > 0.98 else min(high, low + policy.randrange(0, 60))))
                else:
                    deal.apply(CheckCall())
            stacks = list(deal.final_stacks)
            out.write(json.dumps({"deal": number, "events": [event_to_dict(e) for e in deal.events]}) + "\n")
    (folder / "seats.json").write_text(json.dumps(TEAMS) + "\n")
    (folder / "faults.jsonl").write_text("")


def reference(folder: Path) -> None:
    with (folder / "events.jsonl").open("rb") as source:
        for line in source:
            json.loads(line)


def timed(action: Callable[[], object]) -> float:
    start = time.perf_counter()
    action()
    return time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=1000)
    parser.add_argument("--rounds", type=int, default=7)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as scratch:
        folder = Path(scratch) / "table"
        folder.mkdir()
        make_table(folder, args.deals)
        size = (folder / "events.jsonl").stat().st_size
        site = Site(Run(folder))
        sock = socket.socket()
        sock.bind(("127.0.0.1", 0))
        sock.listen(16)
        server = uvicorn.Server(uvicorn.Config(create_app(folder), log_level="warning"))
        thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True)
        thread.start()
        url = f"http://127.0.0.1:{sock.getsockname()[1]}/tables/table.html"

        def cold_page() -> None:
            tables._logs.clear()
            render(site, "tables/table.html")

        def http_page() -> None:
            tables._logs.clear()
            with urllib.request.urlopen(url, timeout=30) as response:
                assert response.status == 200
                response.read()

        def cold_team() -> None:
            tables._records.clear()
            render(site, "teams/Pr0001.html")

        measures: dict[str, Callable[[], object]] = {
            "reference: json.loads of every line": lambda: reference(folder),
            "table page, cold index": cold_page,
            "table page, warm index": lambda: render(site, "tables/table.html"),
            "table page over HTTP, cold index": http_page,
            "team page, cold (one pass, all seats)": cold_team,
            "another team's page at that table": lambda: render(site, "teams/Pr0002.html"),
            f"deal {args.deals // 2} replay page": lambda: render(
                site, f"tables/table/deal{args.deals // 2}.html"
            ),
        }
        http_page()  # the server's first request pays for imports
        times: dict[str, list[float]] = {name: [] for name in measures}
        for _ in range(args.rounds):
            for name, action in measures.items():
                times[name].append(timed(action))
        tables._logs.clear()
        tracemalloc.start()
        html = render(site, "tables/table.html")
        _, peak = tracemalloc.get_traced_memory()
        tracemalloc.stop()
        server.should_exit = True
        thread.join(timeout=10)
    base = statistics.median(times["reference: json.loads of every line"])
    print(
        f"{args.deals} deals, events.jsonl {size / 1e6:.2f} MB, table page {len(html) / 1e3:.0f} kB of HTML; "
        f"median of {args.rounds} interleaved rounds; load {os.getloadavg()[0]:.2f}"
    )
    for name, values in times.items():
        median = statistics.median(values)
        print(f"  {name:<40} {median * 1000:8.1f} ms   x{median / base:5.2f} the reference")
    print(f"  peak Python memory of a cold table page: {peak / 1e6:.1f} MB")


if __name__ == "__main__":
    main()
