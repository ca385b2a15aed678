"""Terminal tables that fit: words fold onto more lines when the terminal is narrow, figures never do."""

from __future__ import annotations

from collections.abc import Sequence

from rich.table import Table

TEXT_COLUMNS = ("team", "status", "strategy")
"""Columns of words, which may fold onto more lines; every other column holds figures."""


def fitting_table(title: str, headers: Sequence[str], rows: Sequence[Sequence[str]]) -> Table:
    """A table that fits the terminal by folding its text columns; a figure is never wrapped or cut.

    Each figure's column is as wide as its widest cell; the team names fold onto more lines instead.
    """
    table = Table(title=title, pad_edge=False, collapse_padding=True)
    for index, header in enumerate(headers):
        if header in TEXT_COLUMNS:
            table.add_column(header, overflow="fold", min_width=4)
        else:
            width = max([len(header), *(len(row[index]) for row in rows)])
            table.add_column(header, justify="right", no_wrap=True, min_width=width)
    for row in rows:
        table.add_row(*row)
    return table
