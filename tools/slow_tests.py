"""The tests over 5 s that are not marked slow, read from a pytest run's timings.

    python -m pytest -n 2 --junitxml=run.xml         # or: python -m pytest --durations=0 > run.log
    python tools/slow_tests.py run.xml               # or: run.log
    python tools/slow_tests.py run.log --over 3 -- tests/engine

A test's time is its setup, call and teardown together: a module's fixture is set up in the setup of the
module's first test, so that test carries it (and makes the fast tier wait for it). Which tests are marked
slow is asked of pytest (``--collect-only -m slow``, with the pytest arguments after ``--``), so the
timings may come from an older run or another machine. A machine under load inflates times: a test just
over the limit there may be under on a quiet one. The last line sums the unmarked tests, the fast tier
``python -m pytest -m "not slow" -n 2``, over two workers. Exit status: 1 when a test is listed.
"""

from __future__ import annotations

import argparse
import re
import subprocess
import sys
import xml.etree.ElementTree as ElementTree
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
DURATION = re.compile(r"^\s*([\d.]+)s (?:setup|call|teardown)\s+(\S.*?)\s*$", re.MULTILINE)
LIMIT_S = 5.0


def times_from_log(text: str) -> dict[str, float]:
    """Seconds per test id from pytest's ``--durations=0`` lines, its phases added up."""
    times: dict[str, float] = defaultdict(float)
    for seconds, test in DURATION.findall(text):
        times[test] += float(seconds)
    return dict(times)


def _node_id(classname: str, name: str, root: Path) -> str:
    """A junit case's pytest id: the longest leading part of ``classname`` that is a file is the module."""
    parts = classname.split(".")
    for end in range(len(parts), 0, -1):
        module = "/".join(parts[:end]) + ".py"
        if (root / module).is_file():
            return "::".join([module, *parts[end:], name])
    return "::".join([classname.replace(".", "/") + ".py", name])


def times_from_junit(text: str, root: Path = ROOT) -> dict[str, float]:
    """Seconds per test id from a ``--junitxml`` report (each case's time is its phases together)."""
    times: dict[str, float] = defaultdict(float)
    for case in ElementTree.fromstring(text).iter("testcase"):
        test = _node_id(case.get("classname", ""), case.get("name", ""), root)
        times[test] += float(case.get("time", "0"))
    return dict(times)


def marked_slow(pytest_args: list[str], root: Path = ROOT) -> set[str]:
    """The ids of the tests marked slow, as pytest collects them from ``root``."""
    command = [sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "--collect-only", "-q", "-m", "slow"]
    listed = subprocess.run(
        [*command, *pytest_args], cwd=root, capture_output=True, text=True, check=False
    ).stdout
    return {line.strip() for line in listed.splitlines() if "::" in line}


def unmarked_over(times: dict[str, float], slow: set[str], limit_s: float) -> list[tuple[str, float]]:
    """The tests over ``limit_s`` that are not in ``slow``, slowest first."""
    over = [(test, seconds) for test, seconds in times.items() if seconds > limit_s and test not in slow]
    return sorted(over, key=lambda item: (-item[1], item[0]))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("timings", type=Path, help="a --junitxml report (.xml) or a --durations=0 log")
    parser.add_argument("--over", type=float, default=LIMIT_S, help="the limit in seconds (default 5)")
    parser.add_argument("pytest_args", nargs="*", help="pytest arguments for collecting, after --")
    args = parser.parse_args(argv)
    try:
        text = args.timings.read_text(errors="replace")
    except OSError as error:
        parser.error(f"cannot read {args.timings}: {error.strerror}")
    times = times_from_junit(text) if text.lstrip().startswith("<") else times_from_log(text)
    if not times:
        parser.error(f"{args.timings} holds no test timings (run pytest with --junitxml or --durations=0)")
    slow = marked_slow(args.pytest_args)
    over = unmarked_over(times, slow, args.over)
    for test, seconds in over:
        print(f"{seconds:7.1f} s  {test}")
    fast = [seconds for test, seconds in times.items() if test not in slow]
    print(
        f"{len(over)} unmarked tests over {args.over:g} s; the fast tier's {len(fast)} timed tests take "
        f"{sum(fast):.0f} s, about {sum(fast) / 2:.0f} s on 2 workers"
    )
    return 1 if over else 0


if __name__ == "__main__":
    sys.exit(main())
