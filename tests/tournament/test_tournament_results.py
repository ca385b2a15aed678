"""Results no one can game: programs fixed for the run, the final's places, disqualifications, awards."""

from __future__ import annotations

import csv
import json
import shutil
from pathlib import Path
from typing import Any

import pytest

from arena.cli import main
from arena.errors import ProgramChanged
from arena.games.codem.table import run_table
from arena.tournament.host import TournamentSettings, run_tournament
from arena.tournament.places import final_places
from arena.tournament.store import ResultRow

from support.field import make_field

CODEM = Path(__file__).parents[1] / "programs" / "codem"


# -- the final's places ---------------------------------------------------------------------------------


def _deal(number: int, dealer: int, before: list[int], after: list[int]) -> tuple[int, list[dict[str, Any]]]:
    return number, [
        {"kind": "deal_started", "deal": number, "dealer": dealer, "stacks": before, "in_deal": []},
        {"kind": "deal_ended", "stacks": after, "showdown": True},
    ]


def _row(seat: int, final_stack: int, *, built: bool = True) -> ResultRow:
    return ResultRow("final", f"T{seat}", seat, final_stack, final_stack - 1500, 0, False, built, 0)


def test_places_follow_the_order_in_which_teams_went_out() -> None:
    # Seat 5 never built. Seat 3 went out first (deal 2), seats 1 and 6 together in deal 4 (seat 6 with
    # the larger stack at its start), seat 4 in deal 146; seat 2 holds every chip at the end.
    deals = [
        _deal(1, 1, [1500, 1500, 1500, 1500, 0, 1500], [1400, 1700, 200, 1500, 0, 1700]),
        _deal(2, 2, [1400, 1700, 200, 1500, 0, 1700], [1400, 1900, 0, 1500, 0, 1700]),
        _deal(3, 4, [1400, 1900, 0, 1500, 0, 1700], [300, 2600, 0, 3000, 0, 600]),
        _deal(4, 6, [300, 2600, 0, 3000, 0, 600], [0, 3500, 0, 3000, 0, 0]),
        _deal(146, 2, [0, 3500, 0, 3000, 0, 0], [0, 6500, 0, 0, 0, 0]),
    ]
    rows = [_row(1, 0), _row(2, 6500), _row(3, 0), _row(4, 0), _row(5, 1500, built=False), _row(6, 0)]
    places = final_places(rows, deals)
    assert [p.team for p in places] == ["T2", "T4", "T6", "T1", "T3", "T5"]
    assert [p.out_in_deal for p in places] == [None, 146, 4, 4, 2, 0]
    assert [p.stack_at_start for p in places[2:4]] == [600, 300]
    assert places[-1].final_stack == 0 and places[0].place == 1


def test_teams_out_in_the_same_deal_with_equal_stacks_go_by_seat_after_the_button() -> None:
    deals = [_deal(1, 2, [1000, 1000, 1000, 1500], [0, 0, 0, 4500])]
    places = final_places([_row(1, 0), _row(2, 0), _row(3, 0), _row(4, 4500)], deals)
    # Dealer 2: seat 3 is first after the button, then seat 4, seat 1, seat 2.
    assert [p.team for p in places] == ["T4", "T3", "T1", "T2"]


# -- programs fixed for the run -------------------------------------------------------------------------


def edit_before_table002(players: list[Any], folder: Path, config: Any, **kwargs: Any) -> Any:
    """A team edits its program just as the second table starts (the table must notice)."""
    if folder.name.startswith(".table002."):
        with players[0].program.open("a") as program:
            program.write("# edited during the tournament\n")
    return run_table(players, folder, config, **kwargs)


def test_a_program_changed_during_the_tournament_stops_it_naming_the_team(tmp_path: Path, capsys) -> None:
    submissions = tmp_path / "submissions"
    make_field(submissions, 7, faulty=False)
    run = tmp_path / "run"
    settings = TournamentSettings(deals=1, time_limit_s=10)
    with pytest.raises(ProgramChanged) as caught:
        run_tournament(submissions, run, settings, table_runner=edit_before_table002)
    message = str(caught.value)
    assert message.startswith("table002 did not start: the program of team ")
    assert "changed since it was registered" in message and message.endswith("the tournament stops")
    args = ["tournament", str(submissions), "--out", str(run), "--deals", "1", "--time-limit", "10"]
    assert main(args) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert err[-1].startswith("arena tournament: error: programs changed since the tournament started: Pr")


# -- disqualifications, the final, awards ----------------------------------------------------------------


@pytest.fixture(scope="module")
def run(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("results")
    submissions = root / "submissions"
    make_field(submissions, 5, faulty=False)
    shutil.copyfile(CODEM / "Tiny.py", submissions / "Tiny.py")  # a fault every decision: disqualified
    shutil.copyfile(CODEM / "Broken.c", submissions / "Unbuilt.c")
    run = root / "run"
    args = ["tournament", str(submissions), "--out", str(run), "--deals", "6", "--jobs", "2"]
    assert main([*args, "--time-limit", "10"]) == 0
    return run


def _csv(path: Path) -> list[dict[str, str]]:
    return list(csv.DictReader(path.open()))


@pytest.mark.slow
def test_the_standings_name_each_teams_disqualified_tables(run: Path) -> None:
    results = json.loads((run / "results.json").read_text())
    banned = {(t["name"], r["team"]) for t in results["tables"] for r in t["results"] if r["disqualified"]}
    assert banned and {team for _table, team in banned} == {"Tiny"}
    for row in _csv(run / "standings.csv"):
        expected = sorted(table for table, team in banned if team == row["team"])
        assert row["disqualified_tables"].split() == expected
        assert int(row["disqualified"]) == len(expected)


@pytest.mark.slow
def test_awards_before_the_final_honour_the_finalists_and_the_faultless(run: Path) -> None:
    awards = _csv(run / "awards.csv")
    excellence = [a["team"] for a in awards if a["certificate"] == "excellence"]
    standings = [r["team"] for r in _csv(run / "standings.csv") if r["team"] not in ("Tiny", "Unbuilt")]
    assert excellence == standings
    participation = {a["team"] for a in awards if a["certificate"] == "participation"}
    faulty = {r["team"] for r in _csv(run / "standings.csv") if int(r["faults"])}
    assert {"Tiny", "Unbuilt"} <= faulty
    assert participation == {f"Pr{i:04d}" for i in range(1, 6)} - faulty


@pytest.mark.slow
def test_finals_logs_skip_the_disqualified_unless_allowed(run: Path, tmp_path: Path, capsys) -> None:
    assert main(["finals-logs", str(run), "--out", str(tmp_path / "a")]) == 0
    out = capsys.readouterr().out
    assert "Tiny (rank " in out and "is not a finalist: disqualified at table" in out
    assert "Unbuilt (rank " in out and "its program never built" in out
    assert "Tiny" not in {p.name for p in (tmp_path / "a").iterdir()}
    assert main(["finals-logs", str(run), "--out", str(tmp_path / "b"), "--allow-disqualified"]) == 0
    assert "Tiny" in {p.name for p in (tmp_path / "b").iterdir()}


@pytest.mark.slow
def test_the_final_places_the_finalists_says_how_many_deals_and_is_replayed_only_on_request(
    run: Path, tmp_path: Path, capsys
) -> None:
    assert main(["final", str(run), "--deals", "3"]) == 0
    said = capsys.readouterr()
    assert "Tiny (rank " in said.err and "is not a finalist: disqualified at" in said.err
    final = json.loads((run / "final.json").read_text())
    assert f"Final table: {final['deals_played']} of 3 deals played" in said.out
    assert final["deals"] == 3 and 1 <= final["deals_played"] <= 3
    assert {s["team"] for s in final["policy"]["skipped"]} == {"Tiny", "Unbuilt"}
    places = final["results"]
    assert [p["place"] for p in places] == [1, 2, 3, 4, 5]
    chips = [p["final_stack"] for p in places]
    assert chips == sorted(chips, reverse=True) and sum(chips) == 5 * 1500
    outs = [p["out_in_deal"] for p in places if p["out_in_deal"] is not None]
    assert outs == sorted(outs, reverse=True)
    awards = _csv(run / "awards.csv")
    assert [a["team"] for a in awards if a["certificate"] == "excellence"] == [p["team"] for p in places]
    commitment = json.loads((run / "commitment.json").read_text())
    assert set(commitment["stages"]) == {"tournament", "final"}
    assert commitment["stages"]["final"]["key_sha256"] != commitment["stages"]["tournament"]["key_sha256"]

    # Shown again, not replayed.
    assert main(["final", str(run), "--deals", "3"]) == 0
    assert "already played" in capsys.readouterr().err
    assert json.loads((run / "final.json").read_text()) == final

    # Other help files: an explicit choice.
    helps = tmp_path / "helps"
    (helps / places[0]["team"]).mkdir(parents=True)
    (helps / places[0]["team"] / "notes.txt").write_text("new notes\n")
    assert main(["final", str(run), "--deals", "3", "--help-files", str(helps)]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert "other help files or programs; pass --again" in err[-1]
    assert main(["final", str(run), "--deals", "3", "--help-files", str(helps), "--again"]) == 0
    assert "--again" in capsys.readouterr().err
    copied = run / "tables" / "final" / "teams" / places[0]["team"] / "notes.txt"
    assert copied.read_text() == "new notes\n"
    commitment = json.loads((run / "commitment.json").read_text())
    assert [d["stage"] for d in commitment["discarded"]] == ["final"]
    assert main(["reveal", str(run)]) == 0
    assert main(["verify", str(run)]) == 0
    verified = capsys.readouterr().out
    assert "ok   final final:" in verified and "FAIL" not in verified
