"""One No-Limit Hold'em deal as a state machine: blinds, betting, all-ins, side pots and the showdown.

Pure: the deck comes in already shuffled, nothing is read or written. Every change is recorded as a
frozen event (``arena.engines.nlhe.events``); ``apply`` returns the events it added. The rules are the
ones of docs/protocol.md: seats are numbered 1..N, left of seat ``p`` is ``p+1``.

Each betting rule is one method of the "rules" section below (``_why_no_raise``, ``_next_actor``,
``_nobody_to_act``), which the queries, ``verify_*`` and ``apply`` call; who sits where and posts which
blind comes from ``arena.engines.nlhe.seating``.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from enum import Enum, unique
from typing import Any, NoReturn

from arena.engines.nlhe.actions import Action, CheckCall, Fold, RaiseTo
from arena.engines.nlhe.events import (
    ActionKind,
    ActionTaken,
    DealEnded,
    DealStarted,
    Event,
    HandShown,
    HoleCardsDealt,
    PotAwarded,
    Street,
    StreetEnded,
    StreetStarted,
    UncalledBetReturned,
)
from arena.engines.nlhe.pots import side_pots, split_pot
from arena.engines.nlhe.rules import TableRules
from arena.engines.nlhe.seating import seating_for
from arena.evaluator import evaluate_holes

# Hot-path constants: enum members bound once, the events that never vary made once and shared, and
# ``_new``, which builds an event NamedTuple from its values in field order (docs/performance-log.md, "Rules
# engine", says why each is here).
_PRE_FLOP, _FLOP, _TURN, _RIVER, _SHOWDOWN = (
    Street.PRE_FLOP,
    Street.FLOP,
    Street.TURN,
    Street.RIVER,
    Street.SHOWDOWN,
)
_ROUND_ENDED = {street: StreetEnded(street) for street in (_PRE_FLOP, _FLOP, _TURN, _RIVER)}
_PRE_FLOP_STARTED = StreetStarted(_PRE_FLOP, ())
_FOLD, _CHECK, _CALL, _BET, _RAISE = (
    ActionKind.FOLD,
    ActionKind.CHECK,
    ActionKind.CALL,
    ActionKind.BET,
    ActionKind.RAISE,
)
_DECK = frozenset(range(52))
_new: Callable[..., Any] = tuple.__new__


@unique
class NoRaise(Enum):
    """Why the actor may not bet or raise (the raise rule's three refusals)."""

    SHORT = "its stack does not exceed what it owes"
    NOT_REOPENED = "the raises since it acted add up to less than a full raise"
    UNANSWERABLE = "no other seat still in could answer a raise"


class Deal:
    """The state of one deal, from the blinds to the awards.

    ``stacks[i]`` is seat ``i+1``'s chips before the deal (0: the seat sits out); ``deck`` holds the
    52 card indices in dealing order. Hole cards go one at a time starting left of the dealer; one card
    is burnt before the flop, the turn and the river.
    """

    __slots__ = (
        "_active",
        "_after",
        "_all_in",
        "_bet",
        "_faced",
        "_final",
        "_folded",
        "_holes",
        "_idle",
        "_late_min_bet",
        "_live",
        "_order",
        "_raise_size",
        "_stack",
        "_street_cards",
        "_total",
        "actor",
        "board",
        "current_bet",
        "deal_number",
        "dealer",
        "events",
        "in_deal",
        "is_over",
        "pot_total",
        "rules",
        "street",
    )
    rules: TableRules
    deal_number: int
    dealer: int
    in_deal: tuple[int, ...]
    events: list[Event]
    actor: int | None  # the seat to act; None once the deal is over
    current_bet: int
    pot_total: int
    street: Street
    board: tuple[int, ...]
    is_over: bool
    _order: tuple[int, ...]
    _after: tuple[tuple[int, ...], ...]
    _stack: list[int]
    _bet: list[int]
    _total: list[int]
    _faced: list[int]
    _folded: list[bool]
    _all_in: list[bool]
    _idle: list[bool]
    _live: int
    _active: int
    _raise_size: int
    _late_min_bet: int
    _holes: list[tuple[int, int] | None]
    _street_cards: tuple[tuple[int, ...], ...]
    _final: tuple[int, ...] | None

    def __init__(
        self,
        *,
        rules: TableRules,
        deal_number: int,
        dealer: int,
        stacks: Sequence[int],
        deck: Sequence[int],
    ) -> None:
        seats = rules.seats
        if len(stacks) != seats:
            raise ValueError(f"{len(stacks)} stacks given for a table of {seats} seats")
        before = tuple(stacks)
        seating = seating_for(rules, dealer, before)
        if len(deck) != 52 or _DECK.difference(deck):  # 52 cards holding all of 0..51: a permutation
            raise ValueError(f"the deck holds {len(deck)} cards, not the 52 distinct cards 0..51")
        self.rules = rules
        self.deal_number = deal_number
        self.dealer = dealer
        (
            in_deal,
            order,
            after,
            small,
            big,
            bet,
            all_in,
            idle,
            active,
            current,
            blinds,
            pot,
            dealing,
            board_at,
        ) = seating
        self.in_deal = in_deal
        self._order = order
        self._after = after
        size = seats + 1  # per-seat lists are indexed by seat number; index 0 is unused
        stack = [0, *before]  # chips behind, once the blinds are taken
        stack[small] -= bet[small]
        stack[big] -= bet[big]
        self._stack = stack
        self._bet = bet.copy()  # chips in during the current betting round
        self._total = bet.copy()  # chips in during the whole deal
        self._folded = [False] * size
        self._all_in = all_in.copy()
        self._idle = idle.copy()  # folded, all-in or not dealt in: never asked to act
        self._faced = [-1] * size  # the current bet when the seat last acted this round; -1: not yet
        count = len(order)
        self._live = count  # seats that have not folded
        self._active = active  # seats that have not folded and are not all-in
        self.current_bet = current
        self.pot_total = pot
        self.street = _PRE_FLOP
        self._raise_size = rules.big_blind  # the minimum raise increment
        self.board = ()
        self.is_over = False
        self._final = None

        holes: list[tuple[int, int] | None] = [None] * size
        events: list[Event] = [_new(DealStarted, (deal_number, dealer, before, in_deal)), *blinds]
        self.events = events
        for seat, first, second in dealing:
            holes[seat] = cards = (deck[first], deck[second])
            events.append(_new(HoleCardsDealt, (seat, cards)))
        self._holes = holes
        flop1, flop2, flop3, turn, river = board_at
        self._street_cards = ((deck[flop1], deck[flop2], deck[flop3]), (deck[turn],), (deck[river],))
        self._late_min_bet = rules.late_street_multiplier * rules.big_blind
        events.append(_PRE_FLOP_STARTED)
        self.actor = self._next_actor(after[big])
        if self.actor is None:  # the blinds leave nobody to act
            self._end_round()

    # ----------------------------------------------------------------------------------- queries
    def to_call(self, seat: int) -> int:
        """Chips ``seat`` would add by calling now (capped by its stack)."""
        owed = self.current_bet - self._bet[seat]
        stack = self._stack[seat]
        return owed if owed < stack else stack

    def street_total(self, seat: int) -> int:
        """Chips ``seat`` has put in during the current betting round."""
        return self._bet[seat]

    def deal_total(self, seat: int) -> int:
        """Chips ``seat`` has put in during the whole deal, blinds included."""
        return self._total[seat]

    def stack(self, seat: int) -> int:
        """Chips ``seat`` holds behind (not in the middle)."""
        return self._stack[seat]

    def hole_cards(self, seat: int) -> tuple[int, int]:
        """The two private cards of a seat dealt into the deal."""
        cards = self._holes[seat] if 0 < seat < len(self._holes) else None
        if cards is None:
            raise ValueError(f"seat {seat} is not dealt into deal {self.deal_number}")
        return cards

    def has_folded(self, seat: int) -> bool:
        """Whether ``seat`` folded in this deal."""
        return self._folded[seat]

    def is_all_in(self, seat: int) -> bool:
        """Whether ``seat`` has put all its chips in."""
        return self._all_in[seat]

    @property
    def final_stacks(self) -> tuple[int, ...]:
        """Every seat's chips once the deal is over."""
        if self._final is None:
            raise ValueError(f"deal {self.deal_number} is not over")
        return self._final

    def can_check(self) -> bool:
        """Whether the actor can check (nothing owed)."""
        return self.actor is not None and self._bet[self.actor] == self.current_bet

    def can_raise(self) -> bool:
        """Whether the actor may bet or raise now (the rule is :meth:`_why_no_raise`)."""
        seat = self.actor
        return seat is not None and self._why_no_raise(seat) is None

    def min_raise_to(self) -> int:
        """The smallest street total the actor may raise to: a full raise over the current bet (by the
        largest bet or raise of the round, at least the opening minimum), or its all-in when smaller."""
        seat = self.actor
        if seat is None:
            self._nobody_to_act()
        full = self.current_bet + self._raise_size
        all_in = self._bet[seat] + self._stack[seat]
        return full if full < all_in else all_in

    def max_raise_to(self) -> int:
        """The largest street total the actor may raise to: all-in."""
        seat = self.actor
        if seat is None:
            self._nobody_to_act()
        return self._bet[seat] + self._stack[seat]

    # ---------------------------------------------------------------------------------------- rules
    def _nobody_to_act(self) -> NoReturn:
        """The one refusal of every action and legal-range query once no seat is to act."""
        raise ValueError(f"deal {self.deal_number} is over: no seat is to act")

    def _why_no_raise(self, seat: int) -> NoRaise | None:
        """The raise rule: why ``seat`` may not bet or raise now, or ``None`` when it may.

        Not when it cannot put in more than a call; not when it already acted and the bets since add up
        to less than a full raise (all-ins for less do not reopen the betting); not when no other live
        seat could put in more than the current bet (every other seat is all-in or covered, so a raise
        could never be called).
        """
        current = self.current_bet
        if self._stack[seat] <= current - self._bet[seat]:
            return NoRaise.SHORT
        faced = self._faced[seat]
        if faced >= 0 and current - faced < self._raise_size:
            return NoRaise.NOT_REOPENED
        bet, stack, folded = self._bet, self._stack, self._folded
        for other in self._order:
            if other != seat and not folded[other] and bet[other] + stack[other] > current:
                return None
        return NoRaise.UNANSWERABLE

    def _next_actor(self, seats: Sequence[int]) -> int | None:
        """The first of ``seats`` that still has to act: not folded or all-in, and it owes chips or has not
        acted this round while another seat could still answer a bet. ``None`` when none has to."""
        idle, bet, faced, current = self._idle, self._bet, self._faced, self.current_bet
        for seat in seats:
            if not idle[seat] and (bet[seat] < current or (faced[seat] < 0 and self._active >= 2)):
                return seat
        return None

    # ------------------------------------------------------------------------------------ verify
    def verify_fold(self) -> None:
        """Raise ``ValueError`` unless the actor may fold (always, while the deal runs)."""
        if self.actor is None:
            self._nobody_to_act()

    def verify_check_call(self) -> None:
        """Raise ``ValueError`` unless the actor may check or call (always, while the deal runs)."""
        if self.actor is None:
            self._nobody_to_act()

    def verify_raise_to(self, amount: int) -> None:
        """Raise ``ValueError``, naming the numbers, unless the actor may raise to ``amount``."""
        seat = self.actor
        if seat is None:
            self._nobody_to_act()
        if type(amount) is not int:
            raise ValueError(f"raise to {amount!r}: a street total must be a whole number of chips")
        refusal = self._why_no_raise(seat)
        if refusal is not None:
            current, faced = self.current_bet, self._faced[seat]
            match refusal:
                case NoRaise.SHORT:
                    owed = current - self._bet[seat]
                    reason = f"its stack {self._stack[seat]} does not exceed the {owed} it owes"
                case NoRaise.NOT_REOPENED:
                    reason = (
                        f"it already acted at a bet of {faced} and the raises since, to {current}, add up "
                        f"to less than a full raise of {self._raise_size}"
                    )
                case NoRaise.UNANSWERABLE:
                    reason = f"no other seat still in can put in more than the current bet {current}"
            raise ValueError(f"seat {seat} cannot raise: {reason}")
        low, high = self.min_raise_to(), self.max_raise_to()
        if amount < low:
            raise ValueError(
                f"raise to {amount} is below the minimum {low} "
                f"(current bet {self.current_bet}, minimum raise {self._raise_size})"
            )
        if amount > high:
            raise ValueError(f"raise to {amount} is above the maximum {high} (seat {seat}'s all-in)")

    def can_fold(self) -> bool:
        """Whether the actor may fold."""
        return self._allows(self.verify_fold)

    def can_check_call(self) -> bool:
        """Whether the actor may check or call."""
        return self._allows(self.verify_check_call)

    def can_raise_to(self, amount: int) -> bool:
        """Whether the actor may raise to ``amount``."""
        return self._allows(self.verify_raise_to, amount)

    @staticmethod
    def _allows(verify: Callable[..., None], *args: Any) -> bool:
        try:
            verify(*args)
        except ValueError:
            return False
        return True

    # ------------------------------------------------------------------------------------- apply
    def apply(self, action: Action) -> list[Event]:
        """Play ``action`` for the actor; return the events it produced (``ValueError`` if illegal)."""
        seat = self.actor
        if seat is None:
            self._nobody_to_act()
        kind = type(action)
        bet = self._bet
        if kind is CheckCall:
            current = self.current_bet
            stack = self._stack[seat]
            added = current - bet[seat]
            if added >= stack:  # calls all-in, possibly for less
                added = stack
                all_in = self._all_in[seat] = self._idle[seat] = True
                self._active -= 1
            else:
                all_in = False
            if added:
                street_total = bet[seat] + added
                self._stack[seat] = stack - added
                bet[seat] = street_total
                self._total[seat] += added
                self.pot_total += added
                event = _new(ActionTaken, (seat, _CALL, added, street_total, all_in))
            else:
                event = _new(ActionTaken, (seat, _CHECK, 0, current, False))
            self._faced[seat] = current
        elif kind is Fold:
            self._folded[seat] = self._idle[seat] = True
            self._live -= 1
            self._active -= 1
            current = self.current_bet
            event = _new(ActionTaken, (seat, _FOLD, 0, bet[seat], False))
        elif kind is RaiseTo:
            amount = action.amount  # type: ignore[union-attr]
            previous, before, stack = self.current_bet, bet[seat], self._stack[seat]
            full, high = previous + self._raise_size, before + stack
            # The fast path of verify_raise_to: the raise rule (one call) and the limits of min_raise_to and
            # max_raise_to; verify_raise_to runs only to name what failed.
            # tests/engine/test_nlhe_properties.py checks that apply accepts exactly the amounts can_raise_to
            # accepts.
            if (
                type(amount) is not int
                or self._why_no_raise(seat) is not None
                or not (full if full < high else high) <= amount <= high
            ):
                self.verify_raise_to(amount)
            added = amount - before
            stack -= added
            self._stack[seat] = stack
            bet[seat] = amount
            self._total[seat] += added
            self.pot_total += added
            if stack == 0:
                all_in = self._all_in[seat] = self._idle[seat] = True
                self._active -= 1
            else:
                all_in = False
            if amount - previous >= self._raise_size:  # a full raise sets the next minimum
                self._raise_size = amount - previous
            self._faced[seat] = self.current_bet = current = amount
            event = _new(ActionTaken, (seat, _RAISE if previous else _BET, added, amount, all_in))
        else:
            raise ValueError(f"{action!r} is not a Fold, CheckCall or RaiseTo")
        events = self.events
        events.append(event)
        if self._live > 1:
            # _next_actor(self._after[seat]), written out: this runs after every action
            idle, faced = self._idle, self._faced
            for other in self._after[seat]:
                if not idle[other] and (bet[other] < current or (faced[other] < 0 and self._active >= 2)):
                    self.actor = other
                    return [event]
        start = len(events) - 1
        self._end_round()
        return events[start:]

    # ---------------------------------------------------------------------------------- internals
    def _end_round(self) -> None:
        """Close the betting round and move on: next street, run-out and showdown, or a fold win."""
        events = self.events
        self.actor = None
        events.append(_ROUND_ENDED[self.street])
        if self._live == 1:
            self._finish_by_folds()
            return
        if self.street is not _RIVER and self._active >= 2:
            self._start_street()
            self.actor = self._next_actor(self._order)  # at least two seats can still bet
            return
        if self._active < 2:  # two seats that can still bet both matched the largest contribution
            self._return_uncalled()
        while self.street is not _RIVER:
            self._start_street()
            events.append(_ROUND_ENDED[self.street])
        self._showdown()

    def _start_street(self) -> None:
        """Deal the next street's cards and open its betting round."""
        previous = self.street
        cards: tuple[int, ...]
        if previous is _PRE_FLOP:
            street, cards, self._raise_size = _FLOP, self._street_cards[0], self.rules.big_blind
        else:
            street = _TURN if previous is _FLOP else _RIVER
            cards = self._street_cards[1 if street is _TURN else 2]
            self._raise_size = self._late_min_bet
        self.street = street
        self.board += cards
        size = len(self._bet)
        self._bet = [0] * size
        self._faced = [-1] * size
        self.current_bet = 0
        self.events.append(_new(StreetStarted, (street, cards)))

    def _return_uncalled(self) -> None:
        """Give back the part of the largest contribution that no other seat matched."""
        total = self._total
        top_seat, top, second = 0, -1, -1
        for seat in self._order:
            chips = total[seat]
            if chips > top:
                top_seat, top, second = seat, chips, top
            elif chips > second:
                second = chips
        excess = top - second
        if excess > 0:
            total[top_seat] -= excess
            bet = self._bet[top_seat]
            self._bet[top_seat] = bet - excess if bet > excess else 0
            self._stack[top_seat] += excess
            self.pot_total -= excess
            self.events.append(_new(UncalledBetReturned, (top_seat, excess)))

    def _finish_by_folds(self) -> None:
        self._return_uncalled()
        winner = next(seat for seat in self._order if not self._folded[seat])
        amount = self.pot_total
        self._stack[winner] += amount
        self.pot_total = 0
        self.events.append(_new(PotAwarded, (0, amount, (winner,), (winner,), (amount,), False)))
        self._close(showdown=False)

    def _showdown(self) -> None:
        self.street = _SHOWDOWN
        events = self.events
        in_deal, holes, folded, total = self.in_deal, self._holes, self._folded, self._total
        shown = list(filter(None, holes))  # the dealt seats' cards in seat order (None for the others)
        strengths = [0] * len(holes)
        live: list[int] = []
        level, equal = -1, True
        for seat, cards, strength in zip(in_deal, shown, evaluate_holes(shown, self.board), strict=True):
            strengths[seat] = strength
            out = folded[seat]
            events.append(_new(HandShown, (seat, cards, strength, out)))
            if not out:
                live.append(seat)
                if level < 0:
                    level = total[seat]
                elif total[seat] != level:
                    equal = False
        if equal:  # the live seats put in the same: one pot, whatever the folded seats put in
            self._award(0, self.pot_total, tuple(live), strengths)
        else:
            contributions = {seat: total[seat] for seat in self._order}
            pots = side_pots(contributions, [seat for seat in self._order if folded[seat]])
            for index, pot in enumerate(pots):
                self._award(index, pot.amount, pot.eligible, strengths)
        assert self.pot_total == 0, f"{self.pot_total} chips left in the middle after the awards"
        self._close(showdown=True)

    def _award(self, index: int, amount: int, eligible: tuple[int, ...], strengths: list[int]) -> None:
        """Give pot ``index`` to the strongest of ``eligible`` (split among ties) and record it."""
        best = -1
        for seat in eligible:
            strength = strengths[seat]
            if strength > best:
                best, best_seats = strength, [seat]
            elif strength == best:
                best_seats.append(seat)
        winners = tuple(best_seats)
        stack = self._stack
        if len(winners) == 1:
            stack[winners[0]] += amount
            shares: tuple[int, ...] = (amount,)
        else:
            split = split_pot(amount, winners, dealer=self.dealer, seats=self.rules.seats)
            for seat, chips in split.items():
                stack[seat] += chips
            shares = tuple(split[s] for s in winners)
        self.pot_total -= amount
        self.events.append(_new(PotAwarded, (index, amount, eligible, winners, shares, True)))

    def _close(self, *, showdown: bool) -> None:
        self.is_over = True
        self.actor = None
        self._final = tuple(self._stack[1:])
        self.events.append(_new(DealEnded, (self._final, showdown)))
