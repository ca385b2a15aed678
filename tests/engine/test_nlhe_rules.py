"""Table rules validation and the dealer button's moves."""

from __future__ import annotations

import random

import pytest

from arena.engines.nlhe.rules import TableRules, choose_first_dealer, next_dealer
from arena.errors import ConfigError


def test_defaults_are_the_code_em_table() -> None:
    rules = TableRules()
    assert (rules.seats, rules.small_blind, rules.big_blind, rules.starting_stack) == (6, 5, 10, 1500)
    assert rules.late_street_min_bet == 20


@pytest.mark.parametrize(
    ("fields", "message"),
    [
        ({"seats": 1}, "seats 1"),
        ({"seats": 7}, "seats 7"),
        ({"small_blind": 0}, "blinds 0/10"),
        ({"big_blind": -10}, "blinds 5/-10"),
        ({"small_blind": 20}, "small blind 20 exceeds the big blind 10"),
        ({"starting_stack": 0}, "starting stack 0"),
        ({"late_street_multiplier": 0}, "multiplier 0"),
    ],
)
def test_bad_rules_are_config_errors_naming_the_value(fields: dict[str, int], message: str) -> None:
    with pytest.raises(ConfigError, match=message):
        TableRules(**fields)


def test_next_dealer_moves_left_and_skips_seats_without_chips() -> None:
    assert next_dealer([1500] * 6, 3) == 4
    assert next_dealer([1500] * 6, 6) == 1
    assert next_dealer([1500, 0, 0, 1500, 0, 0], 1) == 4
    assert next_dealer([1500, 0, 0, 1500, 0, 0], 4) == 1
    assert next_dealer([0, 0, 9000, 0, 0, 0], 3) == 3


def test_next_dealer_rejects_an_empty_table_and_a_bad_seat() -> None:
    with pytest.raises(ValueError, match="no seat has chips"):
        next_dealer([0, 0], 1)
    with pytest.raises(ValueError, match="dealer 7"):
        next_dealer([10] * 6, 7)


def test_first_dealer_is_a_seat_with_chips_fixed_by_the_seed() -> None:
    stacks = [0, 1500, 0, 1500, 1500, 0]
    drawn = {choose_first_dealer(random.Random(seed), stacks) for seed in range(200)}
    assert drawn == {2, 4, 5}
    assert choose_first_dealer(random.Random(7), stacks) == choose_first_dealer(random.Random(7), stacks)
    with pytest.raises(ValueError, match="no seat has chips"):
        choose_first_dealer(random.Random(1), [0, 0])
