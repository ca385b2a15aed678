"""Credentials: argon2 hashes in the database, clear passwords only in credentials.csv (0600)."""

from __future__ import annotations

import stat
import threading
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from arena.cli import main
from arena.contest.accounts import hash_password, password_matches, read_credentials, token_digest
from arena.contest.contest import SIGNIN_FAILURES, Contest, NotSignedIn, TooMany
from arena.contest.folder import ContestFolder
from arena.contest.state import ContestStore

from support.contest import make_contest


def test_a_password_matches_its_hash_only() -> None:
    stored = hash_password("right horse")
    assert stored.startswith("$argon2id$")
    assert password_matches(stored, "right horse")
    assert not password_matches(stored, "wrong horse")
    assert not password_matches(None, "anything")
    assert not password_matches("not a hash", "anything")


def test_a_token_is_stored_as_its_sha256() -> None:
    assert token_digest("abc") == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"


def test_contest_new_writes_credentials_only_to_a_private_file(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    teams = tmp_path / "teams.csv"
    teams.write_text("team,name,email\nAlpha,A,a@example.org\nBeta,B,b@example.org\n")
    root = tmp_path / "contest"
    assert main(["contest", "new", str(root), "--teams", str(teams)]) == 0
    printed = capsys.readouterr()
    passwords = read_credentials(root / "credentials.csv")
    assert sorted(passwords) == ["Alpha", "Beta", "organiser"]
    assert len(set(passwords.values())) == 3 and all(len(p) >= 16 for p in passwords.values())
    for password in passwords.values():
        assert password not in printed.out + printed.err
    for private in ("credentials.csv", "secret.key", "contest.sqlite"):
        assert stat.S_IMODE((root / private).stat().st_mode) == 0o600, private
    store = ContestStore(root / "contest.sqlite")
    try:
        for team, password in passwords.items():
            record = store.team(team)
            assert record is not None and password_matches(record.password_hash, password)
            assert password not in record.password_hash
        assert [mail.kind for mail in store.outbox()] == ["signin", "signin"]
        assert all(password not in mail.body for mail in store.outbox() for password in passwords.values())
    finally:
        store.close()


def test_contest_new_refuses_a_folder_in_use(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    teams = tmp_path / "teams.csv"
    teams.write_text("team,name,email\nAlpha,A,a@example.org\n")
    (tmp_path / "used").mkdir()
    (tmp_path / "used" / "file").write_text("x")
    assert main(["contest", "new", str(tmp_path / "used"), "--teams", str(teams)]) == 2
    assert "already exists and is not an empty folder" in capsys.readouterr().err


@pytest.mark.slow
def test_sign_ins_sent_at_once_still_keep_to_the_failure_cap(tmp_path: Path) -> None:
    """Guesses sent at the same moment: each is counted before its password is even hashed, so no more
    than the cap of wrong passwords is ever tried, however many arrive together."""
    passwords = make_contest(tmp_path / "contest", teams=1)
    contest = Contest(ContestFolder(tmp_path / "contest"))
    together = threading.Barrier(12)

    def guess(number: int) -> int:
        together.wait(timeout=30)
        try:
            contest.authenticate("TeamA", f"guess-{number}", "192.0.2.7")
        except TooMany:
            return 429
        except NotSignedIn:
            return 401
        return 200

    with ThreadPoolExecutor(12) as pool:
        answers = list(pool.map(guess, range(12)))
    assert sorted(answers) == [401] * SIGNIN_FAILURES + [429] * (12 - SIGNIN_FAILURES)
    assert contest.authenticate("TeamA", passwords["TeamA"], "192.0.2.8").team == "TeamA"
