"""The room table of docs/architecture.md holds: no module imports a room its own room may not know.

The table is read from the document itself, so the document and this test cannot drift apart: a module
that imports past its room fails here, and so does a module that no room claims.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = ROOT / "arena"
DOC = ROOT / "docs" / "architecture.md"
PRESENTATION = {"rich"}  # drawing for the terminal: only the cli room imports it


Modules = list[tuple[str, bool]]  # (dotted name, whether the whole package below it belongs)


def room_table() -> dict[str, tuple[Modules, set[str]]]:
    """room -> (its modules, rooms it may import), from the document's table."""
    rows: dict[str, tuple[Modules, set[str]]] = {}
    lines = DOC.read_text().splitlines()
    start = lines.index("| room | modules | holds | may import |")
    for line in lines[start + 2 :]:
        if not line.startswith("|"):
            break
        room, modules, _holds, allowed = (cell.strip() for cell in line.strip("|").split("|"))
        paths = re.findall(r"`(arena/[^`]*)`", modules)
        names = [(_module_name(path), path.endswith("/")) for path in paths]
        rows[room] = (names, {name.strip() for name in allowed.split(",") if name.strip() != "—"})
    return rows


def _module_name(path: str) -> str:
    """A path of the table as a dotted name: ``arena/games/`` is ``arena.games``."""
    name = path.removesuffix("/").removesuffix(".py").replace("/", ".")
    return name.removesuffix(".__init__")


def room_of(module: str, table: dict[str, tuple[Modules, set[str]]]) -> str | None:
    """The room that names ``module`` or, failing that, the package holding it most closely."""
    best: tuple[str | None, int] = None, -1
    for room, (names, _allowed) in table.items():
        for name, package in names:
            inside = module == name or (package and module.startswith(name + "."))
            if inside and len(name) > best[1]:
                best = room, len(name)
    return best[0]


def modules() -> dict[str, Path]:
    """Every module of the package by dotted name."""
    found = {}
    for path in sorted(PACKAGE.rglob("*.py")):
        name = ".".join(path.relative_to(ROOT).with_suffix("").parts).removesuffix(".__init__")
        found[name] = path
    return found


def imports(path: Path) -> set[str]:
    """Every module name ``path`` imports, at any depth (inside functions too)."""
    names = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module is not None:
            assert node.level == 0, f"{path}: relative import of {node.module}"
            names.add(node.module)
    return names


def test_the_document_has_a_room_table() -> None:
    table = room_table()
    assert {"cli", "tournament", "games", "seats", "sandbox", "engines"} <= set(table)
    for _room, (_prefixes, allowed) in table.items():
        assert allowed <= set(table), f"the table names rooms it does not define: {allowed - set(table)}"


def test_every_module_belongs_to_a_room() -> None:
    table = room_table()
    homeless = [name for name in modules() if room_of(name, table) is None]
    assert homeless == [], f"no room of docs/architecture.md holds {homeless}"


@pytest.mark.parametrize("module", sorted(modules()))
def test_a_module_imports_only_the_rooms_its_room_may_know(module: str) -> None:
    table = room_table()
    room = room_of(module, table)
    assert room is not None
    allowed = table[room][1] | {room}
    wrong = []
    for name in sorted(imports(modules()[module])):
        if name == "arena" or name.startswith("arena."):
            target = room_of(name, table)
            if target not in allowed:
                wrong.append(f"{name} ({target})")
        elif name.split(".")[0] in PRESENTATION and room != "cli":
            wrong.append(f"{name} (presentation belongs to cli)")
    assert wrong == [], f"{module} ({room}) imports {', '.join(wrong)}"
