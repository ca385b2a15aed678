"""The PokerStars export carries when each deal was played (issue 26 item 6): the table records each deal's
start and end in ``times.jsonl`` (``events.jsonl`` stays the same for the same cards and answers), and the
export writes the start in UTC and ET; a table recorded without times keeps the fixed, ordered dates."""

from __future__ import annotations

import json
import re
from datetime import UTC, datetime, timedelta
from pathlib import Path

from arena.exports.logs import read_table
from arena.exports.pokerstars import render_pokerstars
from arena.games.codem.table import PlayerSpec, TableConfig, run_table

from support.exports import check_pokerstars
from support.sandbox import needs_namespaces

PROGRAMS = Path(__file__).parents[1] / "programs" / "codem"
HEADER = re.compile(r"- (\d{4}/\d\d/\d\d \d\d:\d\d:\d\d) UTC \[(\d{4}/\d\d/\d\d \d\d:\d\d:\d\d) ET\]$")


@needs_namespaces
def test_a_played_table_exports_its_times(tmp_path: Path) -> None:
    before = datetime.now(UTC).replace(microsecond=0)
    players = [PlayerSpec("Checker", PROGRAMS / "Checker.py"), PlayerSpec("Tiny", PROGRAMS / "Tiny.py")]
    run_table(players, tmp_path / "table", TableConfig(deals=3, seed=2, time_limit_s=1.0))
    after = datetime.now(UTC)
    times = [json.loads(line) for line in (tmp_path / "table" / "times.jsonl").read_text().splitlines()]
    assert [t["deal"] for t in times] == [1, 2, 3]
    log = read_table(tmp_path / "table")
    assert sorted(log.started) == [1, 2, 3]
    assert all(before <= log.started[n] <= after for n in (1, 2, 3))
    text = render_pokerstars(log, team="Checker")
    stamps = [HEADER.search(line) for line in text.splitlines() if line.startswith("PokerStars Hand #")]
    assert len(stamps) == 3 and all(stamps)
    for number, found in enumerate(stamps, 1):
        assert found is not None
        utc = datetime.strptime(found.group(1), "%Y/%m/%d %H:%M:%S").replace(tzinfo=UTC)
        eastern = datetime.strptime(found.group(2), "%Y/%m/%d %H:%M:%S").replace(tzinfo=UTC)
        assert utc == log.started[number]
        assert timedelta(hours=4) <= utc - eastern <= timedelta(hours=5)  # EDT or EST
    deals = {number: events for number, events in enumerate(log.deals, 1)}
    assert check_pokerstars(text, deals, table=log.name, viewer=log.seat_of("Checker")).read == 3
    (tmp_path / "table" / "times.jsonl").unlink()  # a table of an older arena: the fixed, ordered dates
    assert "- 2000/01/01 00:01:00 ET" in render_pokerstars(read_table(tmp_path / "table"), team="Checker")
