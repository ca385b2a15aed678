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


def import_graph() -> dict[str, set[str]]:
    """module -> the modules of ``arena/`` it imports (at any depth), each import resolved to a module.

    ``from arena.x import y`` names ``arena.x.y`` when that is a module, else ``arena.x``; importing a
    module also runs its packages' ``__init__``, which is no edge of the module's own making and is left out.
    """
    known = modules()
    graph: dict[str, set[str]] = {}
    for name, path in known.items():
        targets = set()
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Import):
                targets.update(alias.name for alias in node.names)
            elif isinstance(node, ast.ImportFrom) and node.module is not None:
                targets.update(
                    f"{node.module}.{alias.name}" if f"{node.module}.{alias.name}" in known else node.module
                    for alias in node.names
                )
        graph[name] = {target for target in targets if target in known and target != name}
    return graph


def import_cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Every group of modules that import each other, directly or round a loop (Tarjan's components)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    cycles: list[list[str]] = []

    def visit(module: str) -> None:
        index[module] = low[module] = len(index)
        stack.append(module)
        for target in sorted(graph[module]):
            if target not in index:
                visit(target)
                low[module] = min(low[module], low[target])
            elif target in stack:
                low[module] = min(low[module], index[target])
        if low[module] == index[module]:
            group = []
            while True:
                member = stack.pop()
                group.append(member)
                if member == module:
                    break
            if len(group) > 1:
                cycles.append(sorted(group))

    for module in sorted(graph):
        if module not in index:
            visit(module)
    return cycles


def test_the_cycle_finder_finds_a_loop_of_three_and_no_loop_in_a_chain() -> None:
    loop = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}
    assert import_cycles(loop) == [["a", "b", "c"]]
    assert import_cycles({"a": {"b"}, "b": {"c"}, "c": set()}) == []


# No loop is left (the execution layer's split broke the sandbox's last one): the whole package is held to
# none at all.
KNOWN_CYCLES: list[list[str]] = []


def test_no_modules_import_each_other() -> None:
    cycles = [group for group in import_cycles(import_graph()) if group not in KNOWN_CYCLES]
    assert cycles == [], "modules that import each other (module level or inside functions): " + "; ".join(
        " <-> ".join(group) for group in cycles
    )


def folder_tree() -> dict[str, str]:
    """folder (``arena/games/headsup/texas``) -> room, from the document's tree of the package's folders."""
    text = DOC.read_text()
    block = text[text.index("## The folders") :].split("```")[1]
    folders: dict[str, str] = {}
    parents: list[tuple[int, str]] = []
    for line in block.strip("\n").splitlines():
        indent = len(line) - len(line.lstrip())
        path, room = line.strip().split(maxsplit=1)
        while parents and parents[-1][0] >= indent:
            parents.pop()
        folder = (parents[-1][1] + "/" if parents else "") + path.rstrip("/")
        folders[folder] = room.strip()
        parents.append((indent, folder))
    return folders


def test_the_folder_tree_and_the_room_table_say_the_same() -> None:
    table, tree = room_table(), folder_tree()
    assert set(tree.values()) == set(table), "the tree and the table name different rooms"
    for folder, room in tree.items():
        assert room_of(folder.replace("/", "."), table) == room, f"{folder}/ is {room} in the tree"
    named = {name for names, _allowed in table.values() for name, package in names if not package}
    for path in sorted(PACKAGE.rglob("*.py")):
        folder = path.parent.relative_to(ROOT).as_posix()
        listed = max((name for name in tree if folder == name or folder.startswith(name + "/")), key=len)
        module = ".".join(path.relative_to(ROOT).with_suffix("").parts).removesuffix(".__init__")
        room = room_of(module, table)
        if module not in named:  # a file the table names one by one may sit in another room's folder
            assert room == tree[listed], f"{module} is {room}, but its folder {listed}/ is {tree[listed]}"


INSIDE = PACKAGE / "sandbox" / "inside"
CLASS_LINES = 250  # issue 27 item 3: the helper and the sandbox split by concern, no class over this


def test_no_class_of_the_sandbox_is_over_its_size() -> None:
    """The helper's protocol, privileges, processes, one decision and cleanup are classes of their own; the
    sandbox's start-up steps, roads, sessions and copies are modules of their own."""
    large = []
    for path in sorted((PACKAGE / "sandbox").rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.ClassDef) and node.end_lineno is not None:
                size = node.end_lineno - node.lineno + 1
                large += [f"{path.name}: {node.name} ({size} lines)"] if size > CLASS_LINES else []
    assert large == []


def test_every_part_of_the_helper_is_loaded_beside_it() -> None:
    """The helper runs as ``python -I -S`` where arena cannot be imported: each of its parts is a file
    beside it, loaded by ``_load_beside``, and imports nothing of arena (the box binds only these files)."""
    helper = ast.parse((INSIDE / "helper.py").read_text())
    loaded = {
        node.args[0].value
        for node in ast.walk(helper)
        if isinstance(node, ast.Call)
        and isinstance(node.func, ast.Name)
        and node.func.id == "_load_beside"
        and isinstance(node.args[0], ast.Constant)
    }
    assert {"protocol", "privileges", "start", "prepared", "decision", "cleanup", "record"} <= loaded
    for name in loaded - {"tree"}:
        imported = imports(INSIDE / f"{name}.py")
        assert not any(module.split(".")[0] == "arena" for module in imported), name
