"""The contest's settings: its timeline, the tournament's options, the upload caps (a TOML file).

Times are timezone-aware ISO 8601 (``2026-05-01T09:00:00+02:00``). The timeline follows the contest
statement: submissions open and close (the close is the deadline of the code that plays), an
error-report date by which teams have been told of their errors, a final-code deadline, then after the
tournament the finalists' window (3 hours by default) to update code and help files. The public
scoreboard freezes at ``freeze`` until the organiser lifts it. Errors are one line naming the file and
the field.
"""

from __future__ import annotations

import datetime as dt
import tomllib
from pathlib import Path

import pydantic
from pydantic import AwareDatetime, BaseModel, ConfigDict, Field, model_validator

from arena.errors import ConfigError

DEADLINES = ("opens", "error_report", "final_code", "freeze")
"""The times the organiser may move from the site (stored in the contest's database)."""


class TournamentOptions(BaseModel):
    """How the tournament and the final are played (the options of ``arena tournament``/``arena final``)."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    deals: int = Field(1000, ge=1)
    final_deals: int = Field(1000, ge=1)
    time_limit_s: float = Field(1.0, gt=0)
    max_faults: int = Field(10, ge=1)
    jobs: int = Field(1, ge=1)
    scheduler: str | None = None
    """A Dask scheduler's address (``tcp://host:8786``): the tables play on its cluster."""
    seed: int | None = None
    """A known seed (tests and demos only): decks from it instead of a secret key."""


class CheckOptions(BaseModel):
    """How each upload is checked (``arena check``'s options)."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    deals: int = Field(50, ge=1)
    seats: int = Field(3, ge=2, le=6)
    seed: int | None = None


class ContestSettings(BaseModel):
    """The whole contest's settings, validated once when read."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    name: str = Field("Code'em Poker contest", min_length=1, max_length=200)
    opens: AwareDatetime
    """Submissions open."""
    error_report: AwareDatetime
    """By this time every team has been told of the errors in its code."""
    final_code: AwareDatetime
    """The final-code deadline: each team's latest upload before it plays the tournament."""
    finalists_window_hours: float = Field(3.0, gt=0, le=24 * 14)
    freeze: AwareDatetime | None = None
    """From this time the public scoreboard is frozen until the organiser lifts it."""
    upload_max_bytes: int = Field(1_000_000, ge=1, le=50_000_000)
    uploads_per_hour: int = Field(30, ge=1)
    help_files_max: int = Field(15, ge=0, le=15)
    help_file_max_bytes: int = Field(1_000_000, ge=1)
    https_only: bool = False
    """Session cookies only over HTTPS (set it when a TLS proxy is in front)."""
    site_url: str = "http://127.0.0.1:8000/"
    """The address written in mails."""
    mail_from: str = "arena@localhost"
    tournament: TournamentOptions = TournamentOptions()
    check: CheckOptions = CheckOptions()

    @model_validator(mode="after")
    def _in_order(self) -> ContestSettings:
        if not self.opens <= self.error_report <= self.final_code:
            raise ValueError("the times must be in order: opens <= error_report <= final_code")
        return self

    @property
    def finalists_window(self) -> dt.timedelta:
        """How long the finalists have to update their code and help files."""
        return dt.timedelta(hours=self.finalists_window_hours)


def default_settings(now: dt.datetime) -> ContestSettings:
    """Settings for a contest starting ``now``: open for a week, the error report after four days."""
    return ContestSettings(
        opens=now,
        error_report=now + dt.timedelta(days=4),
        final_code=now + dt.timedelta(days=7),
    )


def describe(error: pydantic.ValidationError, where: Path) -> str:
    """A validation failure as one line naming the file and each field."""
    said = []
    for problem in error.errors():
        field = ".".join(str(part) for part in problem["loc"]) or "settings"
        said.append(f"{field}: {problem['msg'].removeprefix('Value error, ')}")
    return f"{where}: {'; '.join(said)}"


def read_settings(path: Path) -> ContestSettings:
    """The settings in the TOML file at ``path`` (one-line ``ConfigError`` when it is not valid)."""
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise ConfigError(f"{path}: no such settings file") from None
    except (tomllib.TOMLDecodeError, UnicodeDecodeError) as error:
        raise ConfigError(f"{path}: not a TOML file ({error})") from None
    try:
        return ContestSettings.model_validate(data)
    except pydantic.ValidationError as error:
        raise ConfigError(describe(error, path)) from None


def settings_toml(settings: ContestSettings) -> str:
    """The settings as TOML that :func:`read_settings` reads back to equal settings."""
    lines = []
    tables: dict[str, dict[str, object]] = {}
    for key, value in settings.model_dump(exclude_none=True).items():
        if isinstance(value, dict):
            tables[key] = value
        else:
            lines.append(f"{key} = {_toml_value(value)}")
    for table, values in tables.items():
        lines.append(f"\n[{table}]")
        lines.extend(f"{key} = {_toml_value(value)}" for key, value in values.items() if value is not None)
    return "\n".join(lines) + "\n"


def _toml_value(value: object) -> str:
    match value:
        case bool():
            return "true" if value else "false"
        case int() | float():
            return repr(value)
        case dt.datetime():
            return value.isoformat()
        case _:
            escaped = str(value).replace("\\", "\\\\").replace('"', '\\"')
            return f'"{escaped}"'
