"""A tournament compiles each program once: later tables reuse the stored build, errors included."""

from pathlib import Path

from arena.languages import build_program
from arena.sandbox import open_sandbox
from arena.sandbox.limits import Limits
from arena.transports.files import FileTransport

TINY = Path(__file__).parent / "programs" / "tiny"
INPUTS = {"inputf.txt": "4          5          6", "deals_money.txt": "", "deal.txt": ""}


def _build_and_answer(program: Path, folder: Path, cache: Path):
    folder.mkdir()
    with open_sandbox(folder, Limits()) as sandbox:
        built = build_program(program, folder, sandbox, cache=cache)
        if not built.ok:
            return built, None
        reply = FileTransport(sandbox, built.run_argv, protected=built.products).exchange(INPUTS)
        return built, reply.text


def test_a_program_is_compiled_once_and_the_copy_runs(tmp_path: Path) -> None:
    cache = tmp_path / "builds"
    first, answer = _build_and_answer(TINY / "TinyCpp.cpp", tmp_path / "table1", cache)
    assert first.ok and first.wall_ms > 0 and answer == "15\n"
    entries = [p for p in cache.iterdir() if not p.name.startswith(".")]
    assert len(entries) == 1
    again, answer_again = _build_and_answer(TINY / "TinyCpp.cpp", tmp_path / "table2", cache)
    assert again.wall_ms == 0.0, "the second table must not compile again"
    assert (again.ok, again.run_argv, again.products) == (first.ok, first.run_argv, first.products)
    assert answer_again == "15\n"


def test_a_build_error_is_stored_too(tmp_path: Path) -> None:
    cache = tmp_path / "builds"
    first, _ = _build_and_answer(TINY / "Broken.c", tmp_path / "t1", cache)
    again, _ = _build_and_answer(TINY / "Broken.c", tmp_path / "t2", cache)
    assert not first.ok and not again.ok
    assert again.output == first.output and "undefined_name" in again.output
    assert again.wall_ms == 0.0


def test_a_changed_program_is_built_again(tmp_path: Path) -> None:
    cache = tmp_path / "builds"
    source = tmp_path / "src" / "TinyCpp.cpp"
    source.parent.mkdir()
    source.write_text((TINY / "TinyCpp.cpp").read_text())
    _build_and_answer(source, tmp_path / "t1", cache)
    source.write_text((TINY / "TinyCpp.cpp").read_text() + "\n// edited\n")
    rebuilt, answer = _build_and_answer(source, tmp_path / "t2", cache)
    assert rebuilt.wall_ms > 0 and answer == "15\n"
    assert len([p for p in cache.iterdir() if not p.name.startswith(".")]) == 2
