"""Write sample_tables/ from bots/codem/: the demo teams that are copies or variants of the sample programs.

    python tools/sample_tables.py           # rewrite the derived files
    python tools/sample_tables.py --check   # exit 1, naming each file, when one is not what bots/codem/ gives

Each team below is a bot of bots/codem/ with exact text edits: a header line saying what the team is, a
changed constant for a variant, the deliberate fault of Pr0012. An edit whose text no longer appears in
its bot stops the script with one line naming the bot and the text, so that a change to a bot is carried
into sample_tables/ on purpose. Pr0011 is written for the folder itself and is not generated.
sample_tables/README.md describes every team; tests/games/codem/test_sample_tables.py runs the check.
"""

from __future__ import annotations

import argparse
import sys
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
BOTS = ROOT / "bots" / "codem"
SAMPLES = ROOT / "sample_tables"

PR0012_FAULT = """exit 0 if $deal->{stage} eq 'Show_Down';

# THE DELIBERATE FAULT: with a pocket pair before the flop this program never answers (it waits forever,
# past any time limit), so the arena records a time-out and plays its default action.
if ($deal->{stage} eq 'Pre_Flop' && rank($c1) == rank($c2)) {
    sleep 60 while 1;
}
"""


@dataclass(frozen=True)
class Team:
    """A team program made from ``bot`` by replacing each ``old`` text (found exactly once) by ``new``."""

    bot: str
    edits: tuple[tuple[str, str], ...] = ()


def _header(marker: str, line: str) -> tuple[str, str]:
    """An edit putting ``line`` (a comment of the bot's language) above the line that starts ``marker``."""
    return marker, f"{line}\n{marker}"


TEAMS: dict[str, Team] = {
    "Pr0001.py": Team("Caller.py"),
    "Pr0002.c": Team("Tight.c"),
    "Pr0003.cpp": Team("Raiser.cpp"),
    "Pr0004.pl": Team("Bluffer.pl"),
    "Pr0005.rb": Team("Tracker.rb"),
    "Pr0006.java": Team(
        "Equity.java",
        (
            _header(
                "// Equity: ",
                "// Pr0006: bots/codem/Equity.java with its class renamed to match the file name.",
            ),
            ("javac Equity.java   Run: java -cp . Equity", "javac Pr0006.java   Run: java -cp . Pr0006"),
            ("public class Equity {", "public class Pr0006 {"),
            ("Equity deal = new Equity();", "Pr0006 deal = new Pr0006();"),
        ),
    ),
    "Pr0007.py": Team("Learner.py"),
    "Pr0008.c": Team(
        "Tight.c",
        (
            _header(
                " * Tight: ",
                " * Pr0008: a looser variant of bots/codem/Tight.c (raises hand groups up to 3, calls\n"
                " * a raise of up to 6 big blinds with groups up to 5, of up to 3 with groups up to 6).",
            ),
            ("#define RAISE_GROUP 2 ", "#define RAISE_GROUP 3 "),
            ("#define CALL_GROUP 3 ", "#define CALL_GROUP 5 "),
            ("#define DEFEND_GROUP 4 ", "#define DEFEND_GROUP 6 "),
        ),
    ),
    "Pr0009.cpp": Team(
        "Raiser.cpp",
        (
            _header(
                "// Raiser: ",
                "// Pr0009: a wilder variant of bots/codem/Raiser.cpp "
                "(raises from Chen score 7, calls from 5).",
            ),
            ("constexpr int kRaiseScore = 8;", "constexpr int kRaiseScore = 7;"),
            ("constexpr int kCallScore = 6;", "constexpr int kCallScore = 5;"),
        ),
    ),
    "Pr0010.pl": Team(
        "Bluffer.pl",
        (
            _header(
                "# Bluffer: ",
                "# Pr0010: bots/codem/Bluffer.pl bluffing twice as often (60% of its late-position chances).",
            ),
            ("my $BLUFF_RATE = 0.30;", "my $BLUFF_RATE = 0.60;"),
        ),
    ),
    "Pr0012.pl": Team(
        "Bluffer.pl",
        (
            _header(
                "# Bluffer: ",
                "# Pr0012: a DELIBERATELY FAULTY copy of bots/codem/Bluffer.pl: "
                "it hangs on a pocket pair pre-flop.",
            ),
            ("exit 0 if $deal->{stage} eq 'Show_Down';\n", PR0012_FAULT),
        ),
    ),
}


def render(name: str) -> str:
    """The text of sample_tables/``name`` made from its bot (``ValueError`` when an edit no longer fits)."""
    team = TEAMS[name]
    text = (BOTS / team.bot).read_text()
    for old, new in team.edits:
        if text.count(old) != 1:
            raise ValueError(
                f"bots/codem/{team.bot} holds {text.count(old)} copies of {old!r}, not one: "
                f"update the edit for sample_tables/{name} in tools/sample_tables.py"
            )
        text = text.replace(old, new)
    return text


def stale() -> list[str]:
    """The derived files of sample_tables/ that differ from what bots/codem/ gives."""
    return [name for name in TEAMS if (SAMPLES / name).read_text() != render(name)]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="only report files that are out of step")
    args = parser.parse_args(argv)
    try:
        differing = stale()
        if args.check:
            for name in differing:
                print(f"sample_tables/{name} is out of step with bots/codem/{TEAMS[name].bot}")
            return 1 if differing else 0
        for name in differing:
            (SAMPLES / name).write_text(render(name))
            print(f"wrote sample_tables/{name} from bots/codem/{TEAMS[name].bot}")
    except ValueError as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
