"""The Python warm start is equivalent to a fresh interpreter: same answers, same help files, same faults."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from arena.sandbox import Limits, RunStatus, Sandbox, open_sandbox
from arena.transports import FileReply, FileTransport
from arena.transports.warm import WarmPythonTransport

from support.sandbox import TINY, build, needs_namespaces, processes_of

pytestmark = needs_namespaces

# Generous: the fresh interpreter imports numpy at every decision, slowly on this shared machine.
LIMITS = Limits(wall_time_s=30)
DECISIONS = [f"{n}          {n * 7 % 52 + 1}          {n % 6 + 1}          {n * 10}" for n in range(6)]


@pytest.fixture
def pair(tmp_path: Path) -> Iterator[tuple[Sandbox, Sandbox]]:
    with open_sandbox(tmp_path / "fresh", LIMITS) as fresh, open_sandbox(tmp_path / "warm", LIMITS) as warm:
        yield fresh, warm


def play(transport: FileTransport) -> list[FileReply]:
    files = [{"inputf.txt": line, "deal.txt": f"deal {n}\n"} for n, line in enumerate(DECISIONS)]
    return [transport.exchange(inputs) for inputs in files]


def files_of(sandbox: Sandbox) -> dict[str, bytes]:
    return {
        path.relative_to(sandbox.folder).as_posix(): path.read_bytes()
        for path in sorted(sandbox.folder.rglob("*"))
        if path.is_file()
    }


def test_a_program_gives_the_same_answers_and_files_both_ways(pair: tuple[Sandbox, Sandbox]) -> None:
    fresh, warm = pair
    fresh_argv = build(fresh, TINY / "warm_memory.py").run_argv
    warm_argv = build(warm, TINY / "warm_memory.py").run_argv
    warm_transport = WarmPythonTransport(warm, warm_argv)
    cold, hot = play(FileTransport(fresh, fresh_argv)), play(warm_transport)
    warm_transport.close()
    assert [reply.text for reply in hot] == [reply.text for reply in cold]
    assert [reply.run.stdout for reply in hot] == [reply.run.stdout for reply in cold]
    assert [(reply.run.status, reply.help_files, reply.violations) for reply in hot] == [
        (reply.run.status, reply.help_files, reply.violations) for reply in cold
    ]
    assert all(reply.text is not None and reply.text.split()[1] == "1" for reply in hot)  # fresh module state
    cold_files, hot_files = files_of(fresh), files_of(warm)
    draws = [files.pop("randoms.txt").split() for files in (cold_files, hot_files)]
    assert hot_files == cold_files
    for lines in draws:
        assert len(set(lines)) == len(DECISIONS)  # fresh random seeds at every decision, both ways
    assert processes_of(warm) == []


SCRIPTS = {
    "exits_3.py": ("import sys\nsys.exit(3)\n", RunStatus.NONZERO_EXIT, 3),
    "raises.py": ("raise ValueError('bad hand')\n", RunStatus.NONZERO_EXIT, 1),
    "clean.py": ("open('outputf.txt', 'w').write('0\\n')\n", RunStatus.OK, 0),
}


@pytest.mark.parametrize("name", sorted(SCRIPTS))
def test_exits_and_crashes_are_the_same_both_ways(
    pair: tuple[Sandbox, Sandbox], tmp_path: Path, name: str
) -> None:
    source, status, code = SCRIPTS[name]
    program = tmp_path / name
    program.write_text(source)
    fresh, warm = pair
    replies = []
    for sandbox, kind in ((fresh, FileTransport), (warm, WarmPythonTransport)):
        transport = kind(sandbox, build(sandbox, program).run_argv)
        replies.append(transport.exchange({"inputf.txt": "1 2 3"}))
    for reply in replies:
        assert (reply.run.status, reply.run.exit_code) == (status, code)
    assert replies[0].text == replies[1].text
    if name == "raises.py":
        assert all(b"ValueError: bad hand" in reply.run.stderr for reply in replies)


def test_a_warm_program_that_kills_its_server_is_run_cold_and_the_server_comes_back(
    tmp_path: Path,
) -> None:
    """A dead fork server is arena's incident, never the team's fault: the decision is rerun cold."""
    program = tmp_path / "killer.py"
    program.write_text(
        "import os, signal\n"
        "if os.path.exists('armed'):\n"
        "    os.kill(os.getppid(), signal.SIGKILL)\n"
        "open('outputf.txt', 'w').write('0\\n')\n"
    )
    with open_sandbox(tmp_path / "team", LIMITS) as sandbox:
        transport = WarmPythonTransport(sandbox, build(sandbox, program).run_argv)
        assert transport.exchange({"inputf.txt": "1"}).text == "0\n"
        (sandbox.folder / "armed").write_text("")
        attacked = transport.exchange({"inputf.txt": "1"})
        assert attacked.run.status is RunStatus.OK and attacked.text == "0\n"
        # Cold, it kills its parent again: arena's runner (where there is one), whose decision the helper
        # (PID 1, which ignores it) runs once more.
        runner = ["arena's runner"] if sandbox.runner_failures else []
        assert sandbox.runner_failures == sandbox.has_runner
        assert [incident.split(" failed")[0] for incident in attacked.run.incidents] == [
            *runner,
            "arena's Python fork server",
        ]
        (sandbox.folder / "armed").unlink()
        assert transport.exchange({"inputf.txt": "1"}).text == "0\n"
        transport.close()
        assert processes_of(sandbox) == []


@pytest.mark.slow
def test_five_thousand_warm_decisions_of_an_honest_program_have_no_fault(tmp_path: Path) -> None:
    """The fork server is arena's: the decisions' CPU limit (1 s here) never accumulates on it.

    Each decision costs the server a fork and a JSON line (about 1 ms of CPU), so a server living under the
    1 s limit would be killed by the kernel within the first thousand decisions.
    """
    program = tmp_path / "honest.py"
    program.write_text(
        "values = [int(word) for word in open('inputf.txt').read().split()]\n"
        "open('outputf.txt', 'w').write(f'{sum(values) % 7}\\n')\n"
    )
    with open_sandbox(tmp_path / "team", Limits(wall_time_s=5, cpu_time_s=1)) as sandbox:
        transport = WarmPythonTransport(sandbox, build(sandbox, program).run_argv, preload=())
        unexpected = []
        for number in range(5000):
            reply = transport.exchange({"inputf.txt": f"{number} 3"})
            if not reply.run.ok or reply.run.incidents or reply.text != f"{(number + 3) % 7}\n":
                unexpected.append((number, reply.text, reply.run.describe(), reply.run.incidents))
        transport.close()
    assert unexpected == []
