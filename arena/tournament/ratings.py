"""Team ratings from table results, and the rule that says when the top six are separated.

Model: at a table ``t`` of ``k`` teams, team ``i``'s profit per deal is ``s_i - mean(s over t) + noise``
(a table is zero-sum, so a team is measured against its tablemates). The ratings ``s`` are its least
squares solution (conjugate gradients on the normal equations; mean 0 over each connected set of teams),
so a team that sat with strong teams is not ranked below one that sat with weak ones. A rating's
standard error is ``k/(k-1) * sigma / sqrt(tables)``, with ``sigma`` the residuals' standard deviation
(degrees of freedom: each table's results less one, less the ratings); unknown (infinite) until there
are more results than ratings.

Separated: team ``i`` is *in* when at most five other teams are not below it by ``z`` standard errors
of the difference, and *out* when at least six teams are above it by that much; the top six are
separated when six teams are in and all the others out.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np

TOP = 6
Z = 2.5
"""Standard errors of a difference that count as a separation (one-sided 0.6% each comparison). Chosen
by simulated 1,000-team swiss contests (``benchmarks/bench_formats.py``): against 3.0 it decides the easy
contests in fewer rounds, which leaves tables for the close ones: more contests exact at the same budget."""


@dataclass(frozen=True, slots=True)
class PlayedTable:
    """One finished table: its teams (indices into the field) and each one's profit per deal."""

    teams: tuple[int, ...]
    results: tuple[float, ...]


@dataclass(frozen=True)
class Ratings:
    """Per team: rating, its standard error (inf when unknown) and tables played."""

    values: np.ndarray
    errors: np.ndarray
    tables: np.ndarray

    def order(self) -> list[int]:
        """Team indices, best rating first (ties: more tables, then the lower index)."""
        return sorted(range(len(self.values)), key=lambda i: (-self.values[i], -self.tables[i], i))


def rate(teams: int, played: Sequence[PlayedTable], *, iterations: int = 200) -> Ratings:
    """The least-squares ratings of the module's docstring for a field of ``teams``."""
    if not played:
        return Ratings(np.zeros(teams), np.full(teams, math.inf), np.zeros(teams, dtype=int))
    who = np.fromiter((i for t in played for i in t.teams), dtype=np.int64)
    results = np.fromiter((r for t in played for r in t.results), dtype=float)
    table = np.repeat(np.arange(len(played)), [len(t.teams) for t in played])
    size = np.bincount(table).astype(float)
    count = np.bincount(who, minlength=teams)

    def forward(s: np.ndarray) -> np.ndarray:
        out: np.ndarray = s[who] - (np.bincount(table, s[who]) / size)[table]
        return out

    def backward(y: np.ndarray) -> np.ndarray:
        centred = y - (np.bincount(table, y) / size)[table]
        return np.bincount(who, centred, minlength=teams)

    values = _conjugate_gradients(lambda s: backward(forward(s)), backward(results), iterations)
    residual = results - forward(values)
    rated = int(np.count_nonzero(count))
    freedom = int(np.sum(size - 1)) - (rated - _components(teams, played))
    errors = np.full(teams, math.inf)
    if freedom > 0:
        sigma = math.sqrt(float(residual @ residual) / freedom)
        k = float(np.mean(size))
        errors[count > 0] = k / (k - 1) * sigma / np.sqrt(count[count > 0])
    return Ratings(values, errors, count)


def _conjugate_gradients(
    apply: Callable[[np.ndarray], np.ndarray], rhs: np.ndarray, iterations: int
) -> np.ndarray:
    x = np.zeros_like(rhs)
    r = rhs.copy()
    p = r.copy()
    rr = float(r @ r)
    stop = 1e-16 * max(rr, 1e-300)
    for _ in range(iterations):
        if rr <= stop:
            break
        ap = apply(p)
        step = rr / float(p @ ap)
        x += step * p
        r -= step * ap
        new = float(r @ r)
        p = r + (new / rr) * p
        rr = new
    return x


def _components(teams: int, played: Sequence[PlayedTable]) -> int:
    """Connected sets of teams that played (linked by sharing tables)."""
    parent = list(range(teams))

    def find(a: int) -> int:
        while parent[a] != a:
            parent[a] = parent[parent[a]]
            a = parent[a]
        return a

    seen: set[int] = set()
    for t in played:
        seen.update(t.teams)
        root = find(t.teams[0])
        for other in t.teams[1:]:
            parent[find(other)] = root
    return len({find(a) for a in seen})


@dataclass(frozen=True)
class Separation:
    """Who is surely in the top six, who surely out, and whether that decides the top six."""

    inside: frozenset[int]
    outside: frozenset[int]
    teams: int

    @property
    def separated(self) -> bool:
        """Six teams in and every other team out."""
        return len(self.inside) == min(TOP, self.teams) and len(self.inside) + len(self.outside) == self.teams

    def undecided(self) -> list[int]:
        """Teams neither surely in nor surely out."""
        return [i for i in range(self.teams) if i not in self.inside and i not in self.outside]


def separation(ratings: Ratings, candidates: Sequence[int] | None = None, *, z: float = Z) -> Separation:
    """The rule of the module's docstring among ``candidates`` (all teams when None)."""
    n = len(ratings.values)
    pool = np.arange(n) if candidates is None else np.asarray(sorted(candidates), dtype=np.int64)
    values = ratings.values[pool]
    errors = ratings.errors[pool]
    with np.errstate(invalid="ignore"):
        spread = np.sqrt(errors[:, None] ** 2 + errors[None, :] ** 2)
        above = (values[:, None] - values[None, :]) > z * spread  # above[i, j]: i surely above j
    np.fill_diagonal(above, False)
    m = len(pool)
    not_below = m - 1 - above.sum(axis=1)  # teams not surely below i
    inside = {int(pool[i]) for i in range(m) if not_below[i] <= TOP - 1}
    outside = {int(pool[j]) for j in range(m) if above[:, j].sum() >= TOP}
    excluded = set(range(n)) - {int(p) for p in pool}
    return Separation(frozenset(inside), frozenset(outside | excluded), n)
