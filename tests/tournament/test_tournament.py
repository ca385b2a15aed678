"""A 12-team tournament of real programs (three of them faulty), its final table and finals log folders."""

from __future__ import annotations

import csv
import json
from itertools import combinations
from pathlib import Path

import pytest

from arena.cli import main
from arena.games.codem.deal_file import parse_deal_file
from arena.tournament.store import Store

from support.field import make_field

DEALS = 2
TEAMS = 12

pytestmark = pytest.mark.slow  # the module's tournament of real programs takes over 5 s to play


def tournament_args(submissions: Path, run_dir: Path) -> list[str]:
    """The one tournament command both the first run and the re-run use."""
    return [
        "tournament",
        str(submissions),
        "--out",
        str(run_dir),
        "--deals",
        str(DEALS),
        "--jobs",
        "2",
        "--seed",
        "11",
        "--time-limit",
        "10",
    ]


@pytest.fixture(scope="module")
def played(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path, list[str]]:
    root = tmp_path_factory.mktemp("tournament")
    submissions = root / "submissions"
    names = make_field(submissions, TEAMS)
    (submissions / "README.md").write_text("not a program\n")
    run_dir = root / "run"
    code = main(tournament_args(submissions, run_dir))
    assert code == 0
    return submissions, run_dir, names


def test_every_pair_of_teams_met_at_a_played_table(played) -> None:
    _submissions, run_dir, names = played
    results = json.loads((run_dir / "results.json").read_text())
    assert results["complete"] is True
    met = {
        frozenset(p) for t in results["tables"] for p in combinations(t["seats"], 2) if t["status"] == "done"
    }
    assert met == {frozenset(p) for p in combinations(names, 2)}
    for table in results["tables"]:
        assert len(table["seats"]) == 6
        assert sum(r["profit"] for r in table["results"]) == 0
        assert (run_dir / "tables" / table["name"] / "deals" / "deal1.txt").is_file()


def test_standings_name_every_team_and_the_faulty_ones_show_their_faults(played) -> None:
    _submissions, run_dir, names = played
    rows = list(csv.DictReader((run_dir / "standings.csv").open()))
    assert sorted(r["team"] for r in rows) == names
    by_team = {r["team"]: r for r in rows}
    garbage, crasher, broken = names[-3:]
    assert int(by_team[garbage]["faults"]) > 0
    assert int(by_team[crasher]["faults"]) > 0
    assert int(by_team[broken]["build_failed"]) == int(by_team[broken]["tables"]) > 0
    assert int(by_team[broken]["profit"]) == 0
    for row in rows:
        assert float(row["ci95_low"]) <= float(row["profit_per_deal"]) <= float(row["ci95_high"])
    assert sum(int(r["profit"]) for r in rows) == 0
    store = Store(run_dir)
    kinds = {f["kind"] for f in store.faults()}
    store.close()
    assert {"build_failed", "not_an_integer", "crash"} <= kinds


def test_running_the_same_command_again_plays_nothing_new(played, capsys) -> None:
    submissions, run_dir, _names = played
    before = (run_dir / "results.json").read_text()
    code = main(tournament_args(submissions, run_dir))
    assert code == 0
    assert "already played" in capsys.readouterr().err
    assert (run_dir / "results.json").read_text() == before


def test_other_settings_on_the_same_run_dir_are_one_clear_error(played, capsys) -> None:
    submissions, run_dir, _names = played
    code = main(["tournament", str(submissions), "--out", str(run_dir), "--deals", "5", "--seed", "11"])
    assert code == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert err[-1].startswith("arena tournament: error: ") and "deals was 2, now 5" in err[-1]


def test_finals_logs_have_004s_structure_and_regenerate_identically(played, tmp_path: Path) -> None:
    _submissions, run_dir, _names = played
    first, second = tmp_path / "logs1", tmp_path / "logs2"
    assert main(["finals-logs", str(run_dir), "--out", str(first)]) == 0
    assert main(["finals-logs", str(run_dir), "--out", str(second)]) == 0
    tree = sorted(p.relative_to(first) for p in first.rglob("*"))
    assert tree == sorted(p.relative_to(second) for p in second.rglob("*"))
    for path in tree:
        if (first / path).is_file():
            assert (first / path).read_bytes() == (second / path).read_bytes(), path
    store = Store(run_dir)
    tables = store.tables()
    store.close()
    finalists = sorted(p.name for p in first.iterdir())
    assert len(finalists) == 6
    for finalist in finalists:
        opponents = sorted(p.name for p in (first / finalist).iterdir())
        assert opponents == [f for f in finalists if f != finalist]
        for opponent in opponents:
            folder = first / finalist / opponent
            played_at = [t for t in tables if opponent in t.teams]
            assert sorted(p.name for p in folder.iterdir() if p.is_dir()) == sorted(t.name for t in played_at)
            stats = json.loads((folder / "stats.json").read_text())
            assert stats["team"] == opponent and stats["counts"]["hands"] > 0
            assert "VPIP" in (folder / "stats.txt").read_text()
            for table in played_at:
                seat = table.teams.index(opponent) + 1
                assert (folder / table.name / "number.txt").read_text() == f"{seat}\n"
                deals = sorted((folder / table.name).glob("deal*.txt"))
                assert len(deals) == table.deals_played
                for deal_file in deals:
                    parsed = parse_deal_file(deal_file.read_text())
                    assert parsed.stage.value == "Show_Down"
                    assert (
                        deal_file.read_text()
                        == (run_dir / "tables" / table.name / "deals" / deal_file.name).read_text()
                    )


def test_the_final_table_seats_the_top_six_with_their_help_files(played, tmp_path: Path) -> None:
    _submissions, run_dir, _names = played
    standings = list(csv.DictReader((run_dir / "standings.csv").open()))
    top = [r["team"] for r in standings[:6]]
    helps = tmp_path / "helps"
    (helps / top[0]).mkdir(parents=True)
    (helps / top[0] / "notes.txt").write_text("opponents are loose\n")
    assert main(["final", str(run_dir), "--help-files", str(helps), "--deals", "3"]) == 0
    final = json.loads((run_dir / "final.json").read_text())
    assert sorted(r["seat"] for r in final["results"]) == [1, 2, 3, 4, 5, 6]
    assert {r["team"]: r["seat"] for r in final["results"]} == {t: i for i, t in enumerate(top, 1)}
    assert sum(r["profit"] for r in final["results"]) == 0
    copied = run_dir / "tables" / "final" / "teams" / top[0] / "notes.txt"
    assert copied.read_text() == "opponents are loose\n"
    assert main(["final", str(run_dir), "--deals", "3"]) == 0
    assert json.loads((run_dir / "final.json").read_text()) == final


def test_too_many_help_files_is_one_clear_error(played, tmp_path: Path, capsys) -> None:
    _submissions, run_dir, _names = played
    top = next(csv.DictReader((run_dir / "standings.csv").open()))["team"]
    (tmp_path / top).mkdir()
    for i in range(16):
        (tmp_path / top / f"h{i}.txt").write_text("x")
    assert main(["final", str(run_dir), "--help-files", str(tmp_path), "--deals", "3"]) == 2
    assert "16 help files" in capsys.readouterr().err


@pytest.mark.slow
def test_the_sample_tables_tournament_meets_every_pair_and_records_the_faulty_teams(tmp_path: Path) -> None:
    sample = Path(__file__).resolve().parents[2] / "sample_tables"
    run_dir = tmp_path / "demo"
    code = main(
        ["tournament", str(sample), "--out", str(run_dir), "--deals", "3", "--jobs", "2", "--seed", "4"]
    )
    assert code == 0
    results = json.loads((run_dir / "results.json").read_text())
    teams = sorted(
        p.stem for p in sample.iterdir() if p.suffix in {".c", ".cpp", ".java", ".pl", ".rb", ".py"}
    )
    met = {frozenset(p) for t in results["tables"] for p in combinations(t["seats"], 2)}
    assert met == {frozenset(p) for p in combinations(teams, 2)}
    assert all(sum(r["profit"] for r in t["results"]) == 0 for t in results["tables"])
    faulty = {f["team"] for f in results["faults"]}
    assert "Pr0011" in faulty
    assert {f["kind"] for f in results["faults"] if f["team"] == "Pr0011"} == {"crash"}
