"""A real Code'em table of the six sample programs, one per language, built and run in the sandbox."""

import json
from pathlib import Path

import psutil
import pytest

from arena.cli import main
from arena.games.codem.deal_file import parse_deal_file

BOTS = Path(__file__).parents[3] / "bots" / "codem"
SIX = ["Caller.py", "Tight.c", "Raiser.cpp", "Bluffer.pl", "Tracker.rb", "Equity.java"]
DEALS = 60


pytestmark = pytest.mark.slow  # every test plays a six-language table (Java included)


@pytest.fixture(scope="module")
def six_language_table(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("six")
    programs = [str(BOTS / name) for name in SIX]
    before = {p.pid for p in psutil.Process().children(recursive=True)}
    code = main(
        ["table", *programs, "--out", str(out), "--deals", str(DEALS), "--seed", "2026", "--time-limit", "5"]
    )  # generous: the JVM starts slowly on a loaded 2-core CI machine
    assert code == 0
    left = [p for p in psutil.Process().children(recursive=True) if p.pid not in before]
    (out / "left_processes.txt").write_text("\n".join(str(p.pid) for p in left))
    return out


def test_every_language_plays_without_a_fault(six_language_table: Path) -> None:
    results = json.loads((six_language_table / "results.json").read_text())
    teams = {t["team"]: t for t in results["teams"]}
    assert set(teams) == {Path(n).stem for n in SIX}
    for team in teams.values():
        assert team["built"], team["build_output"]
        assert team["faults"] == [], (team["team"], team["faults"][:1])
        assert team["decisions"] > 0
    assert sum(t["final_stack"] for t in teams.values()) == 6 * 1500


def test_all_deals_are_written_and_parse(six_language_table: Path) -> None:
    results = json.loads((six_language_table / "results.json").read_text())
    played = results["deals_played"]
    assert played == DEALS or any(t["final_stack"] == 6 * 1500 for t in results["teams"])
    events = (six_language_table / "events.jsonl").read_text().splitlines()
    assert len(events) == played
    for number in range(1, played + 1):
        deal = parse_deal_file((six_language_table / "deals" / f"deal{number}.txt").read_text())
        assert deal.winners, f"deal {number} has no winner"
        record = json.loads(events[number - 1])
        awarded = sum(e["amount"] for e in record["events"] if e["kind"] == "pot_awarded")
        assert deal.main_pot == awarded


def test_chips_conserved_deal_by_deal(six_language_table: Path) -> None:
    for line in (six_language_table / "events.jsonl").read_text().splitlines():
        events = json.loads(line)["events"]
        assert sum(events[0]["stacks"]) == sum(events[-1]["stacks"]) == 6 * 1500


def test_same_seed_same_cards_and_same_play(tmp_path: Path) -> None:
    def play(name: str, seed: int) -> bytes:
        out = tmp_path / name
        args = [str(BOTS / "Caller.py"), str(BOTS / "Tight.c"), str(BOTS / "Bluffer.pl")]
        assert main(["table", *args, "--out", str(out), "--deals", "8", "--seed", str(seed)]) == 0
        return (out / "events.jsonl").read_bytes()

    first, again, other = play("a", 99), play("b", 99), play("c", 100)
    assert first == again
    assert first != other


def test_no_process_left(six_language_table: Path) -> None:
    assert (six_language_table / "left_processes.txt").read_text() == ""
