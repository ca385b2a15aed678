"""Issue 24: the page cache of the system's shared files: not read back exactly, not emptied, not kept.

In ``--duplicate`` mode one team, alone, read its opponents' hole cards from its own earlier rotations of
the same deck (40 of 47 right): it wrote them into the page cache of a shared library with
``posix_fadvise(DONTNEED)`` and read them back exactly with ``preadv2(RWF_NOWAIT)``. Every such call now
fails with EPERM, on both roads; the ordinary calls next to them still work. The rotations of one deck are
never played at once, so a team's copies cannot talk while they play. A receiver counting its own major
faults used to read the cache back exactly; now what a sandbox brought into the cache is reclaimed with its
memory cgroup when it closes, so the next table finds the cache as the sender found it (docs/sandbox.md).
"""

from __future__ import annotations

import errno
import itertools
import time
from pathlib import Path
from typing import Any

import pytest

from arena.games.codem.table import run_table
from arena.sandbox import Limits, open_sandbox
from arena.tournament.host import TournamentSettings, run_tournament
from arena.transports.files import FileTransport

from support.field import make_field
from support.hostile import ATTACKS
from support.page_cache import INPUTS, alone, probe, resident, uncached_window
from support.roads import road  # noqa: F401 (the fixture, used by name)
from support.sandbox import build, needs_namespaces

pytestmark = needs_namespaces

DENIED = (
    "fadvise64",
    "mincore",
    "madvise_pageout",
    "madvise_cold",
    "preadv2_nowait",
    "cachestat",
    "process_madvise",
)


@pytest.mark.usefixtures("road")
def test_the_page_cache_can_be_neither_read_back_nor_emptied(tmp_path: Path) -> None:
    with open_sandbox(tmp_path / "team", Limits(wall_time_s=10), isolation="namespaces") as sandbox:
        built = build(sandbox, ATTACKS / "PageCacheCalls.c")
        reply = FileTransport(sandbox, built.run_argv, protected=built.products).exchange(INPUTS)
    assert reply.run.ok, reply.run.describe()
    results = {
        name: int(code) for name, code in (line.split() for line in reply.run.stdout.decode().splitlines())
    }
    assert {name: results[name] for name in DENIED} == dict.fromkeys(DENIED, errno.EPERM)
    assert results["madvise_willneed"] == 0 and results["preadv2"] == 0
    assert reply.text == "0\n"


@pytest.mark.usefixtures("road")
def test_one_table_cannot_read_what_another_left_in_the_page_cache(tmp_path: Path) -> None:
    """A sender at one table, a receiver at the next (as two rotations of a duplicate deck): the receiver
    reads the sender's 1,024 bits no better than chance."""
    right = []
    with alone():
        path, offset = uncached_window()
        for mode in ("send", "read"):
            with open_sandbox(tmp_path / mode, Limits(wall_time_s=10), isolation="namespaces") as sandbox:
                right.append(probe(sandbox, path, offset, mode))
    assert right[1] < 0.6 * 1024


@pytest.mark.usefixtures("road")
def test_what_a_sandbox_brought_into_the_page_cache_leaves_when_it_closes(tmp_path: Path) -> None:
    """The sender's pages are cached while its sandbox is open, and none is once it has closed."""
    with alone():
        path, offset = uncached_window()
        with open_sandbox(tmp_path / "send", Limits(wall_time_s=10), isolation="namespaces") as sandbox:
            probe(sandbox, path, offset, "send")
            cached = resident(path, offset)
        left = resident(path, offset)
    assert cached > 400  # the one bits of the pattern: about half of the 1,024 pages
    assert left == 0


def spans_recorded(players: list[Any], folder: Path, config: Any, **kwargs: Any) -> Any:
    """``run_table``, noting when each table started and ended and its teams (a line each, appended by
    every worker)."""
    log = folder.parent.parent / "spans.log"
    start = time.monotonic()
    try:
        return run_table(players, folder, config, **kwargs)
    finally:
        teams = ",".join(player.team for player in players)
        with log.open("a") as out:
            out.write(f"{folder.name.split('.')[1]} {start} {time.monotonic()} {teams}\n")


@pytest.mark.slow
def test_a_team_is_at_one_table_at_a_time_in_duplicate_mode(tmp_path: Path) -> None:
    """Two rotations of one deck played side by side would let a team's two copies talk while they play
    (timing, the cache), and so would a copy at another deck's table played across the end of one rotation
    and the start of the next (a relay): a grouped table starts only when none of its teams is playing.
    Twelve teams make groups with no team in common, played side by side."""
    submissions, run = tmp_path / "submissions", tmp_path / "run"
    make_field(submissions, 12, faulty=False)
    settings = TournamentSettings(deals=1, time_limit_s=10, duplicate=True)
    run_tournament(submissions, run, settings, jobs=2, table_runner=spans_recorded)
    spans: list[tuple[float, float, str, set[str]]] = []
    for line in (run / "spans.log").read_text().splitlines():
        name, start, end, teams = line.split()
        spans.append((float(start), float(end), name.partition("r")[0], set(teams.split(","))))
    spans.sort()
    assert len({group for _, _, group, _ in spans}) < len(spans)  # several groups, rotated
    at_once = [(a, b) for a, b in itertools.combinations(spans, 2) if a[1] > b[0]]
    assert at_once, "no two tables at once"
    assert all(not (a[3] & b[3]) for a, b in at_once), [(a[2], b[2]) for a, b in at_once if a[3] & b[3]]
