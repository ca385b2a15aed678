"""Regenerate the tables embedded in bots/headsup/strong.cpp.

Compiles make_tables.cpp (which includes strong.cpp in its table-making mode), runs it, and replaces
the lines between ``// BEGIN GENERATED TABLES`` and ``// END GENERATED TABLES`` in strong.cpp with its
output. Run from anywhere: ``python bots/headsup/tools/make_tables.py`` (about ten minutes of CPU).
"""

from __future__ import annotations

import subprocess
import tempfile
from pathlib import Path

TOOLS = Path(__file__).resolve().parent
STRONG = TOOLS.parent / "strong.cpp"
BEGIN = "// BEGIN GENERATED TABLES\n"
END = "// END GENERATED TABLES\n"


def generate() -> str:
    """Build and run the table maker; return the C++ text of the tables."""
    with tempfile.TemporaryDirectory() as work:
        binary = Path(work) / "make_tables"
        subprocess.run(
            ["g++", "-O2", "-std=c++17", "-o", str(binary), str(TOOLS / "make_tables.cpp")], check=True
        )
        return subprocess.run([str(binary)], check=True, capture_output=True, text=True).stdout


def splice(source: str, tables: str) -> str:
    """Put ``tables`` between the markers of ``source``."""
    head, rest = source.split(BEGIN, 1)
    _, tail = rest.split(END, 1)
    return head + BEGIN + tables + END + tail


def main() -> None:
    tables = generate()  # minutes of CPU: read strong.cpp only afterwards, so edits meanwhile survive
    STRONG.write_text(splice(STRONG.read_text(), tables))


if __name__ == "__main__":
    main()
