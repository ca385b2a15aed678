"""The one rule for submission file names, used by ``check``, ``watch`` and ``tournament`` alike.

A program is one file ``<TeamId>.<ext>``: ``ext`` is one of the six languages' extensions (``c cpp java
pl rb py``, lower case); ``TeamId`` is 1 to 40 ASCII letters, digits, ``_`` or ``-``, starting with a
letter or digit. A Java program's ``TeamId`` is also its public class's name, so it must be a Java
identifier: no ``-``, not starting with a digit, not a Java keyword. Any other file is not played, and
:func:`name_problem` says why in words a team can act on.
"""

from __future__ import annotations

import re
from pathlib import Path

from arena.languages import LANGUAGES

TEAM_ID = re.compile(r"[A-Za-z0-9][A-Za-z0-9_-]{0,39}")
JAVA_CLASS = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
JAVA_KEYWORDS = frozenset(
    [
        "abstract",
        "assert",
        "boolean",
        "break",
        "byte",
        "case",
        "catch",
        "char",
        "class",
        "const",
        "continue",
        "default",
        "do",
        "double",
        "else",
        "enum",
        "extends",
        "final",
        "finally",
        "float",
        "for",
        "goto",
        "if",
        "implements",
        "import",
        "instanceof",
        "int",
        "interface",
        "long",
        "native",
        "new",
        "package",
        "private",
        "protected",
        "public",
        "return",
        "short",
        "static",
        "strictfp",
        "super",
        "switch",
        "synchronized",
        "this",
        "throw",
        "throws",
        "transient",
        "try",
        "void",
        "volatile",
        "while",
        "true",
        "false",
        "null",
        "_",
    ]
)
EXTENSIONS = tuple(language.suffix for language in LANGUAGES)
REPORT_SUFFIX = ".report.txt"
_ALIASES = {"cc": "cpp", "cxx": "cpp", "c++": "cpp"}


def name_problem(path: Path) -> str | None:
    """Why the file at ``path`` is not a program that will be played (None when it is one)."""
    name = path.name
    if name.endswith(REPORT_SUFFIX):
        return "a report written by arena watch"
    if name.startswith("."):
        return "a hidden file (its name starts with '.')"
    if path.is_symlink():
        return "a symbolic link (put the program file itself in the folder)"
    if path.is_dir():
        return "a folder, not a program file"
    if not path.is_file():
        return "not a regular file"
    stem, dot, ext = name.rpartition(".")
    if not dot or not stem:
        return f"no language extension (name programs <TeamId>.<ext>, ext one of {', '.join(EXTENSIONS)})"
    if ext not in EXTENSIONS:
        alias = ext.lower() if ext.lower() in EXTENSIONS else _ALIASES.get(ext.lower())
        hint = f"; name it {stem}.{alias}" if alias else ""
        return f"extension .{ext} is not one of {', '.join('.' + e for e in EXTENSIONS)}{hint}"
    return team_id_problem(stem, java=ext == "java")


def team_id_problem(team: str, *, java: bool = False) -> str | None:
    """Why ``team`` is not a usable TeamId (for a Java program: also its class name), or None."""
    if not TEAM_ID.fullmatch(team):
        if len(team) > 40 and TEAM_ID.fullmatch(team[:40]):
            return f"team id {team!r} is longer than 40 characters"
        return (
            f"team id {team!r} may hold only ASCII letters, digits, '_' and '-' and must start with a "
            "letter or digit (no spaces or dots)"
        )
    if java and (not JAVA_CLASS.fullmatch(team) or team in JAVA_KEYWORDS):
        return (
            f"a Java program's name is its public class's name, and {team!r} is not a Java class name "
            "(letters, digits and '_', not starting with a digit, no '-', not a keyword)"
        )
    return None
