"""The pool types of a tournament's tables, shared by local worker processes and the Dask cluster.

A :class:`TableTask` goes to a :class:`TablePool` (:class:`arena.tournament.workers.LocalPool` or
:class:`arena.tournament.cluster.ClusterPool`), which hands back a :class:`TableOutcome`: the table's
result and its folder, or the folder packed by :func:`pack_table` when it was played elsewhere.
"""

from __future__ import annotations

import io
import os
import tarfile
from collections.abc import Callable, Iterator
from concurrent.futures import Future
from dataclasses import dataclass
from pathlib import Path
from typing import Protocol

from arena.faults import Fault
from arena.games.codem.results import TableResult
from arena.games.codem.table import PlayerSpec, TableConfig
from arena.tournament.progress import Progress

TableRunner = Callable[..., TableResult]  # run_table, or a stand-in with its signature


@dataclass(frozen=True)
class TableTask:
    """A table to play: its name in the store, its players in seat order and its configuration."""

    name: str
    players: tuple[PlayerSpec, ...]
    config: TableConfig
    # The duplicate deck a table's group (its rotations) plays, "" for a table of its own. A grouped
    # table's teams are each at no other table while it is played: a team's copy at a table of another
    # deck, played across the end of one rotation and the start of the next, could carry what the first
    # left (the page cache, timing) to the second (docs/sandbox.md).
    group: str = ""


@dataclass(frozen=True)
class TableOutcome:
    """What a worker hands back: the table's result and its folder (local) or the folder packed (cluster)."""

    name: str
    result: TableResult
    folder: Path | None = None
    archive: bytes | None = None


class TablePool(Protocol):
    """Where tables are played: local worker processes or a Dask cluster."""

    def submit(self, task: TableTask, tables_dir: Path, runner: TableRunner) -> Future[TableOutcome]:
        """Start playing ``task``; the future holds its outcome."""

    def deals_played(self) -> list[tuple[str, int]]:
        """``(table, deals played so far)`` reports received since the last call."""

    def faults(self) -> list[tuple[str, Fault]]:
        """``(table, fault)`` for each fault recorded since the last call, as the tables play."""

    def poll(self, progress: Progress) -> None:
        """Report the pool's own state (workers joining, tables in flight) to ``progress``."""

    def close(self, *, cancel: bool) -> None:
        """Let go of the workers; ``cancel`` stops the tables still being played."""


def pack_table(folder: Path) -> bytes:
    """A played table's folder as a gzipped tar: folders and regular files only, links never followed."""
    buffer = io.BytesIO()
    with tarfile.open(fileobj=buffer, mode="w:gz", compresslevel=1) as archive:
        for path in sorted(_regular_tree(folder)):
            archive.add(path, arcname=str(path.relative_to(folder)), recursive=False)
    return buffer.getvalue()


def _regular_tree(folder: Path) -> Iterator[Path]:
    for entry in os.scandir(folder):
        path = Path(entry.path)
        if entry.is_dir(follow_symlinks=False):
            yield path
            yield from _regular_tree(path)
        elif entry.is_file(follow_symlinks=False):
            yield path


def unpack_table(archive: bytes, folder: Path) -> None:
    """Unpack :func:`pack_table`'s archive into ``folder`` (tar's ``data`` filter: nothing outside it)."""
    with tarfile.open(fileobj=io.BytesIO(archive), mode="r:gz") as packed:
        packed.extractall(folder, filter="data")
