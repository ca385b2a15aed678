"""``arena doctor``: what this machine gives team programs: the isolation level and the toolchains."""

from __future__ import annotations

import argparse
import json
import tempfile
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.table import Table

from arena.errors import ArenaError
from arena.languages import LANGUAGES, missing_toolchains, tool_path, tool_version
from arena.sandbox import Limits, open_sandbox
from arena.sandbox.cgroup import SandboxCgroup, leftovers, remove_leftovers
from arena.sandbox.isolation import namespaces_available


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add the ``doctor`` parser."""
    parser = subparsers.add_parser("doctor", help="report the sandbox isolation level and toolchains")
    parser.add_argument("--json", action="store_true", help="print the report as JSON")
    parser.set_defaults(handler=run)


def diagnose() -> dict[str, Any]:
    """Probe the machine for real: open a sandbox and run a program in it, look up every toolchain."""
    available, reason = namespaces_available()
    report: dict[str, Any] = {
        "namespaces": {"available": available, "detail": reason},
        "memory_cgroup": SandboxCgroup.available(),
        "leftovers": [str(path) for path in leftovers()],
    }
    remove_leftovers()
    with tempfile.TemporaryDirectory(prefix="arena-doctor-") as folder:
        try:
            with open_sandbox(Path(folder), Limits()) as sandbox:
                probe = sandbox.run(["/bin/sh", "-c", "id -u"])
                report["isolation_level"] = sandbox.isolation_level
                report["runner"] = str(sandbox.runner_binary) if sandbox.has_runner else None
                report["probe"] = {
                    "ok": probe.ok,
                    "uid": probe.stdout.decode().strip(),
                    "wall_ms": round(probe.wall_ms, 2),
                }
        except ArenaError as error:
            report["isolation_level"] = "none"
            report["runner"] = None
            report["probe"] = {"ok": False, "error": str(error)}
    missing = missing_toolchains()
    report["toolchains"] = {
        language.name: {
            "present": language.name not in missing,
            "tools": {tool: tool_path(tool) for tool in language.tools},
            "versions": {tool: tool_version(tool) for tool in language.tools},
            "install": missing.get(language.name, ""),
        }
        for language in LANGUAGES
    }
    return report


def run(args: argparse.Namespace) -> int:
    """Print the report; exit 1 when no sandbox could run a program here."""
    report = diagnose()
    if args.json:
        print(json.dumps(report, indent=2))
        return 0 if report["probe"]["ok"] else 1
    console = Console()
    level = report["isolation_level"]
    style = "green" if level == "namespaces" else "yellow"
    console.print(f"isolation level: [{style}]{level}[/{style}]")
    console.print(f"  namespaces: {report['namespaces']['detail']}")
    console.print(f"  cgroups: {'yes' if report['memory_cgroup'] else 'no (RLIMIT_DATA, no cgroup.kill)'}")
    runner = report["runner"]
    if runner:
        console.print(f"  decisions run by: arena's compiled runner ({runner})", markup=False)
    else:
        needs = "the compiled runner needs namespaces, cgroup v2 and cc"
        console.print(f"  decisions run by: the Python helper ({needs})")
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
