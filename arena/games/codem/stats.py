"""Opponent statistics from a player's deals: the numbers poker players read off each other.

* hands: deals the seat was dealt into
* VPIP: share of hands in which it put chips in voluntarily before the flop (a call, bet or raise;
  blinds and checks do not count)
* PFR: share of hands in which it bet or raised before the flop
* 3-bet: share of the hands in which it faced exactly one raise before the flop (a chance to re-raise)
  that it re-raised
* aggression factor: (bets + raises) / calls after the flop (``None`` when it never called there)
* went to showdown: share of the hands in which it saw the flop that it took to a showdown unfolded
* won at showdown: share of its showdowns in which it won at least part of a pot
* profit: chips won minus chips lost over its deals, also by position at the table (SB, BB, UTG, MP, CO,
  BTN: the small and big blind, then the seats before the button counted back from it; heads-up the dealer,
  who posts the small blind, is BTN)

:func:`team_stats` counts every team of a run over its tables, :func:`stats_csv` writes them as one CSV.
"""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from arena.engines.nlhe.events import (
    ActionKind,
    ActionTaken,
    DealEnded,
    DealStarted,
    Event,
    HandShown,
    PotAwarded,
    Street,
    StreetStarted,
)
from arena.engines.nlhe.rules import seats_from_dealer

_VOLUNTARY = (ActionKind.CALL, ActionKind.BET, ActionKind.RAISE)
_AGGRESSIVE = (ActionKind.BET, ActionKind.RAISE)
POSITIONS = ("SB", "BB", "UTG", "MP", "CO", "BTN")
_BEFORE_BUTTON = ("BTN", "CO", "MP", "UTG")  # counted back from the button


def position_names(order: Sequence[int]) -> dict[int, str]:
    """Each dealt seat's position, ``order`` being the dealt seats from the dealer's left to the dealer."""
    if len(order) == 2:
        return {order[0]: "BB", order[1]: "BTN"}
    rest = order[2:]
    names = {order[0]: "SB", order[1]: "BB"}
    names.update((seat, _BEFORE_BUTTON[len(rest) - 1 - i]) for i, seat in enumerate(rest))
    return names


def _by_position() -> dict[str, int]:
    return dict.fromkeys(POSITIONS, 0)


@dataclass
class PlayerStats:
    """Counts accumulated over deals; rates are derived from them."""

    hands: int = 0
    vpip_hands: int = 0
    pfr_hands: int = 0
    three_bet_chances: int = 0
    three_bets: int = 0
    postflop_aggressive: int = 0
    postflop_calls: int = 0
    saw_flop: int = 0
    showdowns: int = 0
    showdown_wins: int = 0
    profit: int = 0
    hands_by_position: dict[str, int] = field(default_factory=_by_position)
    profit_by_position: dict[str, int] = field(default_factory=_by_position)

    def add_deal(self, events: Sequence[Event], seat: int) -> None:
        """Count one deal as seen from ``seat`` (a deal the seat was not dealt into counts nothing)."""
        start = next((e for e in events if isinstance(e, DealStarted)), None)
        if start is None or seat not in start.in_deal:
            return
        self.hands += 1
        position = position_names(seats_from_dealer(start.dealer, start.in_deal, len(start.stacks)))[seat]
        self.hands_by_position[position] += 1
        street = Street.PRE_FLOP
        folded = vpip = pfr = flop = showdown = won = chance = three_bet = False
        raises = 0  # bets and raises before the flop so far (the blinds are not raises)
        for event in events:
            if isinstance(event, StreetStarted):
                street = event.street
                if street is Street.FLOP and not folded:
                    flop = True
            elif isinstance(event, ActionTaken) and event.seat != seat:
                raises += street is Street.PRE_FLOP and event.action in _AGGRESSIVE
            elif isinstance(event, ActionTaken):
                if street is Street.PRE_FLOP and raises == 1:
                    chance = True
                    three_bet = three_bet or event.action in _AGGRESSIVE
                if event.action is ActionKind.FOLD:
                    folded = True
                elif street is Street.PRE_FLOP:
                    vpip = vpip or event.action in _VOLUNTARY
                    pfr = pfr or event.action in _AGGRESSIVE
                    raises += event.action in _AGGRESSIVE
                elif event.action in _AGGRESSIVE:
                    self.postflop_aggressive += 1
                elif event.action is ActionKind.CALL:
                    self.postflop_calls += 1
            elif isinstance(event, HandShown) and event.seat == seat and not event.folded:
                showdown = True
            elif isinstance(event, PotAwarded) and event.showdown and seat in event.winners:
                won = True
            elif isinstance(event, DealEnded):
                profit = event.stacks[seat - 1] - start.stacks[seat - 1]
                self.profit += profit
                self.profit_by_position[position] += profit
        self.vpip_hands += vpip
        self.pfr_hands += pfr
        self.three_bet_chances += chance
        self.three_bets += three_bet
        self.saw_flop += flop or showdown
        self.showdowns += showdown
        self.showdown_wins += showdown and won

    def __add__(self, other: PlayerStats) -> PlayerStats:
        """Two sets of counts added up, position by position (the rates follow from the counts)."""
        added: dict[str, Any] = {}
        for name in self.__dataclass_fields__:
            mine, theirs = getattr(self, name), getattr(other, name)
            if isinstance(mine, dict):
                added[name] = {key: mine[key] + theirs.get(key, 0) for key in mine}
            else:
                added[name] = mine + theirs
        return PlayerStats(**added)

    def rates(self) -> dict[str, float | None]:
        """The derived rates (``None`` where the denominator is zero)."""
        return {
            "vpip": _ratio(self.vpip_hands, self.hands),
            "pfr": _ratio(self.pfr_hands, self.hands),
            "three_bet": _ratio(self.three_bets, self.three_bet_chances),
            "aggression_factor": _ratio(self.postflop_aggressive, self.postflop_calls),
            "went_to_showdown": _ratio(self.showdowns, self.saw_flop),
            "won_at_showdown": _ratio(self.showdown_wins, self.showdowns),
            "profit_per_hand": _ratio(self.profit, self.hands),
        }

    def to_dict(self) -> dict[str, Any]:
        """Counts and rates, JSON-ready."""
        counts = {name: getattr(self, name) for name in self.__dataclass_fields__}
        return {"counts": counts, "rates": self.rates()}


def _ratio(numerator: int, denominator: int) -> float | None:
    return round(numerator / denominator, 4) if denominator else None


def compute_stats(deals: Sequence[tuple[Sequence[Event], int]]) -> PlayerStats:
    """Statistics of one player over ``(events of a deal, the player's seat in it)`` pairs."""
    stats = PlayerStats()
    for events, seat in deals:
        stats.add_deal(events, seat)
    return stats


def stats_json(team: str, stats: PlayerStats, *, tables: int) -> str:
    """The statistics as stable JSON text (sorted keys, trailing newline)."""
    return json.dumps({"team": team, "tables": tables, **stats.to_dict()}, indent=2, sort_keys=True) + "\n"


def stats_text(team: str, stats: PlayerStats, *, tables: int) -> str:
    """The statistics as a small aligned text report."""
    rates = stats.rates()

    def percent(value: float | None) -> str:
        return "-" if value is None else f"{100 * value:.1f}%"

    af = rates["aggression_factor"]
    lines = [
        ("team", team),
        ("tables", str(tables)),
        ("hands played", str(stats.hands)),
        ("VPIP", f"{percent(rates['vpip'])} ({stats.vpip_hands})"),
        ("PFR", f"{percent(rates['pfr'])} ({stats.pfr_hands})"),
        ("3-bet", f"{percent(rates['three_bet'])} ({stats.three_bets} of {stats.three_bet_chances})"),
        (
            "aggression factor",
            f"{'-' if af is None else f'{af:.2f}'} "
            f"({stats.postflop_aggressive} bets+raises / {stats.postflop_calls} calls)",
        ),
        ("saw the flop", str(stats.saw_flop)),
        ("went to showdown", f"{percent(rates['went_to_showdown'])} ({stats.showdowns})"),
        ("won at showdown", f"{percent(rates['won_at_showdown'])} ({stats.showdown_wins})"),
        *(
            (f"profit as {name}", f"{stats.profit_by_position[name]} ({stats.hands_by_position[name]} hands)")
            for name in POSITIONS
        ),
        ("profit", str(stats.profit)),
    ]
    return "".join(f"{name:<20}{value}\n" for name, value in lines)


def team_stats(tables: Iterable[tuple[Sequence[str], Iterable[Sequence[Event]]]]) -> dict[str, PlayerStats]:
    """Every team's statistics over ``(the team in each seat, seat 1 first; the table's deals)`` pairs."""
    found: dict[str, PlayerStats] = {}
    for teams, deals in tables:
        for events in deals:
            for seat, team in enumerate(teams, 1):
                found.setdefault(team, PlayerStats()).add_deal(events, seat)
    return found


CSV_COLUMNS = (
    "team",
    "hands",
    "vpip",
    "pfr",
    "three_bet",
    "aggression_factor",
    "went_to_showdown",
    "won_at_showdown",
    "profit",
    "profit_per_hand",
    *(f"{kind}_{name}" for name in POSITIONS for kind in ("hands", "profit")),
)


def stats_csv(stats: Mapping[str, PlayerStats]) -> str:
    """``stats.csv``: one row per team (in name order), rates as fractions, empty where undefined."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(CSV_COLUMNS)
    for team in sorted(stats):
        player = stats[team]
        rates = player.rates()
        row: list[object] = [team, player.hands]
        row += ["" if rates[key] is None else rates[key] for key in CSV_COLUMNS[2:8]]
        row += [player.profit, "" if rates["profit_per_hand"] is None else rates["profit_per_hand"]]
        for name in POSITIONS:
            row += [player.hands_by_position[name], player.profit_by_position[name]]
        writer.writerow(row)
    return out.getvalue()
