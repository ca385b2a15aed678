"""Side pots and the odd-chip split, alone."""

from __future__ import annotations

from itertools import pairwise

import pytest
from hypothesis import given
from hypothesis import strategies as st

from arena.engines.nlhe.pots import Pot, side_pots, split_pot


def test_one_all_in_makes_a_main_and_a_side_pot() -> None:
    pots = side_pots({1: 100, 2: 300, 3: 300}, folded=())
    assert pots == [Pot(300, (1, 2, 3)), Pot(400, (2, 3))]


def test_folded_chips_stay_in_the_pots_they_reach() -> None:
    # Seat 4 folded after putting in 150: 100 of it goes to the main pot, 50 to the side pot.
    pots = side_pots({1: 100, 2: 300, 3: 300, 4: 150}, folded={4})
    assert pots == [Pot(400, (1, 2, 3)), Pot(450, (2, 3))]


def test_levels_of_folded_seats_do_not_cut_pots() -> None:
    assert side_pots({1: 50, 2: 200, 3: 200}, folded={1}) == [Pot(450, (2, 3))]


def test_nothing_in_means_no_pot() -> None:
    assert side_pots({1: 0, 2: 0}, folded=()) == []


def test_chips_only_folded_seats_reached_join_the_last_pot() -> None:
    assert side_pots({1: 100, 2: 40}, folded={1}) == [Pot(140, (2,))]


def test_a_pot_nobody_live_put_into_is_an_error() -> None:
    with pytest.raises(ValueError, match="no eligible seat"):
        side_pots({1: 100, 2: 0}, folded={1})


def test_odd_chips_go_to_winners_nearest_the_dealers_left() -> None:
    # Dealer 5 on six seats: seat 6 is first on its left, then 1, 2, ...
    assert split_pot(35, [1, 3, 6], dealer=5, seats=6) == {6: 12, 1: 12, 3: 11}
    assert split_pot(35, [1, 3, 6], dealer=6, seats=6) == {1: 12, 3: 12, 6: 11}
    assert split_pot(30, [2, 4], dealer=1, seats=6) == {2: 15, 4: 15}


def test_split_pot_needs_a_winner() -> None:
    with pytest.raises(ValueError, match="at least one winner"):
        split_pot(10, [], dealer=1, seats=6)


contributions = st.dictionaries(st.integers(1, 6), st.integers(0, 5000), min_size=1, max_size=6)


@given(contributions, st.data())
def test_side_pots_add_up_and_only_live_contributors_are_eligible(
    chips: dict[int, int], data: st.DataObject
) -> None:
    live = [seat for seat, amount in chips.items() if amount == max(chips.values())]
    folded = data.draw(st.sets(st.sampled_from(sorted(chips))).filter(lambda f: not set(live) <= f))
    pots = side_pots(chips, folded)
    assert sum(pot.amount for pot in pots) == sum(chips.values())
    for pot in pots:
        assert pot.amount > 0 and pot.eligible
        assert all(seat not in folded and chips[seat] > 0 for seat in pot.eligible)
    for earlier, later in pairwise(pots):
        assert set(later.eligible) < set(earlier.eligible)


@given(
    st.integers(0, 10_000),
    st.sets(st.integers(1, 6), min_size=1),
    st.integers(1, 6),
)
def test_split_pot_conserves_chips_and_differs_by_at_most_one(
    amount: int, winners: set[int], dealer: int
) -> None:
    shares = split_pot(amount, sorted(winners), dealer=dealer, seats=6)
    assert set(shares) == winners
    assert sum(shares.values()) == amount
    assert max(shares.values()) - min(shares.values()) <= 1
    nearest = sorted(winners, key=lambda seat: (seat - dealer - 1) % 6)
    assert [shares[seat] for seat in nearest] == sorted(shares.values(), reverse=True)
