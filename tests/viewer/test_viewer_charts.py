"""Chart geometry: round ticks, and values placed in the plot area by their x and y."""

from __future__ import annotations

from arena.viewer.charts import line_chart, nice_ticks


def test_ticks_are_round_and_cover_the_range() -> None:
    assert nice_ticks(0, 1000) == [0, 200, 400, 600, 800, 1000]
    assert nice_ticks(-47.05, 156.3) == [-50, 0, 50, 100, 150, 200]
    assert nice_ticks(0, 3, 8, whole=True) == [0, 1, 2, 3]


def test_points_span_the_plot_and_the_band_goes_out_on_the_highs_and_back_on_the_lows() -> None:
    chart = line_chart(
        [("W", [0.0, 10.0, 5.0])],
        xs=[1, 2, 3],
        band=([-5.0, 0.0, 0.0], [5.0, 20.0, 10.0]),
        x_label="hand",
        y_label="W",
    )
    points = [tuple(map(float, p.split(","))) for p in chart.series[0].points.split()]
    assert [x for x, _ in points][-1] == chart.right
    assert points[0][1] > points[2][1] > points[1][1]  # SVG's y grows downwards
    outline = chart.band.split()
    assert len(outline) == 6 and outline[0].split(",")[0] == outline[-1].split(",")[0]
    assert chart.zero is not None and chart.top <= chart.zero <= chart.bottom
    assert chart.series[0].last == 5.0
