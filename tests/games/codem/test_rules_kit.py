"""``arena rules-kit DIR``: the deal situations a parser must read right, with the engine's verdicts.

The kit's format is a golden folder (regenerate after a deliberate change with
``ARENA_UPDATE_GOLDEN=1 pytest tests/games/codem/test_rules_kit.py`` and review); every situation's files
parse back to what the engine holds, and the verdicts are those docs/protocol.md states.
"""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

import pytest

from arena.cards import from_codem
from arena.cli import main
from arena.engines.nlhe.events import Street
from arena.errors import ConfigError
from arena.games.codem.deal_file import parse_deal_file
from arena.games.codem.rules_kit import SITUATIONS, write_kit

GOLDEN = Path(__file__).parents[2] / "golden" / "rules_kit"


@pytest.fixture(scope="module")
def kit(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("kit") / "kit"
    assert main(["rules-kit", str(out)]) == 0
    return out


def _verdicts(kit: Path, name: str) -> dict[str, tuple[str | None, str]]:
    record = json.loads((kit / name / "situation.json").read_text())
    return {v["answer"]: (v["fault"], v["engine"]) for v in record["answers"]}


def test_kit_matches_golden(kit: Path) -> None:
    if os.environ.get("ARENA_UPDATE_GOLDEN"):
        shutil.rmtree(GOLDEN, ignore_errors=True)
        shutil.copytree(kit, GOLDEN)
    written = sorted(p.relative_to(kit).as_posix() for p in kit.rglob("*") if p.is_file())
    stored = sorted(p.relative_to(GOLDEN).as_posix() for p in GOLDEN.rglob("*") if p.is_file())
    assert written == stored
    for name in written:
        assert (kit / name).read_text() == (GOLDEN / name).read_text(), f"{name} differs from golden"


def test_every_situation_parses_back_to_the_engines_state(kit: Path) -> None:
    folders = sorted(p for p in kit.iterdir() if p.is_dir())
    assert len(folders) == len(SITUATIONS)
    for folder in folders:
        record = json.loads((folder / "situation.json").read_text())
        card1, card2, seat, spent = (int(x) for x in (folder / "inputf.txt").read_text().split())
        assert seat == record["seat"]
        assert 0 <= from_codem(card1) < 52 and 0 <= from_codem(card2) < 52
        money = (folder / "deals_money.txt").read_text().split()
        assert money[:2] == ["Deal", "1"]
        assert [int(x) for x in money[3::2]] == record["stacks_before"]
        parsed = parse_deal_file((folder / "deal.txt").read_text())
        assert parsed.dealer == record["dealer"]
        assert parsed.stage == Street(record["stage"])
        assert parsed.main_pot == record["chips_in_middle"]
        row_totals = [c.amount for s in parsed.streets for row in s.rows for c in row[seat - 1 : seat] if c]
        assert spent >= max(row_totals, default=0)


def test_verdicts_are_the_documented_rules(kit: Path) -> None:
    turn = _verdicts(kit, "04_turn_minimum_bet")
    assert turn["19"] == ("raise_below_minimum", "check: puts in 0, round total 0")
    assert turn["20"] == (None, "bet: puts in 20, round total 20")
    assert _verdicts(kit, "05_river_minimum_bet")["19"][0] == "raise_below_minimum"
    assert _verdicts(kit, "03_flop_minimum_bet")["10"] == (None, "bet: puts in 10, round total 10")
    assert _verdicts(kit, "02_reraise_minimum")["29"][0] == "raise_below_minimum"
    assert _verdicts(kit, "02_reraise_minimum")["30"] == (None, "raise: puts in 70, round total 70")
    closed = _verdicts(kit, "07_short_all_in_not_a_raise")
    assert closed["10"] == (None, "call: puts in 20, round total 70")
    assert _verdicts(kit, "08_short_all_in_caller_may_raise")["40"] == (
        None,
        "raise: puts in 105, round total 110",
    )
    assert _verdicts(kit, "06_big_blind_short")["0"] == (None, "call: puts in 6, round total 6")
    assert _verdicts(kit, "10_raising_closed")["10"] == (None, "call: puts in 290, round total 300")
    assert _verdicts(kit, "11_over_stack_raise")["210"] == (
        None,
        "raise: puts in 120, round total 120, all-in",
    )
    heads_up = json.loads((kit / "12_heads_up_blinds" / "situation.json").read_text())
    assert heads_up["seat"] == heads_up["dealer"] == 1


def test_kit_refuses_a_folder_with_files(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "notes.txt").write_text("mine")
    with pytest.raises(ConfigError) as raised:
        write_kit(tmp_path)
    assert "not an empty folder" in str(raised.value)
    assert main(["rules-kit", str(tmp_path)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "not an empty folder" in err
    assert (tmp_path / "notes.txt").read_text() == "mine"
