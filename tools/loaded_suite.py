"""Run the full test suite several times beside CPU-bound processes, and print what failed.

    python tools/loaded_suite.py                 # three full runs beside two CPU hogs
    python tools/loaded_suite.py --runs 1 --hogs 4 -- -m "not slow"

A test that judges time or scheduling must compare conditions measured in the same run, never a fixed
threshold that load can cross; this script is the proof that the suite holds to that. Each hog is a
Python process spinning in a loop, so on a 2-core machine two hogs and pytest's two workers keep the load
at 4 or more. The hogs and the run under way are ended when the runs end, or on Ctrl-C or SIGTERM. Exit
status: 0 when every run passed.
"""

from __future__ import annotations

import argparse
import os
import re
import signal
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SPIN = "while True: pass"
FAILED = re.compile(r"^(FAILED|ERROR) (\S+)", re.MULTILINE)
# The last line: "=== 3 failed, 90 passed in 12.3s ===", or without the rules under -q.
SUMMARY = re.compile(r"^=*\s*((?:\d+ \w+(?:, )?)+|no tests ran) in [\d.]+s\b", re.MULTILINE)


def start_hogs(count: int) -> list[subprocess.Popen[bytes]]:
    """``count`` processes that each keep one CPU busy until they are ended."""
    return [subprocess.Popen([sys.executable, "-c", SPIN]) for _ in range(count)]


def stop(processes: list[subprocess.Popen[bytes]]) -> None:
    """End every process and reap it."""
    for process in processes:
        process.kill()
    for process in processes:
        process.wait()


def one_run(number: int, pytest_args: list[str], log_dir: Path) -> tuple[bool, list[str], str]:
    """One full run of the suite; (passed, the failed test ids, pytest's summary line)."""
    log = log_dir / f"run{number}.log"
    command = [sys.executable, "-m", "pytest", "-n", "2", "-p", "no:cacheprovider", "-q", *pytest_args]
    started = time.monotonic()
    with log.open("w") as out:
        run = subprocess.Popen(
            command, cwd=ROOT, stdout=out, stderr=subprocess.STDOUT, start_new_session=True
        )
        try:
            returncode = run.wait()
        except BaseException:
            os.killpg(run.pid, signal.SIGKILL)  # pytest, its workers and what they started
            run.wait()
            raise
    text = log.read_text(errors="replace")
    summary = SUMMARY.findall(text)
    line = summary[-1] if summary else f"no summary (exit {returncode}), see {log}"
    print(f"run {number}: {line}; {time.monotonic() - started:.0f} s; load {os.getloadavg()[0]:.1f}")
    return returncode == 0, [name for _, name in FAILED.findall(text)], line


def _terminated(_number: int, _frame: object) -> None:
    raise KeyboardInterrupt  # SIGTERM ends the runs as Ctrl-C does: the hogs and the run are stopped


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--runs", type=int, default=3, help="how many full runs (default 3)")
    parser.add_argument("--hogs", type=int, default=2, help="CPU-bound processes beside the runs (default 2)")
    parser.add_argument("--logs", type=Path, default=ROOT / "tests" / "artifacts" / "loaded")
    parser.add_argument("pytest_args", nargs="*", help="more pytest arguments, after --")
    args = parser.parse_args(argv)
    if args.runs < 1 or args.hogs < 0:
        parser.error("--runs takes 1 or more, --hogs 0 or more")
    args.logs.mkdir(parents=True, exist_ok=True)
    signal.signal(signal.SIGTERM, _terminated)
    hogs = start_hogs(args.hogs)
    results: list[tuple[bool, list[str], str]] = []
    try:
        for number in range(1, args.runs + 1):
            results.append(one_run(number, args.pytest_args, args.logs))
    except KeyboardInterrupt:
        print("interrupted")
        return 130
    finally:
        stop(hogs)
    failures = sorted({name for _, failed, _ in results for name in failed})
    passed = sum(ok for ok, _, _ in results)
    print(f"{passed} of {len(results)} runs passed beside {args.hogs} CPU hogs")
    for name in failures:
        print(f"  failed: {name}")
    return 0 if passed == len(results) else 1


if __name__ == "__main__":
    sys.exit(main())
