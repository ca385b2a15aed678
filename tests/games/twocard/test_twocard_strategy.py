"""TwoCardDraw strategy files: writer and parser round-trip; a malformed file is one clear error."""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np
import pytest

from arena.engines.twocard.generator import random_strategy
from arena.engines.twocard.rules import HANDS, Outcome, compare
from arena.engines.twocard.strategy import (
    format_strategy,
    parse_strategy,
    read_strategy,
    situations,
)
from arena.errors import FormatError

DOCS = Path(__file__).resolve().parents[3] / "docs" / "twocard.md"
SHIPPED = sorted((Path(__file__).resolve().parents[3] / "bots" / "twocard" / "strategies").glob("*.txt"))


@pytest.fixture(scope="module")
def text() -> str:
    return format_strategy(random_strategy(2, 5, np.random.default_rng(4)))


def test_writer_and_parser_round_trip_exactly() -> None:
    for seed in range(3):
        strategy = random_strategy(1 + seed, 2 + seed, np.random.default_rng(seed))
        again = parse_strategy(format_strategy(strategy))
        assert again.same_as(strategy)
        assert format_strategy(again) == format_strategy(strategy)


def test_file_has_one_line_per_situation_in_the_documented_field_order(text: str) -> None:
    lines = text.splitlines()
    assert lines[0] == "2 5"
    kinds = [line.split()[0] for line in lines[1:]]
    assert (kinds.count("ROUND1"), kinds.count("DRAW"), kinds.count("ROUND2")) == (60, 315, 3780)
    assert len(list(situations())) == 4155
    round2 = next(line for line in lines if line.startswith("ROUND2 1 3 2 1 1 0 2 "))
    assert len(round2.split()) == 11  # ROUND2 CARD1 CARD2 BETS1 BETS2 FIRST DREW1 DREW2 fold call raise


def test_lines_may_come_in_any_order(text: str) -> None:
    lines = text.splitlines()
    shuffled = [lines[0], *reversed(lines[1:])]
    assert parse_strategy("\n".join(shuffled)).same_as(parse_strategy(text))


@pytest.mark.parametrize(
    ("edit", "message"),
    [
        (lambda ls: ["2", *ls[1:]], "first line must be 'bet1 bet2'"),
        (lambda ls: ["6 7", *ls[1:]], "need 1 <= bet1 <= 5"),
        (lambda ls: ["2 7", *ls[1:]], "bet1 <= bet2 <= 3\\*bet1"),
        (lambda ls: ls[:1] + ls[2:], "situation 'ROUND1 0 0 0' is missing"),
        (lambda ls: [*ls, ls[1]], "situation given twice"),
        (lambda ls: [*ls[:1], "ROUND1 0 0 0 0 0.5 0.4", *ls[2:]], "must be >= 0 and sum to 1"),
        (lambda ls: [*ls[:1], "ROUND1 0 0 0 0.1 0.5 0.4", *ls[2:]], "checking is free"),
        (lambda ls: [*ls[:1], "ROUND1 0 0 0 0 0.5 x", *ls[2:]], "expected three probabilities"),
        (lambda ls: [*ls[:1], "ROUND1 3 1 0 0 0.5 0.5", *ls[2:]], "CARD1 <= CARD2"),
        (lambda ls: [*ls[:1], "DRAW 0 0 0 1 0 1 0 0", *ls[2:]], "not a first-round outcome"),
        (lambda ls: [*ls[:1], "FLOP 0 0 0 0 1 0", *ls[2:]], "unknown line kind"),
        (lambda ls: [*ls[:1], "ROUND1 0 0 0 1 0", *ls[2:]], "needs 3 integers and 3 probabilities"),
    ],
)
def test_malformed_files_name_the_problem(text: str, edit, message: str) -> None:
    with pytest.raises(FormatError, match=message):
        parse_strategy("\n".join(edit(text.splitlines())), "s.txt")


def test_raise_at_three_bets_is_rejected(text: str) -> None:
    lines = text.splitlines()
    i = next(n for n, line in enumerate(lines) if line.startswith("ROUND1 0 0 3 "))
    lines[i] = "ROUND1 0 0 3 0 0.5 0.5"
    with pytest.raises(FormatError, match=r"s.txt:\d+: raise .* 3 bets is the limit"):
        parse_strategy("\n".join(lines), "s.txt")


def test_unreadable_file_is_a_format_error(tmp_path: Path) -> None:
    with pytest.raises(FormatError, match="cannot read"):
        read_strategy(tmp_path / "missing.txt")


def test_docs_example_lines_parse_into_the_situations_they_describe() -> None:
    doc = DOCS.read_text()
    block = re.search(r"```text\n(2 4\n.*?)```", doc, re.S)
    assert block is not None, "docs/twocard.md must show an excerpt of a strategy file"
    excerpt = block.group(1).splitlines()
    shipped = read_strategy(SHIPPED[0].parent / "strategy2.txt")
    full = format_strategy(shipped).splitlines()
    for line in excerpt[1:]:
        assert line in full


def test_showdown_order_follows_000() -> None:
    assert compare((0, 0), (3, 4)) == 1  # a pair beats no pair
    assert compare((2, 2), (3, 3)) == -1  # higher pair wins
    assert compare((1, 4), (3, 4)) == -1  # same high card: the low card decides
    assert compare((2, 4), (3, 3)) == -1
    assert compare((1, 3), (1, 3)) == 0
    order = sorted(HANDS, key=lambda h: [compare(h, o) for o in HANDS].count(1))
    assert order[0] == (0, 1) and order[-1] == (4, 4)


def test_outcomes_encode_bets_and_who_bet_first() -> None:
    assert [(o.bets, o.first) for o in Outcome] == [(0, 0), (1, 0), (1, 1), (2, 0), (2, 1), (3, 0), (3, 1)]
    assert all(Outcome.of(o.bets, o.first == 1) is o for o in Outcome)


def test_shipped_strategies_parse() -> None:
    assert len(SHIPPED) >= 3
    for path in SHIPPED:
        read_strategy(path)
