"""Seed 001's points and the statistics reported for a match."""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

Z95 = 1.959963984540054


def _round_half_up(x: float) -> int:
    """C's ``round`` for the non-negative values the formula produces."""
    return math.floor(x + 0.5)


def points(w: float) -> int:
    """Seed 001's piecewise-linear score of the mean profit ``w``."""
    if w <= 8.0:
        return 0
    if w <= 11.0:
        return _round_half_up(13.3 * (w - 8))
    if w <= 14.0:
        return 40 + _round_half_up(14 * (w - 11))
    return 82 + _round_half_up(3 * (w - 14))


@dataclass(frozen=True, slots=True)
class MeanInterval:
    """A mean with its normal-approximation 95% confidence interval."""

    mean: float
    low: float
    high: float
    stdev: float
    n: int


def mean_interval(values: Sequence[int]) -> MeanInterval:
    """Mean of per-hand profits with ``mean +- 1.96 * s / sqrt(n)``."""
    n = len(values)
    if n == 0:
        return MeanInterval(0.0, 0.0, 0.0, 0.0, 0)
    mean = sum(values) / n
    var = sum((v - mean) ** 2 for v in values) / (n - 1) if n > 1 else 0.0
    half = Z95 * math.sqrt(var / n)
    return MeanInterval(mean, mean - half, mean + half, math.sqrt(var), n)
