"""What every page shares: the run seen through the viewer, the Jinja environment, rendering a template.

Pages link to each other by relative paths ending in ``.html`` (``root`` climbs back to the site's top),
so an exported site opens from disk. Everything a team or a program controls reaches a page through
Jinja's autoescaping only.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

from jinja2 import Environment, PackageLoader, StrictUndefined, select_autoescape

from arena.cards import parse_cards
from arena.faults import stage_text
from arena.viewer.charts import PALETTE
from arena.viewer.names import SUIT_SYMBOLS, card_code, card_name
from arena.viewer.runs import Run


@dataclass(frozen=True, slots=True)
class Site:
    """A run seen through the viewer: ``live`` is false for a static export (no live pages); ``public``
    leaves out every fault (its reason, what the program printed), as the contest's site shows a run to
    anyone."""

    run: Run
    live: bool = True
    public: bool = False


@cache
def environment() -> Environment:
    """Jinja with autoescaping on for every template (they are all HTML)."""
    env = Environment(
        loader=PackageLoader("arena.viewer", "templates"),
        autoescape=select_autoescape(default=True, default_for_string=True),
        undefined=StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
    )
    env.filters["signed"] = lambda value, digits=0: f"{value:+.{digits}f}"
    env.filters["percent"] = lambda value: "-" if value is None else f"{100 * value:.1f}%"
    env.filters["cards"] = lambda text: [card_code(c) for c in parse_cards(text)] if text else []
    env.globals.update(
        card_name=lambda code: card_name(parse_cards(code)[0]),
        suit_symbol=lambda code: SUIT_SYMBOLS[code[1]],
        palette=PALETTE,
        stage_text=stage_text,
    )
    return env


def render_template(template: str, site: Site, *, root: str, **context: Any) -> str:
    return (
        environment()
        .get_template(template)
        .render(
            root=root, run=site.run, live=site.live, public=site.public, kind=site.run.kind.value, **context
        )
    )


def static_dir() -> Path:
    """The viewer's CSS and JavaScript."""
    return Path(__file__).with_name("static")
