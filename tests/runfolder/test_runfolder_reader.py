"""The run folder's one reader of recorded deals, on deals the engine plays (no programs run here)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from arena.cards import shuffled_deck
from arena.engines.nlhe.actions import CheckCall
from arena.engines.nlhe.deal import Deal
from arena.engines.nlhe.events import DealEnded, DealStarted, event_to_dict
from arena.engines.nlhe.rules import TableRules
from arena.errors import FormatError
from arena.runfolder.layout import EVENTS, FAULTS, events_path, played_tables, table_dir
from arena.runfolder.reader import complete_lines, deal_at, deal_lines, find_deal, table_faults, typed_deals


def _line(number: int) -> str:
    deal = Deal(
        rules=TableRules(seats=3),
        deal_number=number,
        dealer=1,
        stacks=(1500, 1500, 1500),
        deck=shuffled_deck(number),
    )
    while not deal.is_over:
        deal.apply(CheckCall())
    return json.dumps({"deal": number, "events": [event_to_dict(e) for e in deal.events]}) + "\n"


def test_a_growing_file_is_read_line_by_line_and_a_partial_line_waits(tmp_path: Path) -> None:
    path = tmp_path / EVENTS
    first, second, third = _line(1), _line(2), _line(3)
    path.write_text(first + second[:40])
    lines, resume = complete_lines(path)
    assert [raw.decode() for _, raw in lines] == [first] and resume == len(first.encode())
    with path.open("a") as out:
        out.write(second[40:] + third)
    lines, end = complete_lines(path, resume)
    assert [offset for offset, _ in lines] == [resume, resume + len(second.encode())]
    assert end == path.stat().st_size
    assert [deal_at(path, offset).deal for offset, _ in lines] == [2, 3]
    assert complete_lines(path, end) == ([], end)
    assert complete_lines(tmp_path / "missing.jsonl") == ([], 0)


def test_deals_come_typed_with_their_profits(tmp_path: Path) -> None:
    path = events_path(tmp_path)
    path.write_text(_line(1) + "\n" + _line(2))
    deals = list(deal_lines(path))
    assert [d.deal for d in deals] == [1, 2]
    for line in deals:
        events = line.events()
        assert isinstance(events[0], DealStarted) and isinstance(events[-1], DealEnded)
        assert sum(line.profits()) == 0
        assert line.profits() == [b - a for a, b in zip(events[0].stacks, events[-1].stacks, strict=True)]
    assert [n for n, _ in typed_deals(tmp_path)] == [1, 2]
    found = find_deal(tmp_path, 2)
    assert found is not None and found.records == deals[1].records
    assert find_deal(tmp_path, 3) is None


@pytest.mark.parametrize(
    ("text", "message"),
    [("not json\n", "line 2: not JSON"), ('{"deal": 2}\n', "line 2: not a deal's record")],
)
def test_a_damaged_line_is_one_error_naming_its_line(tmp_path: Path, text: str, message: str) -> None:
    path = events_path(tmp_path)
    path.write_text(_line(1) + text)
    with pytest.raises(FormatError, match=message):
        list(deal_lines(path))


def test_faults_are_read_as_far_as_they_are_written(tmp_path: Path) -> None:
    (tmp_path / FAULTS).write_text('{"team": "A", "deal": 1}\n{"team": "B", "de')
    assert table_faults(tmp_path) == [{"team": "A", "deal": 1}]
    assert table_faults(tmp_path / "none") == []


def test_the_played_tables_of_a_run(tmp_path: Path) -> None:
    for name in ("table002", "table001", ".table003.partial", "table004"):
        table_dir(tmp_path, name).mkdir(parents=True)
    for name in ("table002", "table001", ".table003.partial"):
        events_path(table_dir(tmp_path, name)).write_text(_line(1))
    assert [name for name, _ in played_tables(tmp_path)] == ["table001", "table002"]
    single = table_dir(tmp_path, "table001")
    assert played_tables(single) == [("table001", single)]
    assert played_tables(tmp_path / "empty") == []
