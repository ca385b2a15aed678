"""``arena doctor``: what this machine gives team programs: the isolation level and the toolchains."""

from __future__ import annotations

import argparse
import json

from rich.console import Console
from rich.table import Table

from arena.games.headsup.hand_loop import loop_kernel
from arena.sandbox.cores import DISABLE as DISABLE_PINNING
from arena.seats.machine import diagnose


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add the ``doctor`` parser."""
    parser = subparsers.add_parser("doctor", help="report the sandbox isolation level and toolchains")
    parser.add_argument("--json", action="store_true", help="print the report as JSON")
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    """Print the report; exit 1 when no sandbox could run a program here."""
    report = diagnose()
    loop = loop_kernel()  # the heads-up game's own build, beside the machine's report
    report["headsup_loop"] = str(loop.path) if loop is not None else None
    if args.json:
        print(json.dumps(report, indent=2))
        return 0 if report["probe"]["ok"] else 1
    console = Console()
    level = report["isolation_level"]
    style = "green" if level == "namespaces" else "yellow"
    console.print(f"isolation level: [{style}]{level}[/{style}]")
    console.print(f"  namespaces: {report['namespaces']['detail']}")
    console.print(f"  cgroups: {'yes' if report['memory_cgroup'] else 'no (RLIMIT_DATA, no cgroup.kill)'}")
    reset = report["page_cache_reset"]
    kept = "[yellow]kept[/yellow] (no memory cgroup: a table can pass information to the next)"
    console.print(f"  page cache of a closed sandbox: {f'reclaimed ({reset})' if reset else kept}")
    runner = report["runner"]
    if runner:
        console.print(f"  decisions run by: arena's compiled runner ({runner})", markup=False)
    else:
        needs = "the compiled runner needs namespaces, cgroup v2 and cc"
        console.print(f"  decisions run by: the Python helper ({needs})")
    pinning = report["pinning"]
    if pinning["cpu"] is not None:
        where = f"one CPU each, of {pinning['cpus']} (a free one now: CPU {pinning['cpu']})"
    elif pinning["cpus"] > 1:
        where = f"not pinned now (every CPU taken by a table, or {DISABLE_PINNING}=1)"
    else:
        where = "on the one CPU this process may use"
    console.print(f"  tables and matches: {where}")
    kernel = report["rollout_kernel"]
    rollouts = f"compiled ({kernel})" if kernel else "numpy (no C compiler)"
    console.print(f"  heads-up rollouts: {rollouts}", markup=False)
    loop = report["headsup_loop"]
    hands = f"compiled ({loop})" if loop else "the judge's Python loop (no C compiler)"
    console.print(f"  heads-up hand loop: {hands}", markup=False)
    found = report["leftovers"]
    console.print(f"  leftovers of dead runs: {len(found)}{' (removed)' if found else ''}")
    for path in found:
        console.print(f"    {path}", markup=False)
    probe = report["probe"]
    if probe["ok"]:
        console.print(f"  probe: a program ran as uid {probe['uid']} in {probe['wall_ms']} ms")
    else:
        console.print(f"  [red]probe failed[/red]: {probe.get('error', 'the probe program did not run')}")
    table = Table("language", "toolchain", "tools", "version")
    for name, entry in report["toolchains"].items():
        state = "[green]present[/green]" if entry["present"] else f"[red]missing[/red]: {entry['install']}"
        tools = ", ".join(f"{tool}={path or '-'}" for tool, path in entry["tools"].items())
        versions = "; ".join(version for version in entry["versions"].values() if version) or "-"
        table.add_row(name, state, tools, versions)
    console.print(table)
    return 0 if probe["ok"] else 1
