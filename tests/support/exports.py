"""Reading exported hands back with pokerkit and comparing them with arena's events, hand by hand.

Where arena's documented reading (docs/protocol.md) and pokerkit's conventions differ, the hand is still
compared, and the rule that applies is named:

* ``odd chips``: a split pot with odd chips. arena gives them one each to the winners nearest the dealer's
  left; pokerkit gives them to its first winner after merging pots. Every seat that won no odd chip must
  end with arena's stack, the odd-chip winners within the odd chips, the total exact.
* ``re-opening``: at some decision pokerkit would let the actor raise where arena's reading does not (an
  all-in for less than a full raise does not re-open the betting to seats that already acted; pokerkit
  counts a limper as not yet facing a full raise). arena's actions are legal in both, so stacks are exact.
* ``not asked``: pokerkit asks a seat that owes nothing while every opponent is all-in; arena asks nobody.
  PHH carries the check pokerkit's state machine needs, marked with a comment; pokerkit's PokerStars
  parser supplies it itself; for its ACPC parser (the ACPC dealer asks nobody either) the test appends it
  to the round. Stacks are exact.
"""

from __future__ import annotations

import random
import re
import warnings
from collections import Counter
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from itertools import combinations

from pokerkit import Automation, CheckingOrCalling, HandHistory, NoLimitTexasHoldem, State
from pokerkit.notation import ACPCProtocolParser, PokerStarsParser

from arena.cards import card_text, make_card
from arena.engines.nlhe import CheckCall, Deal, Fold, RaiseTo, TableRules
from arena.engines.nlhe.events import ActionKind, ActionTaken, Event
from arena.exports.deal_shape import Hand, gather_hand
from arena.exports.phh import NOT_ASKED as PHH_NOT_ASKED

ODD_CHIPS, REOPENING, NOT_ASKED, SHORT_BIG_BLIND = "odd chips", "re-opening", "not asked", "short big blind"

_ACPC_AUTOMATIONS = (
    Automation.ANTE_POSTING,
    Automation.BET_COLLECTION,
    Automation.BLIND_OR_STRADDLE_POSTING,
    Automation.HOLE_CARDS_SHOWING_OR_MUCKING,
    Automation.HAND_KILLING,
    Automation.CHIPS_PUSHING,
    Automation.CHIPS_PULLING,
)


@dataclass
class Tally:
    """What a read-back saw: hands read and compared, and the hands each rule difference touched."""

    read: int = 0
    compared: int = 0
    rules: Counter[str] = field(default_factory=Counter)
    notes: list[str] = field(default_factory=list)

    def add(self, other: Tally) -> None:
        self.read += other.read
        self.compared += other.compared
        self.rules.update(other.rules)
        self.notes.extend(other.notes)

    def line(self, label: str) -> str:
        differing = sum(self.rules.values())
        detail = ", ".join(f"{rule} {count}" for rule, count in sorted(self.rules.items())) or "none"
        return (
            f"{label}: hands read {self.read}, hands compared {self.compared}, "
            f"rule-difference hands {differing} ({detail})"
        )


def rebuild_deal(events: Sequence[Event], rules: TableRules) -> tuple[Deal, list[bool]]:
    """Play the recorded actions again on arena's engine (a deck rebuilt from the cards the events show);
    return the deal and, per action, whether the actor could raise before it (arena's reading)."""
    hand = gather_hand(events)
    count = len(hand.order)
    deck: list[int | None] = [None] * 52
    for i, seat in enumerate(hand.order):
        deck[i], deck[i + count] = hand.holes[seat]
    board_at = (2 * count + 1, 2 * count + 2, 2 * count + 3, 2 * count + 5, 2 * count + 7)
    for index, card in zip(board_at, hand.board, strict=False):
        deck[index] = card
    spare = iter(sorted(set(range(52)) - {c for c in deck if c is not None}))
    full = [card if card is not None else next(spare) for card in deck]
    deal = Deal(rules=rules, deal_number=hand.number, dealer=hand.dealer, stacks=hand.stacks, deck=full)
    may_raise = []
    for event in events:
        if isinstance(event, ActionTaken):
            assert deal.actor == event.seat, (deal.actor, event)
            may_raise.append(deal.can_raise())
            match event.action:
                case ActionKind.FOLD:
                    deal.apply(Fold())
                case ActionKind.CHECK | ActionKind.CALL:
                    deal.apply(CheckCall())
                case _:
                    deal.apply(RaiseTo(event.street_total))
    assert tuple(deal.events) == tuple(events), "the engine does not replay the recorded deal"
    return deal, may_raise


def odd_chip_winners(hand: Hand) -> tuple[set[int], int]:
    """The seats that shared a pot with odd chips, and how many odd chips there were."""
    winners: set[int] = set()
    odd = 0
    for pot in hand.pots:
        extra = pot.amount % len(pot.winners)
        if extra:
            winners.update(pot.winners)
            odd += extra
    return winners, odd


def compare_stacks(hand: Hand, seats: Sequence[int], theirs: Sequence[int], tally: Tally, where: str) -> None:
    """Assert pokerkit's final stacks (for ``seats``, in its order) against the events; note odd chips."""
    ours = [hand.final[seat - 1] for seat in seats]
    winners, odd = odd_chip_winners(hand)
    if odd and ours != list(theirs):
        tally.rules[ODD_CHIPS] += 1
        tally.notes.append(f"{where}: {ODD_CHIPS}: arena's rule (nearest the dealer's left) applies")
        assert sum(ours) == sum(theirs), (where, ours, theirs)
        for seat, mine, other in zip(seats, ours, theirs, strict=True):
            assert mine == other or (seat in winners and abs(mine - other) <= odd), (where, ours, theirs)
    else:
        assert ours == list(theirs), (where, ours, theirs)
    tally.compared += 1


def _replay(hh: HandHistory) -> tuple[State, int, int]:
    """Run a loaded hand to its end; return the final state, the actions pokerkit applied as written and
    the checks its loader had to supply (checks and calls played beyond the ``cc`` actions written)."""
    applied = 0
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # pokerkit warns when it burns cards from its own deck
        steps = list(hh.state_actions)
    state = steps[-1][0]
    applied = sum(action is not None for _, action in steps)
    played = sum(isinstance(op, CheckingOrCalling) for op in state.operations)
    written = sum(action.split()[1] == "cc" for action in hh.actions)
    return state, applied, played - written


def _decisions(hh: HandHistory) -> Iterator[bool]:
    """Per player action written in ``hh``, whether pokerkit would have let the actor raise before it."""
    before = False
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for state, action in hh.state_actions:
            if action is not None and action.split()[1] in ("f", "cc", "cbr") and "#" not in action:
                yield before
            before = state.actor_index is not None and state.can_complete_bet_or_raise_to()


def check_phh(text: str, deals: dict[int, Sequence[Event]], rules: TableRules, *, table: str) -> Tally:
    """Load a ``.phhs`` with pokerkit, replay every hand, compare cards and stacks with the events."""
    tally = Tally()
    for hh in HandHistory.loads_all(text):
        tally.read += 1
        events = deals[hh.hand]
        hand = gather_hand(events)
        where = f"{table} deal {hh.hand}"
        assert hh.seats == list(hand.order) and hh.starting_stacks == [hand.stacks[s - 1] for s in hand.order]
        state, applied, supplied = _replay(hh)
        assert applied == len(hh.actions), f"{where}: pokerkit applied {applied} of {len(hh.actions)} actions"
        assert "".join(map(repr, state.get_board_cards(0))) == "".join(card_text(c) for c in hand.board)
        assert not supplied, f"{where}: pokerkit had to supply {supplied} check(s) the file lacks"
        marked = sum(action.endswith(PHH_NOT_ASKED) for action in hh.actions)
        if marked:
            tally.rules[NOT_ASKED] += 1
            tally.notes.append(f"{where}: {NOT_ASKED}: arena's reading applies ({marked} check(s) marked)")
        _, may_raise = rebuild_deal(events, rules)
        theirs = list(_decisions(hh))
        if theirs != may_raise:
            assert all(t or not ours for t, ours in zip(theirs, may_raise, strict=True)), where
            tally.rules[REOPENING] += 1
            tally.notes.append(f"{where}: {REOPENING}: arena's reading (no re-opening) applies")
        compare_stacks(hand, hh.seats, state.stacks, tally, where)
    return tally


def check_pokerstars(text: str, deals: dict[int, Sequence[Event]], *, table: str, viewer: int) -> Tally:
    """Parse PokerStars text with pokerkit's parser, replay each hand, compare cards and stacks."""
    tally = Tally()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        hands = list(PokerStarsParser()(text, error_status=True))
    for hh in hands:
        tally.read += 1
        deal = hh.hand % 1_000_000
        hand = gather_hand(deals[deal])
        where = f"{table} deal {deal} seen by seat {viewer}"
        state, applied, _ = _replay(hh)
        assert applied == len(hh.actions), where
        checks = sum(a.action in (ActionKind.CHECK, ActionKind.CALL) for p in hand.streets for a in p.actions)
        supplied = sum(action.split()[1] == "cc" for action in hh.actions) - checks
        assert supplied >= 0, where
        if supplied:
            tally.rules[NOT_ASKED] += 1
            tally.notes.append(
                f"{where}: {NOT_ASKED}: arena's reading applies ({supplied} check(s) supplied)"
            )
        dealt = [a.split()[2:] for a in hh.actions if a.startswith("d dh ")]
        assert dealt == [
            [f"p{i + 1}", "".join(card_text(c) for c in hand.holes[seat]) if seat == viewer else "????"]
            for i, seat in enumerate(hh.seats)
        ], where
        if hand.board:
            assert "".join(map(repr, state.get_board_cards(0))) == "".join(card_text(c) for c in hand.board)
        compare_stacks(hand, hh.seats, state.stacks, tally, where)
    return tally


def _with_checks(line: str, rounds: Sequence[int]) -> str:
    """``line`` with a check appended to each of the betting ``rounds`` (0-based)."""
    head, number, betting, rest = line.split(":", 3)
    segments = betting.split("/")
    for index in rounds:
        segments[index] += "c"
    return ":".join((head, number, "/".join(segments), rest))


def _shifted(line: str, offset: int) -> str:
    """``line`` with ``offset`` added to every raise after the first round."""
    head, number, betting, rest = line.split(":", 3)
    first, *later = betting.split("/")
    later = [re.sub(r"r(\d+)", lambda m: f"r{int(m[1]) + offset}", segment) for segment in later]
    return ":".join((head, number, "/".join([first, *later]), rest))


def _parse_acpc(
    game: NoLimitTexasHoldem, starting: tuple[int, ...], line: str, hand: Hand, big_blind: int
) -> tuple[HandHistory, int, bool]:
    """Parse one ``STATE`` line as arena wrote it; where pokerkit's parser reads ACPC differently, adapt the
    line to it. Two readings differ: a seat owing nothing whose opponents are all-in ends the round in
    arena and the ACPC dealer, while pokerkit's parser wants a check (supplied at the end of the round);
    after a short big blind and no pre-flop raise, the parser measures later raises from the nominal big
    blind instead of the chips actually in (the raises are shifted by the difference). Return the hand,
    the checks supplied and whether the raises were shifted."""
    rounds = line.split(":")[2].count("/") + 1
    posted = max(b.amount for b in hand.blinds)
    shift = big_blind - posted if posted < big_blind and "r" not in line.split(":")[2].split("/")[0] else 0
    if _shifted(line, shift) == line:
        shift = 0
    for supplied in range(rounds + 1):
        for chosen in combinations(range(rounds), supplied):
            try:
                with warnings.catch_warnings():
                    warnings.simplefilter("ignore")
                    adapted = _shifted(_with_checks(line, chosen), shift)
                    parsed = next(ACPCProtocolParser(game, starting)(adapted, error_status=True))
            except ValueError:
                continue
            return parsed, supplied, bool(shift)
    raise AssertionError(f"pokerkit cannot parse {line!r}")


def check_acpc(text: str, deals: dict[int, Sequence[Event]], rules: TableRules, *, table: str) -> Tally:
    """Parse an ACPC log with pokerkit's ACPC parser (each hand with its ``# STACKS`` line), compare."""
    tally = Tally()
    game = NoLimitTexasHoldem(
        _ACPC_AUTOMATIONS, True, 0, (rules.small_blind, rules.big_blind), rules.big_blind
    )
    lines = text.splitlines()
    for stacks_line, state_line in zip(lines[1::2], lines[2::2], strict=True):
        label, number, stacks = stacks_line.split(":")
        assert label == "# STACKS" and state_line.startswith(f"STATE:{number}:")
        starting = tuple(int(s) for s in stacks.split("|"))
        hand = gather_hand(deals[int(number)])
        hh, supplied, shifted = _parse_acpc(game, starting, state_line, hand, rules.big_blind)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            state = tuple(hh)[-1]
        tally.read += 1
        where = f"{table} deal {number}"
        if shifted:
            tally.rules[SHORT_BIG_BLIND] += 1
            tally.notes.append(
                f"{where}: {SHORT_BIG_BLIND}: arena's reading applies (raises count from the chips in)"
            )
        if supplied:
            tally.rules[NOT_ASKED] += 1
            tally.notes.append(f"{where}: {NOT_ASKED}: arena's (and the ACPC dealer's) reading applies")
        results = [int(r) for r in hh.user_defined_fields["_results"]]
        assert results == [hand.final[s - 1] - hand.stacks[s - 1] for s in hand.order]
        compare_stacks(hand, hand.order, state.stacks, tally, where)
    return tally


def check_headsup(phh: str, acpc: str, hands: Sequence[dict]) -> Tally:
    """A heads-up match's PHH and ACPC logs against ``hands.jsonl``: the player's profit per hand."""
    tally = Tally()
    deltas = {int(h["hand"]): int(h["delta"]) for h in hands}
    for hh in HandHistory.loads_all(phh):
        tally.read += 1
        state, applied, supplied = _replay(hh)
        assert applied == len(hh.actions) and not supplied, hh.hand
        assert state.stacks[0] - 100 == deltas[hh.hand], (hh.hand, state.stacks)
        tally.compared += 1
    game = NoLimitTexasHoldem(_ACPC_AUTOMATIONS, True, 5, 0, 1)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for hh in ACPCProtocolParser(game, 105)(acpc, error_status=True):
            tally.read += 1
            state = tuple(hh)[-1]
            assert state.stacks[0] - 100 == deltas[hh.hand], (hh.hand, state.stacks)
            tally.compared += 1
    return tally


def random_deals(rng: random.Random, *, seats: int, deals: int) -> list[tuple[Event, ...]]:
    """Deals played on arena's engine with random answers: short stacks, all-ins for less, side pots and,
    one deal in four, a straight on the board so that pots split (odd chips included)."""
    rules = TableRules(seats=seats)
    played = []
    for number in range(1, deals + 1):
        stacks = [
            rng.choice((rng.randint(1, 25), rng.randint(26, 400), 1500, rng.randint(1, 3000)))
            for _ in range(seats)
        ]
        for _ in range(rng.randint(0, seats - 2)):
            stacks[rng.randrange(seats)] = 0
        if sum(1 for s in stacks if s) < 2:
            stacks[0] = stacks[1] = 500
        dealer = rng.choice([seat for seat, chips in enumerate(stacks, 1) if chips])
        deck = list(range(52))
        rng.shuffle(deck)
        if rng.random() < 0.25:  # a board straight: everyone still in plays the board
            count = sum(1 for s in stacks if s)
            top = rng.randint(3, 12)
            straight = [make_card(top - i if top - i >= 0 else 12, rng.randint(0, 3)) for i in range(5)]
            rest = [card for card in deck if card not in straight]
            board_at = (2 * count + 1, 2 * count + 2, 2 * count + 3, 2 * count + 5, 2 * count + 7)
            deck = rest[: 2 * count] + [None] * 8 + rest[2 * count :]
            for at, card in zip(board_at, straight, strict=True):
                deck[at] = card
            spare = [card for card in deck[2 * count + 8 :] if card is not None]
            for at in range(2 * count, 2 * count + 8):
                if deck[at] is None:
                    deck[at] = spare.pop()
            deck = deck[: 2 * count + 8] + spare
        deal = Deal(rules=rules, deal_number=number, dealer=dealer, stacks=stacks, deck=deck)
        while not deal.is_over:
            roll = rng.random()
            if roll < 0.15:
                deal.apply(Fold())
            elif roll < 0.5 or not deal.can_raise():
                deal.apply(CheckCall())
            elif roll < 0.75:
                deal.apply(RaiseTo(deal.min_raise_to()))
            else:
                deal.apply(
                    RaiseTo(
                        rng.choice(
                            (deal.max_raise_to(), rng.randint(deal.min_raise_to(), deal.max_raise_to()))
                        )
                    )
                )
        played.append(tuple(deal.events))
    return played
