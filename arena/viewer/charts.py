"""Line charts as numbers for an inline SVG: each series' polyline points, the axes' ticks, in pixels.

Pure geometry: the template draws what :func:`line_chart` returns, so a chart needs no JavaScript and
exports as it is.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

WIDTH, HEIGHT = 900, 320
LEFT, RIGHT, TOP, BOTTOM = 64, 16, 16, 40
#: Six colours told apart by people with the common colour-vision deficiencies (Okabe-Ito), one a seat.
PALETTE = ("#0072B2", "#E69F00", "#009E73", "#CC79A7", "#56B4E9", "#D55E00", "#000000", "#F0E442")


@dataclass(frozen=True, slots=True)
class Series:
    """One line: its label, colour and ``x,y`` points as the SVG ``points`` attribute."""

    label: str
    colour: str
    points: str
    last: float


@dataclass(frozen=True, slots=True)
class Tick:
    """An axis tick: its position in pixels and its label."""

    at: float
    label: str


@dataclass(frozen=True, slots=True)
class Chart:
    """Everything the SVG template needs."""

    width: int
    height: int
    series: tuple[Series, ...]
    x_ticks: tuple[Tick, ...]
    y_ticks: tuple[Tick, ...]
    zero: float | None
    marks: tuple[Tick, ...]
    x_label: str
    y_label: str
    band: str = ""
    left: int = LEFT
    right: int = WIDTH - RIGHT
    top: int = TOP
    bottom: int = HEIGHT - BOTTOM


def nice_ticks(low: float, high: float, count: int = 5, *, whole: bool = False) -> list[float]:
    """Round tick values from at or below ``low`` to at or above ``high`` (steps of 1, 2 or 5 times a
    power of ten; at least 1 when ``whole``)."""
    if high <= low:
        high = low + 1
    raw = (high - low) / count
    power = 10 ** math.floor(math.log10(raw))
    step = next(m * power for m in (1, 2, 5, 10) if m * power >= raw)
    if whole:
        step = max(step, 1)
    ticks = [math.floor(low / step) * step]
    while ticks[-1] < high - step * 1e-9:
        ticks.append(ticks[-1] + step)
    return [round(tick, 10) for tick in ticks]


def line_chart(
    series: Sequence[tuple[str, Sequence[float]]],
    *,
    x_label: str,
    y_label: str,
    start: int = 0,
    marks: Sequence[tuple[int, str]] = (),
    band: tuple[Sequence[float], Sequence[float]] | None = None,
    xs: Sequence[float] | None = None,
    width: int = WIDTH,
    height: int = HEIGHT,
) -> Chart:
    """Lines over x = ``start``, ``start + 1``, ... for each ``(label, values)``; ``marks`` are
    labelled vertical lines at given x (e.g. where a new table starts); ``band`` a shaded area between
    two lines (e.g. a confidence interval); ``xs``, when given, the x of each value instead."""
    longest = max((len(values) for _, values in series), default=0)
    everything = [v for _, values in series for v in values]
    if band is not None:
        everything += [*band[0], *band[1]]
    low, high = (min(everything), max(everything)) if everything else (0.0, 1.0)
    if low == high:
        low, high = low - 1, high + 1
    y_values = nice_ticks(low, high)
    low, high = min(low, y_values[0]), max(high, y_values[-1])
    x_of = list(xs) if xs is not None else [start + j for j in range(longest)]
    if xs is not None and x_of:
        start = int(min(x_of[0], start))
    x_last = max(x_of[-1] if x_of else start + 1, start + 1)
    left, right, top, bottom = LEFT, width - RIGHT, TOP, height - BOTTOM

    def x_at(x: float) -> float:
        return round(left + (x - start) / (x_last - start) * (right - left), 1)

    def y_at(y: float) -> float:
        return round(bottom - (y - low) / (high - low) * (bottom - top), 1)

    def points(values: Sequence[float]) -> list[str]:
        return [f"{x_at(x)},{y_at(v)}" for x, v in zip(x_of, values, strict=False)]

    lines = tuple(
        Series(
            label=label,
            colour=PALETTE[i % len(PALETTE)],
            points=" ".join(points(values)),
            last=values[-1] if values else 0,
        )
        for i, (label, values) in enumerate(series)
    )
    x_ticks = tuple(
        Tick(x_at(x), f"{x:g}") for x in nice_ticks(start, x_last, 8, whole=True) if start <= x <= x_last
    )
    y_ticks = tuple(Tick(y_at(y), f"{y:g}") for y in y_values)
    zero = y_at(0) if low <= 0 <= high else None
    outline = ""
    if band is not None:
        lows, highs = band
        outline = " ".join(points(highs) + points(lows)[::-1])
    return Chart(
        width=width,
        height=height,
        series=lines,
        x_ticks=x_ticks,
        y_ticks=y_ticks,
        zero=zero,
        marks=tuple(Tick(x_at(x), label) for x, label in marks),
        x_label=x_label,
        y_label=y_label,
        band=outline,
        left=left,
        right=right,
        top=top,
        bottom=bottom,
    )
