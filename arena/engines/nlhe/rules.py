"""Table rules of a No-Limit Hold'em table and the dealer button's moves (docs/protocol.md, "Table")."""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass

from arena.errors import ConfigError

MIN_SEATS = 2
MAX_SEATS = 6


@dataclass(frozen=True, slots=True)
class TableRules:
    """Seats, blinds and stacks of a table; validated once, trusted by the engine."""

    seats: int = 6
    small_blind: int = 5
    big_blind: int = 10
    starting_stack: int = 1500
    late_street_multiplier: int = 2
    """On the turn and the river the opening bet is at least ``late_street_multiplier * big_blind``."""

    def __post_init__(self) -> None:
        if not MIN_SEATS <= self.seats <= MAX_SEATS:
            raise ConfigError(f"seats {self.seats} must be between {MIN_SEATS} and {MAX_SEATS}")
        if self.small_blind <= 0 or self.big_blind <= 0:
            raise ConfigError(f"blinds {self.small_blind}/{self.big_blind} must both be positive")
        if self.small_blind > self.big_blind:
            raise ConfigError(f"small blind {self.small_blind} exceeds the big blind {self.big_blind}")
        if self.starting_stack <= 0:
            raise ConfigError(f"starting stack {self.starting_stack} must be positive")
        if self.late_street_multiplier < 1:
            raise ConfigError(f"late street multiplier {self.late_street_multiplier} must be at least 1")

    @property
    def late_street_min_bet(self) -> int:
        """The smallest opening bet on the turn and the river."""
        return self.late_street_multiplier * self.big_blind


def _seats_with_chips(stacks: Sequence[int]) -> list[int]:
    return [i + 1 for i, chips in enumerate(stacks) if chips > 0]


def choose_first_dealer(rng: random.Random, stacks: Sequence[int]) -> int:
    """A seat (1-based) with chips, drawn from ``rng``: the dealer of the first deal."""
    candidates = _seats_with_chips(stacks)
    if not candidates:
        raise ValueError(f"no seat has chips among stacks {list(stacks)}")
    return rng.choice(candidates)


def next_dealer(stacks: Sequence[int], dealer: int) -> int:
    """The next seat left of ``dealer`` (``p+1``, wrapping to 1) that has chips in ``stacks``."""
    seats = len(stacks)
    if not 1 <= dealer <= seats:
        raise ValueError(f"dealer {dealer} is not a seat 1..{seats}")
    for step in range(1, seats + 1):
        seat = (dealer - 1 + step) % seats + 1
        if stacks[seat - 1] > 0:
            return seat
    raise ValueError(f"no seat has chips among stacks {list(stacks)}")


def seats_from_dealer(dealer: int, in_deal: Sequence[int], seats: int) -> tuple[int, ...]:
    """The dealt seats from the dealer's left round to the dealer, who is last.

    The small blind comes first (heads-up, where the dealer posts the small blind, the big blind). PHH,
    pokerkit and the ACPC dealer number their players in this order.
    """
    return tuple(sorted(in_deal, key=lambda seat: (seat - dealer - 1) % seats))
