"""The heads-up and TwoCardDraw match pages."""

from __future__ import annotations

from typing import Any

from arena.runfolder.layout import HANDS, results_path
from arena.viewer.charts import line_chart
from arena.viewer.matches import (
    HANDS_PER_PAGE,
    count_hands,
    hands_page,
    page_count,
    running_mean,
    running_total,
)
from arena.viewer.runs import Run
from arena.viewer.site import Site, render_template
from arena.viewer.tables import read_json


def headsup_page(site: Site, page: int, *, root: str) -> str:
    folder = site.run.folder
    log = folder / HANDS
    total = count_hands(log)
    if page > page_count(total):
        raise KeyError(page)
    running = running_mean(log, "delta")
    chart = (
        line_chart(
            [("W", running.values)],
            xs=running.hands,
            band=(running.lows, running.highs),
            x_label="hand",
            y_label="W (mean chips a hand)",
        )
        if running.values
        else None
    )
    hands = hands_page(log, page)
    return render_template(
        "headsup.html",
        site,
        root=root,
        results=read_json(results_path(folder)),
        total=total,
        page=page,
        pages=page_count(total),
        hands=hands,
        first_hand=(page - 1) * HANDS_PER_PAGE + 1,
        chart=chart,
        slugs={},
    )


def twocard_cases(run: Run) -> list[dict[str, Any]]:
    results = read_json(results_path(run.folder)) or {}
    cases = results.get("cases")
    if isinstance(cases, list):
        return cases
    return [{"case": int(p.name.split("_")[1])} for p in sorted(run.folder.glob("case_[0-9]*"))]


def twocard_page(site: Site) -> str:
    return render_template(
        "twocard.html",
        site,
        root="",
        results=read_json(results_path(site.run.folder)),
        cases=twocard_cases(site.run),
        slugs={},
    )


def twocard_case(site: Site, number: int, page: int) -> str:
    case = next((c for c in twocard_cases(site.run) if c.get("case") == number), None)
    if case is None:
        raise KeyError(number)
    log = site.run.folder / f"case_{number}" / HANDS
    total = count_hands(log)
    if page > page_count(total):
        raise KeyError(page)
    profit = running_total(log, "profit")
    series = [("profit", profit.values)]
    value = case.get("value")
    if isinstance(value, (int, float)):
        series.append(("best achievable (expected)", [-value * n for n in profit.hands]))
    chart = line_chart(series, xs=profit.hands, x_label="hand", y_label="chips") if profit.values else None
    return render_template(
        "twocard_case.html",
        site,
        root="../../",
        case=case,
        total=total,
        page=page,
        pages=page_count(total),
        hands=hands_page(log, page),
        first_hand=(page - 1) * HANDS_PER_PAGE + 1,
        chart=chart,
        slugs={},
    )
