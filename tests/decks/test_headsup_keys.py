"""Secret deck keys in heads-up: decks and Bob's draws from a committed key, revealed and verified after.

``tests/programs/keys/HeadsUpPredict.py`` repeats the deck derivation the docs once gave from the public
seed (default 0) and prints its prediction of Bob's hand and the board. With ``--seed 0`` it predicts
every hand (the seed is for demos); by default, with a fresh secret key, it guesses at chance.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from arena.cards import derive_seed, parse_cards
from arena.cli import main
from arena.decks.commitment import COMMITMENT, SEED_WARNING
from arena.decks.derive import StreamSeeds, table_secret
from arena.games.headsup.match import HeadsUpSettings, MatchReport, play_headsup
from arena.games.headsup.streams import bob_seed, rate_stream

from support.headsup import both_ways
from support.keys import assert_only_its_key_file_holds_the_key
from support.sandbox import needs_namespaces

PREDICT = Path(__file__).parents[1] / "programs" / "keys" / "HeadsUpPredict.py"
HANDS = 200
# Bob's two cards are one of 1,225 pairs of the 50 Alice cannot see: a prediction made without the key
# names his hand with probability 1/1225 (expected 0.16 hits in 200 hands). Five or more hits has
# probability below 1e-6; today's seeded derivation gives 200 of 200.
CHANCE_BOUND = 4


def hands(out: Path) -> list[dict]:
    return [json.loads(line) for line in (out / "hands.jsonl").read_text().splitlines()]


def predicted(report: MatchReport) -> dict[int, list[int]]:
    """The attacker's predictions from its stderr: hand -> [bob1, bob2, flop..., turn, river]."""
    assert report.run is not None
    rows = [list(map(int, line.split())) for line in report.run.stderr.splitlines() if line.strip()]
    return {row[0]: row[1:] for row in rows}


def bob_hits(report: MatchReport, out: Path) -> int:
    """Hands where the attacker named Bob's two cards."""
    guesses = predicted(report)
    assert len(guesses) == HANDS
    return sum(set(guesses[h["hand"]][:2]) == set(parse_cards(h["bob"])) for h in hands(out))


def key_file(tmp_path: Path, byte: int = 7) -> Path:
    path = tmp_path / f"deck{byte}.key"
    path.write_text((bytes([byte]) * 32).hex())
    return path


def test_the_stream_seeds_are_hmac_sha256_of_the_table_secret_and_the_label() -> None:
    secret = table_secret(bytes(range(32)), "headsup")
    # The values 'openssl dgst -sha256 -mac HMAC' gives: T for "arena/table/headsup", then "headsup/bob/1".
    assert secret.hex() == "328cd98d75f72121abfecc1de6e695a325559832f9e97e9270b5f900dbe74f7f"
    seeds = StreamSeeds(secret=secret)
    assert bob_seed(seeds, 1) == 0x04D3A466A975780F
    assert seeds.seed_of("headsup", "bob", 1) == int(
        "04d3a466a975780f8ea7b60bb08322a03ee5b12722efd51b9d0c47d0463150e6", 16
    )
    # A known seed gives the streams of before keys.
    assert bob_seed(StreamSeeds(11), 3) == derive_seed(11, "headsup", "bob", 3)
    assert rate_stream(StreamSeeds(4)).random() == rate_stream(StreamSeeds(4)).random()
    assert (
        rate_stream(seeds).random()
        != rate_stream(StreamSeeds(secret=table_secret(bytes(32), "headsup"))).random()
    )


@needs_namespaces
def test_the_public_derivation_predicts_every_hand_of_a_seeded_match(tmp_path: Path) -> None:
    """``--seed 0`` (demos only) is the old public formula: the attacker knows every card."""
    out = tmp_path / "out"
    report = play_headsup(PREDICT, HeadsUpSettings(hands=HANDS, seed=0), out)
    assert report.scored, report.fault
    assert bob_hits(report, out) == HANDS
    guesses = predicted(report)
    assert all(guesses[h["hand"]][2:] == parse_cards(h["board"]) for h in hands(out))
    committed = json.loads((out / COMMITMENT).read_text())["stages"]["headsup"]
    assert committed["seed"] == 0 and committed["warning"] == SEED_WARNING


@needs_namespaces
def test_by_default_a_secret_key_leaves_the_prediction_at_chance(tmp_path: Path) -> None:
    out = tmp_path / "out"
    report = play_headsup(PREDICT, HeadsUpSettings(hands=HANDS), out)
    assert report.scored, report.fault
    assert bob_hits(report, out) <= CHANCE_BOUND
    board_hits = sum(predicted(report)[h["hand"]][2:] == parse_cards(h["board"]) for h in hands(out))
    assert board_hits == 0  # one in 10^8 per hand
    committed = json.loads((out / COMMITMENT).read_text())["stages"]["headsup"]
    assert "seed" not in committed and len(committed["key_sha256"]) == 64


@needs_namespaces
def test_the_commitment_is_written_before_the_first_hand(tmp_path: Path) -> None:
    out = tmp_path / "out"
    seen: list[bool] = []
    play_headsup(
        PREDICT,
        HeadsUpSettings(hands=3),
        out,
        on_hand=lambda hand: seen.append((out / COMMITMENT).is_file()),
    )
    assert seen == [True, True, True]


@needs_namespaces
def test_the_same_key_deals_the_same_cards_and_bob_draws_the_same(tmp_path: Path) -> None:
    key = key_file(tmp_path)
    first = play_headsup(PREDICT, HeadsUpSettings(hands=40, deck_key=key), tmp_path / "a")
    again = play_headsup(PREDICT, HeadsUpSettings(hands=40, deck_key=key), tmp_path / "b")
    other = play_headsup(PREDICT, HeadsUpSettings(hands=40, deck_key=key_file(tmp_path, 8)), tmp_path / "c")
    assert first.scored and again.scored and other.scored
    assert hands(tmp_path / "a") == hands(tmp_path / "b")
    assert all("bob_estimate" in h["rounds"][0] for h in hands(tmp_path / "a"))
    assert [h["bob"] for h in hands(tmp_path / "a")] != [h["bob"] for h in hands(tmp_path / "c")]


@needs_namespaces
def test_the_compiled_loop_and_the_python_loop_play_a_keyed_match_alike(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    report = both_ways(PREDICT, tmp_path, monkeypatch, seed=None, deck_key=key_file(tmp_path))
    assert report.scored, report.fault


@needs_namespaces
def test_no_file_of_a_match_but_its_key_file_holds_the_key(tmp_path: Path) -> None:
    out = tmp_path / "out"
    play_headsup(PREDICT, HeadsUpSettings(hands=20), out)
    assert_only_its_key_file_holds_the_key(out, "headsup")


@needs_namespaces
def test_reveal_and_verify_name_a_tampered_hand(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "out"
    assert main(["headsup", str(PREDICT), "--hands", "30", "--out", str(out)]) == 0
    assert main(["verify", str(out)]) == 1
    assert "the key is not revealed yet" in capsys.readouterr().out
    assert main(["reveal", str(out)]) == 0
    assert capsys.readouterr().out.startswith("deck key (headsup) revealed in reveal.json")
    assert main(["verify", str(out)]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines == [
        "ok   headsup headsup: 30 deal(s) hold the cards of the committed deck",
        "1 of 1 table(s) verified",
    ]

    log = out / "hands.jsonl"
    original = log.read_text()
    records = [json.loads(line) for line in original.splitlines()]
    bob = parse_cards(records[6]["bob"])
    records[6]["bob"] = (
        records[7]["bob"] if set(parse_cards(records[7]["bob"])) != set(bob) else records[8]["bob"]
    )
    log.write_text("".join(json.dumps(r) + "\n" for r in records))
    assert main(["verify", str(out)]) == 1
    failed = capsys.readouterr().out.splitlines()
    assert failed[0].startswith("FAIL headsup headsup: hand 7 (hands.jsonl): Bob holds ")
    assert failed[-1] == "0 of 1 table(s) verified; 1 FAILED"

    records = [json.loads(line) for line in original.splitlines()]
    records[11]["rounds"][0]["bob_estimate"]["wins"] += 1
    log.write_text("".join(json.dumps(r) + "\n" for r in records))
    assert main(["verify", str(out)]) == 1
    failed = capsys.readouterr().out.splitlines()
    assert failed[0].startswith("FAIL headsup headsup: hand 12 (hands.jsonl): Bob's rollouts in round 1 ")

    log.write_text(original)
    assert main(["verify", str(out)]) == 0


def test_a_seeded_match_warns_and_cannot_be_revealed(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    program = Path(__file__).parents[2] / "bots" / "headsup" / "always_check.py"
    out = tmp_path / "out"
    assert main(["headsup", str(program), "--hands", "5", "--seed", "3", "--out", str(out)]) == 0
    err = capsys.readouterr().err
    assert f"warning: --seed 3: {SEED_WARNING}" in err
    assert main(["reveal", str(out)]) == 2
    assert "no secret key to reveal" in capsys.readouterr().err
    assert main(["verify", str(out)]) == 0
    assert capsys.readouterr().out.startswith("ok   headsup headsup: 5 deal(s)")


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--seed", "1", "--deck-key", "KEY"], "--seed and --deck-key exclude each other"),
        (["--reveal-at-end"], "--reveal-at-end publishes the key of a run folder: give one with --out DIR"),
        (["--seed", "1", "--reveal-at-end", "--out", "OUT"], "--reveal-at-end publishes a secret key"),
        (["--deck-key", "SHORT", "--out", "OUT"], "the deck key has 3 bytes"),
    ],
)
def test_deck_options_that_cannot_be_are_one_error_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], argv: list[str], message: str
) -> None:
    (tmp_path / "key").write_text("07" * 32)
    (tmp_path / "short").write_text("abcdef")
    names = {"KEY": str(tmp_path / "key"), "SHORT": str(tmp_path / "short"), "OUT": str(tmp_path / "out")}
    program = Path(__file__).parents[2] / "bots" / "headsup" / "always_check.py"
    assert main(["headsup", str(program), "--hands", "3", *(names.get(a, a) for a in argv)]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and err[0].startswith("arena headsup: error:") and message in err[0], err
    assert not (tmp_path / "out" / "hands.jsonl").exists()


@needs_namespaces
def test_a_match_revealed_at_its_end_verifies(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "out"
    assert main(["headsup", str(PREDICT), "--hands", "12", "--out", str(out), "--reveal-at-end"]) == 0
    assert "deck key (headsup) revealed in reveal.json" in capsys.readouterr().out
    assert main(["verify", str(out)]) == 0


def test_a_keyed_match_without_namespaces_warns_that_the_key_is_exposed(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    program = Path(__file__).parents[2] / "bots" / "headsup" / "always_check.py"
    argv = ["headsup", str(program), "--hands", "3", "--isolation", "rlimits-only", "--out", str(tmp_path)]
    assert main(argv) == 0
    err = capsys.readouterr().err
    assert "warning: programs will run without namespaces (--isolation rlimits-only)" in err
    assert main([*argv, "--seed", "1"]) == 0
    assert "without namespaces" not in capsys.readouterr().err
