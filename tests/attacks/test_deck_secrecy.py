"""No program learns a card it was not dealt: real hostile programs in real sandboxes.

One hunts for the deck key everywhere a program can look (its folder, every file it can read, its
environment, every /proc/<pid>/cmdline and environ, PID 1's included) and dumps what it found; the other
searches seeds from its own hole cards with the documented --seed derivation and guesses every
opponent's cards. With a known seed it reads them all; with a secret key its guesses are at chance.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from arena.cli import main
from arena.decks.derive import sha256_hex, table_secret
from arena.sandbox.isolation import namespaces_available

from support.field import make_field

HOSTILE = Path(__file__).parents[1] / "programs" / "attacks"
CHECKER = Path(__file__).parents[1] / "programs" / "codem" / "Checker.py"
CANARY = "0f1e2d3c4b5a69788796a5b4c3d2e1f00f1e2d3c4b5a69788796a5b4c3d2e1f0"

pytestmark = pytest.mark.skipif(
    not namespaces_available()[0],
    reason="the key is out of a program's reach only in the namespaced sandbox: " + namespaces_available()[1],
)


@pytest.mark.slow
def test_a_program_hunting_for_the_deck_key_finds_no_trace_of_it(tmp_path: Path) -> None:
    submissions = tmp_path / "submissions"
    make_field(submissions, 3, faulty=False)
    shutil.copyfile(HOSTILE / "deck_key_hunter.py", submissions / "Hunter.py")
    run = tmp_path / "run"
    args = ["tournament", str(submissions), "--out", str(run), "--deals", "1", "--time-limit", "300"]
    assert main(args) == 0
    key_file = run / "deck-keys" / "tournament.key"
    key = bytes.fromhex(key_file.read_text())
    secret = table_secret(key, "table001")
    hunt = (run / "tables" / "table001" / "teams" / "Hunter" / "hunt.txt").read_text()
    lines = hunt.splitlines()
    # The hunt reached what it claims: its environment, its own and PID 1's command lines, its canary.
    assert any(line.startswith("PROC /proc/self/cmdline ") for line in lines)
    assert any(line.startswith("PROC /proc/1/cmdline ") for line in lines)
    assert any(line.startswith(("PROC /proc/self/environ", "NOPROC /proc/self/environ")) for line in lines)
    assert any(line.startswith("ENV PATH=") for line in lines)
    assert any(line.startswith("HEX /team/Hunter.py " + CANARY) for line in lines)
    assert int(lines[-2].removeprefix("WALKED ")) > 10_000
    assert int(lines[-1].removeprefix("READ ")) >= 5
    # And found nothing of the key: not as hex, not the key file's bytes, not the table secret.
    lowered = hunt.lower()
    for needle in (key.hex(), secret.hex(), sha256_hex(key_file.read_bytes())):
        assert needle not in lowered
    assert str(run) not in hunt and "deck-keys" not in hunt and "commitment.json" not in hunt


def _accuracy(out: Path) -> tuple[float, int]:
    """The share of the searcher's guessed opponent cards that the opponent really held; guesses made."""
    held: dict[tuple[int, int], set[int]] = {}
    for line in (out / "events.jsonl").read_text().splitlines():
        record = json.loads(line)
        for event in record["events"]:
            if event["kind"] == "hole_cards":
                held[(record["deal"], event["seat"])] = set(event["cards"])
    right = total = 0
    for line in (out / "teams" / "Searcher" / "guesses.txt").read_text().splitlines():
        deal, seat, *cards = (int(x) for x in line.split())
        right += sum(card in held[(deal, seat)] for card in cards)
        total += len(cards)
    return right / total, total


def _table(tmp_path: Path, name: str, *extra: str) -> Path:
    programs = tmp_path / f"programs-{name}"
    programs.mkdir()
    shutil.copyfile(HOSTILE / "seed_searcher.py", programs / "Searcher.py")
    seats = [programs / "Searcher.py"]
    for i in range(1, 6):
        seats.append(programs / f"Calls{i}.py")
        shutil.copyfile(CHECKER, seats[-1])
    out = tmp_path / name
    args = ["table", *map(str, seats), "--out", str(out), "--deals", "25", "--time-limit", "10", *extra]
    assert main(args) == 0
    return out


@pytest.mark.slow
def test_a_seed_searcher_reads_every_card_with_a_known_seed_and_guesses_at_chance_with_a_secret_key(
    tmp_path: Path, capsys
) -> None:
    seeded, seeded_guesses = _accuracy(_table(tmp_path, "seeded", "--seed", "7"))
    assert "a known seed means known cards" in capsys.readouterr().err
    keyed, keyed_guesses = _accuracy(_table(tmp_path, "keyed"))
    assert seeded_guesses >= 100 and keyed_guesses >= 100
    assert seeded == 1.0  # the attack, against the documented --seed derivation
    # Chance is 2 cards in the 50 it does not hold: 4%. 15% is over five standard deviations above it.
    assert keyed < 0.15
