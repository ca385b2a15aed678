"""The compiler's first error, read from a build's output: what a team needs to see first when its
program does not build (a compiler's first line is often ``In function 'int main()'``, which says
nothing).

The first line that names a file and a line as an error wins: GCC and G++ ``file:line:col: error:``,
javac ``File.java:line: error:``, Ruby ``file.rb:line: syntax error``, Perl ``... at file.pl line N``,
Python's ``File "x.py", line N`` followed by its ``SyntaxError:``. The source lines a compiler prints
under it (``   9 |   printf(...)`` and the caret) come with it. With no such line, the first line that
says ``error``; with none, the first line.
"""

from __future__ import annotations

import re

CONTEXT_LINES = 3
"""Source lines kept under the error line (GCC's ``  9 | code`` and its caret line)."""

_LOCATED = re.compile(r"^\S+?:\d+(?::\d+)?:\s*(?:fatal |syntax )?error\b", re.IGNORECASE)
_PERL = re.compile(r"\berror\b.* at \S+ line \d+", re.IGNORECASE)
_PYTHON_FILE = re.compile(r'^\s*File "(?P<file>[^"]+)", line (?P<line>\d+)')
_PYTHON_ERROR = re.compile(r"^(?P<kind>[A-Za-z]*Error): ")


def first_build_error(output: str) -> str:
    """The first error of a failed build's ``output``, with its file and line where the compiler says
    them, and the source lines printed under it; ``""`` for an empty output."""
    lines = [line.rstrip() for line in output.splitlines()]
    python = _python_error(lines)
    if python:
        return python
    for index, line in enumerate(lines):
        if _LOCATED.match(line) or _PERL.search(line):
            return "\n".join([line, *_context(lines[index + 1 :])])
    for line in lines:
        if re.search(r"\berror\b", line, re.IGNORECASE):
            return line.strip()
    return next((line.strip() for line in lines if line.strip()), "")


def _context(lines: list[str]) -> list[str]:
    """The indented source lines right under an error line."""
    if len(lines) >= 2 and re.fullmatch(r"\s*\^[~^]*", lines[1]):
        return lines[:2]  # javac: the source line as it is, then the caret
    kept: list[str] = []
    for line in lines[:CONTEXT_LINES]:
        if not line.startswith(" ") or not line.strip():
            break
        kept.append(line)
    return kept


def _python_error(lines: list[str]) -> str:
    """``file:line: SyntaxError: ...`` with the source line, from Python's traceback of ``compile``."""
    for index, line in enumerate(lines):
        error = _PYTHON_ERROR.match(line)
        if not error:
            continue
        for back in range(index - 1, -1, -1):
            where = _PYTHON_FILE.match(lines[back])
            if where:
                source = [text for text in lines[back + 1 : index] if text.strip()][:2]
                head = f"{where['file']}:{where['line']}: {line}"
                return "\n".join([head, *source])
        return line
    return ""
