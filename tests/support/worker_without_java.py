"""A ``dask worker --preload`` module: this worker's arena finds no Java toolchain (as on a machine
without default-jdk-headless), so it must say so when it joins and never be sent a Java table."""

from __future__ import annotations

import arena.languages

_real_tool_path = arena.languages.tool_path


def _without_java(tool: str) -> str | None:
    return None if tool in {"java", "javac"} else _real_tool_path(tool)


arena.languages.tool_path = _without_java
