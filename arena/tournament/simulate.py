"""Simulated contests of synthetic teams with known true strengths: how well does a format rank them?

The table model: at a table of ``k`` teams, team ``i``'s profit per deal is ``s_i - mean(s) + e_i - mean(e)``
with ``e`` independent normal noise of standard deviation ``noise`` (chips a deal, for a table of the
contest's deals): zero-sum, as a real table. ``noise`` is measured from real engine tables of scripted
policies (:func:`arena.tournament.scripted.table_noise`). Round-robin is simulated with its table count
(Schönheim's bound) as rounds of random tables of six, each team at as many tables as when every pair
meets: a ranking's precision depends on the tables each team plays, and a round-robin's opponents
average out as random ones do.
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from arena.cards import derive_seed
from arena.tournament.formats import Format, Planner, seat_in_order
from arena.tournament.ratings import TOP, PlayedTable, rate
from arena.tournament.schedule import TABLE_SIZE


@dataclass(frozen=True)
class Outcome:
    """One simulated contest: the ranking it produced and what it cost."""

    order: list[int]
    tables: int
    rounds: list[int]
    """Tables per round, in playing order (what a cluster plays in parallel between results)."""
    top_six_exact: bool
    kendall_tau: float


def play_table(
    teams: Sequence[int], strengths: np.ndarray, noise: float, rng: np.random.Generator
) -> PlayedTable:
    """One table of the model of this module's docstring."""
    s = strengths[list(teams)]
    e = rng.normal(0.0, noise, len(teams))
    results = (s - s.mean()) + (e - e.mean())
    return PlayedTable(tuple(teams), tuple(float(r) for r in results))


def simulate(
    format: Format,
    strengths: np.ndarray,
    noise: float,
    *,
    seed: int,
    budget: int,
    round_tables: int | None = None,
) -> Outcome:
    """Play one contest of ``format`` over teams of ``strengths`` (chips a deal) and score its ranking
    (``round_tables``: :attr:`Planner.round_tables`)."""
    n = len(strengths)
    rng = np.random.default_rng(derive_seed(seed, "noise") % 2**63)
    rounds: list[list[PlayedTable]] = []
    planner = Planner(format, n, seed, budget, round_tables)
    if format is Format.ROUND_ROBIN:
        shuffler = random.Random(derive_seed(seed, "round-robin"))
        for _ in range(math.ceil((n - 1) / (TABLE_SIZE - 1))):
            field = list(range(n))
            shuffler.shuffle(field)
            rounds.append([play_table(t, strengths, noise, rng) for t in seat_in_order(field)])
        order = rate(n, [t for r in rounds for t in r]).order()
    else:
        while tables := planner.next_round(rounds):
            rounds.append([play_table(t, strengths, noise, rng) for t in tables])
        order = planner.order(rounds)
    truth = sorted(range(n), key=lambda i: -strengths[i])
    return Outcome(
        order=order,
        tables=sum(len(r) for r in rounds),
        rounds=[len(r) for r in rounds],
        top_six_exact=set(order[:TOP]) == set(truth[:TOP]),
        kendall_tau=kendall_tau(order, strengths),
    )


def kendall_tau(order: Sequence[int], strengths: np.ndarray) -> float:
    """Kendall's tau between a ranking (best first) and the true strengths (no ties in ``strengths``)."""
    place = np.empty(len(order))
    place[list(order)] = np.arange(len(order))
    upper = np.triu_indices(len(order), 1)
    found = np.sign(place[upper[1]] - place[upper[0]])  # +1: the ranking puts i above j
    true = np.sign(strengths[upper[0]] - strengths[upper[1]])
    return float(np.mean(found * true))


def normal_field(teams: int, spread: float, *, seed: int) -> np.ndarray:
    """True strengths in chips a deal: normal with standard deviation ``spread``, mean 0."""
    rng = np.random.default_rng(derive_seed(seed, "field") % 2**63)
    return rng.normal(0.0, spread, teams)
