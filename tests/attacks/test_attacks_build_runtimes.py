"""Red-team attacks, fourth round: the build and the language runtimes.

Each attacker is in ``tests/programs/attacks/`` and says what it tries; each plays a real Code'em table
through :func:`support.hostile.play_hostile` (the table completes, the canary outside is unchanged, nothing
of the table's sandboxes remains). Held: an endless header (``/dev/zero``), a 64 MB binary, a Perl ``BEGIN``
daemon left by ``perl -c``, a given help file swapped for a link by a build, 30,000 files and a deep chain
left by a build, Ruby's ``BEGIN`` (not run by ``ruby -c``) and daemons, Java's threads, ``ProcessBuilder``
and shutdown hooks, its own class files and 2,001 of them, modules named like the standard library's (and
arena's) planted for a restarted fork server. Found and closed: a build that blocks without spending CPU
held its table for 301 s (the CPU clock's cap of a 60 s limit; builds are now on the wall clock); the warm
start imported a team's help module named ``traceback.py`` in every decision, and gave the standard
library's ``json`` (and every other module numpy's preload brought in) to a decision importing its own
``json.py``; a finalist's given help file ``*.class`` was taken as a Java build product (read-only, and no
longer counted as a help file); a program with many compiler warnings failed to build on the output cap.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from arena.faults import FaultKind
from arena.games.codem.table import PlayerSpec, TableConfig, run_table
from arena.languages import C, build_in_sandbox
from arena.sandbox import Limits, open_sandbox, tree

from support.hostile import HONEST, ROOT, play_hostile
from support.sandbox import needs_namespaces

pytestmark = needs_namespaces

REDTEAM = ROOT / "tests" / "programs" / "attacks"
warm = pytest.mark.skipif(not hasattr(os, "pidfd_open"), reason="the warm start needs pidfd_open")


def _tagged_lines_stay_in_their_decision(path: Path) -> int:
    """``start-N`` opens decision N in ``path``; every other line ``<who>-N`` must be written during it.

    Returns how many decisions there were."""
    current, lines = 0, path.read_text().split()
    for line in lines:
        who, _, number = line.rpartition("-")
        if who == "start":
            current = int(number)
        else:
            assert int(number) == current, f"{line} written during decision {current}"
    return current


def test_an_endless_header_fails_the_build_on_its_memory_limit(tmp_path: Path) -> None:
    """``#include "/dev/zero"``: the compiler runs out of memory in a moment; the build fails and says so
    (on its memory limit, not on its 60 s wall limit)."""
    outcome = play_hostile(REDTEAM / "IncludeZero.c", tmp_path, deals=2)
    assert not outcome.attacker.built
    assert {fault.kind for fault in outcome.faults} == {FaultKind.BUILD_FAILED}
    assert "build ran out of memory" in outcome.attacker.build_output
    assert "wall limit" not in outcome.attacker.build_output


def test_a_binary_past_the_file_size_limit_fails_the_build(tmp_path: Path) -> None:
    """A 64 MB initialised array: the linker meets the 16 MB file-size limit; the build fails saying so,
    and no product is kept."""
    outcome = play_hostile(REDTEAM / "HugeBinary.cpp", tmp_path, deals=2)
    assert not outcome.attacker.built
    assert {fault.kind for fault in outcome.faults} == {FaultKind.BUILD_FAILED}
    assert "File size limit exceeded" in outcome.attacker.build_output
    assert not (outcome.team_folder / "HugeBinary").exists()


def test_thirty_thousand_files_and_a_deep_chain_left_by_a_build_give_a_short_reason(tmp_path: Path) -> None:
    """A Perl ``BEGIN`` block leaves 30,000 files and a 3,000-deep chain in the folder and in ``/tmp``: the
    build fails with a capped reason, and the folder holds only what was there before the build."""
    outcome = play_hostile(REDTEAM / "BuildFlood.pl", tmp_path, deals=2)
    assert not outcome.attacker.built
    assert {fault.kind for fault in outcome.faults} == {FaultKind.BUILD_FAILED}
    output = outcome.attacker.build_output
    assert "f1 is not a file a Perl build makes" in output and len(output) < 2000
    assert {path.name for path in outcome.team_folder.iterdir()} == {"BuildFlood.pl", "canary.txt"}


def test_a_given_help_file_swapped_for_a_link_at_build_time_is_removed(tmp_path: Path) -> None:
    """A Perl ``BEGIN`` block replaces the given ``canary.txt`` by a link to the host canary's root-only
    secret: the build passes (no new name), the link is never followed (the canary is unchanged) and the
    first decision's policing removes it with a ``sandbox_violation`` naming it."""
    outcome = play_hostile(REDTEAM / "BuildSwapGiven.pl", tmp_path, deals=2)
    assert outcome.attacker.built, outcome.attacker.build_output
    assert [fault.kind for fault in outcome.faults] == [FaultKind.SANDBOX_VIOLATION]
    assert "canary.txt is a symbolic link" in outcome.faults[0].reason
    seen = (outcome.team_folder / "seen.txt").read_text().split()
    assert seen[0] == "link" and set(seen[1:]) == {"none"}
    assert not os.path.lexists(outcome.team_folder / "canary.txt")


def test_a_perl_begin_daemon_ends_with_the_build(tmp_path: Path) -> None:
    """A daemon left by a ``BEGIN`` block at ``perl -c`` (setsid, double fork, TERM and HUP ignored)
    never sees a decision: it is gone before the first, so it forges no answer."""
    outcome = play_hostile(REDTEAM / "BuildDaemon.pl", tmp_path, deals=3)
    assert outcome.attacker.built, outcome.attacker.build_output
    assert outcome.faults == ()
    assert not (outcome.team_folder / "survived.txt").exists()


def test_ruby_begin_is_not_run_at_build_and_daemons_end_with_their_decision(tmp_path: Path) -> None:
    """``ruby -c`` runs no ``BEGIN`` block (its file would fail the build); a ``Process.daemon`` child
    trapping TERM writes only during the decision that started it."""
    outcome = play_hostile(REDTEAM / "RubyLinger.rb", tmp_path, deals=3)
    assert outcome.attacker.built, outcome.attacker.build_output
    assert outcome.faults == ()
    assert _tagged_lines_stay_in_their_decision(outcome.team_folder / "linger.txt") > 3


@pytest.mark.slow
def test_java_processes_threads_and_hooks_end_with_the_decision_and_classes_stay_arenas(
    tmp_path: Path,
) -> None:
    """Several top-level classes, a static initialiser, a shell from ``ProcessBuilder`` and a daemon
    thread left writing, a shutdown hook: each decision's writers stop with it, and every attempt to
    write, replace, chmod or delete its own class files is refused."""
    outcome = play_hostile(REDTEAM / "JavaLinger.java", tmp_path, deals=3)
    assert outcome.attacker.built, outcome.attacker.build_output
    assert outcome.faults == ()
    folder = outcome.team_folder
    decisions = _tagged_lines_stay_in_their_decision(folder / "linger.txt")
    assert decisions > 3
    tries = (folder / "tries.txt").read_text().split()
    assert len(tries) == 4 * decisions and all(word.endswith(":denied") for word in tries), tries
    classes = {"JavaLinger.class", "Note.class", "Tries.class", "Tries$Callable.class"}
    assert classes <= set(outcome.compiled)  # still in its box when the table ended, and read-only
    assert all(outcome.compiled[name].st_mode & 0o222 == 0 for name in classes)


def test_two_thousand_class_files_are_products_not_help_files(tmp_path: Path) -> None:
    """One source, 2,001 classes: every class file is a build product (never a help file), the table goes
    on without a fault and the products are all in its folder at the end."""
    outcome = play_hostile(REDTEAM / "ManyClasses.java", tmp_path, deals=1)
    assert outcome.attacker.built, outcome.attacker.build_output
    assert outcome.faults == ()
    assert len([name for name in outcome.compiled if name.endswith(".class")]) == 2001


@warm
def test_stdlib_named_help_files_never_reach_the_fork_server(tmp_path: Path) -> None:
    """``sitecustomize.py``, ``random.py``, ``json.py``, ``numpy.py``, ``clock.py``, ``prctl.py``... in the
    team folder, then the server killed so that arena starts a new one there: the new server imports none
    of them (its path is its own folder and the interpreter's), and the table goes on: the one decision that
    killed its server is its own fault (killed), every other is clean."""
    outcome = play_hostile(REDTEAM / "ShadowStdlib.py", tmp_path, deals=3)
    assert [fault.kind for fault in outcome.faults] == [FaultKind.CRASH]  # the server was restarted
    assert outcome.attacker.decisions > 1
    poison = outcome.team_folder / "poison.txt"
    imports = poison.read_text().splitlines() if poison.exists() else []
    assert not [line for line in imports if "forkserver" in line], imports
    assert imports == [], imports


@warm
def test_a_help_module_named_traceback_is_not_run_by_the_warm_start(tmp_path: Path) -> None:
    """A program that never imports ``traceback`` but keeps a help module of that name: as with
    ``python TracebackHelp.py``, the module must never run."""
    outcome = play_hostile(REDTEAM / "TracebackHelp.py", tmp_path, deals=2)
    assert outcome.faults == ()
    assert not (outcome.team_folder / "imported.txt").exists()


@warm
@pytest.mark.parametrize("program", ["OwnJson.py", "OwnPackage.py"])
def test_a_help_module_named_json_is_the_one_a_warm_decision_imports(program: str, tmp_path: Path) -> None:
    """A program importing its own ``json.py`` (or package ``inspect/``): as with ``python OwnJson.py``, it
    must get its own."""
    outcome = play_hostile(REDTEAM / program, tmp_path, deals=2)
    assert outcome.faults == ()
    which = (outcome.team_folder / "which.txt").read_text().split()
    assert which and set(which) == {"own"}, which


def test_a_given_class_file_stays_a_help_file(tmp_path: Path) -> None:
    """A finalist's help file ``Stash.class`` and 15 new help files each decision: 16 help files, one too
    many, whatever their names (``JavaStash.java``)."""
    given = tmp_path / "given"
    given.mkdir()
    (given / "Stash.class").write_bytes(b"the team's data\n")
    program = REDTEAM / "JavaStash.java"
    players = [PlayerSpec(program.stem, program, given)] + [PlayerSpec(p.stem, p) for p in HONEST]
    result = run_table(players, tmp_path / "table", TableConfig(deals=1, seed=7, max_faults=100_000))
    team = next(team for team in result.teams if team.team == program.stem)
    assert team.built, team.build_output
    assert FaultKind.HELP_FILE_LIMIT in {fault.kind for fault in team.faults}


def test_a_program_with_many_warnings_builds(tmp_path: Path) -> None:
    """``ManyWarnings.c`` compiles with gcc (exit 0) and 270 KB of warnings: it must build and play."""
    outcome = play_hostile(REDTEAM / "ManyWarnings.c", tmp_path, deals=1)
    assert outcome.attacker.built, outcome.attacker.build_output[-300:]
    assert outcome.faults == ()


def test_a_build_blocked_without_cpu_ends_at_its_wall_limit(tmp_path: Path) -> None:
    """``#include "/dev/ptmx"`` blocks cc1 on a read that never returns. With the table's clock, a build
    given a 1 s wall limit ends on that wall limit (it ended on the CPU clock's cap, 5 x 1 + 1 s; the real
    60 s limit held a table for 301 s)."""
    with open_sandbox(tmp_path / "team", Limits(clock="cpu")) as sandbox:
        root = tree.open_folder(sandbox.folder)
        try:
            source = (REDTEAM / "BlockingInclude.c").read_bytes()
            tree.write_new_file(root, "BlockingInclude.c", source, 0o444)
        finally:
            os.close(root)
        build = build_in_sandbox(
            C,
            ["BlockingInclude.c"],
            output="BlockingInclude",
            entry="BlockingInclude",
            sandbox=sandbox,
            wall_time_s=1.0,
        )
    assert not build.ok
    assert build.output.splitlines()[-1] == "build ran past the 1 s wall limit", build.output[-300:]
