"""Small deterministic Code'em programs for the tournament tests: honest, faulty and unbuildable."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

TEMPLATE = """
def stage():
    try:
        for line in open("deal.txt"):
            words = line.split()
            if len(words) >= 2 and words[0] == "Stage":
                return words[1]
    except OSError:
        pass
    return ""


if stage() != "Show_Down":
    c1, c2, me, spent = (int(x) for x in open("inputf.txt").read().split())
    r1, r2 = (c1 - 1) % 13, (c2 - 1) % 13
    strength = r1 + r2 + (13 if r1 == r2 else 0)
    {body}
"""

HONEST = {
    "caller": 'open("outputf.txt", "w").write("0\\n")',
    "raiser": 'open("outputf.txt", "w").write(("20" if strength >= {t} else "0") + "\\n")',
    "tight": 'open("outputf.txt", "w").write(("0" if strength >= {t} else "-10") + "\\n")',
}
GARBAGE = 'open("outputf.txt", "w").write("lots\\n")'
CRASH = "raise SystemExit(3)"
BROKEN_C = "int main(void) { this is not C }\n"


def write_team(folder: Path, team: str, body: str) -> Path:
    path = folder / f"{team}.py"
    path.write_text(TEMPLATE.format(body=body))
    return path


def make_field(folder: Path, teams: int, *, faulty: bool = True) -> list[str]:
    """``teams`` programs Pr0001...; with ``faulty``, the last three answer garbage, crash, do not build."""
    folder.mkdir(parents=True, exist_ok=True)
    names = [f"Pr{i:04d}" for i in range(1, teams + 1)]
    honest = names[:-3] if faulty else names
    for i, team in enumerate(honest):
        kind = ("caller", "raiser", "tight")[i % 3]
        write_team(folder, team, HONEST[kind].format(t=8 + 3 * i))
    if faulty:
        write_team(folder, names[-3], GARBAGE)
        write_team(folder, names[-2], CRASH)
        (folder / f"{names[-1]}.c").write_text(BROKEN_C)
    return names


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
