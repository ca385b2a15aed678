"""The teams file: ids by the submission naming rule, bad rows refused with their line number."""

from __future__ import annotations

from pathlib import Path

import pytest

from arena.contest.teams import TeamEntry, parse_teams, read_teams
from arena.errors import ConfigError


def test_teams_are_read_in_order() -> None:
    text = "team,name,email\nAlpha,The Alphas,a@example.org\n\nbeta-2, Beta ,b@example.org\n"
    assert parse_teams(text, "t.csv") == [
        TeamEntry("Alpha", "The Alphas", "a@example.org"),
        TeamEntry("beta-2", "Beta", "b@example.org"),
    ]


@pytest.mark.parametrize(
    ("row", "said"),
    [
        ("Al pha,A,a@example.org", "line 3: team id 'Al pha' may hold only"),
        ("organiser,O,o@example.org", "line 3: 'organiser' is the organiser's sign-in"),
        ("Gamma,G,not-an-address", "line 3: 'not-an-address' is not an e-mail address"),
        ("Gamma,G", "line 3: 2 fields, expected 3"),
        ("alpha,Again,x@example.org", "line 3: team 'alpha' is listed twice"),
        (",Nameless,x@example.org", "line 3: team id ''"),
        ('Gamma,G,"g@example.org,boss@example.org"', "is not an e-mail address"),
        ("Gamma,G,g@example.org>", "is not an e-mail address"),
        ("Gamma,G,<g@example.org>", "is not an e-mail address"),
        ('Gamma,"G\rBcc: boss@example.org",g@example.org', "line 3: the name holds a control character"),
        ("Gamma,\u202eG,g@example.org", "line 3: the name holds a control character"),
    ],
)
def test_a_bad_row_is_refused_with_its_line_number(row: str, said: str) -> None:
    with pytest.raises(ConfigError) as error:
        parse_teams(f"team,name,email\nAlpha,A,a@example.org\n{row}\n", "teams.csv")
    assert str(error.value).startswith("teams.csv: ") and said in str(error.value)


def test_a_plain_address_with_a_tag_and_subdomains_is_taken() -> None:
    address = "first.last+arena@mail.example.org"
    text = f"team,name,email\nAlpha,Ünïcode Team,{address}\n"
    assert parse_teams(text, "t.csv") == [TeamEntry("Alpha", "Ünïcode Team", address)]


def test_the_header_is_required() -> None:
    with pytest.raises(ConfigError, match="line 1: the header must be team,name,email"):
        parse_teams("Alpha,A,a@example.org\n", "teams.csv")


def test_a_missing_file_is_one_line(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match="no such teams file"):
        read_teams(tmp_path / "absent.csv")
