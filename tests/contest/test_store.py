"""The contest's SQLite store: the check queue's states, attempts, and the schema version."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from arena.contest.state import CheckStatus, ContestStore, Stage, now
from arena.errors import ConfigError


def _store(tmp_path: Path) -> ContestStore:
    store = ContestStore(tmp_path / "contest.sqlite", create=True)
    store.add_team("Alpha", "A", "a@example.org", "hash")
    return store


def _upload(store: ContestStore, placed: list[int], team: str = "Alpha") -> int:
    return store.add_submission(
        team=team,
        stage=Stage.TOURNAMENT,
        filename=f"{team}.c",
        sha256="0" * 64,
        size=10,
        uploaded_at=now(),
        help_files=[],
        place=placed.append,
    )


def test_uploads_are_checked_oldest_first_with_their_queue_position(tmp_path: Path) -> None:
    store = _store(tmp_path)
    placed: list[int] = []
    first, second = _upload(store, placed), _upload(store, placed)
    assert placed == [first, second]
    assert (store.queue_position(first), store.queue_position(second)) == (1, 2)
    claimed = store.claim_next()
    assert claimed is not None and claimed.id == first and claimed.status is CheckStatus.CHECKING
    assert (store.queue_position(first), store.queue_position(second)) == (None, 1)
    assert store.finish_check(first, claimed.attempt, "pass", "report")
    done = store.submission(first)
    assert done is not None and (done.status, done.verdict, done.report) == (
        CheckStatus.DONE,
        "pass",
        "report",
    )


def test_a_check_left_running_is_queued_again_and_its_old_attempt_cannot_answer(tmp_path: Path) -> None:
    store = _store(tmp_path)
    number = _upload(store, [])
    old = store.claim_next()
    assert old is not None
    assert store.requeue_interrupted() == [number]  # the server started again
    new = store.claim_next()
    assert new is not None and new.attempt == old.attempt + 1
    assert not store.finish_check(number, old.attempt, "fail", "late answer of the killed check")
    assert store.finish_check(number, new.attempt, "pass", "the new check")
    record = store.submission(number)
    assert record is not None and record.report == "the new check"


def test_an_upload_whose_files_cannot_be_placed_is_not_recorded(tmp_path: Path) -> None:
    store = _store(tmp_path)

    def fail(number: int) -> None:
        raise OSError("disk full")

    with pytest.raises(OSError):
        store.add_submission(
            team="Alpha",
            stage=Stage.TOURNAMENT,
            filename="Alpha.c",
            sha256="0" * 64,
            size=1,
            uploaded_at=now(),
            help_files=[],
            place=fail,
        )
    assert store.submissions() == []


def test_a_database_of_another_schema_version_is_refused(tmp_path: Path) -> None:
    _store(tmp_path).close()
    with sqlite3.connect(tmp_path / "contest.sqlite") as db:
        db.execute("UPDATE meta SET value = '99' WHERE key = 'schema_version'")
    with pytest.raises(ConfigError, match="schema version 99, this arena reads 1"):
        ContestStore(tmp_path / "contest.sqlite")


def test_one_team_flooding_the_queue_does_not_hold_back_another(tmp_path: Path) -> None:
    """Teams take turns in the check queue: a team's first waiting upload goes before any team's second,
    so five uploads sent at once by one team leave another team's one upload second in line."""
    store = _store(tmp_path)
    store.add_team("Beta", "B", "b@example.org", "hash")
    placed: list[int] = []
    flood = [_upload(store, placed) for _ in range(5)]
    beta = _upload(store, placed, "Beta")
    assert [store.queue_position(n) for n in [*flood, beta]] == [1, 3, 4, 5, 6, 2]
    order = []
    while (claimed := store.claim_next()) is not None:
        order.append(claimed.id)
        assert store.finish_check(claimed.id, claimed.attempt, "pass", "report")
    assert order == [flood[0], beta, *flood[1:]]


def test_failed_sign_ins_are_counted_per_key_up_to_the_cap(tmp_path: Path) -> None:
    store = _store(tmp_path)
    since = now()
    for ok in (False, True, False):
        claimed = store.claim_signin({"Alpha": 2, "Beta": 9}, since)
        assert claimed is not None
        if ok:
            store.signin_succeeded(claimed)
    assert store.claim_signin({"Alpha": 2}, since) is None, "two failures of Alpha: its cap"
    assert store.claim_signin({"Beta": 2}, since) is None, "Beta was counted with each attempt"
    assert store.claim_signin({"Gamma": 2}, since) is not None


def test_a_run_left_running_by_a_stopped_server_is_failed_and_can_start_again(tmp_path: Path) -> None:
    store = _store(tmp_path)
    assert store.start_stage("tournament")
    assert not store.start_stage("tournament")  # one run at a time
    assert store.interrupted_stages() == ["tournament"]  # the server started again
    stage = store.stage("tournament")
    assert stage.status.value == "failed" and "start it again" in stage.error
    assert store.start_stage("tournament")
    assert store.stage("tournament").status.value == "running"
