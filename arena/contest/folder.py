"""The contest folder's layout: the one place that knows where each file lives.

::

    DIR/contest.sqlite      the site's state (WAL)            DIR/settings.toml  the settings
    DIR/credentials.csv     every sign-in, mode 0600          DIR/secret.key     signs sessions, 0600
    DIR/uploads/<id>/<TeamId>.<ext>   each upload as received, help files in help/ beside it
    DIR/checks/<id>/        each upload's check tables        DIR/tournament/    the tournament's run folder
    DIR/played/             the programs the tournament plays DIR/final/         the final's programs, help
    DIR/finals_logs/        each finalist's log folders       DIR/certificates/  the PDFs
    DIR/exports/            archives made for download
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from arena.errors import ConfigError

DATABASE = "contest.sqlite"


@dataclass(frozen=True)
class ContestFolder:
    """Paths inside one contest folder (nothing is created by asking)."""

    root: Path

    @classmethod
    def existing(cls, root: Path) -> ContestFolder:
        """The folder at ``root``, which ``arena contest new`` made (one-line error otherwise)."""
        folder = cls(root.resolve())
        if not folder.database.is_file():
            raise ConfigError(
                f"{root}: not a contest folder (no {DATABASE}; make one with arena contest new)"
            )
        return folder

    @property
    def database(self) -> Path:
        return self.root / DATABASE

    @property
    def settings(self) -> Path:
        return self.root / "settings.toml"

    @property
    def credentials(self) -> Path:
        return self.root / "credentials.csv"

    @property
    def secret_key(self) -> Path:
        return self.root / "secret.key"

    @property
    def uploads(self) -> Path:
        return self.root / "uploads"

    def upload_dir(self, submission: int) -> Path:
        """Where upload ``submission`` is kept: its program, and its help files under ``help/``."""
        return self.uploads / f"{submission:06d}"

    def check_dir(self, submission: int) -> Path:
        """Where the check of upload ``submission`` plays its tables."""
        return self.root / "checks" / f"{submission:06d}"

    @property
    def tournament(self) -> Path:
        """The tournament's run folder (as ``arena tournament`` writes it)."""
        return self.root / "tournament"

    @property
    def played(self) -> Path:
        """The programs the tournament plays: each active team's latest upload before the deadline."""
        return self.root / "played"

    @property
    def final(self) -> Path:
        """The final's inputs: ``programs/<TeamId>.<ext>`` and ``help/<TeamId>/``."""
        return self.root / "final"

    @property
    def finals_logs(self) -> Path:
        return self.root / "finals_logs"

    @property
    def certificates(self) -> Path:
        return self.root / "certificates"

    @property
    def exports(self) -> Path:
        return self.root / "exports"

    def secrets(self) -> frozenset[Path]:
        """What is never given out, not even in the organiser's archive: sign-ins, keys, archives."""
        return frozenset(
            {
                self.credentials,
                self.secret_key,
                self.exports,
                self.tournament / "deck-keys",
                self.database.with_name(self.database.name + "-wal"),
                self.database.with_name(self.database.name + "-shm"),
            }
        )
