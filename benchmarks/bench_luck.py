"""Luck taken out: how much narrower the adjusted value's interval is than chips', whether it is biased,
and what computing it costs a deal.

Run: ``python benchmarks/bench_luck.py`` (``--tables``, ``--deals`` to choose; defaults 100 and 100).

The adjusted value is computed with the value function of :data:`arena.engines.nlhe.luck.MODEL` (the pot
shared by equity, plus the chips still to bet) and, for comparison, with the pot shared by equity alone
(``NO_BETTING``): the width ratio of each is printed. ``--fit N`` first plays ``N`` tables of the sample
programs apart from every other table here (their own seeds) and prints the weights
:func:`arena.engines.nlhe.luck.fit_model` finds on them: how ``MODEL``'s weights were made.

Six scripted teams of known style (the engine with policies that read their own cards, no sandbox) play
``--tables`` six-seat tables of ``--deals`` deals, seats rotated from table to table, every deal from
1,500-chip stacks. Per team it prints the mean per deal in chips and adjusted with their 95% intervals
(normal approximation over deals), the ratio of the widths, whether the adjusted mean lies within chips'
interval, and the mean of the corrections (chips less adjusted) with its interval, which must hold 0.
Then the time to compute a deal's adjustment against the time the engine took to play it with the
scripted policies (the same run).

Last (``--program-tables``, ``--program-deals``; 0 to skip) the sample programs of ``bots/codem/`` but the
Java one (C, C++, Perl, Ruby, two Python) at real tables (sandboxes, a process per decision, stacks carried
from deal to deal), seats rotated: the same per-team figures, and the adjustment's cost against the
table's own wall time per deal.
"""

from __future__ import annotations

import argparse
import json
import math
import random
import shutil
import statistics
import tempfile
import time
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path

from arena.cards import derive_seed, rank_of, shuffled_deck
from arena.engines.nlhe import CheckCall, Deal, Fold, RaiseTo, TableRules
from arena.engines.nlhe.events import DealEnded, Event, event_from_dict
from arena.engines.nlhe.luck import NO_BETTING, deal_luck, fit_model
from arena.evaluator import evaluate
from arena.evaluator.ranking import HandCategory, category
from arena.games.codem.table import PlayerSpec, TableConfig, run_table
from arena.intervals import mean_interval

Policy = Callable[[Deal, int, random.Random], None]


def hand_class(deal: Deal, seat: int) -> int:
    """0 weak, 1 fair, 2 strong: a pair of tens or better or AK before the flop, two pair or better after."""
    hole = deal.hole_cards(seat)
    high, low = sorted((rank_of(c) for c in hole), reverse=True)
    if not deal.board:
        if high == low:
            return 2 if high >= 8 else 1
        return 2 if (high, low) == (12, 11) else 1 if low >= 9 or high == 12 else 0
    made = category(evaluate([*hole, *deal.board]))
    return 2 if made >= HandCategory.TWO_PAIR else 1 if made is HandCategory.ONE_PAIR else 0


def _raise(deal: Deal, to: int) -> None:
    deal.apply(RaiseTo(max(deal.min_raise_to(), min(to, deal.max_raise_to()))))


def shark(deal: Deal, seat: int, rng: random.Random) -> None:
    """Raises the pot with strong hands, calls with fair ones, gives up weak ones."""
    strength, owed = hand_class(deal, seat), deal.to_call(seat)
    if strength == 2 and deal.can_raise():
        _raise(deal, deal.current_bet + deal.pot_total)
    elif strength >= 1 or owed == 0:
        deal.apply(CheckCall())
    else:
        deal.apply(Fold())


def station(deal: Deal, seat: int, rng: random.Random) -> None:
    """Calls everything."""
    deal.apply(CheckCall())


def maniac(deal: Deal, seat: int, rng: random.Random) -> None:
    """Raises half the time whatever it holds, calls otherwise."""
    if rng.random() < 0.5 and deal.can_raise():
        _raise(deal, deal.current_bet * 2 + deal.rules.big_blind)
    else:
        deal.apply(CheckCall())


def rock(deal: Deal, seat: int, rng: random.Random) -> None:
    """Plays strong hands only, and only calls with them."""
    if hand_class(deal, seat) == 2 or deal.to_call(seat) == 0:
        deal.apply(CheckCall())
    else:
        deal.apply(Fold())


def shover(deal: Deal, seat: int, rng: random.Random) -> None:
    """All-in with strong and fair hands, folds the rest when it must pay."""
    if hand_class(deal, seat) >= 1 and deal.can_raise():
        deal.apply(RaiseTo(deal.max_raise_to()))
    elif hand_class(deal, seat) >= 1 or deal.to_call(seat) == 0:
        deal.apply(CheckCall())
    else:
        deal.apply(Fold())


def dabbler(deal: Deal, seat: int, rng: random.Random) -> None:
    """Folds a fifth of the time, calls most of the rest, raises the minimum now and then."""
    roll = rng.random()
    if roll < 0.2 and deal.to_call(seat):
        deal.apply(Fold())
    elif roll < 0.85 or not deal.can_raise():
        deal.apply(CheckCall())
    else:
        deal.apply(RaiseTo(deal.min_raise_to()))


TEAMS: dict[str, Policy] = {
    "Shark": shark,
    "Station": station,
    "Maniac": maniac,
    "Rock": rock,
    "Shover": shover,
    "Dabbler": dabbler,
}


Values = dict[str, list[float]]


def play_tables(
    tables: int, deals: int, seed: int = 0, plain: Values | None = None
) -> tuple[Values, Values, list[float], list[float]]:
    """Chips and adjusted per team per deal; seconds per deal for the engine and for the adjustment;
    ``plain`` gets the adjusted value by the pot shared by equity alone."""
    chips: Values = {team: [] for team in TEAMS}
    adjusted: Values = {team: [] for team in TEAMS}
    engine_s: list[float] = []
    luck_s: list[float] = []
    names = list(TEAMS)
    rules = TableRules(seats=6)
    for table in range(tables):
        seated = names[table % 6 :] + names[: table % 6]
        rng = random.Random(derive_seed("bench_luck", seed, table))
        for number in range(1, deals + 1):
            started = time.perf_counter()
            deck = shuffled_deck(derive_seed("bench_luck", seed, table, number))
            deal = Deal(rules=rules, deal_number=number, dealer=number % 6 + 1, stacks=[1500] * 6, deck=deck)
            while not deal.is_over:
                seat = deal.actor
                assert seat is not None
                TEAMS[seated[seat - 1]](deal, seat, rng)
            played = time.perf_counter()
            luck = deal_luck(deal.events)
            luck_s.append(time.perf_counter() - played)
            engine_s.append(played - started)
            alone = deal_luck(deal.events, NO_BETTING).adjusted if plain is not None else ()
            for seat, team in enumerate(seated):
                chips[team].append(luck.chips[seat])
                adjusted[team].append(luck.adjusted[seat])
                if plain is not None:
                    plain.setdefault(team, []).append(alone[seat])
    return chips, adjusted, engine_s, luck_s


BOTS = Path(__file__).resolve().parent.parent / "bots" / "codem"
PROGRAMS = ("Bluffer.pl", "Caller.py", "Learner.py", "Raiser.cpp", "Tight.c", "Tracker.rb")


def program_deals(
    seeds: Sequence[int], deals: int, scratch: Path, table_s: list[float]
) -> Iterator[tuple[list[str], list[Event]]]:
    """Play a real table of the sample programs per seed (seats rotated) and yield each deal's seated
    teams and events; ``table_s`` gets each table's wall seconds per deal."""
    for table, seed in enumerate(seeds):
        seated = PROGRAMS[table % 6 :] + PROGRAMS[: table % 6]
        players = [PlayerSpec(Path(p).stem, BOTS / p) for p in seated]
        config = TableConfig(deals=deals, seed=seed, build_cache=scratch / "builds")
        started = time.perf_counter()
        run_table(players, scratch / f"table{table}", config)
        table_s.append((time.perf_counter() - started) / deals)
        with (scratch / f"table{table}" / "events.jsonl").open() as lines:
            for line in lines:
                yield [Path(p).stem for p in seated], [event_from_dict(e) for e in json.loads(line)["events"]]
        shutil.rmtree(scratch / f"table{table}")


def play_programs(
    tables: int, deals: int, seats: list[tuple[bool, bool, float, float, float, float]], plain: Values
) -> tuple[Values, Values, list[float], list[float]]:
    """Chips and adjusted per team per deal at real tables; wall seconds per deal of each table (the
    build included in the first) and of each deal's adjustment. ``seats`` gets, per seat of every deal,
    (saw a flop, reached a showdown, chips, adjusted, the hole cards' correction, the board's); ``plain``
    the adjusted value by the pot shared by equity alone."""
    chips: Values = {Path(p).stem: [] for p in PROGRAMS}
    adjusted: Values = {Path(p).stem: [] for p in PROGRAMS}
    luck_s: list[float] = []
    table_s: list[float] = []
    seeds = [derive_seed("bench_luck", "programs", table) for table in range(tables)]
    with tempfile.TemporaryDirectory(prefix="bench_luck.") as scratch:
        for seated, events in program_deals(seeds, deals, Path(scratch), table_s):
            started = time.perf_counter()
            luck = deal_luck(events)
            luck_s.append(time.perf_counter() - started)
            alone = deal_luck(events, NO_BETTING).adjusted
            end = events[-1]
            showdown = isinstance(end, DealEnded) and end.showdown
            for seat, team in enumerate(seated):
                chips[team].append(luck.chips[seat])
                adjusted[team].append(luck.adjusted[seat])
                plain.setdefault(team, []).append(alone[seat])
                hole = luck.corrections[0].luck[seat] if luck.corrections else 0.0
                board = math.fsum(c.luck[seat] for c in luck.corrections[1:])
                flop = len(luck.corrections) > 1
                seats.append((flop, showdown, luck.chips[seat], luck.adjusted[seat], hole, board))
    return chips, adjusted, table_s, luck_s


def where_the_noise_is(seats: list[tuple[bool, bool, float, float, float, float]]) -> None:
    """Print how often a deal sees a flop and a showdown, and the variance of a seat's result per deal."""
    flops = sum(s[0] for s in seats) / len(seats)
    showdowns = sum(s[1] for s in seats) / len(seats)
    chips, adjusted, hole, board = (statistics.pvariance([s[i] for s in seats]) for i in (2, 3, 4, 5))
    left = math.fsum(s[3] ** 2 for s in seats if s[1]) / math.fsum(s[3] ** 2 for s in seats)
    print(
        f"deals that see a flop {flops:.0%}, reach a showdown {showdowns:.0%}; variance per seat and deal: "
        f"chips {chips:.0f}, adjusted {adjusted:.0f}, hole cards' correction {hole:.1f}, "
        f"board's {board:.0f}; share of the adjusted value's square in showdown deals {left:.0%}"
    )


def report(chips: Values, adjusted: Values, plain: Values) -> list[float]:
    """Print the per-team table; return the width ratios."""
    print(
        f"{'team':8} {'chips/deal':>18} {'adjusted/deal':>18} {'width ratio':>11} {'adj in chips CI':>15} "
        f"{'mean correction':>20} {'pot alone':>9}"
    )
    ratios = []
    for team in chips:
        c, a = mean_interval(chips[team]), mean_interval(adjusted[team])
        luck = mean_interval([x - y for x, y in zip(chips[team], adjusted[team], strict=True)])
        ratio = (c.high - c.low) / (a.high - a.low)
        ratios.append(ratio)
        inside = "yes" if c.low <= a.mean <= c.high else "NO"
        c_half, a_half = (c.high - c.low) / 2, (a.high - a.low) / 2
        p = mean_interval(plain[team])
        print(
            f"{team:8} {c.mean:+8.2f} ±{c_half:7.2f} {a.mean:+8.2f} ±{a_half:7.2f} "
            f"{ratio:10.2f}x {inside:>15} {luck.mean:+9.2f} ±{(luck.high - luck.low) / 2:7.2f} "
            f"{(c.high - c.low) / (p.high - p.low):8.2f}x"
        )
    return ratios


def scripted(tables: int, deals: int, seed: int) -> None:
    """Play and print the scripted teams' part."""
    plain: Values = {}
    chips, adjusted, engine_s, luck_s = play_tables(tables, deals, seed, plain)
    print(f"{tables} tables of {deals} deals, six scripted teams ({tables * deals} deals per team)")
    ratios = report(chips, adjusted, plain)
    print(
        f"interval width, chips / adjusted: median {statistics.median(ratios):.2f}x, "
        f"least {min(ratios):.2f}x ({min(ratios) ** 2:.1f}x fewer deals for the same interval)"
    )
    engine, luck = statistics.median(engine_s) * 1e3, statistics.median(luck_s) * 1e3
    print(
        f"per deal (median): engine with scripted policies {engine:.2f} ms, adjustment {luck:.2f} ms "
        f"({luck / engine:.1f}x the engine); mean adjustment {math.fsum(luck_s) / len(luck_s) * 1e3:.2f} ms"
    )


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=100)
    parser.add_argument("--deals", type=int, default=100)
    parser.add_argument("--seed", type=int, default=0, help="another seed: other cards, other choices")
    parser.add_argument("--program-tables", type=int, default=6)
    parser.add_argument("--program-deals", type=int, default=200)
    parser.add_argument("--fit", type=int, default=0, metavar="N", help="fit the weights on N tables first")
    args = parser.parse_args(argv)
    if args.fit:
        seeds = [derive_seed("luck calibration", table) for table in range(args.fit)]
        with tempfile.TemporaryDirectory(prefix="bench_luck.") as scratch:
            played = program_deals(seeds, args.program_deals, Path(scratch), [])
            deals = [events for _, events in played]
        print(f"weights fitted on {len(deals)} deals: {fit_model(deals).weights}")
    deal_luck(
        Deal(rules=TableRules(seats=2), deal_number=1, dealer=1, stacks=[9, 9], deck=list(range(52))).events
    )
    if args.tables and args.deals:
        scripted(args.tables, args.deals, args.seed)

    if args.program_tables and args.program_deals:
        seats: list[tuple[bool, bool, float, float, float, float]] = []
        plain: Values = {}
        chips, adjusted, table_s, luck_s = play_programs(
            args.program_tables, args.program_deals, seats, plain
        )
        print(
            f"\nsample programs: {args.program_tables} tables of {args.program_deals} deals, "
            f"{args.program_tables * args.program_deals} deals per team"
        )
        ratios = report(chips, adjusted, plain)
        median, least = statistics.median(ratios), min(ratios)
        print(f"interval width, chips / adjusted: median {median:.2f}x, least {least:.2f}x")
        table, luck = statistics.median(table_s) * 1e3, statistics.mean(luck_s) * 1e3
        share = luck / table
        print(
            f"per deal: the table {table:.1f} ms (median of tables), adjustment {luck:.2f} ms ({share:.1%})"
        )
        where_the_noise_is(seats)


if __name__ == "__main__":
    main()
