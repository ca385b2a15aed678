"""The test suite's own layout rules (docs/architecture.md, the paragraph on ``tests/``).

Test modules share code only through ``tests/support/`` and ``tests/conftest.py``: a test module never
imports another test module. Test files sit in folders by subject without ``__init__.py``, so pytest
imports each by its bare name: two files of one name would clash.
"""

from __future__ import annotations

import ast
from collections import Counter
from pathlib import Path

TESTS = Path(__file__).resolve().parent
PROGRAMS = TESTS / "programs"  # the programs that tests run, not test modules


def suite_files() -> list[Path]:
    """Every module of the suite (test files, support, conftest), without the programs the tests run."""
    return sorted(path for path in TESTS.rglob("*.py") if PROGRAMS not in path.parents)


def imported_names(path: Path) -> set[str]:
    """Every module name ``path`` imports, each dotted part on its own."""
    names = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            modules = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            modules = [node.module or "", *(alias.name for alias in node.names)]
        else:
            continue
        names.update(part for module in modules for part in module.split("."))
    return names


def test_no_test_module_imports_another() -> None:
    tests = {path.stem for path in suite_files() if path.name.startswith("test_")}
    imports = [
        f"{path.relative_to(TESTS)} imports {name}"
        for path in suite_files()
        for name in sorted(imported_names(path) & tests)
    ]
    assert imports == []


def test_no_two_test_files_share_a_name() -> None:
    names = Counter(path.name for path in suite_files() if path.name.startswith("test_"))
    assert [name for name, count in names.items() if count > 1] == []
