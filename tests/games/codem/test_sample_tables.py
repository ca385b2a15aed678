"""sample_tables/ stays in step with bots/codem/: every copy or variant is what tools/sample_tables.py
makes from its bot, and the folder's README names each team's bot."""

from __future__ import annotations

from pathlib import Path

import pytest

from support.tools import load_tool

generator = load_tool("sample_tables")


def test_every_derived_team_is_what_its_bot_gives() -> None:
    assert generator.stale() == [], "run: python tools/sample_tables.py"


@pytest.mark.parametrize("team", sorted(generator.TEAMS))
def test_the_readme_names_each_teams_bot(team: str) -> None:
    readme = (generator.SAMPLES / "README.md").read_text()
    row = next(
        line
        for line in readme.splitlines()
        if line.startswith(f"| {Path(team).stem} ") or line.startswith(f"| **{Path(team).stem}** ")
    )
    assert Path(generator.TEAMS[team].bot).stem in row


def test_an_edit_that_no_longer_fits_its_bot_is_named(monkeypatch: pytest.MonkeyPatch) -> None:
    broken = generator.Team("Bluffer.pl", (("my $BLUFF_RATE = 0.99;", "x"),))
    monkeypatch.setitem(generator.TEAMS, "Pr0010.pl", broken)
    with pytest.raises(ValueError, match=r"bots/codem/Bluffer.pl holds 0 copies of 'my \$BLUFF_RATE = 0.99"):
        generator.render("Pr0010.pl")
