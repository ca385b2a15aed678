"""``arena replay``: a fault recorded at a real table is reproduced in the team's recreated folder."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from arena.cli import main
from arena.engines.nlhe.events import event_from_dict
from arena.games.codem.decisions import decision_inputs, decisions

from support.sandbox import needs_namespaces

pytestmark = needs_namespaces

PROGRAMS = Path(__file__).resolve().parents[2] / "programs" / "codem"
BOTS = Path(__file__).resolve().parents[3] / "bots" / "codem"


@pytest.fixture(scope="module")
def table(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("replay") / "table"
    programs = [PROGRAMS / "ThirdRun.py", BOTS / "Caller.py", PROGRAMS / "Crash.py"]
    assert main(["table", *map(str, programs), "--out", str(out), "--deals", "3", "--json"]) == 0
    return out


def faults(table: Path) -> list[dict]:
    return [json.loads(line) for line in (table / "faults.jsonl").read_text().splitlines()]


def test_every_fault_carries_the_input_files_the_events_render(table: Path) -> None:
    deals = {}
    for line in (table / "events.jsonl").read_text().splitlines():
        record = json.loads(line)
        deals[record["deal"]] = [event_from_dict(e) for e in record["events"]]
    recorded = faults(table)
    assert {f["team"] for f in recorded} == {"ThirdRun", "Crash"}
    for fault in recorded:
        runs = decisions(deals[fault["deal"]], fault["seat"])
        decision = runs[fault["decision"] - 1]
        assert decision.stage == fault["stage"]
        assert decision_inputs(deals[fault["deal"]], fault["seat"], decision, seats=3) == fault["inputs"]
        assert fault["inputs"]["inputf.txt"].split()[2] == str(fault["seat"])
        assert len(fault["stacks"]) == 3


def test_replay_reruns_the_faulted_decision_with_its_help_files(table: Path, capsys, tmp_path: Path) -> None:
    (fault,) = [f for f in faults(table) if f["team"] == "ThirdRun"]
    assert fault["help_kept"] == f"kept/ThirdRun/deal{fault['deal']}-decision{fault['decision']}"
    assert (table / fault["help_kept"] / "runs.txt").read_text() == "2"
    capsys.readouterr()
    keep = tmp_path / "again"
    code = main(
        ["replay", str(table), "--deal", str(fault["deal"]), "--team", "ThirdRun", "--keep", str(keep)]
    )
    out = capsys.readouterr().out
    assert code == 1
    assert f"decision {fault['decision']} of" in out
    assert "recorded fault: crash: exited with status 1" in out
    assert "--- the run: exited with status 1" in out
    assert "ThirdRun: crashing on my third run, as planned" in out
    for name, text in fault["inputs"].items():
        assert f"--- {name}\n{text}" in out
    assert (keep / "runs.txt").read_text() == "3"


def test_replay_of_a_clean_decision_prints_the_answer(table: Path, capsys) -> None:
    capsys.readouterr()
    assert main(["replay", str(table), "--deal", "1", "--team", "Caller", "--decision", "1"]) == 0
    out = capsys.readouterr().out
    assert "--- no help files kept for this decision" in out
    assert "--- outputf.txt: '0\\n'" in out


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--deal", "9", "--team", "Caller"], "deal 9 was not played at {table}"),
        (
            ["--deal", "1", "--team", "Nobody"],
            "team Nobody did not sit at table (teams: Caller, Crash, ThirdRun)",
        ),
        (["--deal", "1", "--team", "Caller", "--decision", "99"], "team Caller ran"),
        (["--deal", "1", "--team", "Caller", "--table", "t9"], "no played table 't9' in {table}"),
    ],
)
def test_bad_replays_are_one_line(table: Path, capsys, argv: list[str], message: str) -> None:
    capsys.readouterr()
    assert main(["replay", str(table), *argv]) == 2
    lines = capsys.readouterr().err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("arena replay: error: " + message.format(table=table))
