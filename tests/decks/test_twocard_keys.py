"""Secret deck keys in TwoCardDraw: cards and the server's choices from a committed key, verified after.

``tests/programs/keys/TwoCardPredict.py`` repeats the per-hand derivation the docs once gave from the
public seed (default 0) and writes its prediction of the server's hand. With ``--seed 0`` it names every
one (the seed is for demos); by default, with a fresh secret key, it guesses at chance.
"""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from arena.cards import derive_seed
from arena.cli import main
from arena.decks.commitment import COMMITMENT, SEED_WARNING
from arena.decks.derive import StreamSeeds, table_secret
from arena.engines.twocard.strategy import read_strategy
from arena.games.twocard.judge import hand_rng
from arena.games.twocard.match import TwoCardInterface, TwoCardSettings, play_match

from support.keys import assert_only_its_key_file_holds_the_key
from support.sandbox import needs_namespaces

BOTS = Path(__file__).parents[2] / "bots" / "twocard"
STRATEGY = BOTS / "strategies" / "strategy2.txt"
PREDICT = Path(__file__).parents[1] / "programs" / "keys" / "TwoCardPredict.py"
HANDS = 300
# A server hand is a pair of the values 0..4: a pair (a, a) comes with probability 1/25, (a, b) with 2/25.
# A prediction made without the key names it with probability at most 2/25 (24 of 300 hands expected,
# standard deviation 4.7); 60 or more hits is over seven standard deviations out (below 1e-12). Today's
# seeded derivation gives 300 of 300.
CHANCE_BOUND = 59


def played(out: Path, case: int = 1) -> list[dict]:
    return [json.loads(line) for line in (out / f"case_{case}" / "hands.jsonl").read_text().splitlines()]


def server_hits(out: Path) -> int:
    """Hands where the attacker named the server's hand."""
    rows = [line.split() for line in (out / "case_1" / "player" / "predictions.txt").read_text().splitlines()]
    guesses = {int(row[0]): [int(row[1]), int(row[2])] for row in rows}
    hands = played(out)
    assert len(guesses) == len(hands) == HANDS
    return sum(guesses[h["hand"]] == h["server"] for h in hands)


def play(out: Path, **options) -> None:
    result = play_match(
        PREDICT, [(STRATEGY, read_strategy(STRATEGY))], TwoCardSettings(hands=HANDS, **options), out_dir=out
    )
    assert result.cases[0].fault is None, result.cases[0].fault


def test_a_hand_draws_from_hmac_sha256_of_its_test_cases_secret() -> None:
    secret = table_secret(bytes(range(32)), "case_1")
    # 'openssl dgst -sha256 -mac HMAC' of "twocard/1/1" under the secret of "arena/table/case_1".
    seed = int("d09b84d52c1e22092b874bddffc59f5789f70445850c707b235d476d71e5514c", 16)
    assert hand_rng(StreamSeeds(secret=secret), 1, 1).random() == random.Random(seed).random()
    assert hand_rng(StreamSeeds(5), 2, 9).random() == random.Random(derive_seed(5, "twocard", 2, 9)).random()


@needs_namespaces
def test_the_public_derivation_predicts_every_server_hand_with_a_known_seed(tmp_path: Path) -> None:
    play(tmp_path / "out", seed=0)
    assert server_hits(tmp_path / "out") == HANDS
    committed = json.loads((tmp_path / "out" / COMMITMENT).read_text())["stages"]["twocard"]
    assert committed["seed"] == 0 and committed["warning"] == SEED_WARNING


@needs_namespaces
def test_by_default_a_secret_key_leaves_the_prediction_at_chance(tmp_path: Path) -> None:
    play(tmp_path / "out")
    assert server_hits(tmp_path / "out") <= CHANCE_BOUND
    committed = json.loads((tmp_path / "out" / COMMITMENT).read_text())["stages"]["twocard"]
    assert "seed" not in committed and len(committed["key_sha256"]) == 64
    assert sorted(committed["tables"]) == ["case_1"]


@needs_namespaces
def test_the_same_key_deals_the_same_hands_and_the_server_chooses_the_same(tmp_path: Path) -> None:
    keys = [tmp_path / "a.key", tmp_path / "b.key"]
    keys[0].write_text("07" * 32)
    keys[1].write_text("08" * 32)
    play(tmp_path / "a", deck_key=keys[0])
    play(tmp_path / "b", deck_key=keys[0])
    play(tmp_path / "c", deck_key=keys[1])
    assert played(tmp_path / "a") == played(tmp_path / "b")
    assert [h["server"] for h in played(tmp_path / "a")] != [h["server"] for h in played(tmp_path / "c")]


@needs_namespaces
def test_no_file_of_a_match_but_its_key_file_holds_the_key(tmp_path: Path) -> None:
    out = tmp_path / "out"
    play(out)
    assert_only_its_key_file_holds_the_key(out, "twocard")


@needs_namespaces
def test_reveal_and_verify_name_a_tampered_hand(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "out"
    strategies = ["--strategy", str(STRATEGY), str(BOTS / "strategies" / "strategy1.txt")]
    assert main(["twocard", "play", str(PREDICT), *strategies, "--hands", "50", "--out", str(out)]) == 0
    assert main(["verify", str(out)]) == 1
    assert "the key is not revealed yet" in capsys.readouterr().out
    assert main(["reveal", str(out)]) == 0
    assert capsys.readouterr().out.startswith("deck key (twocard) revealed in reveal.json")
    assert main(["verify", str(out)]) == 0
    assert capsys.readouterr().out.splitlines() == [
        "ok   twocard case_1: 50 deal(s) hold the cards of the committed deck",
        "ok   twocard case_2: 50 deal(s) hold the cards of the committed deck",
        "2 of 2 table(s) verified",
    ]

    log = out / "case_2" / "hands.jsonl"
    original = log.read_text()
    records = [json.loads(line) for line in original.splitlines()]
    records[4]["server"] = [records[4]["server"][0], (records[4]["server"][1] + 1) % 5]
    records[4]["server"].sort()
    log.write_text("".join(json.dumps(r) + "\n" for r in records))
    assert main(["verify", str(out)]) == 1
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].startswith("ok   twocard case_1")
    assert lines[1].startswith("FAIL twocard case_2: hand 5 (case_2/hands.jsonl): the server holds ")
    assert lines[-1] == "1 of 2 table(s) verified; 1 FAILED"

    records = [json.loads(line) for line in original.splitlines()]
    drew = next(r for r in records if r["server_drew"] >= 0)
    drew["server_drew"] = (drew["server_drew"] + 1) % 3
    log.write_text("".join(json.dumps(r) + "\n" for r in records))
    assert main(["verify", str(out)]) == 1
    lines = capsys.readouterr().out.splitlines()
    assert lines[1].startswith(
        f"FAIL twocard case_2: hand {drew['hand']} (case_2/hands.jsonl): the server drew "
    )

    log.write_text(original)
    assert main(["verify", str(out)]) == 0


def test_a_seeded_match_warns(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "out"
    program = BOTS / "sample.py"
    assert main(["twocard", "play", str(program), "--strategy", str(STRATEGY), "--hands", "5",
                 "--seed", "3", "--out", str(out)]) == 0  # fmt: skip
    assert f"warning: --seed 3: {SEED_WARNING}" in capsys.readouterr().err
    assert main(["reveal", str(out)]) == 2
    assert main(["verify", str(out)]) == 0


@needs_namespaces
def test_a_run_revealed_at_its_end_verifies(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "out"
    assert main(["twocard", "play", str(PREDICT), "--strategy", str(STRATEGY), "--hands", "20",
                 "--out", str(out), "--reveal-at-end"]) == 0  # fmt: skip
    assert "deck key (twocard) revealed in reveal.json" in capsys.readouterr().err
    assert main(["verify", str(out)]) == 0


@needs_namespaces
@pytest.mark.slow
def test_a_program_hunting_for_the_key_from_inside_the_run_folder_finds_no_trace_of_it(
    tmp_path: Path,
) -> None:
    """The player's folder is ``case_1/player`` inside the run folder, two levels below the key file: the
    hunter (tests/programs/attacks/deck_key_hunter.py, one process per call) walks everything it can see."""
    hunter = tmp_path / "Hunter.py"
    hunter.write_text((Path(__file__).parents[1] / "programs" / "attacks" / "deck_key_hunter.py").read_text())
    out = tmp_path / "out"
    result = play_match(
        hunter,
        [(STRATEGY, read_strategy(STRATEGY))],
        TwoCardSettings(hands=5, time_limit_s=300, interface=TwoCardInterface.FILES),
        out_dir=out,
    )
    assert result.cases[0].fault is None, result.cases[0].fault
    key = bytes.fromhex((out / "deck-keys" / "twocard.key").read_text())
    hunt = (out / "case_1" / "player" / "hunt.txt").read_text()
    lines = hunt.splitlines()
    assert int(lines[-2].removeprefix("WALKED ")) > 10_000
    lowered = hunt.lower()
    for needle in (key.hex(), table_secret(key, "case_1").hex()):
        assert needle not in lowered
    assert str(out) not in hunt and "deck-keys" not in hunt and "commitment.json" not in hunt
