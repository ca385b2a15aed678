"""Every language builds and runs in the sandbox; build errors and missing toolchains are clear."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from arena import languages
from arena.errors import ConfigError, ToolchainError
from arena.languages import build_program, language_for, missing_toolchains
from arena.sandbox import Limits, Sandbox, open_sandbox
from arena.transports import FileTransport

from support.sandbox import TINY, build

PROGRAMS = ["TinyC.c", "TinyCpp.cpp", "TinyJava.java", "TinyPerl.pl", "TinyRuby.rb", "TinyPython.py"]


@pytest.fixture
def sandbox(tmp_path: Path) -> Iterator[Sandbox]:
    # A generous wall limit: this test is about building and answering, not speed (the JVM on a busy box).
    with open_sandbox(tmp_path / "team", Limits(wall_time_s=20)) as opened:
        yield opened


@pytest.mark.parametrize("program", PROGRAMS)
def test_every_language_builds_and_answers(sandbox: Sandbox, program: str) -> None:
    built = build(sandbox, TINY / program)
    assert built.run_argv
    assert f"{Path(program).stem}{Path(program).suffix}" in built.products
    reply = FileTransport(sandbox, built.run_argv, protected=built.products).exchange(
        {"inputf.txt": "4          5          6", "deals_money.txt": "", "deal.txt": ""}
    )
    assert reply.run.ok, reply.run.stderr
    assert reply.text == "15\n"
    assert reply.help_files == 0


def test_a_build_error_carries_the_compilers_output(sandbox: Sandbox, tmp_path: Path) -> None:
    source = tmp_path / "Broken.c"
    source.write_text((TINY / "Broken.c").read_text())
    result = build_program(source, sandbox.workdir, sandbox)
    assert not result.ok
    assert "undefined_name" in result.output and "error" in result.output
    assert "build exited with status 1" in result.output


def test_an_unknown_extension_names_the_file() -> None:
    with pytest.raises(ConfigError, match=r"Team\.go: unknown language extension '\.go'"):
        language_for(Path("Team.go"))


def test_extensions_map_to_languages() -> None:
    names = [language_for(Path(name)).name for name in PROGRAMS]
    assert names == ["c", "c++", "java", "perl", "ruby", "python"]


def test_a_missing_toolchain_says_what_to_install(
    sandbox: Sandbox, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    real = languages.tool_path
    monkeypatch.setattr(languages, "tool_path", lambda tool: None if tool == "javac" else real(tool))
    assert missing_toolchains() == {"java": "install openjdk-17-jdk-headless (missing: javac)"}
    source = tmp_path / "TinyJava.java"
    source.write_text((TINY / "TinyJava.java").read_text())
    with pytest.raises(ToolchainError, match=r"java programs need javac.*openjdk-17-jdk-headless"):
        build_program(source, sandbox.workdir, sandbox)


def test_building_elsewhere_than_the_sandbox_folder_is_refused(sandbox: Sandbox, tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match="not the work folder of this sandbox"):
        build_program(TINY / "TinyC.c", tmp_path / "elsewhere", sandbox)


@pytest.mark.parametrize(("program", "has_runtime"), [("TinyC.c", False), ("TinyJava.java", True)])
def test_start_up_is_measured_for_runtimes_only(sandbox: Sandbox, program: str, has_runtime: bool) -> None:
    built = build(sandbox, TINY / program)
    assert (built.startup_ms > 0) is has_runtime
