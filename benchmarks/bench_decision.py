"""Decision overhead: a sandboxed one-shot decision against a bare ``subprocess.run``, in the same run.

One decision = three input files written, a small compiled C program run, its ``outputf.txt`` read.
The sandboxed path is arena's: ``FileTransport.exchange`` in a namespaced sandbox opened once. The
reference does the same work with a bare ``subprocess.run`` in a plain folder on tmpfs. The two are
interleaved decision by decision so both see the same machine load; medians are compared.

    python benchmarks/bench_decision.py [--decisions N] [--isolation auto|namespaces|rlimits-only]
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from rich.console import Console
from rich.progress import track

from arena.languages import build_program
from arena.sandbox import Limits, open_sandbox
from arena.transports import FileTransport
from arena.transports.warm import WarmPythonTransport

GOAL = 1.3
PROGRAM = r"""
#include <stdio.h>
int main(void) {
    long total = 0, value;
    FILE *in = fopen("inputf.txt", "r");
    if (!in) return 1;
    while (fscanf(in, "%ld", &value) == 1) total += value;
    fclose(in);
    FILE *out = fopen("outputf.txt", "w");
    fprintf(out, "%ld\n", total > 100 ? 0 : -10);
    fclose(out);
    return 0;
}
"""
PYTHON_PLAIN = """
values = [int(word) for word in open("inputf.txt").read().split()]
open("outputf.txt", "w").write("0\\n" if sum(values) > 100 else "-10\\n")
"""
PYTHON_NUMPY = """
import numpy
values = numpy.array([int(word) for word in open("inputf.txt").read().split()])
open("outputf.txt", "w").write("0\\n" if int(values.sum()) > 100 else "-10\\n")
"""
JAVA_TINY = """
import java.nio.file.Files;
import java.nio.file.Path;

public class Tiny {
    public static void main(String[] args) throws Exception {
        long total = 0;
        for (String word : Files.readString(Path.of("inputf.txt")).trim().split("\\\\s+")) {
            total += Long.parseLong(word);
        }
        Files.writeString(Path.of("outputf.txt"), (total > 100 ? "0" : "-10") + "\\n");
    }
}
"""
DEAL = "Dealer         3\nStage          Flop\nMain_Pot       60\n\nPre_Flop\n" + "Call 10        " * 6 + "\n"


def inputs(decision: int) -> dict[str, str]:
    """Three input files of realistic size, different at every decision."""
    return {
        "inputf.txt": f"{decision % 52 + 1}          {decision % 51 + 2}          3          {decision % 90}",
        "deals_money.txt": "Deal"
        + f"{decision:>11}\n"
        + "".join(f"{seat}{1500:>16}\n" for seat in range(1, 7)),
        "deal.txt": DEAL,
    }


def bare_decision(folder: Path, binary: Path, decision: int) -> str:
    """The reference: write the files, ``subprocess.run`` the program, read the answer."""
    for name, text in inputs(decision).items():
        (folder / name).write_text(text)
    (folder / "outputf.txt").write_text("")
    subprocess.run([str(binary)], cwd=folder, check=False, timeout=5)
    return (folder / "outputf.txt").read_text()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--decisions", type=int, default=400)
    parser.add_argument("--isolation", default="auto")
    parser.add_argument(
        "--start-decisions",
        type=int,
        default=20,
        help="decisions per language in the start-up part (0 skips it)",
    )
    args = parser.parse_args()
    console = Console()
    shared = "/dev/shm" if Path("/dev/shm").is_dir() else None
    with tempfile.TemporaryDirectory(prefix="arena-bench-", dir=shared) as root_name:
        root = Path(root_name)
        root.chmod(0o711)
        source = root / "Bench.c"
        source.write_text(PROGRAM)
        bare_folder = root / "bare"
        bare_folder.mkdir()
        bare_binary = bare_folder / "Bench"
        subprocess.run(["gcc", "-O2", "-o", str(bare_binary), str(source)], check=True)
        with open_sandbox(root / "team", Limits(), isolation=args.isolation) as sandbox:
            built = build_program(source, sandbox.workdir, sandbox)
            if not built.ok:
                console.print(built.output)
                return 1
            transport = FileTransport(sandbox, built.run_argv, protected=built.products)
            sandboxed_ms: list[float] = []
            bare_ms: list[float] = []
            inner_ms: list[float] = []
            for warmup in range(20):
                transport.exchange(inputs(warmup))
                bare_decision(bare_folder, bare_binary, warmup)
            for decision in track(range(args.decisions), description="decisions", console=console):
                started = time.perf_counter()
                reply = transport.exchange(inputs(decision))
                sandboxed_ms.append((time.perf_counter() - started) * 1000)
                inner_ms.append(reply.run.wall_ms)
                started = time.perf_counter()
                answer = bare_decision(bare_folder, bare_binary, decision)
                bare_ms.append((time.perf_counter() - started) * 1000)
                if reply.text != answer or not reply.ok:
                    console.print(f"[red]answers differ at decision {decision}: {reply.text!r} vs {answer!r}")
                    return 1
            level = sandbox.isolation_level
    sandboxed, bare = statistics.median(sandboxed_ms), statistics.median(bare_ms)
    ratio = sandboxed / bare
    console.print(
        f"decisions: {args.decisions} (interleaved), isolation: {level}, python {sys.version.split()[0]}"
    )
    console.print(f"bare subprocess.run decision:   median {bare:.3f} ms  p90 {_p90(bare_ms):.3f} ms")
    console.print(
        f"sandboxed FileTransport.exchange: median {sandboxed:.3f} ms  p90 {_p90(sandboxed_ms):.3f} ms"
        f"  (program run inside the helper: median {statistics.median(inner_ms):.3f} ms)"
    )
    verdict = "[green]meets[/green]" if ratio <= GOAL else "[red]misses[/red]"
    console.print(f"ratio sandboxed / bare: {ratio:.2f}x  ({verdict} the goal of at most {GOAL}x)")
    if args.start_decisions > 0:
        with tempfile.TemporaryDirectory(prefix="arena-bench-", dir=shared) as root_name:
            start_up(console, Path(root_name), args.start_decisions, args.isolation)
    return 0


def start_up(console: Console, root: Path, decisions: int, isolation: str) -> None:
    """Interpreter start-up (issue 7 item 3): Python warm start and Java class-data sharing, each against
    the plain way in the same sandbox, interleaved; medians of wall and CPU ms per decision."""
    root.chmod(0o711)
    programs = {"Plain.py": PYTHON_PLAIN, "Numpy.py": PYTHON_NUMPY, "Tiny.java": JAVA_TINY}
    for name, text in programs.items():
        (root / name).write_text(text)
    limits = Limits(wall_time_s=30)
    for name in ("Plain.py", "Numpy.py"):
        with open_sandbox(root / name.lower(), limits, isolation=isolation) as sandbox:
            built = build_program(root / name, sandbox.workdir, sandbox)
            fresh = FileTransport(sandbox, built.run_argv)
            warm = WarmPythonTransport(sandbox, built.run_argv)
            times = _interleave([fresh, warm], decisions, console, f"python {name}")
            warm.close()
        _print_pair(console, f"python {name}", "fresh interpreter", "warm start (fork server)", times)
    with open_sandbox(root / "java", limits, isolation=isolation) as sandbox:
        built = build_program(root / "Tiny.java", sandbox.workdir, sandbox)
        runtime, flags = built.run_argv[0], list(built.run_argv[1:-3])
        dump_argv = [runtime, *flags, "-XX:ArchiveClassesAtExit=Tiny.jsa", "-cp", ".", "Tiny"]
        dump = FileTransport(sandbox, dump_argv, protected={"Tiny.jsa"}).exchange(inputs(0)).run
        if not dump.ok or not (sandbox.folder / "Tiny.jsa").exists():
            console.print(f"java: no per-program archive: {dump.describe()} {dump.stderr[-300:]!r}")
        shared_argv = [runtime, *flags, "-XX:SharedArchiveFile=Tiny.jsa", "-cp", ".", "Tiny"]
        plain = FileTransport(sandbox, built.run_argv)
        archived = FileTransport(sandbox, shared_argv, protected={"Tiny.jsa"})
        times = _interleave([plain, archived], decisions, console, "java")
    _print_pair(
        console,
        "java Tiny" + ("" if dump.ok else " (archive failed)"),
        "default CDS archive",
        "per-program CDS archive",
        times,
    )


def _interleave(
    transports: list[FileTransport], decisions: int, console: Console, label: str
) -> list[tuple[list[float], list[float]]]:
    times: list[tuple[list[float], list[float]]] = [([], []) for _ in transports]
    answers: list[str | None] = []
    for decision in track(range(decisions + 2), description=label, console=console, transient=True):
        answers.clear()
        for transport, (walls, cpus) in zip(transports, times, strict=True):
            started = time.perf_counter()
            reply = transport.exchange(inputs(decision))
            if decision >= 2:  # the first two start servers and fill caches
                walls.append((time.perf_counter() - started) * 1000)
                cpus.append(reply.run.cpu_ms)
            answers.append(reply.text)
        if len(set(answers)) != 1:
            raise SystemExit(f"{label}: answers differ at decision {decision}: {answers}")
    return times


def _print_pair(
    console: Console, label: str, plain: str, faster: str, times: list[tuple[list[float], list[float]]]
) -> None:
    (plain_wall, plain_cpu), (fast_wall, fast_cpu) = times
    wall_a, wall_b = statistics.median(plain_wall), statistics.median(fast_wall)
    cpu_a, cpu_b = statistics.median(plain_cpu), statistics.median(fast_cpu)
    console.print(
        f"{label}: {plain} {wall_a:.1f} ms wall / {cpu_a:.1f} ms CPU; {faster} {wall_b:.1f} ms wall / "
        f"{cpu_b:.1f} ms CPU; speed-up {wall_a / wall_b:.1f}x wall, {cpu_a / max(cpu_b, 0.001):.1f}x CPU"
    )


def _p90(values: list[float]) -> float:
    return statistics.quantiles(values, n=10)[-1]


if __name__ == "__main__":
    sys.exit(main())
