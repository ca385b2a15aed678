"""The check queue, in-process: queued → checking (building, seat N of K) → done, with arena check's report;
and the upload rules of the submission window."""

from __future__ import annotations

import datetime as dt
import threading
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from arena.contest.checks import CheckQueue
from arena.contest.contest import Contest, Forbidden, Refused, Role, TooMany, Upload, Viewer
from arena.contest.folder import ContestFolder

from support.contest import contest_settings, make_contest, poll

TEAM_A = Viewer(Role.TEAM, "TeamA")
CRASH = b"import sys\nsys.exit(3)\n"


@pytest.fixture
def contest(tmp_path: Path) -> Iterator[Contest]:
    make_contest(tmp_path / "contest", teams=2)
    yield Contest(ContestFolder(tmp_path / "contest"))


@pytest.mark.slow
def test_an_upload_waits_its_turn_then_is_checked_seat_by_seat(contest: Contest) -> None:
    first = contest.upload(TEAM_A, Upload("TeamA.py", CRASH))
    second = contest.upload(TEAM_A, Upload("TeamA.py", CRASH + b"\n"))
    assert [contest.submission(TEAM_A, n).queue_position for n in (first, second)] == [1, 2]
    queue = CheckQueue(contest.folder, jobs=1)
    queue.start()
    try:
        seen: list[tuple[str, str, int | None]] = []

        def finished() -> bool | None:
            view = contest.submission(TEAM_A, first)
            later = contest.submission(TEAM_A, second)
            seen.append((view.record.status.value, view.record.progress, later.queue_position))
            return True if view.record.status.value == "done" else None

        poll(finished, 240, every=0.05)
        statuses = [status for status, _, _ in seen]
        assert statuses[-1] == "done" and "checking" in statuses
        progress = [text for status, text, _ in seen if status == "checking" and text]
        assert any(text.startswith("building") or text.startswith("seat") for text in progress), progress
        assert all(position == 1 for status, _, position in seen if status == "checking")  # one job: it waits
        done = contest.submission(TEAM_A, first)
        assert done.record.verdict == "fail" and done.to_dict()["verdict"] == "FAIL"
        report = done.record.report
        assert (
            report.startswith("── arena check TeamA.py (python") and "exit" in report and "fault 1:" in report
        )
    finally:
        queue.stop()


def test_uploads_outside_the_window_are_refused_with_the_time(tmp_path: Path) -> None:
    moment = dt.datetime.now(dt.UTC)
    early = contest_settings(
        opens=moment + dt.timedelta(hours=1),
        error_report=moment + dt.timedelta(hours=2),
        final_code=moment + dt.timedelta(hours=3),
    )
    make_contest(tmp_path / "early", teams=1, settings=early)
    contest = Contest(ContestFolder(tmp_path / "early"))
    with pytest.raises(Refused, match="submissions open at"):
        contest.upload(TEAM_A, Upload("TeamA.py", b"print(1)\n"))
    late = contest_settings(
        opens=moment - dt.timedelta(hours=3),
        error_report=moment - dt.timedelta(hours=2),
        final_code=moment - dt.timedelta(hours=1),
    )
    make_contest(tmp_path / "late", teams=1, settings=late)
    contest = Contest(ContestFolder(tmp_path / "late"))
    with pytest.raises(Refused, match=r"the final-code deadline .* has passed"):
        contest.upload(TEAM_A, Upload("TeamA.py", b"print(1)\n"))
    assert contest.store.submissions() == []


@pytest.mark.slow
def test_uploads_sent_at_once_still_keep_to_the_hourly_cap(tmp_path: Path) -> None:
    """A script sending many uploads at the same moment: each is counted before the next is, so the
    cap holds and the check queue is not flooded past it."""
    make_contest(tmp_path / "contest", teams=1, settings=contest_settings(uploads_per_hour=2))
    contest = Contest(ContestFolder(tmp_path / "contest"))
    together = threading.Barrier(8)

    def send(number: int) -> str:
        together.wait(timeout=30)
        try:
            contest.upload(TEAM_A, Upload("TeamA.py", f"print({number})\n".encode()))
        except TooMany:
            return "refused"
        return "kept"

    with ThreadPoolExecutor(8) as pool:
        answers = list(pool.map(send, range(8)))
    assert answers.count("kept") == 2 and answers.count("refused") == 6
    assert len(contest.store.submissions()) == 2


def test_a_moved_deadline_applies_and_must_stay_in_order(contest: Contest) -> None:
    organiser = Viewer(Role.ORGANISER, "organiser")
    past = dt.datetime.now(dt.UTC) - dt.timedelta(minutes=1)
    with pytest.raises(Refused, match="in order"):
        contest.move_deadline(organiser, "final_code", past - dt.timedelta(days=1))
    with pytest.raises(Forbidden):
        contest.move_deadline(TEAM_A, "final_code", past)
    contest.move_deadline(organiser, "error_report", past - dt.timedelta(seconds=1))
    contest.move_deadline(organiser, "final_code", past)
    with pytest.raises(Refused, match="has passed"):
        contest.upload(TEAM_A, Upload("TeamA.py", b"print(1)\n"))
    assert [(row["action"], row["target"]) for row in contest.audit_log(organiser)] == [
        ("move deadline", "error_report"),
        ("move deadline", "final_code"),
    ]


def test_a_disqualified_team_does_not_play_and_the_reason_is_kept(contest: Contest) -> None:
    organiser = Viewer(Role.ORGANISER, "organiser")
    contest.upload(TEAM_A, Upload("TeamA.py", b"print(1)\n"))
    contest.upload(Viewer(Role.TEAM, "TeamB"), Upload("TeamB.py", b"print(2)\n"))
    with pytest.raises(Refused, match="give the reason"):
        contest.set_disqualified(organiser, "TeamB", True, "  ")
    contest.set_disqualified(organiser, "TeamB", True, "copied code")
    with pytest.raises(Refused, match="1 team\\(s\\) have an upload to play"):
        contest.start_tournament(organiser, 2)
    assert contest.audit_log(organiser)[-1]["reason"] == "copied code"


def test_a_finalists_help_files_are_refused_with_the_reason_when_the_final_would_refuse_them(
    contest: Contest,
) -> None:
    contest.store.set_note("finalists", "TeamA")
    contest.store.set_note("finalists_window_opens", dt.datetime.now(dt.UTC).isoformat())
    program = Upload("TeamA.py", b"print(1)\n")
    with pytest.raises(Refused, match=r"two help files are named a\.txt"):
        contest.upload(TEAM_A, program, [Upload("a.txt", b"1"), Upload("a.txt", b"2")])
    with pytest.raises(Refused, match="plain file name"):
        contest.upload(TEAM_A, program, [Upload("../a.txt", b"1")])
    with pytest.raises(Refused, match="at most 15 are allowed"):
        contest.upload(TEAM_A, program, [Upload(f"h{n}", b"1") for n in range(16)])
    with pytest.raises(Refused, match="only finalists upload"):
        contest.upload(Viewer(Role.TEAM, "TeamB"), Upload("TeamB.py", b"print(1)\n"))
    number = contest.upload(TEAM_A, program, [Upload("book.txt", b"opening")])
    record = contest.store.submission(number)
    assert record is not None and record.stage.value == "final" and record.help_files == ("book.txt",)
    assert (contest.help_dir(record) / "book.txt").read_bytes() == b"opening"
