"""004: finalists may change their code before the final; code that does not build falls back."""

from pathlib import Path

from rich.console import Console

from arena.tournament.final import final_programs

TINY = Path(__file__).parents[1] / "programs" / "tiny"


def test_updated_programs_that_build_replace_the_initial_ones(tmp_path: Path) -> None:
    registered = {team: tmp_path / "initial" / f"{team}.c" for team in ("Pr1", "Pr2", "Pr3", "Pr9")}
    updates = tmp_path / "updates"
    updates.mkdir()
    (updates / "Pr1.c").write_text((TINY / "TinyC.c").read_text())  # builds
    (updates / "Pr2.c").write_text((TINY / "Broken.c").read_text())  # does not build
    (updates / "Pr9.c").write_text((TINY / "TinyC.c").read_text())  # not a finalist
    console = Console(record=True, width=200)
    programs = final_programs(updates, ["Pr1", "Pr2", "Pr3"], registered, console.print)
    assert programs == {"Pr1": updates / "Pr1.c", "Pr2": registered["Pr2"], "Pr3": registered["Pr3"]}
    said = console.export_text()
    assert "Pr1: the final table uses the updated Pr1.c" in said
    assert "Pr2: the updated Pr2.c does not build, so its initial code plays" in said
    assert "undefined_name" in said
    assert "Pr9" not in said


def test_without_a_folder_the_registered_programs_play(tmp_path: Path) -> None:
    registered = {"A": tmp_path / "A.py", "B": tmp_path / "B.py", "C": tmp_path / "C.py"}
    assert final_programs(None, ["A", "B"], registered, Console().print) == {
        "A": registered["A"],
        "B": registered["B"],
    }
