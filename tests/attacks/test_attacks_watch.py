"""Issue 24: `arena watch` never follows a symbolic link a team puts in (or swaps into) the folder.

As root, the watcher once resolved a link created while it ran, checked the root-only file it pointed to
elsewhere on the host and wrote a world-readable report with that file's contents beside it.
"""

from __future__ import annotations

import os
import threading
from pathlib import Path

from arena.tournament.watch import Checked, SubmissionWatcher, report_path, start_watching

QUIET_S = 1.0
WAIT_S = 60
SECRET = "root-only secret 7f3a\n"


class Recorder:
    """A checker that records what it was given; signals every report written."""

    def __init__(self) -> None:
        self.seen: list[tuple[Path, str]] = []
        self.reports: list[Checked] = []
        self.done = threading.Event()

    def check(self, program: Path) -> str:
        self.seen.append((program, program.read_text()))
        return f"program: {program.name}\nresult: passed\n"

    def finished(self, checked: Checked) -> None:
        self.reports.append(checked)
        self.done.set()


def _host(tmp_path: Path) -> tuple[Path, Path]:
    """A submissions folder and, elsewhere, a root-only 0600 file named like a program."""
    folder, elsewhere = tmp_path / "submissions", tmp_path / "host"
    folder.mkdir()
    elsewhere.mkdir()
    secret = elsewhere / "Secret.py"
    secret.write_text(SECRET)
    secret.chmod(0o600)
    return folder, secret


def _nothing_leaked(recorder: Recorder, secret: Path, folder: Path) -> None:
    assert sorted(p.name for p in secret.parent.iterdir()) == ["Secret.py"]  # no report beside the secret
    assert all(SECRET not in text for _, text in recorder.seen)
    for report in folder.glob("*.report.txt"):
        assert SECRET.strip() not in report.read_text()
    assert all(checked.report.parent == folder for checked in recorder.reports)


def test_a_link_created_while_watching_is_reported_never_followed(tmp_path: Path) -> None:
    folder, secret = _host(tmp_path)
    recorder = Recorder()
    watcher = SubmissionWatcher(folder, checker=recorder.check, quiet_s=QUIET_S, on_checked=recorder.finished)
    observer = start_watching(watcher)
    try:
        (folder / "Evil.py").symlink_to(secret)
        assert recorder.done.wait(WAIT_S)
    finally:
        observer.stop()
        observer.join()
        watcher.cancel()
    _nothing_leaked(recorder, secret, folder)
    assert recorder.seen == []
    assert "not checked" in report_path(folder / "Evil.py").read_text()
    assert "symbolic link" in report_path(folder / "Evil.py").read_text()


def test_a_program_swapped_for_a_link_before_its_check_is_not_followed(tmp_path: Path) -> None:
    folder, secret = _host(tmp_path)
    recorder = Recorder()
    watcher = SubmissionWatcher(folder, checker=recorder.check, quiet_s=WAIT_S, on_checked=recorder.finished)
    program = folder / "Evil.py"
    program.write_text("pass\n")
    watcher.touch(program)  # queued as a regular file, as a save would be
    program.unlink()
    program.symlink_to(secret)
    try:
        (queued,) = watcher.pending()
    finally:
        watcher.cancel()
    assert queued.parent == folder
    watcher.check(queued)
    _nothing_leaked(recorder, secret, folder)
    assert recorder.seen == []


def test_check_stale_at_start_does_not_follow_a_link(tmp_path: Path) -> None:
    folder, secret = _host(tmp_path)
    (folder / "Evil.py").symlink_to(secret)
    os.symlink(secret.parent, folder / "Dir.py")
    recorder = Recorder()
    watcher = SubmissionWatcher(folder, checker=recorder.check, quiet_s=WAIT_S, on_checked=recorder.finished)
    watcher.check_stale()
    pending = watcher.pending()
    watcher.cancel()
    for program in pending:
        watcher.check(program)
    _nothing_leaked(recorder, secret, folder)
    assert recorder.seen == []


def test_the_checker_gets_a_private_copy_of_the_bytes_the_watcher_read(tmp_path: Path) -> None:
    folder, _ = _host(tmp_path)
    program = folder / "Honest.py"
    program.write_text("print(1)\n")
    recorder = Recorder()
    watcher = SubmissionWatcher(folder, checker=recorder.check, quiet_s=WAIT_S)
    done = watcher.check(program)
    assert done is not None and done.report == report_path(program)
    ((given, text),) = recorder.seen
    assert given.name == "Honest.py" and given.parent != folder and text == "print(1)\n"
