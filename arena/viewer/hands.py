"""A team's hands as the trackers show them: one row per deal it was dealt into, with what a filter needs
(position, hole cards, street reached, showdown, all-in, pot, fault, chips won) and the team's results by
position and against each opponent, in chips per deal and big blinds per 100 deals."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from arena.cards import cards_text
from arena.engines.nlhe.events import (
    ActionKind,
    ActionTaken,
    BlindPosted,
    DealEnded,
    DealStarted,
    Event,
    HoleCardsDealt,
    PotAwarded,
    Street,
    StreetStarted,
)
from arena.engines.nlhe.rules import TableRules, seats_from_dealer
from arena.games.codem.stats import POSITIONS, position_names
from arena.runfolder.reader import table_faults
from arena.viewer.runs import Run
from arena.viewer.site import Site, render_template

STREETS = (Street.PRE_FLOP, Street.FLOP, Street.TURN, Street.RIVER, Street.SHOWDOWN)
STREET_NAMES = {
    Street.PRE_FLOP: "pre-flop",
    Street.FLOP: "flop",
    Street.TURN: "turn",
    Street.RIVER: "river",
    Street.SHOWDOWN: "showdown",
}


@dataclass(frozen=True, slots=True)
class Hand:
    """One deal as the team played it."""

    table: str
    deal: int
    position: str
    cards: str
    street: str
    showdown: bool
    all_in: bool
    pot: int
    faults: int
    won: int
    opponents: tuple[str, ...]
    big_blind: int


@dataclass
class Tally:
    """Deals and chips won over them; ``bb100`` is big blinds won per 100 deals."""

    deals: int = 0
    chips: int = 0

    def add(self, won: int) -> None:
        """Count one deal."""
        self.deals += 1
        self.chips += won

    def per_deal(self) -> float:
        """Chips won per deal."""
        return self.chips / self.deals if self.deals else 0.0

    def bb100(self, big_blind: int) -> float:
        """Big blinds won per 100 deals."""
        return 100 * self.per_deal() / big_blind


def hand_of(events: Sequence[Event], seat: int, table: str, teams: Sequence[str], faults: int) -> Hand | None:
    """The team's row for one deal, or None when the seat was not dealt in."""
    start = next(e for e in events if isinstance(e, DealStarted))
    if seat not in start.in_deal:
        return None
    order = seats_from_dealer(start.dealer, start.in_deal, len(start.stacks))
    street = Street.PRE_FLOP
    folded = all_in = False
    cards: tuple[int, int] = (0, 0)
    pot = 0
    big_blind = 0
    after = start.stacks
    for event in events:
        if isinstance(event, StreetStarted) and not folded:
            street = event.street
        if isinstance(event, BlindPosted) and event.blind == "big" and not event.all_in:
            big_blind = event.amount
        if isinstance(event, HoleCardsDealt) and event.seat == seat:
            cards = event.cards
        elif isinstance(event, BlindPosted | ActionTaken) and event.seat == seat:
            all_in = all_in or event.all_in
            folded = isinstance(event, ActionTaken) and event.action is ActionKind.FOLD
        elif isinstance(event, PotAwarded):
            pot += event.amount
        elif isinstance(event, DealEnded):
            after = event.stacks
            if event.showdown and not folded:
                street = Street.SHOWDOWN
    return Hand(
        table=table,
        deal=start.deal,
        position=position_names(order)[seat],
        cards=cards_text(cards),
        street=STREET_NAMES[street],
        showdown=street is Street.SHOWDOWN,
        all_in=all_in,
        pot=pot,
        faults=faults,
        won=after[seat - 1] - start.stacks[seat - 1],
        opponents=tuple(teams[s - 1] for s in start.in_deal if s != seat),
        big_blind=big_blind,
    )


def team_hands(run: Run, team: str, *, public: bool) -> list[Hand]:
    """Every deal the team was dealt into, table by table."""
    hands = []
    for info in run.tables():
        if team not in info.teams or info.folder is None:
            continue
        log = run.log(info)
        if log is None:
            continue
        seat = info.teams.index(team) + 1
        faults: dict[int, int] = defaultdict(int)
        for fault in [] if public else table_faults(info.folder):
            if fault.get("team") == team and isinstance(fault.get("deal"), int):
                faults[fault["deal"]] += 1
        for deal in range(1, log.deals + 1):
            hand = hand_of(log.events(deal), seat, info.name, info.teams, faults[deal])
            if hand is not None:
                hands.append(hand)
    if not any(team in info.teams for info in run.tables()):
        raise KeyError(team)
    return hands


def summary(hands: Sequence[Hand]) -> dict[str, Any]:
    """The team's tallies: over all hands, by position (in table order) and against each opponent; the big
    blind is the largest posted in full (the rules' 10 when none was)."""
    big_blind = max((h.big_blind for h in hands), default=0) or TableRules().big_blind
    total = Tally()
    by_position = {name: Tally() for name in POSITIONS}
    against: dict[str, Tally] = defaultdict(Tally)
    for hand in hands:
        total.add(hand.won)
        by_position[hand.position].add(hand.won)
        for opponent in hand.opponents:
            against[opponent].add(hand.won)
    return {
        "big_blind": big_blind,
        "total": total,
        "positions": [(name, tally) for name, tally in by_position.items() if tally.deals],
        "against": sorted(against.items()),
    }


def team_hands_page(site: Site, team: str) -> str:
    """The page ``teams/<slug>/hands.html``: the team's results and its hands, filtered in the browser."""
    hands = team_hands(site.run, team, public=site.public)
    slugs = site.run.team_slugs()
    return render_template(
        "team_hands.html",
        site,
        root="../../",
        team=team,
        slug=slugs[team],
        slugs=slugs,
        hands=hands,
        summary=summary(hands),
        positions=[p for p in POSITIONS if any(h.position == p for h in hands)],
        streets=[STREET_NAMES[s] for s in STREETS],
    )
