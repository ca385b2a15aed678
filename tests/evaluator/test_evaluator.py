"""The shared evaluator: pokerkit as an oracle, every category, the heads-up examples, batch, brute force."""

from __future__ import annotations

import itertools
from collections import Counter
from collections.abc import Sequence

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from pokerkit import Card, StandardHighHand, StandardLookup

from arena.cards import card_text, from_suit_value, parse_cards
from arena.evaluator import (
    RANK_KEYS,
    HandCategory,
    category,
    evaluate,
    evaluate_batch,
    evaluate_holes,
)

from support.evaluator import board_sums, derive_rank_keys, evaluate_with_board

PAIRS = 100_000

# ---------------------------------------------------------------------------------------------------
# pokerkit oracle


class PokerkitOracle:
    """Best-of-seven strengths from pokerkit's five-card lookup, cached by what decides a hand.

    A seven-card hand's value depends only on its ranks and, for a suit holding five or more cards,
    that suit's rank mask; a five-card hand's only on its ranks and whether it is suited. Both caches are
    keyed on exactly that, so pokerkit ranks each distinct case once.
    """

    def __init__(self) -> None:
        self.lookup = StandardLookup()
        self.cards = [next(iter(Card.parse(card_text(c)))) for c in range(52)]
        self.five: dict[tuple[tuple[int, ...], bool], int] = {}
        self.seven: dict[tuple[bytes, int], int] = {}

    def five_index(self, hand: Sequence[int]) -> int:
        key = (tuple(sorted(c % 13 for c in hand)), len({c // 13 for c in hand}) == 1)
        index = self.five.get(key)
        if index is None:
            index = self.five[key] = self.lookup.get_entry([self.cards[c] for c in hand]).index
        return index

    def seven_indices(self, hands: np.ndarray) -> np.ndarray:
        """pokerkit's index (higher is stronger) of the best five of each row of seven cards."""
        ranks, suits = hands % 13, hands // 13
        sorted_ranks = np.sort(ranks, axis=1).astype(np.uint8)
        flush_ranks = np.zeros(len(hands), dtype=np.int64)
        for suit in range(4):
            in_suit = suits == suit
            flush = in_suit.sum(axis=1) >= 5
            flush_ranks[flush] = (np.where(in_suit, 1 << ranks, 0)[flush]).sum(axis=1)
        out = np.empty(len(hands), dtype=np.int64)
        for i, (row, flush_mask) in enumerate(zip(sorted_ranks, flush_ranks.tolist(), strict=True)):
            key = (row.tobytes(), flush_mask)
            index = self.seven.get(key)
            if index is None:
                hand = hands[i].tolist()
                index = self.seven[key] = max(map(self.five_index, itertools.combinations(hand, 5)))
            out[i] = index
        return out


def shared_board_pairs(count: int, seed: int) -> tuple[np.ndarray, np.ndarray]:
    """Two seven-card hands per row, dealt from one shuffled deck: hole cards apart, board shared."""
    deals = np.argsort(np.random.default_rng(seed).random((count, 52)), axis=1)[:, :9]
    board = deals[:, 4:]
    return np.concatenate([deals[:, :2], board], axis=1), np.concatenate([deals[:, 2:4], board], axis=1)


def test_showdowns_agree_with_pokerkit() -> None:
    first, second = shared_board_pairs(PAIRS, seed=20261121)
    ours = np.sign(evaluate_batch(first) - evaluate_batch(second))
    oracle = PokerkitOracle()
    theirs = np.sign(oracle.seven_indices(first) - oracle.seven_indices(second))
    mismatches = np.flatnonzero(ours != theirs)
    assert mismatches.size == 0, [
        (first[i].tolist(), second[i].tolist(), int(ours[i]), int(theirs[i])) for i in mismatches[:5]
    ]
    assert set(np.unique(ours).tolist()) == {-1, 0, 1}


def test_pokerkit_seven_card_api_agrees_on_a_sample() -> None:
    first, second = shared_board_pairs(300, seed=7)
    oracle = PokerkitOracle()
    cached = np.sign(oracle.seven_indices(first) - oracle.seven_indices(second))
    for a, b, via_cache in zip(first.tolist(), second.tolist(), cached.tolist(), strict=True):
        cards = [[oracle.cards[c] for c in hand] for hand in (a, b)]
        hands = [StandardHighHand.from_game(hand[:2], hand[2:]) for hand in cards]
        expected = (hands[0] > hands[1]) - (hands[0] < hands[1])
        assert np.sign(evaluate(a) - evaluate(b)) == expected, (a, b)
        assert via_cache == expected, (a, b)


# ---------------------------------------------------------------------------------------------------
# categories and the seeds' rules


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("As Ks Qs Js Ts", HandCategory.STRAIGHT_FLUSH),
        ("5h 4h 3h 2h Ah 9c", HandCategory.STRAIGHT_FLUSH),
        ("9d 9c 9h 9s 2c Kd 2h", HandCategory.FOUR_OF_A_KIND),
        ("9d 9c 9h 4s 4c", HandCategory.FULL_HOUSE),
        ("9d 9c 9h 4s 4c 4d", HandCategory.FULL_HOUSE),
        ("Kd 8d 6d 3d 2d Ks Kc", HandCategory.FLUSH),
        ("7c 8d 9h Ts Jc", HandCategory.STRAIGHT),
        ("Ah 2c 3d 4s 5s 5c Kd", HandCategory.STRAIGHT),
        ("Qd Qc Qh 4s 7c", HandCategory.THREE_OF_A_KIND),
        ("Qd Qc 4h 4s 7c 7d", HandCategory.TWO_PAIR),
        ("Qd Qc 4h 9s 7c", HandCategory.ONE_PAIR),
        ("Ad Qc 4h 9s 7c Jd 2s", HandCategory.HIGH_CARD),
        ("Kd Ac 2h 3s 4c", HandCategory.HIGH_CARD),
    ],
)
def test_category_of_each_hand_type(text: str, expected: HandCategory) -> None:
    cards = parse_cards(text)
    assert category(evaluate(cards)) is expected
    assert category(int(evaluate_batch(np.array([cards]))[0])) is expected


def test_wheel_is_the_lowest_straight() -> None:
    wheel = evaluate(parse_cards("Ah 2c 3d 4s 5s"))
    six_high = evaluate(parse_cards("2h 3c 4d 5s 6s"))
    best_trips = evaluate(parse_cards("Ah Ac Ad Ks Qs"))
    assert category(wheel) is HandCategory.STRAIGHT
    assert best_trips < wheel < six_high
    assert wheel >> 16 & 15 == 3  # five-high


def test_king_ace_two_three_four_is_not_a_straight() -> None:
    strength = evaluate(parse_cards("Kh Ac 2d 3s 4s"))
    assert category(strength) is HandCategory.HIGH_CARD
    assert strength < evaluate(parse_cards("2h 2c 3d 4s 5s"))


def _suit_value_hand(pairs: Sequence[tuple[int, int]]) -> list[int]:
    return [from_suit_value(s, v) for s, v in pairs]


def test_seed_001_examples() -> None:
    # Values 1..13 are 2..A; suits 0..3.
    five_to_nine = _suit_value_hand([(2, 4), (2, 5), (2, 6), (2, 7), (2, 8)])
    wheel = _suit_value_hand([(2, 13), (2, 1), (2, 2), (2, 3), (2, 4)])
    two_to_seven = _suit_value_hand([(2, 1), (2, 3), (2, 4), (2, 5), (2, 6)])
    assert evaluate(five_to_nine) > evaluate(wheel) > evaluate(two_to_seven)
    assert category(evaluate(wheel)) is HandCategory.STRAIGHT_FLUSH
    assert category(evaluate(two_to_seven)) is HandCategory.FLUSH
    threes_eights_king = _suit_value_hand([(0, 2), (1, 2), (0, 7), (1, 7), (3, 12)])
    fives_sevens_ace = _suit_value_hand([(0, 4), (1, 4), (2, 6), (3, 6), (0, 13)])
    assert evaluate(threes_eights_king) > evaluate(fives_sevens_ace)
    queens_full = _suit_value_hand([(0, 11), (1, 11), (2, 11), (0, 9), (1, 9)])
    jacks_full = _suit_value_hand([(0, 10), (1, 10), (2, 10), (0, 13), (1, 13)])
    assert evaluate(queens_full) > evaluate(jacks_full)


def test_strength_layout_is_the_documented_one() -> None:
    # category << 20 | compared ranks, four bits each
    assert evaluate(parse_cards("As Ad Kc Kh 2s 2c 7d")) == 2 << 20 | 12 << 16 | 11 << 12 | 5 << 8
    assert evaluate(parse_cards("9d 9c 9h 4s 4c")) == 6 << 20 | 7 << 16 | 2 << 12
    assert evaluate(parse_cards("Ts Js Qs Ks As")) == 8 << 20 | 12 << 16


def test_five_six_and_seven_cards() -> None:
    seven = parse_cards("Qd Qc 4h 9s 7c 2d 3s")
    assert evaluate(seven[:5]) == evaluate(seven[:6]) == evaluate(seven)
    assert evaluate(parse_cards("Qd Qc 4h 9s 7c Ad")) > evaluate(parse_cards("Qd Qc 4h 9s 7c"))
    for n in (5, 6, 7):
        assert evaluate_batch(np.array([seven[:n]], dtype=np.int8)).tolist() == [evaluate(seven[:n])]


def test_suits_never_break_ties() -> None:
    assert evaluate(parse_cards("As Kd 9c 7h 3s 2c 4d")) == evaluate(parse_cards("Ad Kh 9s 7c 3h 2d 4s"))


def test_bad_inputs_are_value_errors() -> None:
    with pytest.raises(ValueError, match="5 to 7"):
        evaluate(parse_cards("As Kd 9c 7h"))
    with pytest.raises(ValueError, match="shape"):
        evaluate_batch(np.zeros((3, 4), dtype=np.int64))
    with pytest.raises(ValueError, match=r"0\.\.51"):
        evaluate_batch(np.array([[0, 1, 2, 3, 52]]))


def test_rank_keys_are_derived_and_give_distinct_sums() -> None:
    assert derive_rank_keys(7) == list(RANK_KEYS[:7])
    sums = {
        sum(RANK_KEYS[r] for r in combo)
        for n in range(8)
        for combo in itertools.combinations_with_replacement(range(13), n)
        if max(Counter(combo).values(), default=0) <= 4
    }
    multisets = sum(
        1
        for n in range(8)
        for combo in itertools.combinations_with_replacement(range(13), n)
        if max(Counter(combo).values(), default=0) <= 4
    )
    assert len(sums) == multisets


# ---------------------------------------------------------------------------------------------------
# brute-force reference: best of the 21 five-card hands, each ranked by the heads-up statement's rules


def five_card_rank(hand: Sequence[int]) -> tuple[int, tuple[int, ...]]:
    """(category, tie-break) of exactly five cards, straight from the heads-up statement's text."""
    values = [c % 13 for c in hand]
    flush = len({c // 13 for c in hand}) == 1
    distinct = sorted(set(values))
    top = -1
    if len(distinct) == 5 and distinct[4] - distinct[0] == 4:
        top = distinct[4]
    elif distinct == [0, 1, 2, 3, 12]:
        top = 3
    if top >= 0:
        return (8 if flush else 4), (top,)
    counts = Counter(values)
    ordered = tuple(sorted(values, key=lambda v: (counts[v], v), reverse=True))
    shape = sorted(counts.values(), reverse=True)
    if flush:
        return 5, ordered
    kind = {(4, 1): 7, (3, 2): 6, (3, 1, 1): 3, (2, 2, 1): 2, (2, 1, 1, 1): 1}.get(tuple(shape), 0)
    return kind, ordered


def best_of_five(cards: Sequence[int]) -> tuple[int, tuple[int, ...]]:
    return max(five_card_rank(hand) for hand in itertools.combinations(cards, 5))


hands = st.integers(min_value=5, max_value=7).flatmap(
    lambda n: st.lists(st.integers(min_value=0, max_value=51), min_size=n, max_size=n, unique=True)
)


@settings(max_examples=400, deadline=None)
@given(first=hands, second=hands)
def test_agrees_with_brute_force_reference(first: list[int], second: list[int]) -> None:
    reference = [best_of_five(first), best_of_five(second)]
    ours = [evaluate(first), evaluate(second)]
    assert [int(category(s)) for s in ours] == [r[0] for r in reference]
    ours_order = (ours[0] > ours[1]) - (ours[0] < ours[1])
    assert ours_order == (reference[0] > reference[1]) - (reference[0] < reference[1])


@settings(max_examples=200, deadline=None)
@given(
    rows=st.integers(min_value=5, max_value=7).flatmap(
        lambda n: st.lists(
            st.lists(st.integers(min_value=0, max_value=51), min_size=n, max_size=n, unique=True),
            min_size=1,
            max_size=20,
        )
    )
)
def test_batch_matches_single_hand_calls(rows: list[list[int]]) -> None:
    assert evaluate_batch(np.array(rows)).tolist() == [evaluate(row) for row in rows]


def test_evaluate_with_board_matches_evaluate_on_random_hands() -> None:
    rng = np.random.default_rng(4)
    for _ in range(20_000):
        cards = rng.permutation(52)[: int(rng.integers(5, 8))].tolist()
        hole, board = cards[:2], cards[2:]
        key_sum, mask = board_sums(board)
        assert evaluate_with_board(hole, key_sum, mask) == evaluate(cards), cards


def test_evaluate_with_board_finds_flushes_made_with_the_hole_cards() -> None:
    board = parse_cards("2h 7h Kh 9c 3d")
    key_sum, mask = board_sums(board)
    strength = evaluate_with_board(parse_cards("Ah 4h"), key_sum, mask)
    assert category(strength) == HandCategory.FLUSH
    assert strength == evaluate(parse_cards("Ah 4h 2h 7h Kh 9c 3d"))


def test_evaluate_holes_matches_evaluate_for_seats_sharing_a_board() -> None:
    rng = np.random.default_rng(5)
    for _ in range(3_000):
        board_size = int(rng.integers(3, 6))
        cards = rng.permutation(52)[: board_size + 12].tolist()
        board, holes = cards[:board_size], [cards[i : i + 2] for i in range(board_size, board_size + 12, 2)]
        assert evaluate_holes(holes, board) == [evaluate([*hole, *board]) for hole in holes], cards


def test_evaluate_holes_matches_evaluate_for_two_to_nine_seats() -> None:
    rng = np.random.default_rng(11)
    for _ in range(20_000):
        seats, board_size = int(rng.integers(2, 10)), int(rng.integers(3, 6))
        cards = rng.permutation(52)[: board_size + 2 * seats].tolist()
        board = cards[:board_size]
        holes = [tuple(cards[i : i + 2]) for i in range(board_size, board_size + 2 * seats, 2)]
        assert evaluate_holes(holes, board) == [evaluate([*hole, *board]) for hole in holes], cards


def test_evaluate_holes_matches_evaluate_on_boards_of_three_or_more_of_a_suit() -> None:
    # Boards where a flush is possible take the suit-counting path; half the hole cards share the suit.
    rng = np.random.default_rng(12)
    for _ in range(5_000):
        suit = int(rng.integers(4))
        suited = (suit * 13 + rng.permutation(13)).tolist()
        others = [card for card in rng.permutation(52).tolist() if card // 13 != suit]
        board_size = int(rng.integers(3, 6))
        same = int(rng.integers(3, board_size + 1))
        board = suited[:same] + others[: board_size - same]
        pool = suited[same:] + others[board_size - same :]
        pool = [pool[i] for i in rng.permutation(len(pool))]
        seats = int(rng.integers(2, 10))
        holes = [tuple(pool[i : i + 2]) for i in range(0, 2 * seats, 2)]
        assert evaluate_holes(holes, board) == [evaluate([*hole, *board]) for hole in holes], (holes, board)
