"""Main and side pots from what each seat put in, and the split of a pot among tied winners."""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Pot:
    """``amount`` chips that go to the best hand among ``eligible`` (seats, ascending)."""

    amount: int
    eligible: tuple[int, ...]


def side_pots(contributions: Mapping[int, int], folded: Collection[int]) -> list[Pot]:
    """Main pot first, then side pots, cut at the contribution levels of the seats that did not fold.

    Each level takes from every seat up to that level; a pot is eligible to the seats that did not fold
    and put in at least its level. Neighbouring slices with the same eligible seats form one pot.
    Chips above every live seat's level (only possible before uncalled bets are returned) join the
    last pot. Raises ``ValueError`` when chips are in but no live seat put any in.
    """
    levels = sorted({chips for chips in contributions.values() if chips > 0})
    pots: list[Pot] = []
    previous = 0
    for level in levels:
        amount = 0
        eligible = []
        for seat, chips in contributions.items():
            if chips > previous:
                amount += (chips if chips < level else level) - previous
            if chips >= level and seat not in folded:
                eligible.append(seat)
        key = tuple(sorted(eligible))
        if pots and (not key or pots[-1].eligible == key):
            pots[-1] = Pot(pots[-1].amount + amount, pots[-1].eligible)
        elif key:
            pots.append(Pot(amount, key))
        else:
            raise ValueError(
                f"{amount} chips at level {level} have no eligible seat: every contributor folded"
            )
        previous = level
    return pots


def split_pot(amount: int, winners: Sequence[int], *, dealer: int, seats: int) -> dict[int, int]:
    """Each of ``k`` winners gets ``amount // k``; the ``amount % k`` odd chips go one each to the
    winners nearest the dealer's left (seat ``dealer + 1`` first, wrapping after seat ``seats``)."""
    if not winners:
        raise ValueError(f"a pot of {amount} needs at least one winner")
    if amount < 0:
        raise ValueError(f"pot amount {amount} is negative")
    share, odd = divmod(amount, len(winners))
    ordered = sorted(winners, key=lambda seat: (seat - dealer - 1) % seats)
    return {seat: share + (1 if i < odd else 0) for i, seat in enumerate(ordered)}
