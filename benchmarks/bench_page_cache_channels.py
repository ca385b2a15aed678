"""What a closed sandbox can still tell the next one through the page cache: timed, from outside.

    python benchmarks/bench_page_cache_channels.py [--files 300]

A sandbox closes and its memory cgroup is reclaimed (docs/sandbox.md, "Cgroups"), so the pages it brought
into the cache are gone; ``tests/attacks/test_attacks_duplicate.py`` shows that no major fault tells them
apart any more. This script looks for what timing could still tell, with the best clock there is: the
receiver is this process, outside any sandbox.

- **faults**: a sandbox touches the one bits of a fixed pattern over a cold 4 MB window of a large shared
  library (``tests/programs/attacks/PageCacheFaults.c``) and closes; this process maps the window with
  ``MADV_RANDOM`` and times each page's first touch. A disk or a VM host that kept what the sender read
  would answer those faults faster. Then the same with the sender's sandbox still open (the control: the
  pages are cached).
- **metadata**: a sandbox runs ``stat`` on one half of a set of system files drawn at random and closes;
  a small C program times ``stat`` on every file of the set (a cached name and inode is faster). Then the
  same on other files with the sender's sandbox still open (the control).

Each prints the medians of both halves and how many bits a split at the overall median reads right (chance
is half).
"""

from __future__ import annotations

import argparse
import mmap
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))

from arena.sandbox import Limits, open_sandbox  # noqa: E402

from support.page_cache import WINDOW, alone, probe, uncached_window  # noqa: E402

PAGES = WINDOW // mmap.PAGESIZE
STAT_TIMER = r"""
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
int main(void) {
    char line[4096]; struct stat st; struct timespec a, b;
    while (fgets(line, sizeof line, stdin)) {
        line[strcspn(line, "\n")] = 0;
        clock_gettime(CLOCK_MONOTONIC, &a); stat(line, &st); clock_gettime(CLOCK_MONOTONIC, &b);
        printf("%ld\n", (b.tv_sec - a.tv_sec) * 1000000000L + (b.tv_nsec - a.tv_nsec));
    }
    return 0;
}
"""
METADATA_ROOTS = ("/usr/share/locale", "/usr/share/doc", "/usr/share/man", "/usr/share/zoneinfo")


def report(name: str, times: list[int], sent: list[bool]) -> None:
    """The medians of what the sender touched and what it did not, and a median split's score."""
    one = [t for t, bit in zip(times, sent, strict=True) if bit]
    zero = [t for t, bit in zip(times, sent, strict=True) if not bit]
    split = statistics.median(times)
    right = sum((t < split) == bit for t, bit in zip(times, sent, strict=True))
    sent_us, other_us = statistics.median(one) / 1000, statistics.median(zero) / 1000
    print(f"{name:<40} sent {sent_us:>7.1f} us   other {other_us:>7.1f} us   right {right} of {len(times)}")


def timed_faults(path: str, offset: int) -> list[int]:
    """ns of the first touch of each page of the window, in order (``MADV_RANDOM``: one page a fault)."""
    with open(path, "rb") as source:
        window = mmap.mmap(source.fileno(), WINDOW, prot=mmap.PROT_READ, offset=offset)
        window.madvise(mmap.MADV_RANDOM)
        times = []
        for page in range(PAGES):
            start = time.perf_counter_ns()
            window[page * mmap.PAGESIZE]
            times.append(time.perf_counter_ns() - start)
        window.close()
    return times


def faults(scratch: Path) -> None:
    pattern = [bool(((page * 2654435761) & 0xFFFFFFFF) >> 7 & 1) for page in range(PAGES)]
    for closed in (True, False):
        path, offset = uncached_window()
        with open_sandbox(
            scratch / f"faults-{closed}", Limits(wall_time_s=10), isolation="namespaces"
        ) as box:
            probe(box, path, offset, "send")
            if not closed:
                times = timed_faults(path, offset)
        if closed:
            times = timed_faults(path, offset)
        report(f"faults, sender {'closed' if closed else 'open (control)'}", times, pattern)


def metadata(scratch: Path, count: int) -> None:
    timer = scratch / "stat_timer"
    source = scratch / "stat_timer.c"
    source.write_text(STAT_TIMER)
    subprocess.run(["gcc", "-O2", "-o", str(timer), str(source)], check=True)
    files = [
        os.path.join(folder, name)
        for top in METADATA_ROOTS
        for folder, _, names in os.walk(top)
        for name in names
    ]
    random.shuffle(files)
    for closed in (True, False):
        chosen, files = files[: 2 * count], files[2 * count :]
        sent = [index < count for index in range(len(chosen))]
        order = list(range(len(chosen)))
        random.shuffle(order)
        lines = "".join(chosen[index] + "\n" for index in order)
        with open_sandbox(
            scratch / f"metadata-{closed}", Limits(wall_time_s=10), isolation="namespaces"
        ) as box:
            box.run(["/usr/bin/stat", "--format=%i", *chosen[:count]])
            if not closed:
                done = subprocess.run([str(timer)], input=lines, capture_output=True, text=True, check=True)
        if closed:
            done = subprocess.run([str(timer)], input=lines, capture_output=True, text=True, check=True)
        times = [int(value) for value in done.stdout.split()]
        name = f"metadata (stat), sender {'closed' if closed else 'open (control)'}"
        report(name, times, [sent[index] for index in order])


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument(
        "--files", type=int, default=300, help="files the sender looks up (as many it does not)"
    )
    args = parser.parse_args()
    print(f"load average at the start: {' '.join(f'{x:.1f}' for x in os.getloadavg())}")
    with tempfile.TemporaryDirectory(prefix="bench-page-cache-") as scratch:
        Path(scratch).chmod(0o711)
        with alone():  # no page-cache test draws a window meanwhile
            faults(Path(scratch))
        metadata(Path(scratch), args.files)
    print(f"load average at the end: {' '.join(f'{x:.1f}' for x in os.getloadavg())}")


if __name__ == "__main__":
    main()
