"""A mean with its 95% confidence interval: one formula for tournament standings and heads-up's W; and
the bootstrap of the standings (how sure each rank is, and which team is ahead of which).

The interval is the normal approximation ``mean ± 1.96·s/√n``, with ``s`` the sample standard deviation
(``n - 1`` in the denominator); below two values it has zero width.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import NamedTuple

import numpy as np

Z95 = 1.959963984540054  # the standard normal's 97.5% quantile


class MeanInterval(NamedTuple):
    """A mean and the ends of its 95% interval."""

    mean: float
    low: float
    high: float


def sample_stdev(values: Sequence[float]) -> float:
    """The sample standard deviation (0 below two values)."""
    n = len(values)
    if n < 2:
        return 0.0
    mean = math.fsum(values) / n
    return math.sqrt(math.fsum((v - mean) ** 2 for v in values) / (n - 1))


def mean_interval(values: Sequence[float]) -> MeanInterval:
    """The mean of ``values`` and its 95% normal-approximation interval."""
    n = len(values)
    if n == 0:
        return MeanInterval(0.0, 0.0, 0.0)
    mean = math.fsum(values) / n
    half = Z95 * sample_stdev(values) / math.sqrt(n)
    return MeanInterval(mean, mean - half, mean + half)


FEW_CLUSTERS = 30
"""Below this many clusters (tables) :func:`bootstrap_means` resamples the deals inside them too."""
DEAL_DRAWS = 10_000_000
"""The most Poisson draws :func:`bootstrap_means` makes to resample deals (1.6 s at load 15)."""


@dataclass(frozen=True, slots=True)
class Cluster:
    """Observations that are resampled together: one table (or one group of duplicate tables).

    ``values[d, k]`` is the sum of deal ``d``'s observations of team ``columns[k]`` and ``counts[d, k]``
    how many there are (0 where the team did not play that deal).
    """

    columns: np.ndarray
    values: np.ndarray
    counts: np.ndarray


def bootstrap_means(
    clusters: Sequence[Cluster], teams: int, *, replicates: int = 1000, seed: int = 0
) -> np.ndarray:
    """Each team's mean over ``replicates`` resamplings of the clusters and, within each, of the deals.

    Clusters are drawn with replacement (as many as there are). With fewer than :data:`FEW_CLUSTERS`
    (and at most :data:`DEAL_DRAWS` draws in all), every deal of a drawn cluster is also weighted by its
    own Poisson(1) draw (the large-sample equivalent of drawing the deals with replacement, one matrix
    product a cluster): a handful of tables cannot carry the variation alone. With more, the clusters
    are kept whole (a cluster bootstrap). Returns a (replicates, teams) array; NaN where a team got no
    weight.
    """
    rng = np.random.default_rng(seed)
    sums = np.zeros((replicates, teams))
    counts = np.zeros((replicates, teams))
    if not clusters:
        return np.full((replicates, teams), np.nan)
    drawn = rng.multinomial(len(clusters), np.full(len(clusters), 1 / len(clusters)), size=replicates)
    draws = replicates * sum(len(c.values) for c in clusters)
    resample_deals = len(clusters) < FEW_CLUSTERS and draws <= DEAL_DRAWS
    for index, cluster in enumerate(clusters):
        weight = drawn[:, index : index + 1].astype(float)
        if resample_deals:
            deals = rng.poisson(1.0, size=(replicates, len(cluster.values))).astype(float)
            sums[:, cluster.columns] += weight * (deals @ cluster.values)
            counts[:, cluster.columns] += weight * (deals @ cluster.counts)
        else:
            sums[:, cluster.columns] += weight * cluster.values.sum(axis=0)
            counts[:, cluster.columns] += weight * cluster.counts.sum(axis=0)
    with np.errstate(invalid="ignore", divide="ignore"):
        means: np.ndarray = sums / counts
    return means


def rank_probabilities(means: np.ndarray, order: Sequence[int]) -> np.ndarray:
    """For the team at each position of ``order`` (best first), the share of replicates (rows of
    ``means``, one column per team) in which it holds that same position among the teams of ``order``."""
    ranked = np.nan_to_num(means[:, list(order)], nan=-np.inf)
    positions = np.argsort(np.argsort(-ranked, axis=1, kind="stable"), axis=1, kind="stable")
    held: np.ndarray = (positions == np.arange(len(order))).mean(axis=0)
    return held


def ahead_probabilities(means: np.ndarray) -> np.ndarray:
    """``p[i, j]``: the share of replicates in which team ``i``'s mean is above team ``j``'s."""
    ahead = np.empty((means.shape[1], means.shape[1]))
    for team in range(means.shape[1]):  # a row at a time: (replicates, teams) in memory, not its square
        ahead[team] = (means[:, team : team + 1] > means).mean(axis=0)
    return ahead
