"""The Python warm start is invisible to a table: same events, same answers, same help files."""

from pathlib import Path

import pytest

from arena.games.codem.table import PlayerSpec, TableConfig, run_table

BOTS = Path(__file__).parents[3] / "bots" / "codem"


def _play(out: Path, *, warm: bool) -> Path:
    players = [
        PlayerSpec(team="Learner", program=BOTS / "Learner.py"),
        PlayerSpec(team="Caller", program=BOTS / "Caller.py"),
        PlayerSpec(team="Tight", program=BOTS / "Tight.c"),
    ]
    run_table(players, out, TableConfig(deals=25, seed=5, warm_python=warm, time_limit_s=3))
    return out


def _help_files(team_dir: Path) -> dict[str, bytes]:
    skip = {"inputf.txt", "deals_money.txt", "deal.txt", "outputf.txt", "Learner.py"}
    return {
        p.relative_to(team_dir).as_posix(): p.read_bytes()
        for p in sorted(team_dir.rglob("*"))
        if p.is_file() and p.name not in skip and "__pycache__" not in p.parts
    }


@pytest.mark.slow
def test_warm_and_cold_python_tables_are_identical(tmp_path: Path) -> None:
    warm = _play(tmp_path / "warm", warm=True)
    cold = _play(tmp_path / "cold", warm=False)
    assert (warm / "events.jsonl").read_bytes() == (cold / "events.jsonl").read_bytes()
    assert (warm / "faults.jsonl").read_text() == (cold / "faults.jsonl").read_text() == ""
    learner_warm = _help_files(warm / "teams" / "Learner")
    assert learner_warm, "Learner keeps help files"
    assert learner_warm == _help_files(cold / "teams" / "Learner")
