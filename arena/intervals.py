"""A mean with its 95% confidence interval: one formula for tournament standings and heads-up's W.

The interval is the normal approximation ``mean ± 1.96·s/√n``, with ``s`` the sample standard deviation
(``n - 1`` in the denominator); below two values it has zero width.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import NamedTuple

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
