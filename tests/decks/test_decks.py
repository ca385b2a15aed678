"""Secret deck keys: the keyed derivation, the key files, the commitment, reveal and verify."""

from __future__ import annotations

import json
import os
import stat
from collections import Counter
from pathlib import Path

import pytest

from arena.cards import FULL_DECK, derive_seed, shuffled_deck
from arena.cli import main
from arena.decks.commitment import COMMITMENT, open_stage, reveal
from arena.decks.derive import KeyedDecks, SeededDecks, keyed_deck, sha256_hex, table_secret
from arena.decks.keys import KEY_BYTES, read_key_file
from arena.errors import ConfigError

from support.field import make_field

KEY = bytes(range(32))
PROGRAMS = Path(__file__).parents[1] / "programs" / "codem"


def test_the_table_secret_is_hmac_sha256_of_the_key_and_the_deck_id() -> None:
    # The value 'openssl dgst -sha256 -mac HMAC -macopt hexkey:0001..1f' gives for "arena/table/table001".
    assert table_secret(KEY, "table001").hex() == (
        "c013316bae65b688c6c8ba5796eff6d3205ca24262f4f91d214c8596021a13e5"
    )


def test_a_keyed_deck_is_fixed_by_key_table_and_deal() -> None:
    secret = table_secret(KEY, "table001")
    # Golden: the documented Fisher-Yates over HMAC bytes, so another implementation can check itself.
    assert keyed_deck(secret, 1)[:10] == [19, 44, 28, 24, 45, 1, 6, 13, 47, 5]
    assert sorted(keyed_deck(secret, 1)) == list(FULL_DECK)
    assert keyed_deck(secret, 1) == KeyedDecks(secret).deck(1)
    assert keyed_deck(secret, 2) != keyed_deck(secret, 1)
    assert keyed_deck(table_secret(KEY, "table002"), 1) != keyed_deck(secret, 1)
    assert keyed_deck(table_secret(bytes(32), "table001"), 1) != keyed_deck(secret, 1)


def test_keyed_decks_put_every_card_first_about_equally_often() -> None:
    secret = table_secret(KEY, "uniform")
    firsts = Counter(keyed_deck(secret, n)[0] for n in range(1, 5201))
    # 100 expected per card; 40..170 is over six standard deviations either side.
    assert set(firsts) == set(FULL_DECK)
    assert min(firsts.values()) > 40 and max(firsts.values()) < 170


def test_a_known_seed_deals_the_old_decks() -> None:
    assert SeededDecks(11).deck(3) == shuffled_deck(derive_seed(11, "deal", 3))


@pytest.mark.parametrize(
    ("content", "message"),
    [
        (None, "no such file"),
        ("abc", "hex text"),
        ("00" * (KEY_BYTES - 1), f"{KEY_BYTES - 1} bytes, at least {KEY_BYTES}"),
    ],
)
def test_a_bad_deck_key_file_is_one_clear_error(tmp_path: Path, capsys, content, message) -> None:
    key_file = tmp_path / "deck.key"
    if content is not None:
        key_file.write_text(content)
    code = main(["table", str(PROGRAMS / "Checker.py"), str(PROGRAMS / "Shover.py"), "--out",
                 str(tmp_path / "out"), "--deals", "1", "--deck-key", str(key_file)])  # fmt: skip
    assert code == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and err[0].startswith("arena table: error: --deck-key") and message in err[0]


def test_an_unreadable_deck_key_is_one_clear_error(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match="cannot be read"):
        read_key_file(tmp_path)  # a folder


def test_a_run_keeps_its_key_readable_by_arena_only_and_reuses_it_when_resumed(tmp_path: Path) -> None:
    first = open_stage(tmp_path, "tournament", key_file=None, seed=None)
    again = open_stage(tmp_path, "tournament", key_file=None, seed=None)
    assert first.key == again.key and first.key is not None and len(first.key) == KEY_BYTES
    assert stat.S_IMODE((tmp_path / "deck-keys").stat().st_mode) == 0o700
    assert stat.S_IMODE((tmp_path / "deck-keys" / "tournament.key").stat().st_mode) == 0o600
    other = tmp_path / "other.key"
    other.write_text("ab" * 32)
    with pytest.raises(ConfigError, match="not the key this run's tournament was committed with"):
        open_stage(tmp_path, "tournament", key_file=other, seed=None)
    with pytest.raises(ConfigError, match="exclude each other"):
        open_stage(tmp_path, "final", key_file=other, seed=3)


def test_the_organisers_key_is_used_and_a_revealed_key_deals_no_more(tmp_path: Path) -> None:
    key_file = tmp_path / "deck.key"
    key_file.write_text(KEY.hex() + "\n")
    run = tmp_path / "run"
    from arena.decks.commitment import TableDeck, commit

    decks = open_stage(run, "table", key_file=key_file, seed=None)
    assert decks.key == KEY
    commit(run, decks, [TableDeck("table", "table", "events.jsonl")])
    committed = json.loads((run / COMMITMENT).read_text())["stages"]["table"]
    assert committed["key_sha256"] == sha256_hex(KEY)
    assert committed["decks"] == {"table": sha256_hex(table_secret(KEY, "table"))}
    assert len(reveal(run)) == 1
    assert (run / "deck-key.txt").read_text() == f"table {KEY.hex()}\n"
    again = open_stage(run, "table", key_file=None, seed=None)
    assert again.revealed
    with pytest.raises(ConfigError, match="revealed"):
        again.require_unrevealed()


@pytest.fixture(scope="module")
def tournament(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("keyed")
    make_field(root / "submissions", 7, faulty=False)
    run = root / "run"
    args = ["tournament", str(root / "submissions"), "--out", str(run), "--deals", "3", "--time-limit", "10"]
    assert main(args) == 0
    return run


@pytest.mark.slow
def test_no_file_of_a_run_but_its_key_file_holds_the_key(tournament: Path) -> None:
    key = (tournament / "deck-keys" / "tournament.key").read_text().strip()
    secrets_ = {key, *(table_secret(bytes.fromhex(key), f"table{n:03d}").hex() for n in range(1, 4))}
    for path in tournament.rglob("*"):
        if path.is_file() and path.parent.name != "deck-keys":
            data = path.read_bytes()
            assert not any(s.encode() in data or bytes.fromhex(s) in data for s in secrets_), path


@pytest.mark.slow
def test_verify_before_the_reveal_says_the_key_is_not_revealed(tournament: Path, capsys) -> None:
    assert main(["verify", str(tournament)]) == 1
    assert "the key is not revealed yet" in capsys.readouterr().out


@pytest.mark.slow
def test_verify_passes_after_the_reveal_and_names_the_table_and_deal_of_an_altered_card(
    tournament: Path, tmp_path: Path, capsys
) -> None:
    assert main(["reveal", str(tournament)]) == 0
    assert capsys.readouterr().out.startswith("deck key (tournament) revealed in reveal.json")
    assert main(["verify", str(tournament)]) == 0
    out = capsys.readouterr().out.splitlines()
    tables = json.loads((tournament / COMMITMENT).read_text())["stages"]["tournament"]["tables"]
    assert len(out) == len(tables) + 1
    assert all(line.startswith("ok   tournament table") for line in out[:-1])
    assert out[-1] == f"{len(tables)} of {len(tables)} table(s) verified"

    events = tournament / "tables" / "table002" / "events.jsonl"
    original = events.read_text()
    lines = original.splitlines()
    last = len(lines) - 1  # its last deal (the first, when one seat took every chip in deal 1)
    record = json.loads(lines[last])
    hole = next(e for e in record["events"] if e["kind"] == "hole_cards")
    taken = {c for e in record["events"] if e["kind"] == "hole_cards" for c in e["cards"]}
    hole["cards"][0] = next(c for c in FULL_DECK if c not in taken)
    lines[last] = json.dumps(record)
    events.write_text("\n".join(lines) + "\n")
    try:
        assert main(["verify", str(tournament)]) == 1
        out = capsys.readouterr().out.splitlines()
        failed = [line for line in out if line.startswith("FAIL")]
        assert len(failed) == 1
        assert failed[0].startswith(f"FAIL tournament table002: deal {record['deal']} ")
        assert f"seat {hole['seat']} holds" in failed[0]
        assert out[-1].endswith("1 FAILED")
    finally:
        events.write_text(original)
    assert main(["verify", str(tournament)]) == 0


@pytest.mark.slow
def test_verify_checks_the_database_record_too(tournament: Path, capsys) -> None:
    import sqlite3
    import zlib

    assert main(["reveal", str(tournament)]) == 0
    conn = sqlite3.connect(tournament / "tournament.sqlite")
    rows = conn.execute("SELECT deal, events FROM deals WHERE table_name = 'table001' ORDER BY deal")
    with_board = [(deal, blob, json.loads(zlib.decompress(blob))) for deal, blob in rows]
    deal, blob, events = next(
        item for item in with_board if any(e["kind"] == "street_started" and e["board"] for e in item[2])
    )
    board = next(e for e in events if e["kind"] == "street_started" and e["board"])
    seen = {c for e in events for c in e.get("cards", []) + e.get("board", [])}
    board["board"][0] = next(c for c in FULL_DECK if c not in seen)
    update = "UPDATE deals SET events = ? WHERE table_name = 'table001' AND deal = ?"
    conn.execute(update, (zlib.compress(json.dumps(events).encode()), deal))
    conn.commit()
    try:
        assert main(["verify", str(tournament)]) == 1
        failed = [line for line in capsys.readouterr().out.splitlines() if line.startswith("FAIL")]
        assert len(failed) == 1 and f"table001: deal {deal} (tournament.sqlite)" in failed[0]
        assert "board is" in failed[0]
    finally:
        conn.execute(update, (blob, deal))
        conn.commit()
        conn.close()


@pytest.mark.slow
def test_a_key_that_does_not_match_its_commitment_fails_every_table(tournament: Path, capsys) -> None:
    assert main(["reveal", str(tournament)]) == 0
    path = tournament / "reveal.json"
    original = path.read_text()
    document = json.loads(original)
    document["stages"]["tournament"]["key"] = "11" * 32
    path.write_text(json.dumps(document))
    try:
        assert main(["verify", str(tournament)]) == 1
        out = capsys.readouterr().out
        assert "does not hash to the committed key hash" in out and "ok   " not in out
    finally:
        path.write_text(original)
    assert os.access(tournament / "deck-keys" / "tournament.key", os.R_OK)


@pytest.mark.slow
def test_a_finished_tournament_runs_again_after_its_reveal_without_dealing(tournament: Path, capsys) -> None:
    assert main(["reveal", str(tournament)]) == 0
    submissions = tournament.parent / "submissions"
    args = ["tournament", str(submissions), "--out", str(tournament), "--deals", "3", "--time-limit", "10"]
    assert main(args) == 0
    assert "3 already played, 0 to play" in capsys.readouterr().err


def test_a_table_revealed_at_its_end_verifies_and_its_json_names_only_the_decks_hash(
    tmp_path: Path, capsys
) -> None:
    out = tmp_path / "table"
    args = ["table", str(PROGRAMS / "Checker.py"), str(PROGRAMS / "Shover.py"), "--out", str(out)]
    assert main([*args, "--deals", "3", "--reveal-at-end", "--json"]) == 0
    said = capsys.readouterr()
    result = json.loads(said.out)
    key = bytes.fromhex((out / "deck-keys" / "table.key").read_text())
    assert result["seed"] is None and result["deck_sha256"] == sha256_hex(table_secret(key, "table"))
    assert f"committed as SHA-256 {sha256_hex(key)} in commitment.json" in said.err
    assert json.loads((out / "reveal.json").read_text())["stages"]["table"]["key"] == key.hex()
    assert main(["verify", str(out)]) == 0
    assert capsys.readouterr().out.splitlines()[0].startswith("ok   table table: ")


@pytest.mark.slow
def test_a_checks_seat_tables_are_committed_and_verify_after_the_reveal(tmp_path: Path, capsys) -> None:
    out = tmp_path / "check"
    assert (
        main(["check", str(PROGRAMS / "Checker.py"), "--deals", "2", "--seats", "3", "--out", str(out)]) == 0
    )
    capsys.readouterr()
    tables = json.loads((out / COMMITMENT).read_text())["stages"]["check"]["tables"]
    seats = sorted(tables)
    assert len(seats) == 3 and seats[0] == "seat1" and seats[-1] == "seat6"
    assert all(tables[seat] == {"deck": "check", "events": f"{seat}/events.jsonl"} for seat in seats)
    assert main(["reveal", str(out)]) == 0
    capsys.readouterr()
    assert main(["verify", str(out)]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines == [
        *(f"ok   check {seat}: 2 deal(s) hold the cards of the committed deck" for seat in seats),
        "3 of 3 table(s) verified",
    ]
    events = out / seats[1] / "events.jsonl"
    first, *rest = events.read_text().splitlines(keepends=True)
    record = json.loads(first)
    hole = next(e for e in record["events"] if e["kind"] == "hole_cards")
    taken = {c for e in record["events"] if e["kind"] == "hole_cards" for c in e["cards"]}
    hole["cards"][0] = next(c for c in FULL_DECK if c not in taken)
    events.write_text(json.dumps(record) + "\n" + "".join(rest))
    assert main(["verify", str(out)]) == 1
    failed = [line for line in capsys.readouterr().out.splitlines() if line.startswith("FAIL")]
    assert len(failed) == 1 and failed[0].startswith(f"FAIL check {seats[1]}: deal 1 ")


def test_a_known_seed_cannot_be_revealed(tmp_path: Path, capsys) -> None:
    args = ["table", str(PROGRAMS / "Checker.py"), str(PROGRAMS / "Shover.py"), "--out", str(tmp_path)]
    assert main([*args, "--seed", "3", "--reveal-at-end"]) == 2
    assert "--reveal-at-end publishes a secret key; with --seed S there is none" in capsys.readouterr().err
    assert not (tmp_path / "events.jsonl").exists()


def test_without_namespaces_the_organiser_is_warned_that_the_key_is_exposed(monkeypatch, capsys) -> None:
    import argparse

    from arena.cli.decks import check_deck_options
    from arena.sandbox import isolation

    monkeypatch.setattr(isolation, "namespaces_available", lambda: (False, "bwrap is missing"))
    check_deck_options(argparse.Namespace(seed=None, reveal_at_end=False))
    err = capsys.readouterr().err
    assert err.startswith("warning: programs will run without namespaces (bwrap is missing)")
    assert "could read the deck key" in err
    check_deck_options(argparse.Namespace(seed=4, reveal_at_end=False))
    assert capsys.readouterr().err == ""  # a known seed has no key to expose
