"""Properties of the engine over random deals and random action sequences (hypothesis).

A small model rebuilt from the events alone (the size of the last full raise, the bet each seat last
acted at) predicts the minimum raise and whether a seat may raise; the engine must agree at every step.
"""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from arena.engines.nlhe import CheckCall, Deal, Fold, RaiseTo, TableRules
from arena.engines.nlhe.events import (
    ActionKind,
    ActionTaken,
    DealEnded,
    HandShown,
    PotAwarded,
    Street,
    StreetEnded,
    StreetStarted,
    UncalledBetReturned,
)


@st.composite
def deals(draw: st.DrawFn) -> Deal:
    seats = draw(st.integers(2, 6))
    stack = st.one_of(st.integers(0, 25), st.integers(1, 3000), st.just(1500))
    stacks = draw(
        st.lists(stack, min_size=seats, max_size=seats).filter(lambda s: sum(1 for c in s if c > 0) >= 2)
    )
    dealer = draw(st.sampled_from([i + 1 for i, chips in enumerate(stacks) if chips > 0]))
    deck = draw(st.permutations(range(52)))
    multiplier = draw(st.integers(1, 3))
    rules = TableRules(seats=seats, late_street_multiplier=multiplier)
    return Deal(rules=rules, deal_number=1, dealer=dealer, stacks=stacks, deck=deck)


def snapshot(deal: Deal) -> tuple[object, ...]:
    seats = range(1, deal.rules.seats + 1)
    return (
        len(deal.events),
        deal.actor,
        deal.street,
        deal.current_bet,
        deal.pot_total,
        deal.board,
        deal.is_over,
        tuple((deal.stack(s), deal.street_total(s), deal.deal_total(s), deal.has_folded(s)) for s in seats),
    )


class Model:
    """What the rules say about raising, rebuilt from the events."""

    def __init__(self, deal: Deal) -> None:
        self.rules = deal.rules
        self.size = deal.rules.big_blind
        self.current = deal.current_bet
        self.faced: dict[int, int] = {}  # seat -> the bet it last acted at, this round
        self.seen = len(deal.events)

    def follow(self, deal: Deal) -> None:
        for event in deal.events[self.seen :]:
            if isinstance(event, StreetStarted) and event.street is not Street.PRE_FLOP:
                late = event.street in (Street.TURN, Street.RIVER)
                self.size = self.rules.big_blind * (self.rules.late_street_multiplier if late else 1)
                self.current = 0
                self.faced = {}
            elif isinstance(event, ActionTaken) and event.action is not ActionKind.FOLD:
                if event.street_total > self.current:
                    if event.street_total - self.current >= self.size:
                        self.size = event.street_total - self.current
                    self.current = event.street_total
                self.faced[event.seat] = self.current
        self.seen = len(deal.events)

    def may_raise(self, deal: Deal, seat: int) -> bool:
        owed = self.current - deal.street_total(seat)
        if deal.stack(seat) <= owed:
            return False
        if seat in self.faced and self.current - self.faced[seat] < self.size:
            return False  # acted, and no full raise since: an all-in for less does not reopen
        return any(
            deal.street_total(o) + deal.stack(o) > self.current
            for o in deal.in_deal
            if o != seat and not deal.has_folded(o)
        )


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(deals(), st.data())
def test_random_play_keeps_every_rule(deal: Deal, data: st.DataObject) -> None:
    total = sum(deal.stack(s) for s in range(1, deal.rules.seats + 1)) + deal.pot_total
    model = Model(deal)
    while not deal.is_over:
        seat = deal.actor
        assert seat is not None and not deal.has_folded(seat) and not deal.is_all_in(seat)
        model.follow(deal)
        assert deal.current_bet == model.current
        assert deal.can_raise() == model.may_raise(deal, seat)
        assert deal.max_raise_to() == deal.street_total(seat) + deal.stack(seat)
        assert deal.min_raise_to() == min(model.current + model.size, deal.max_raise_to())
        assert deal.can_check() == (deal.to_call(seat) == 0)

        # Illegal raises raise ValueError and change nothing.
        before = snapshot(deal)
        illegal = [deal.max_raise_to() + 1]
        if deal.can_raise():
            illegal.append(deal.min_raise_to() - 1)
        else:
            illegal.append(deal.max_raise_to())
        for amount in illegal:
            assert not deal.can_raise_to(amount)
            try:
                deal.apply(RaiseTo(amount=amount))
            except ValueError:
                pass
            else:
                raise AssertionError(f"raise to {amount} was accepted")
            assert snapshot(deal) == before

        choice = data.draw(st.sampled_from(["fold", "call", "call", "raise", "raise"]))
        if choice == "raise" and deal.can_raise():
            amount = data.draw(st.integers(deal.min_raise_to(), deal.max_raise_to()))
            new = deal.apply(RaiseTo(amount=amount))
        elif choice == "fold":
            new = deal.apply(Fold())
        else:
            new = deal.apply(CheckCall())
        assert new == deal.events[len(new) * -1 :]
        assert sum(deal.stack(s) for s in range(1, deal.rules.seats + 1)) + deal.pot_total == total

    check_the_end(deal, total)


def check_the_end(deal: Deal, total: int) -> None:
    events = deal.events
    assert sum(deal.final_stacks) == total and deal.pot_total == 0
    assert isinstance(events[-1], DealEnded) and events[-1].stacks == deal.final_stacks
    started = [e.street for e in events if isinstance(e, StreetStarted)]
    ended = [e.street for e in events if isinstance(e, StreetEnded)]
    assert started == ended == [Street.PRE_FLOP, Street.FLOP, Street.TURN, Street.RIVER][: len(started)]
    returned = sum(e.amount for e in events if isinstance(e, UncalledBetReturned))
    put_in = sum(e.added for e in events if isinstance(e, ActionTaken))
    blinds = sum(e.amount for e in events if e.kind == "blind_posted")
    pots = [e for e in events if isinstance(e, PotAwarded)]
    assert sum(p.amount for p in pots) == put_in + blinds - returned
    live = {s for s in deal.in_deal if not deal.has_folded(s)}
    for pot in pots:
        assert set(pot.winners) <= set(pot.eligible) <= live
        assert sum(pot.shares) == pot.amount
    shown = [e.seat for e in events if isinstance(e, HandShown)]
    if events[-1].showdown:
        assert shown == list(deal.in_deal) and len(deal.board) == 5
        assert [p.pot for p in pots] == list(range(len(pots)))
    else:
        assert shown == [] and len(pots) == 1 and len(live) == 1


@settings(max_examples=100, deadline=None)
@given(deals())
def test_checking_down_reaches_a_showdown_with_every_hand(deal: Deal) -> None:
    total = sum(deal.stack(s) for s in range(1, deal.rules.seats + 1)) + deal.pot_total
    while not deal.is_over:
        deal.apply(CheckCall())
    check_the_end(deal, total)
    assert deal.street is Street.SHOWDOWN
