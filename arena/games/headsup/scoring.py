"""Heads-up's points: the statement's score of a mean profit W (W's interval is :mod:`arena.intervals`)."""

from __future__ import annotations

import math


def _round_half_up(x: float) -> int:
    """C's ``round`` for the non-negative values the formula produces."""
    return math.floor(x + 0.5)


def points(w: float) -> int:
    """The heads-up statement's piecewise-linear score of the mean profit ``w``."""
    if w <= 8.0:
        return 0
    if w <= 11.0:
        return _round_half_up(13.3 * (w - 8))
    if w <= 14.0:
        return 40 + _round_half_up(14 * (w - 11))
    return 82 + _round_half_up(3 * (w - 14))
