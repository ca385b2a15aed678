"""Differential test: random multi-way all-in deals played by our engine and by pokerkit (an independent
implementation) must pay every seat the same chips.

Seat mapping: pokerkit's player ``i`` is our ``i``-th dealt seat counted from the dealer's left (index 0
posts the small blind, the last index is the button; heads-up pokerkit puts the big blind at index 0 and
the button/small blind at index 1, which is again "dealer's left first, dealer last").

Odd chips: we give the ``pot % k`` odd chips of a pot split ``k`` ways one each to the winners nearest
the dealer's left (docs/protocol.md). pokerkit gives all of them to its first winner in player order, and
before splitting it removes the hands that cannot win anything and merges neighbouring pots left with
the same players, so its odd chips can fall differently (e.g. side pots of 25 and 16 split two ways give
our winners 13+8 and 12+8, pokerkit's merged 41 gives 21 and 20). Neither behaviour can be configured.
So: a deal in which none of our pots has an odd chip must match pokerkit exactly, seat by seat (merging
pots that divide evenly among the same winners changes nothing). A deal with odd chips must award each
pot exactly as our rule says (recomputed here), and differ from pokerkit only among the winners of the
pots with odd chips, by at most the number of those odd chips per seat, with the same total.
"""

from __future__ import annotations

import random

import pytest
from pokerkit import Automation, NoLimitTexasHoldem

from arena.cards import card_text, make_card, shuffled_deck
from arena.engines.nlhe import CheckCall, Deal, Fold, RaiseTo, TableRules
from arena.engines.nlhe.events import PotAwarded, Street

DEALS = 10_000
CHUNKS = 10

_AUTOMATIONS = (
    Automation.ANTE_POSTING,
    Automation.BET_COLLECTION,
    Automation.BLIND_OR_STRADDLE_POSTING,
    Automation.CARD_BURNING,
    Automation.HOLE_CARDS_SHOWING_OR_MUCKING,
    Automation.HAND_KILLING,
    Automation.CHIPS_PUSHING,
    Automation.CHIPS_PULLING,
)


def _random_stack(rng: random.Random) -> int:
    """Mostly ordinary stacks, often short ones (blinds all-in) and many equal ones (split pots)."""
    roll = rng.random()
    if roll < 0.15:
        return rng.randint(1, 12)
    if roll < 0.4:
        return rng.choice((100, 500, 1500))
    return rng.randint(1, 3000)


def _stacked_deck(rng: random.Random, seats: int) -> list[int]:
    """A shuffled deck; one deal in four has a board that plays (a straight on the board), so that
    ties, split pots and odd chips are common."""
    deck = shuffled_deck(rng.getrandbits(64))
    if rng.random() < 0.25:
        top = rng.randint(3, 12)
        ranks = [top - i if top - i >= 0 else 12 for i in range(5)]
        straight = [make_card(rank, rng.randint(0, 3)) for rank in ranks]
        rest = [card for card in deck if card not in straight]
        holes = 2 * seats  # hole cards come first, then burn, flop, burn, turn, burn, river
        board_positions = (holes + 1, holes + 2, holes + 3, holes + 5, holes + 7)
        deck = rest[:holes] + [0] * 8 + rest[holes:]
        for position, card in zip(board_positions, straight, strict=True):
            deck[position] = card
        deck[holes] = deck.pop()
        deck[holes + 4] = deck.pop()
        deck[holes + 6] = deck.pop()
    return deck


def _play_one(rng: random.Random) -> bool:
    """Play one random all-in deal on both engines; return whether some pot had odd chips."""
    seats = rng.randint(2, 6)
    rules = TableRules(seats=seats)
    stacks = [_random_stack(rng) for _ in range(seats)]
    dealer = rng.randint(1, seats)
    deck = _stacked_deck(rng, seats)
    deal = Deal(rules=rules, deal_number=1, dealer=dealer, stacks=stacks, deck=deck)
    order = sorted(range(1, seats + 1), key=lambda seat: (seat - dealer - 1) % seats)
    player = {seat: i for i, seat in enumerate(order)}

    state = NoLimitTexasHoldem.create_state(
        _AUTOMATIONS,
        True,
        0,
        (rules.small_blind, rules.big_blind),
        rules.big_blind,
        tuple(stacks[seat - 1] for seat in order),
        seats,
    )
    for seat in order:
        first, second = deal.hole_cards(seat)
        state.deal_hole(card_text(first) + card_text(second))

    dealt = 0

    def catch_up() -> int:
        """Bring pokerkit to our state: deal it the board cards we dealt (it burns cards by itself) and
        play the checks it asks for where we ask none: a seat owing nothing whose every opponent is
        all-in (pokerkit still offers it the option; we skip it, its only sensible move is a check)."""
        count = dealt
        while True:
            if state.can_deal_board():
                size = 3 if count == 0 else 1
                state.deal_board("".join(card_text(c) for c in deal.board[count : count + size]))
                count += size
            elif state.actor_index is not None and (
                deal.actor is None or player[deal.actor] != state.actor_index
            ):
                index = state.actor_index
                assert state.checking_or_calling_amount == 0
                assert all(state.stacks[j] == 0 for j in range(seats) if j != index and state.statuses[j])
                state.check_or_call()
            else:
                return count

    while not deal.is_over:
        dealt = catch_up()
        seat = deal.actor
        assert seat is not None
        assert state.actor_index == player[seat], (state.actor_index, player[seat])
        may_raise = deal.can_raise()
        if may_raise != state.can_complete_bet_or_raise_to():
            # The one known difference: pokerkit lets a limper re-raise after an all-in for less over
            # the big blind (it counts no full raise yet); the usual rule (docs/protocol.md) does not.
            assert not may_raise and deal.street is Street.PRE_FLOP
            assert deal.current_bet < 2 * rules.big_blind, (stacks, dealer, deal.events)
        roll = rng.random()
        if roll < 0.2 and not deal.can_check():  # pokerkit refuses a fold when checking is free
            deal.apply(Fold())
            state.fold()
        elif roll < 0.35 or not may_raise:
            deal.apply(CheckCall())
            state.check_or_call()
        else:
            amount = deal.max_raise_to()
            deal.apply(RaiseTo(amount=amount))
            state.complete_bet_or_raise_to(amount)
    catch_up()
    assert not state.status

    odd_chips = 0
    odd_winners: set[int] = set()
    for event in deal.events:
        if isinstance(event, PotAwarded) and event.showdown:
            share, odd = divmod(event.amount, len(event.winners))
            nearest = sorted(event.winners, key=lambda s: (s - dealer - 1) % seats)
            expected = {s: share + (1 if i < odd else 0) for i, s in enumerate(nearest)}
            assert dict(zip(event.winners, event.shares, strict=True)) == expected
            if odd:
                odd_chips += odd
                odd_winners.update(event.winners)
    ours = list(deal.final_stacks)
    theirs = [0] * seats
    for seat in order:
        theirs[seat - 1] = state.stacks[player[seat]]
    if odd_chips == 0:
        assert ours == theirs, (ours, theirs, stacks, dealer)
    else:
        assert sum(ours) == sum(theirs)
        for seat in range(1, seats + 1):
            gap = abs(ours[seat - 1] - theirs[seat - 1])
            assert gap == 0 or (seat in odd_winners and gap <= odd_chips), (ours, theirs, stacks, dealer)
    assert sum(deal.final_stacks) == sum(stacks)
    return odd_chips > 0


# Each chunk is about 5 s of CPU: the fast tier plays the first, the full suite all of them.
@pytest.mark.parametrize(
    "chunk", [0, *(pytest.param(chunk, marks=pytest.mark.slow) for chunk in range(1, CHUNKS))]
)
@pytest.mark.filterwarnings("ignore:A card being dealt")  # pokerkit burns cards from its own deck
def test_random_all_in_deals_pay_like_pokerkit(chunk: int) -> None:
    rng = random.Random(f"nlhe-pokerkit-{chunk}")
    for _ in range(DEALS // CHUNKS):
        _play_one(rng)
