"""Terminal tables that fit: words fold onto more lines when the terminal is narrow, figures never do.

When even folded words leave too little room for the figures, each row is printed as a block of
``header: value`` lines instead: a number or a file name is never cut, whatever the width. A header
may hold line breaks (``"best\nexpected"``) to keep a column of short figures narrow.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence

from rich.console import Console, ConsoleOptions, RenderableType
from rich.table import Table
from rich.text import Text

from arena import untrusted

TEXT_COLUMNS = ("team", "status")
"""Columns of words, which may fold onto more lines; every other column holds figures or names."""
NAME_COLUMNS = ("strategy",)
"""Columns of file names, left-aligned and never cut, like figures."""
NARROWEST_WORDS = 6
"""Below this many characters for a column of words, the rows are printed as blocks."""


class FittingTable:
    """A table of rows under headers that fits the width it is given (see the module's note)."""

    def __init__(self, title: str, headers: Sequence[str], rows: Sequence[Sequence[str]]) -> None:
        self.title = title
        self.headers = tuple(headers)
        self.rows = [tuple(untrusted.name(cell) for cell in row) for row in rows]  # one safe line each

    def _widths(self) -> list[int]:
        return [
            max([*(len(line) for line in h.split("\n")), *(len(row[i]) for row in self.rows)])
            for i, h in enumerate(self.headers)
        ]

    def _fits(self, width: int) -> bool:
        widths = self._widths()
        figures = sum(w for h, w in zip(self.headers, widths, strict=True) if h not in TEXT_COLUMNS)
        words = sum(1 for h in self.headers if h in TEXT_COLUMNS) * NARROWEST_WORDS
        return figures + words + 2 * len(self.headers) + 1 <= width

    def table(self) -> Table:
        """The rich table: words fold, each figure's column is as wide as its widest cell."""
        table = Table(title=self.title, pad_edge=False, collapse_padding=True)
        for header, width in zip(self.headers, self._widths(), strict=True):
            if header in TEXT_COLUMNS:
                table.add_column(header, overflow="fold", min_width=NARROWEST_WORDS)
            elif header in NAME_COLUMNS:
                table.add_column(header, no_wrap=True, min_width=width)
            else:
                table.add_column(header, justify="right", no_wrap=True, min_width=width)
        for row in self.rows:  # cells are text, never markup: a team may be called "[x]Tight"
            table.add_row(*(Text(cell) for cell in row))
        return table

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> Iterator[RenderableType]:
        if self._fits(options.max_width):
            yield self.table()
            return
        yield Text(self.title, style="bold")
        for row in self.rows:
            yield Text("")
            for header, value in zip(self.headers, row, strict=True):
                yield Text(f"{header.replace(chr(10), ' ')}: {value}", overflow="fold")


def fitting_table(title: str, headers: Sequence[str], rows: Sequence[Sequence[str]]) -> FittingTable:
    """A table that fits the terminal, never cutting a figure."""
    return FittingTable(title, headers, rows)
