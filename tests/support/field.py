"""Small deterministic Code'em team programs for the tournament tests: honest, faulty and unbuildable."""

from __future__ import annotations

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
    """Write one Python team program ``<team>.py`` with the given decision body."""
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
