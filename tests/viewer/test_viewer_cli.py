"""``arena view`` without a browser: recognising run folders, one-line errors, the tournament's running
tables, the pages' paths and the static export's file list."""

from __future__ import annotations

import asyncio
import json
import socket
import threading
from pathlib import Path

import pytest

from arena.cards import shuffled_deck
from arena.cli import main
from arena.engines.nlhe import CheckCall, Deal, Fold, TableRules
from arena.engines.nlhe.events import event_to_dict
from arena.games.codem.stats import compute_stats
from arena.games.codem.table import PlayerSpec, TableConfig, run_table
from arena.tournament.schedule import TableJob
from arena.tournament.store import Store, TableKind, TeamRow
from arena.tournament.workers import run_lock
from arena.viewer.live import FolderWatch, follow
from arena.viewer.names import card_code
from arena.viewer.pages import PageNotFound, render, site_paths
from arena.viewer.runs import Run, RunKind, TableState
from arena.viewer.site import Site
from arena.viewer.tables import TableLog, seat_records

CHECKER = Path(__file__).parents[1] / "programs" / "codem" / "Checker.py"


@pytest.fixture(scope="module")
def small_table(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("small") / "run"
    run_table([PlayerSpec("North", CHECKER), PlayerSpec("South", CHECKER)], out, TableConfig(deals=4, seed=1))
    return out


def test_a_folder_that_is_no_run_is_one_error_line(tmp_path: Path, capsys: pytest.CaptureFixture) -> None:
    assert main(["view", str(tmp_path)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1
    assert err.startswith(f"arena view: error: {tmp_path} is not a run folder")
    assert main(["view", str(tmp_path / "missing")]) == 2
    assert "does not exist" in capsys.readouterr().err


def test_a_port_in_use_is_one_error_line(small_table: Path, capsys: pytest.CaptureFixture) -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen(1)
        port = taken.getsockname()[1]
        assert main(["view", str(small_table), "--port", str(port)]) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"arena view: error: cannot listen on 127.0.0.1:{port}") and err.count("\n") == 1


def test_export_writes_every_page_and_the_static_files(small_table: Path, tmp_path: Path) -> None:
    site = tmp_path / "site"
    assert main(["view", str(small_table), "--export", str(site)]) == 0
    written = sorted(p.relative_to(site).as_posix() for p in site.rglob("*.html"))
    assert written == sorted(site_paths(Run(small_table)))
    assert written == sorted(
        ["index.html", "tables/table.html", "teams/North.html", "teams/South.html"]
        + ["teams/North/hands.html", "teams/South/hands.html"]
        + [f"tables/table/deal{n}.html" for n in range(1, 5)]
    )
    assert (site / "static" / "viewer.js").is_file() and (site / "static" / "viewer.css").is_file()
    assert (site / "static" / "hands.js").is_file()
    assert main(["view", str(small_table), "--export", str(small_table / "site")]) == 2


def test_unknown_paths_are_not_pages(small_table: Path) -> None:
    site = Site(Run(small_table))
    for path in (
        "tables/other.html",
        "tables/table/deal5.html",
        "teams/West.html",
        "../etc/passwd",
        "hands/1.html",
        "live/table.html/x",
    ):
        with pytest.raises(PageNotFound):
            render(site, path)
    assert "Live: table" in render(site, "live/table.html")
    with pytest.raises(PageNotFound):
        render(Site(Run(small_table), live=False), "live/table.html")


def test_a_tournament_table_in_its_hidden_folder_is_running_while_the_run_is_locked(tmp_path: Path) -> None:
    store = Store(tmp_path)
    teams = [TeamRow(t, f"{t}.py", "python", "0" * 64) for t in ("A", "B", "C")]
    jobs = [TableJob("table001", 1, 0, 11, ("A", "B", "C")), TableJob("table002", 2, 0, 12, ("C", "B", "A"))]
    store.initialise({"deals": 5, "seed": 0, "duplicate": False, "time_limit_s": 1.0}, teams, jobs)
    store.record_failure("table002", "the sandbox broke")
    store.close()
    hidden = tmp_path / "tables" / ".table001.x1y2"
    hidden.mkdir(parents=True)
    run = Run(tmp_path)
    assert run.kind is RunKind.TOURNAMENT
    with run_lock(tmp_path):  # an arena is playing the tournament
        first, second = run.tables()
        assert (first.status, first.folder, first.teams) == (TableState.RUNNING, hidden, ("A", "B", "C"))
        assert (second.status, second.folder, second.error) == (TableState.FAILED, None, "the sandbox broke")
        assert first.kind == TableKind.ROUND
        page = render(Site(run), "index.html")
        assert 'href="live/table001.html"' in page and "the sandbox broke" in page
    (tmp_path / "awards.csv").write_text("certificate,team,place,reason\nexcellence,B,1,finalist\n")
    awards = render(Site(run), "index.html")
    assert '<td>excellence</td><td><a href="teams/B.html">B</a></td><td>1</td><td>finalist</td>' in awards
    # Nobody plays it any more: what the interrupted run left is pending, its deals still readable.
    first = run.tables()[0]
    assert (first.status, first.folder) == (TableState.PENDING, hidden)
    assert 'href="live/table001.html"' not in render(Site(run), "index.html")


def _deal_line(number: int) -> str:
    deal = Deal(
        rules=TableRules(seats=3), deal_number=number, dealer=1, stacks=[1500] * 3, deck=shuffled_deck(number)
    )
    while not deal.is_over:
        deal.apply(CheckCall())
    return json.dumps({"deal": number, "events": [event_to_dict(e) for e in deal.events]}) + "\n"


HIDDEN = ".table001.p4f1"
"""table001's folder while it is played (hidden until the tournament commits it)."""


def _one_table_tournament(folder: Path, events: str) -> Store:
    """A tournament of A, B and C at table001, whose hidden folder holds ``events`` (its deals so far)."""
    store = Store(folder)
    teams = [TeamRow(t, f"{t}.py", "python", "0" * 64) for t in ("A", "B", "C")]
    store.initialise(
        {"deals": 5, "seed": 0, "duplicate": False, "time_limit_s": 1.0},
        teams,
        [TableJob("table001", 1, 0, 11, ("A", "B", "C"))],
    )
    hidden = folder / "tables" / HIDDEN
    hidden.mkdir(parents=True)
    (hidden / "events.jsonl").write_text(events)
    return store


def test_the_live_stream_follows_a_tournament_table_in_its_hidden_folder(tmp_path: Path) -> None:
    """Deals already written come at once; a deal appended later wakes the stream through watchdog; a
    failed table ends it."""
    store = _one_table_tournament(tmp_path, _deal_line(1) + _deal_line(2))
    hidden = tmp_path / "tables" / HIDDEN
    run = Run(tmp_path)

    async def stream_of_the_table() -> list[tuple[str, dict]]:
        async def connected() -> bool:
            return False

        seen: list[tuple[str, dict]] = []
        stream = follow(run, "table001", after=0, disconnected=connected, watch=watch)
        async for message in stream:
            if message.startswith(":"):
                continue
            kind, data = message.split("\n")[:2]
            seen.append((kind.removeprefix("event: "), json.loads(data.removeprefix("data: "))))
            if len(seen) == 2:
                with (hidden / "events.jsonl").open("a") as out:
                    out.write(_deal_line(3))
            if len(seen) == 3:
                store.record_failure("table001", "the sandbox broke")
        return seen

    watch = FolderWatch()
    try:
        seen = asyncio.run(asyncio.wait_for(stream_of_the_table(), timeout=60))
    finally:
        watch.stop()
    store.close()
    assert [(kind, data.get("deal")) for kind, data in seen] == [
        ("deal", 1),
        ("deal", 2),
        ("deal", 3),
        ("end", None),
    ]
    assert seen[0][1]["names"] == ["A", "B", "C"]
    assert seen[-1][1] == {"deals": 3, "status": "failed"}
    first = seen[0][1]
    assert first["summary"]["pot"] == sum(p["amount"] for p in first["steps"][-1]["pots"])


def test_seat_records_hold_each_seats_statistics_and_chips(small_table: Path) -> None:
    log = TableLog(small_table).refresh()
    records = seat_records(small_table)
    for seat in (1, 2):
        expected = compute_stats([(log.events(n), seat) for n in range(1, log.deals + 1)])
        assert records.stats[seat - 1] == expected
        assert list(records.chips[seat - 1]) == [log.summaries[0].stacks_before[seat - 1]] + [
            s.stacks_after[seat - 1] for s in log.summaries
        ]
    assert seat_records(small_table) is records  # kept until events.jsonl changes
    page = render(Site(Run(small_table)), "teams/North.html")
    assert f"{records.stats[0].hands} hands dealt in" in page


def test_one_watch_per_folder_wakes_every_stream_that_follows_it(tmp_path: Path) -> None:
    watch = FolderWatch()
    first, second = threading.Event(), threading.Event()
    try:
        watch.subscribe(tmp_path, first.set)
        watch.subscribe(tmp_path, second.set)
        assert len(watch._watches) == 1
        (tmp_path / "events.jsonl").write_text("{}\n")
        assert first.wait(timeout=30) and second.wait(timeout=30)
        watch.unsubscribe(tmp_path, first.set)
        assert len(watch._watches) == 1
        watch.unsubscribe(tmp_path, second.set)
        assert watch._watches == {}
    finally:
        watch.stop()


def _deal_with_a_fold(number: int) -> str:
    """A three-seat deal where the first to act folds and the other two check it down to a showdown."""
    deal = Deal(
        rules=TableRules(seats=3), deal_number=number, dealer=1, stacks=[1500] * 3, deck=shuffled_deck(number)
    )
    deal.apply(Fold())
    while not deal.is_over:
        deal.apply(CheckCall())
    return json.dumps({"deal": number, "events": [event_to_dict(e) for e in deal.events]}) + "\n"


def test_the_public_live_stream_never_sends_a_folded_hand(tmp_path: Path) -> None:
    """The contest's public watches the final live while it is played: a finished deal comes as the
    broadcast shows it, the hands shown at the showdown and no folded hole card in the data."""
    store = _one_table_tournament(tmp_path, _deal_with_a_fold(1))
    run = Run(tmp_path)

    async def first_deal(public: bool) -> dict:
        async def connected() -> bool:
            return False

        async for message in follow(
            run, "table001", after=0, disconnected=connected, watch=watch, public=public
        ):
            if not message.startswith(":"):
                return json.loads(message.split("\n")[1].removeprefix("data: "))
        raise AssertionError("the stream ended without a deal")

    watch = FolderWatch()
    try:
        with run_lock(tmp_path):  # the table is being played
            public = asyncio.run(asyncio.wait_for(first_deal(True), timeout=60))
            record = asyncio.run(asyncio.wait_for(first_deal(False), timeout=60))
    finally:
        watch.stop()
        store.close()
    last = {s["seat"]: s for s in public["steps"][-1]["seats"]}
    folded = [seat for seat, s in last.items() if s["folded"]]
    assert len(folded) == 1 and all(s["shown"] for seat, s in last.items() if seat not in folded)
    every_card = {card for step in public["steps"] for s in step["seats"] for card in s["cards"]}
    folded_cards = {
        card for step in record["steps"] for s in step["seats"] if s["seat"] in folded for card in s["cards"]
    } - {""}
    assert len(folded_cards) == 2 and not folded_cards & every_card
    assert all(card for seat, s in last.items() if seat not in folded for card in s["cards"])


def test_a_public_replay_of_a_table_still_played_shows_no_folded_hand(tmp_path: Path) -> None:
    """The contest's public may open a finished deal of the final while the final is played: it gets the
    deal as the broadcast shows it; the organiser's (not public) page is the whole record."""
    line = _deal_with_a_fold(1)
    _one_table_tournament(tmp_path, line).close()
    run = Run(tmp_path)
    with run_lock(tmp_path):  # the table is being played
        public = render(Site(run, public=True), "tables/table001/deal1.html")
        organiser = render(Site(run), "tables/table001/deal1.html")
    record = json.loads(line)["events"]
    folded_seat = next(e["seat"] for e in record if e.get("action") == "fold")
    dealt = next(e["cards"] for e in record if e["kind"] == "hole_cards" and e["seat"] == folded_seat)
    codes = [card_code(card) for card in dealt]
    assert all(f'"{code}"' in organiser for code in codes)
    assert not any(f'"{code}"' in public for code in codes)


def test_the_overview_of_a_running_tournament_counts_the_deals_and_faults_so_far(tmp_path: Path) -> None:
    """Standings from the deals a running table has played (marked partial), its faults as they happen and
    its deals so far; a last line still being written is not read."""
    store = Store(tmp_path)
    teams = [TeamRow(t, f"{t}.py", "python", "0" * 64) for t in ("A", "B", "C")]
    store.initialise(
        {"deals": 5, "seed": 0, "duplicate": False, "time_limit_s": 1.0},
        teams,
        [TableJob("table001", 1, 0, 11, ("A", "B", "C"))],
    )
    store.close()
    hidden = tmp_path / "tables" / ".table001.k9z1"
    hidden.mkdir(parents=True)
    lines = _deal_line(1) + _deal_line(2)
    (hidden / "events.jsonl").write_text(lines + _deal_line(3)[:40])
    fault = {
        "team": "B",
        "kind": "timeout",
        "reason": "took 2.1 s",
        "deal": 2,
        "stage": "pre-flop",
        "seat": 2,
    }
    (hidden / "faults.jsonl").write_text(json.dumps(fault) + "\n")
    profits = [0, 0, 0]
    for line in lines.splitlines():
        events = json.loads(line)["events"]
        profits = [
            p + after - before
            for p, before, after in zip(profits, events[0]["stacks"], events[-1]["stacks"], strict=True)
        ]
    with run_lock(tmp_path):  # table001 is being played
        page = render(Site(Run(tmp_path)), "index.html")
    assert "partial" in page and "No faults." not in page and "took 2.1 s" in page
    assert '<td class="num">2 of 5</td>' in page
    for team, profit in zip(("A", "B", "C"), profits, strict=True):
        row = page.split(f'<tr data-team="{team}">')[1].split("</tr>")[0]
        cells = [cell.split(">")[-1] for cell in row.split("</td>")]
        assert cells[3] == "2" and int(cells[4].replace("−", "-")) == profit  # deals, profit
        assert cells[-4] == ("1" if team == "B" else "0")  # faults
    assert profits != [0, 0, 0]
    # Once nobody plays it, the table is pending and the standings are the stored ones again.
    assert "partial" not in render(Site(Run(tmp_path)), "index.html")


def test_a_running_tables_seats_show_their_status_so_far(tmp_path: Path) -> None:
    """Playing, disqualified at the tournament's fault limit, or its build failed: before results.json."""
    store = Store(tmp_path)
    teams = [TeamRow(t, f"{t}.py", "python", "0" * 64) for t in ("A", "B", "C")]
    meta = {"deals": 5, "seed": 0, "duplicate": False, "time_limit_s": 1.0, "max_faults": 2}
    store.initialise(meta, teams, [TableJob("table001", 1, 0, 11, ("A", "B", "C"))])
    store.close()
    hidden = tmp_path / "tables" / ".table001.s7t8"
    hidden.mkdir(parents=True)
    (hidden / "events.jsonl").write_text(_deal_line(1))
    faults = [
        {"team": "C", "kind": "build_failed", "reason": "error: expected ';'", "deal": 0, "stage": "build"},
        *({"team": "B", "kind": "timeout", "reason": "slow", "deal": 1, "stage": "flop"} for _ in range(2)),
    ]
    (hidden / "faults.jsonl").write_text("".join(json.dumps(f) + "\n" for f in faults))
    site = Site(Run(tmp_path))
    with run_lock(tmp_path):  # table001 is being played
        page = render(site, "tables/table001.html")
    rows = [page.split(f'<tr data-seat="{seat}">')[1].split("</tr>")[0] for seat in (1, 2, 3)]
    statuses = [row.split("</td>")[-2].rsplit(">", 1)[-1] for row in rows]
    assert statuses == ["playing", "disqualified", "build failed"]
