"""The heads-up and TwoCardDraw match folders: their results and hand logs, read a page at a time.

``arena headsup --out DIR`` writes ``results.json`` and ``hands.jsonl``; ``arena twocard play --out DIR``
writes ``results.json`` and ``case_<n>/hands.jsonl``. A page of hands is read by skipping lines, and the
running figures are accumulated in one pass that keeps only the points a chart draws.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from arena.intervals import Z95
from arena.runfolder.reader import json_lines

HANDS_PER_PAGE = 200
CHART_POINTS = 600


@dataclass(frozen=True, slots=True)
class Running:
    """A running figure sampled for a chart: x (hands so far), value, and an optional interval."""

    hands: list[int]
    values: list[float]
    lows: list[float]
    highs: list[float]


def count_hands(path: Path) -> int:
    """Complete lines in a hand log."""
    if not path.is_file():
        return 0
    with path.open("rb") as source:
        return sum(1 for raw in source if raw.endswith(b"\n") and raw.strip())


def hands_page(path: Path, page: int) -> list[dict[str, Any]]:
    """The hands of page ``page`` (1-based, :data:`HANDS_PER_PAGE` a page)."""
    first = (page - 1) * HANDS_PER_PAGE
    out = []
    for index, hand in enumerate(json_lines(path)):
        if index >= first + HANDS_PER_PAGE:
            break
        if index >= first:
            out.append(hand)
    return out


def page_count(hands: int) -> int:
    """Pages needed for ``hands`` hands (at least one)."""
    return max(1, math.ceil(hands / HANDS_PER_PAGE))


def running_mean(path: Path, field: str) -> Running:
    """The running mean of ``field`` over the hands with its 95% interval ``mean ± 1.96·s/√n``
    (Welford's update), sampled at most :data:`CHART_POINTS` times."""
    total = count_hands(path)
    every = max(1, math.ceil(total / CHART_POINTS))
    out = Running([], [], [], [])
    mean = m2 = 0.0
    for n, hand in enumerate(json_lines(path), start=1):
        value = float(hand[field])
        delta = value - mean
        mean += delta / n
        m2 += delta * (value - mean)
        if n % every == 0 or n == total:
            half = Z95 * math.sqrt(m2 / (n - 1) / n) if n > 1 else 0.0
            out.hands.append(n)
            out.values.append(round(mean, 4))
            out.lows.append(round(mean - half, 4))
            out.highs.append(round(mean + half, 4))
    return out


def running_total(path: Path, field: str) -> Running:
    """The running sum of ``field`` over the hands, sampled at most :data:`CHART_POINTS` times."""
    total = count_hands(path)
    every = max(1, math.ceil(total / CHART_POINTS))
    out = Running([], [], [], [])
    running = 0.0
    for n, hand in enumerate(json_lines(path), start=1):
        running += hand[field]
        if n % every == 0 or n == total:
            out.hands.append(n)
            out.values.append(running)
    return out
