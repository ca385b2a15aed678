"""Every exported hand read back by pokerkit (an independent implementation) and compared with the events.

The demo tournament (the 13 programs of ``sample_tables``, real programs in real sandboxes) and a heads-up
match are exported with ``arena export`` in every format; pokerkit's PHH loader, PokerStars parser and ACPC
parser read each file, replay each hand and must end with arena's stacks. Deals played on the engine with
random answers add what a short demo rarely shows (all-ins for less, side pots, split pots, short blinds).
Where arena's documented reading and pokerkit's differ the hand is named with the rule that applies
(``tests/support/exports.py`` lists them) and everything else is still compared; the counts are printed.
"""

from __future__ import annotations

import csv
import json
import random
import shutil
import warnings
from dataclasses import replace
from pathlib import Path

import pytest
from pokerkit import HandHistory
from pokerkit.analysis import Statistics

from arena.cli import main
from arena.engines.nlhe import TableRules
from arena.exports.acpc import render_acpc_hands
from arena.exports.deal_shape import gather_hand
from arena.exports.logs import read_table, table_folders
from arena.exports.phh import render_phh_hands
from arena.exports.pokerstars import render_pokerstars_hands
from arena.games.codem.stats import POSITIONS

from support.exports import (
    NOT_ASKED,
    ODD_CHIPS,
    REOPENING,
    SHORT_BIG_BLIND,
    Tally,
    check_acpc,
    check_headsup,
    check_phh,
    check_pokerstars,
    odd_chip_winners,
    random_deals,
)

ROOT = Path(__file__).resolve().parents[2]
DEALS = 30
RANDOM_DEALS = 150


@pytest.fixture(scope="module")
def demo_run(tmp_path_factory: pytest.TempPathFactory) -> Path:
    run_dir = tmp_path_factory.mktemp("demo") / "run"
    code = main(
        [
            "tournament",
            str(ROOT / "sample_tables"),
            "--out",
            str(run_dir),
            "--deals",
            str(DEALS),
            "--jobs",
            "2",
        ]
    )
    assert code == 0
    return run_dir


@pytest.fixture(scope="module")
def headsup_run(tmp_path_factory: pytest.TempPathFactory) -> Path:
    run_dir = tmp_path_factory.mktemp("headsup") / "match"
    program = ROOT / "bots" / "headsup" / "example2.py"
    assert main(["headsup", str(program), "--hands", "120", "--seed", "3", "--out", str(run_dir)]) == 0
    return run_dir


def _export(run_dir: Path, fmt: str, out: Path, *extra: str) -> list[Path]:
    assert main(["export", str(run_dir), "--format", fmt, "--out", str(out), *extra]) == 0
    return sorted(out.iterdir())


def _report(capsys: pytest.CaptureFixture[str], *lines: str) -> None:
    with capsys.disabled():
        print()
        for line in lines:
            print(line)


@pytest.mark.slow
def test_every_demo_hand_reads_back_in_every_format(demo_run: Path, tmp_path: Path, capsys) -> None:
    tables = {name: read_table(folder) for name, folder in table_folders(demo_run)}
    assert len(tables) == 6
    deals = {name: {events[0].deal: events for events in log.deals} for name, log in tables.items()}
    dealt_in = {
        (name, team): sum(log.seat_of(team) in gather_hand(e).order for e in log.deals)
        for name, log in tables.items()
        for team in log.teams
    }
    total_deals = sum(len(d) for d in deals.values())

    phh = Tally()
    for path in _export(demo_run, "phh", tmp_path / "phh"):
        log = tables[path.stem]
        phh.add(check_phh(path.read_text(), deals[path.stem], log.rules, table=path.stem))
    assert phh.read == phh.compared == total_deals

    views = Tally()
    teams = sorted({team for log in tables.values() for team in log.teams})
    for team in teams:
        for path in _export(demo_run, "phh", tmp_path / "views" / team, "--team", team):
            name = path.name.removesuffix(f".{team}.phhs")
            views.add(check_phh(path.read_text(), deals[name], tables[name].rules, table=name))
    assert views.read == views.compared == sum(len(deals[name]) for name, _ in dealt_in)

    stars = Tally()
    files = _export(demo_run, "pokerstars", tmp_path / "pokerstars")
    assert {p.name for p in files} == {f"{name}.{team}.txt" for name, team in dealt_in}
    for path in files:
        name, team, _ = path.name.split(".")
        viewer = tables[name].seat_of(team)
        stars.add(check_pokerstars(path.read_text(), deals[name], table=name, viewer=viewer))
    assert stars.read == stars.compared == sum(dealt_in.values())

    acpc = Tally()
    for path in _export(demo_run, "acpc", tmp_path / "acpc"):
        acpc.add(check_acpc(path.read_text(), deals[path.stem], tables[path.stem].rules, table=path.stem))
    assert acpc.read == acpc.compared == total_deals

    _report(
        capsys,
        f"demo tournament: {len(tables)} tables, {total_deals} deals",
        phh.line("PHH (every card)"),
        views.line("PHH (each team's view)"),
        stars.line("PokerStars (each team's view)"),
        acpc.line("ACPC"),
        *phh.notes,
        *acpc.notes,
    )


@pytest.mark.slow
def test_random_engine_deals_read_back_naming_each_rule_difference(capsys) -> None:
    rng = random.Random("exports-readback")
    tallies = {fmt: Tally() for fmt in ("PHH", "PokerStars", "ACPC")}
    for seats in (2, 3, 6):
        rules = TableRules(seats=seats)
        played = random_deals(rng, seats=seats, deals=RANDOM_DEALS)
        deals = {events[0].deal: events for events in played}
        teams = [f"T{seat}" for seat in range(1, seats + 1)]
        table = f"random{seats}"
        text = render_phh_hands(played, rules, table=table, teams=teams, viewer=None)
        tallies["PHH"].add(check_phh(text, deals, rules, table=table))
        text = render_acpc_hands(played, rules, table=table, teams=teams, viewer=None)
        tallies["ACPC"].add(check_acpc(text, deals, rules, table=table))
        for viewer in (1, seats):  # PokerStars files are one per view: two views of each table
            text = render_pokerstars_hands(
                played, rules, table=table, table_number=seats, teams=teams, viewer=viewer
            )
            tallies["PokerStars"].add(check_pokerstars(text, deals, table=table, viewer=viewer))
    assert tallies["PHH"].compared == tallies["ACPC"].compared == 3 * RANDOM_DEALS
    # The random deals do reach every difference the module names, so each is exercised.
    assert (
        tallies["PHH"].rules[ODD_CHIPS]
        and tallies["PHH"].rules[REOPENING]
        and tallies["PHH"].rules[NOT_ASKED]
    )
    assert tallies["ACPC"].rules[SHORT_BIG_BLIND]
    _report(capsys, *(tally.line(f"random deals, {fmt}") for fmt, tally in tallies.items()))


def test_a_headsup_match_reads_back_in_phh_and_acpc(headsup_run: Path, tmp_path: Path, capsys) -> None:
    hands = [json.loads(line) for line in (headsup_run / "hands.jsonl").read_text().splitlines()]
    (phh,) = _export(headsup_run, "phh", tmp_path / "phh")
    (acpc,) = _export(headsup_run, "acpc", tmp_path / "acpc")
    tally = check_headsup(phh.read_text(), acpc.read_text(), hands)
    assert tally.read == tally.compared == 2 * len(hands)
    _report(capsys, tally.line("heads-up match, PHH and ACPC"))


@pytest.mark.slow
def test_a_teams_view_shows_opponents_cards_only_when_shown_down(demo_run: Path, tmp_path: Path) -> None:
    log = read_table(demo_run / "tables" / "table001")
    team = log.teams[2]
    seat = log.seat_of(team)
    (path,) = _export(demo_run, "phh", tmp_path, "--table", "table001", "--team", team)
    hands = path.read_text().split("\n\n")
    assert len(hands) == len(log.deals)
    hidden = shown = 0
    for text, events in zip(hands, log.deals, strict=True):
        hand = gather_hand(events)
        for index, table_seat in enumerate(hand.order, 1):
            line = next(x for x in text.splitlines() if x.startswith(f"  'd dh p{index} "))
            if table_seat == seat:
                assert "????" not in line
            else:
                assert "????" in line
                hidden += 1
            shows = f"  'p{index} sm " in text
            assert shows == hand.shown_down(table_seat)
            shown += shows and table_seat != seat
    assert hidden and shown


@pytest.mark.slow
def test_export_errors_are_one_line(demo_run: Path, headsup_run: Path, tmp_path: Path, capsys) -> None:
    broken = tmp_path / "broken"
    broken.mkdir()
    (broken / "events.jsonl").write_text('{"deal": 1, "events": []}\nnot json\n')
    cut = tmp_path / "cut"
    cut.mkdir()
    (cut / "events.jsonl").write_text('{"deal": 1, "events": []}\n')
    cases = [
        ([str(broken), "--format", "acpc"], "events.jsonl line 2: not JSON"),
        ([str(cut), "--format", "phh"], "deal 1: a recorded deal runs from deal_started to deal_ended"),
        ([str(demo_run), "--format", "phh", "--table", "table999"], "has no table 'table999'"),
        ([str(demo_run), "--format", "acpc", "--team", "Nobody"], "team 'Nobody' sat at none"),
        ([str(headsup_run), "--format", "pokerstars"], "export it as phh or acpc"),
        ([str(tmp_path / "missing"), "--format", "phh"], "does not exist"),
    ]
    for args, message in cases:
        capsys.readouterr()
        assert main(["export", *args, "--out", str(tmp_path / "out")]) == 2
        err = capsys.readouterr().err
        assert message in err and len(err.splitlines()) == 1, err


@pytest.mark.slow
def test_a_single_table_run_and_a_copy_export_the_same_bytes(demo_run: Path, tmp_path: Path) -> None:
    single = tmp_path / "table002"
    shutil.copytree(demo_run / "tables" / "table002", single)
    for fmt in ("phh", "acpc"):
        (alone,) = _export(single, fmt, tmp_path / f"alone-{fmt}")
        (within,) = _export(demo_run, fmt, tmp_path / f"within-{fmt}", "--table", "table002")
        assert alone.read_bytes() == within.read_bytes()


@pytest.mark.slow
def test_stats_csv_has_every_team_and_the_profits_pokerkit_computes(demo_run: Path, tmp_path: Path) -> None:
    rows = {row["team"]: row for row in csv.DictReader((demo_run / "stats.csv").open())}
    standings = {row["team"]: row for row in csv.DictReader((demo_run / "standings.csv").open())}
    assert set(rows) == set(standings)  # every team, not only the finalists
    histories = []
    for path in _export(demo_run, "phh", tmp_path):
        # Without the finishing stacks arena wrote, pokerkit's statistics replay every hand themselves.
        histories += [replace(hh, finishing_stacks=None) for hh in HandHistory.loads_all(path.read_text())]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        theirs = Statistics.from_hand_history(*histories)
    # Odd chips (see tests/support/exports.py) are the one place pokerkit may pay a winner differently.
    odd_chips = dict.fromkeys(rows, 0)
    for _, folder in table_folders(demo_run):
        log = read_table(folder)
        for events in log.deals:
            winners, odd = odd_chip_winners(gather_hand(events))
            for seat in winners:
                odd_chips[log.teams[seat - 1]] += odd
    for team, row in rows.items():
        assert int(row["profit"]) == int(standings[team]["profit"])
        assert int(row["hands"]) == theirs[team].sample_count
        assert abs(int(row["profit"]) - theirs[team].payoff_sum) <= odd_chips[team], team
        assert sum(int(row[f"profit_{p}"]) for p in POSITIONS) == int(row["profit"])
        assert sum(int(row[f"hands_{p}"]) for p in POSITIONS) == int(row["hands"])


@pytest.mark.slow
def test_the_final_table_exports_like_any_table(demo_run: Path, tmp_path: Path, capsys) -> None:
    """Played last: it adds ``tables/final`` to the demo run."""
    assert main(["final", str(demo_run), "--deals", "8"]) == 0
    log = read_table(demo_run / "tables" / "final")
    deals = {events[0].deal: events for events in log.deals}
    (phh,) = _export(demo_run, "phh", tmp_path / "phh", "--table", "final")
    tally = check_phh(phh.read_text(), deals, log.rules, table="final")
    (acpc,) = _export(demo_run, "acpc", tmp_path / "acpc", "--table", "final")
    tally.add(check_acpc(acpc.read_text(), deals, log.rules, table="final"))
    for path in _export(demo_run, "pokerstars", tmp_path / "pokerstars", "--table", "final"):
        team = path.name.split(".")[1]
        text = path.read_text()
        assert text.startswith("PokerStars Hand #1: ")  # the final is table 0: its hand numbers are the deals
        tally.add(check_pokerstars(text, deals, table="final", viewer=log.seat_of(team)))
    assert (
        tally.compared
        == tally.read
        == 2 * len(deals) + sum(seat in gather_hand(e).order for e in log.deals for seat in range(1, 7))
    )
    _report(capsys, tally.line("final table, PHH + ACPC + PokerStars"))
