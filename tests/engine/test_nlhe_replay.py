"""A fixed replay of many random deals hashes to a recorded digest: the engine's speed-ups change nothing.

Random tables (2 to 6 seats, blinds, late-street multipliers), stacks from empty and short to deep,
and random players that also try illegal raises (below the minimum, above the all-in, not a whole
number, when raising is closed) and act after the end. Everything observable goes into one SHA-256: the
events each ``apply`` returns (as ``event_to_dict``), every error message, the answers of the queries,
and each deal's full event list and final stacks; every event is checked to be well formed (the engine
builds them without their constructor). A change of any event, its order, a query's answer or an
error's wording changes the digest. An intended change of the engine's behaviour must record the new
digest (``python tests/engine/test_nlhe_replay.py`` prints it) and say why in its commit.
"""

from __future__ import annotations

import hashlib
import json
import random
import sys

from arena.engines.nlhe import CheckCall, Deal, Fold, RaiseTo, TableRules
from arena.engines.nlhe.events import Event, event_to_dict

DEALS = 3000
SEED = 7
DIGEST = "05619960917291852f64f50f58d2f88a7d884a2276de86d1279e8fa4b0736756"


def _table(rng: random.Random) -> tuple[TableRules, list[int], int]:
    """Rules, stacks (at least two seats with chips) and a dealer with chips."""
    seats = rng.randint(2, 6)
    small = rng.randint(1, 10)
    rules = TableRules(
        seats=seats,
        small_blind=small,
        big_blind=small * rng.randint(1, 3),
        late_street_multiplier=rng.randint(1, 3),
    )
    while True:
        stacks = [rng.choice((0, rng.randint(1, 40), rng.randint(1, 3000), 1500)) for _ in range(seats)]
        dealt = [seat for seat, chips in enumerate(stacks, 1) if chips]
        if len(dealt) >= 2:
            return rules, stacks, rng.choice(dealt)


def _choose(rng: random.Random, deal: Deal) -> object:
    """A legal or an illegal action for the actor."""
    roll = rng.random()
    if roll < 0.15:
        return Fold()
    if roll < 0.55:
        return CheckCall()
    if roll < 0.65:  # illegal or borderline amounts
        low = deal.min_raise_to() if deal.can_raise() else deal.current_bet + 1
        return RaiseTo(rng.choice((low - 1, deal.max_raise_to() + 1, float(low), str(low), low, 0)))
    if not deal.can_raise():
        return RaiseTo(deal.max_raise_to())  # often illegal: raising is closed
    low, high = deal.min_raise_to(), deal.max_raise_to()
    return RaiseTo(low if rng.random() < 0.5 else rng.randint(low, high))


def _queries(deal: Deal) -> list[object]:
    seats = range(1, deal.rules.seats + 1)
    answers: list[object] = [deal.actor, deal.current_bet, deal.pot_total, list(deal.board), str(deal.street)]
    answers += [[deal.to_call(s), deal.stack(s), deal.street_total(s), deal.deal_total(s)] for s in seats]
    answers += [[deal.has_folded(s), deal.is_all_in(s)] for s in seats]
    if deal.actor is not None:
        answers += [deal.can_check(), deal.can_raise(), deal.min_raise_to(), deal.max_raise_to()]
    return answers


def replay_digest(deals: int = DEALS, seed: int = SEED) -> str:
    """SHA-256 of everything observable over ``deals`` random deals from ``seed``."""
    rng = random.Random(seed)
    digest = hashlib.sha256()

    def feed(value: object) -> None:
        digest.update(json.dumps(value, sort_keys=True).encode())

    def feed_events(events: list[Event]) -> None:
        for event in events:
            assert type(event)(*event) == event, f"{event!r} is not a well-formed {type(event).__name__}"
        feed([event_to_dict(e) for e in events])

    for number in range(1, deals + 1):
        rules, stacks, dealer = _table(rng)
        deck = list(range(52))
        rng.shuffle(deck)
        deal = Deal(rules=rules, deal_number=number, dealer=dealer, stacks=stacks, deck=deck)
        feed_events(deal.events)
        while not deal.is_over:
            feed(_queries(deal))
            action = _choose(rng, deal)
            try:
                feed_events(deal.apply(action))  # type: ignore[arg-type]
            except ValueError as error:
                feed(f"{action!r}: {error}")
        for action in (Fold(), CheckCall(), RaiseTo(20)):
            try:
                deal.apply(action)
            except ValueError as error:
                feed(str(error))
        feed_events(deal.events)
        feed([list(deal.final_stacks), deal.hole_cards(deal.in_deal[0])])
    return digest.hexdigest()


def test_a_fixed_replay_of_random_deals_hashes_to_the_recorded_digest() -> None:
    assert replay_digest() == DIGEST


if __name__ == "__main__":
    print(replay_digest(int(sys.argv[1]) if len(sys.argv) > 1 else DEALS))
