"""The small deterministic Code'em programs of tests/support/field.py answer as designed."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from support.field import BROKEN_C, make_field


def run_bot(program: Path, folder: Path, *, cards: tuple[int, int], stage: str) -> str:
    """Run a test program once with the three input files, as the arena would; its answer."""
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "inputf.txt").write_text(f"{cards[0]}          {cards[1]}          1          10\n")
    (folder / "deal.txt").write_text(f"Dealer         2\nStage          {stage}\nMain_Pot       15\n")
    (folder / "outputf.txt").write_text("")
    subprocess.run([sys.executable, str(program)], cwd=folder, check=False, capture_output=True)
    return (folder / "outputf.txt").read_text()


def test_the_test_programs_answer_as_designed(tmp_path: Path) -> None:
    names = make_field(tmp_path / "sub", 6)
    sub = tmp_path / "sub"
    aces, deuce_three = (13, 26), (1, 15)
    assert run_bot(sub / f"{names[0]}.py", tmp_path / "a", cards=deuce_three, stage="Flop") == "0\n"
    assert run_bot(sub / f"{names[1]}.py", tmp_path / "b", cards=aces, stage="Flop") == "20\n"
    assert run_bot(sub / f"{names[2]}.py", tmp_path / "c", cards=deuce_three, stage="Pre_Flop") == "-10\n"
    assert run_bot(sub / f"{names[2]}.py", tmp_path / "d", cards=aces, stage="Show_Down") == ""
    assert run_bot(sub / f"{names[3]}.py", tmp_path / "e", cards=aces, stage="Flop") == "lots\n"
    assert run_bot(sub / f"{names[4]}.py", tmp_path / "f", cards=aces, stage="Flop") == ""
    assert (sub / f"{names[5]}.c").read_text() == BROKEN_C
