"""A deal's seating and blinds, and the memory that saves making them again for every deal.

Who is dealt in, the order of play, who posts which blind and what the blinds leave behind follow from
the table's blinds, the dealer and which seats have chips (docs/protocol.md, "Table"). ``make_seating``
states those rules; ``seating_for`` gives a deal its seating, from memory when the same seating was made
before. The first seat to act is not part of the seating: the deal finds it with its own rule.
"""

from __future__ import annotations

from typing import Any, NamedTuple

from arena.engines.nlhe.events import BlindPosted
from arena.engines.nlhe.rules import TableRules

MEMORY_SIZE = 4096
"""Seatings remembered at most; the memory is emptied when it is full (a table uses a few dozen)."""


class Seating(NamedTuple):
    """What a deal's seating and blinds imply, before any card is dealt (lists indexed by seat, 0 unused)."""

    in_deal: tuple[int, ...]  # seats dealt in, ascending
    order: tuple[int, ...]  # the same, starting left of the dealer and ending with it
    after: tuple[tuple[int, ...], ...]  # per seat: the other dealt seats going left from it, then itself
    small: int  # the seat posting the small blind
    big: int  # the seat posting the big blind
    bet: list[int]  # the blinds (also each seat's deal total so far)
    all_in: list[bool]  # a blind that took a whole stack
    idle: list[bool]  # not dealt in, or all-in on its blind: never asked to act
    active: int  # seats dealt in and not all-in
    current: int  # the largest blind posted
    blinds: tuple[BlindPosted, BlindPosted]  # small, then big
    pot: int  # the blinds together
    dealing: tuple[tuple[int, int, int], ...]  # (seat, deck index of its first card, of its second) in order
    board_at: tuple[int, int, int, int, int]  # deck indices of the three flop cards, the turn and the river


def make_seating(small_blind: int, big_blind: int, dealer: int, stacks: tuple[int, ...]) -> Seating:
    """The seating and blinds of a deal with these stacks (``ValueError`` when fewer than two have chips).

    Seats with chips are dealt in, in order starting left of the dealer. With three or more, the two
    seats left of the dealer post the small and the big blind; heads-up, the dealer posts the small
    blind. A blind poster with at most its blind posts its whole stack and is all-in. Hole cards go one
    at a time round the order, twice; one card is burnt before the flop, the turn and the river.
    """
    seats = len(stacks)
    dealt = [seat for seat, chips in enumerate(stacks, 1) if chips]
    count = len(dealt)
    if count < 2:
        raise ValueError(f"only {count} seat(s) have chips; a deal needs two")
    split = dealt.index(dealer) + 1
    order = (*dealt[split:], *dealt[:split])
    twice = order + order
    after: list[tuple[int, ...]] = [()] * (seats + 1)
    for i, seat in enumerate(order):
        after[seat] = twice[i + 1 : i + 1 + count]
    idle = [True] * (seats + 1)
    for seat in order:
        idle[seat] = False
    if count == 2:
        small, big = dealer, order[0]
    else:
        small, big = order[0], order[1]
    bet, all_in = [0] * (seats + 1), [False] * (seats + 1)
    active, current = count, 0
    blinds = []
    for seat, blind, amount in ((small, "small", small_blind), (big, "big", big_blind)):
        chips = stacks[seat - 1]
        if amount < chips:
            chips, short = amount, False
        else:
            short = all_in[seat] = idle[seat] = True
            active -= 1
        bet[seat] = chips
        current = max(current, chips)
        blinds.append(BlindPosted(seat, blind, chips, short))
    dealing = tuple((seat, i, i + count) for i, seat in enumerate(order))
    base = 2 * count  # then burn, flop x3, burn, turn, burn, river
    return Seating(
        tuple(dealt),
        order,
        tuple(after),
        small,
        big,
        bet,
        all_in,
        idle,
        active,
        current,
        (blinds[0], blinds[1]),
        bet[small] + bet[big],
        dealing,
        (base + 1, base + 2, base + 3, base + 5, base + 7),
    )


# ----------------------------------------------------------------------------------------- memory
#: Seatings without a short blind, per (small blind, big blind, dealer, seats, the seats without chips).
#: A remembered one was made from a dealer and stacks that passed the checks, which any stacks with the
#: same key pass too (negative amounts are checked every deal). Values are the Seating's fields as a plain
#: tuple (docs/performance-log.md, "Rules engine").
REMEMBERED: dict[tuple[int, int, int, int, tuple[int, ...]], tuple[Any, ...]] = {}
_SMALL, _BIG = Seating._fields.index("small"), Seating._fields.index("big")


def seating_for(rules: TableRules, dealer: int, stacks: tuple[int, ...]) -> tuple[Any, ...]:
    """The fields of ``make_seating`` for a deal at this table, remembered when no blind is short.

    ``ValueError`` when a stack is negative, the dealer is not a seat with chips or fewer than two
    seats have chips.
    """
    small_blind, big_blind, seats = rules.small_blind, rules.big_blind, rules.seats
    lowest = min(stacks)
    if lowest > big_blind:  # the usual case: every seat is dealt in and covers its blind
        out: tuple[int, ...] = ()
    elif lowest < 0:
        raise ValueError(f"stacks {list(stacks)} hold a negative amount")
    else:
        out = tuple(seat for seat, chips in enumerate(stacks, 1) if not chips)
    key = (small_blind, big_blind, dealer, seats, out)
    seating = REMEMBERED.get(key)
    if seating is None and (not 1 <= dealer <= seats or stacks[dealer - 1] <= 0):
        raise ValueError(f"dealer {dealer} is not a seat 1..{seats} with chips")
    if seating is None or (
        lowest <= big_blind
        and (stacks[seating[_SMALL] - 1] <= small_blind or stacks[seating[_BIG] - 1] <= big_blind)
    ):  # not remembered, or a blind poster is short this time
        made = make_seating(small_blind, big_blind, dealer, stacks)
        seating = tuple(made)
        if not any(made.all_in):  # a short blind's record depends on its stack: made again each time
            if len(REMEMBERED) >= MEMORY_SIZE:
                REMEMBERED.clear()
            REMEMBERED[key] = seating
    return seating
