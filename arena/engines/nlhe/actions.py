"""What a seat may ask the engine to do: fold, check or call, raise to a street total."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Fold:
    """Give up the deal (allowed even when checking is free)."""


@dataclass(frozen=True, slots=True)
class CheckCall:
    """Check when nothing is owed, else call (all-in for less when short)."""


@dataclass(frozen=True, slots=True, init=False)
class RaiseTo:
    """Bet or raise so that the seat's total in this betting round becomes ``amount``."""

    amount: int

    def __init__(self, amount: int) -> None:
        # A frozen dataclass's own __init__ goes through object.__setattr__; the slot's setter is cheaper.
        _set_amount(self, amount)


_set_amount: Callable[[RaiseTo, int], None] = RaiseTo.__dict__["amount"].__set__

Action = Fold | CheckCall | RaiseTo

__all__ = ["Action", "CheckCall", "Fold", "RaiseTo"]
