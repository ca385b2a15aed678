"""The contest's settings file: validated once, one-line errors naming the file and the field."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import pytest

from arena.cli import main
from arena.contest.settings import ContestSettings, default_settings, read_settings, settings_toml
from arena.errors import ConfigError

GOOD = """
name = "Spring contest"
opens = 2026-05-01T09:00:00+02:00
error_report = "2026-05-05T09:00:00+02:00"
final_code = "2026-05-08T18:00:00+02:00"
finalists_window_hours = 3
freeze = "2026-05-08T12:00:00+02:00"

[tournament]
deals = 500
jobs = 2

[check]
deals = 20
"""


def test_a_settings_file_is_read_with_its_times_and_options(tmp_path: Path) -> None:
    path = tmp_path / "settings.toml"
    path.write_text(GOOD)
    settings = read_settings(path)
    assert settings.name == "Spring contest"
    assert settings.final_code == dt.datetime(2026, 5, 8, 16, 0, tzinfo=dt.UTC)
    assert settings.finalists_window == dt.timedelta(hours=3)
    assert (settings.tournament.deals, settings.tournament.jobs, settings.check.deals) == (500, 2, 20)
    assert settings.check.seats == 3  # the default


def test_written_settings_read_back_equal(tmp_path: Path) -> None:
    settings = default_settings(dt.datetime(2026, 1, 2, 3, 4, tzinfo=dt.UTC))
    path = tmp_path / "settings.toml"
    path.write_text(settings_toml(settings))
    assert read_settings(path) == settings


@pytest.mark.parametrize(
    ("old", "new", "said"),
    [
        ('final_code = "2026-05-08T18:00:00+02:00"', 'final_code = "2026-05-02T09:00:00+02:00"', "in order"),
        (
            'final_code = "2026-05-08T18:00:00+02:00"',
            'final_code = "2026-05-08T18:00:00"',
            "final_code: Input should have timezone",
        ),
        ("finalists_window_hours = 3", "finalists_window_hours = 0", "finalists_window_hours: "),
        ("finalists_window_hours = 3", "colour = 3", "colour: Extra inputs are not permitted"),
        ("deals = 500", "deals = 0", "tournament.deals: "),
        ('name = "Spring contest"', "name = [", "not a TOML file"),
    ],
)
def test_a_bad_setting_is_one_line_naming_the_file_and_the_field(
    tmp_path: Path, old: str, new: str, said: str
) -> None:
    path = tmp_path / "settings.toml"
    assert old in GOOD
    path.write_text(GOOD.replace(old, new))
    with pytest.raises(ConfigError) as error:
        read_settings(path)
    message = str(error.value)
    assert message.startswith(f"{path}: ") and said in message and "\n" not in message


def test_arena_contest_new_refuses_a_bad_settings_file_with_exit_2(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    teams = tmp_path / "teams.csv"
    teams.write_text("team,name,email\nAlpha,Alpha team,a@example.org\n")
    settings = tmp_path / "settings.toml"
    settings.write_text(
        'opens = "yesterday"\nerror_report = 2026-05-05T09:00:00Z\nfinal_code = 2026-05-06T09:00:00Z\n'
    )
    code = main(["contest", "new", str(tmp_path / "c"), "--teams", str(teams), "--settings", str(settings)])
    err = capsys.readouterr().err
    assert code == 2
    assert err.count("\n") == 1 and "settings.toml: opens" in err and "Traceback" not in err
    assert not (tmp_path / "c").exists()


def test_default_settings_are_a_week_of_submissions() -> None:
    start = dt.datetime(2026, 3, 1, tzinfo=dt.UTC)
    settings = default_settings(start)
    assert isinstance(settings, ContestSettings)
    assert settings.final_code - settings.opens == dt.timedelta(days=7)


@pytest.mark.parametrize(
    ("extra", "said"),
    [([], "not a contest folder"), (["--smtp", "mailhost"], "--smtp 'mailhost' is not HOST:PORT")],
)
def test_arena_contest_serve_refuses_bad_input_with_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], extra: list[str], said: str
) -> None:
    code = main(["contest", "serve", str(tmp_path), *extra])
    err = capsys.readouterr().err
    assert code == 2 and said in err and err.count("\n") == 1
