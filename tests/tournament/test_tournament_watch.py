"""The submission watcher: real files, a real watchdog observer, a check once after the last write."""

from __future__ import annotations

import os
import threading
from pathlib import Path

import pytest

from arena.tournament.watch import (
    Checked,
    SubmissionWatcher,
    check_in_process,
    report_path,
    start_watching,
)

QUIET_S = 1.5
WAIT_S = 60


class Recorder:
    """A checker that records what it saw and signals each finished check."""

    def __init__(self) -> None:
        self.seen: list[tuple[str, str]] = []
        self.done = threading.Event()
        self.checked: list[Checked] = []

    def check(self, program: Path) -> str:
        self.seen.append((program.name, program.read_text()))
        return f"program: {program.name}\nresult: passed\n"

    def finished(self, checked: Checked) -> None:
        self.checked.append(checked)
        self.done.set()


def watch_folder(folder: Path, recorder: Recorder) -> tuple[SubmissionWatcher, object]:
    watcher = SubmissionWatcher(folder, checker=recorder.check, quiet_s=QUIET_S, on_checked=recorder.finished)
    return watcher, start_watching(watcher)


def stop(watcher: SubmissionWatcher, observer) -> None:
    observer.stop()
    observer.join()
    assert watcher.pending() == []


def test_a_program_saved_in_several_writes_is_checked_once_after_the_last(tmp_path: Path) -> None:
    recorder = Recorder()
    watcher, observer = watch_folder(tmp_path, recorder)
    try:
        program = tmp_path / "Pr0023.py"
        with program.open("w") as out:
            out.write("import sys\n")
            out.flush()
            os.fsync(out.fileno())
            out.write("open('outputf.txt', 'w').write('0')\n")
            out.flush()
        with program.open("a") as out:
            out.write("# the last write\n")
        assert recorder.done.wait(WAIT_S)
    finally:
        stop(watcher, observer)
    assert recorder.seen == [("Pr0023.py", program.read_text())]
    assert report_path(program).read_text() == "program: Pr0023.py\nresult: passed\n"
    assert report_path(program).name == "Pr0023.py.report.txt"


def test_an_editor_style_save_by_rename_is_noticed(tmp_path: Path) -> None:
    recorder = Recorder()
    watcher, observer = watch_folder(tmp_path, recorder)
    try:
        draft = tmp_path / ".Pr7.rb.swp"
        draft.write_text("File.write('outputf.txt', '0')\n")
        os.replace(draft, tmp_path / "Pr7.rb")
        assert recorder.done.wait(WAIT_S)
    finally:
        stop(watcher, observer)
    assert [name for name, _ in recorder.seen] == ["Pr7.rb"]


def test_unchanged_bytes_are_not_checked_twice_and_changed_bytes_are(tmp_path: Path) -> None:
    recorder = Recorder()
    watcher = SubmissionWatcher(tmp_path, checker=recorder.check, quiet_s=QUIET_S)
    program = tmp_path / "T1.c"
    program.write_text("int main(void){return 0;}\n")
    assert watcher.check(program) is not None
    assert watcher.check(program) is None
    program.write_text("int main(void){return 1;}\n")
    assert watcher.check(program) is not None
    assert len(recorder.seen) == 2


def test_check_stale_queues_programs_without_a_fresh_report(tmp_path: Path) -> None:
    (tmp_path / "Old.py").write_text("pass\n")
    (tmp_path / "New.py").write_text("pass\n")
    report_path(tmp_path / "Old.py").write_text("checked\n")
    os.utime(tmp_path / "Old.py", (1_000_000, 1_000_000))
    watcher = SubmissionWatcher(tmp_path, checker=Recorder().check, quiet_s=WAIT_S)
    watcher.check_stale()
    try:
        assert [p.name for p in watcher.pending()] == ["New.py"]
    finally:
        watcher.cancel()


@pytest.mark.slow
def test_the_default_check_is_arena_checks_own_report(tmp_path: Path) -> None:
    program = tmp_path / "Pr0099.py"
    program.write_text("raise SystemExit(3)\n")
    watcher = SubmissionWatcher(tmp_path, quiet_s=QUIET_S)
    assert watcher.checker is check_in_process
    done = watcher.check(program)
    assert done is not None
    report = done.report.read_text()
    assert "arena check" in report and "crash" in report and "verdict: FAIL" in report


def test_every_file_gets_a_report_saying_why_it_is_not_checked(tmp_path: Path) -> None:
    recorder = Recorder()
    watcher = SubmissionWatcher(tmp_path, checker=recorder.check, quiet_s=QUIET_S)
    for name in ("my bot.c", "Team-1.java", "Bot.c", "Bot.py", "notes.md"):
        (tmp_path / name).write_text("int main(void){return 0;}\n")
    for name in ("my bot.c", "Team-1.java", "Bot.c", "notes.md"):
        assert watcher.check(tmp_path / name) is not None
    assert recorder.seen == []
    reports = {name: report_path(tmp_path / name).read_text() for name in ("my bot.c", "Bot.c", "notes.md")}
    assert reports["my bot.c"] == (
        "program: my bot.c\nresult: not checked: the tournament will not play this file: team id 'my bot' "
        "may hold only ASCII letters, digits, '_' and '-' and must start with a letter or digit "
        "(no spaces or dots)\n"
    )
    assert reports["Bot.c"] == (
        "program: Bot.c\nresult: not checked: team Bot has two programs (Bot.c and Bot.py); the tournament "
        "stops with an error until one is removed\n"
    )
    assert "extension .md is not one of" in reports["notes.md"]
    assert "not a Java class name" in report_path(tmp_path / "Team-1.java").read_text()


def test_a_check_that_fails_still_writes_a_report(tmp_path: Path) -> None:
    def broken(program: Path) -> str:
        raise RuntimeError("the checker broke")

    watcher = SubmissionWatcher(tmp_path, checker=broken, quiet_s=QUIET_S)
    (tmp_path / "Ok.py").write_text("pass\n")
    done = watcher.check(tmp_path / "Ok.py")
    assert done is not None
    assert done.report.read_text() == (
        "program: Ok.py\nresult: not checked: the check itself failed (RuntimeError: the checker broke)\n"
    )


def test_jobs_checks_several_programs_at_once_and_one_program_once_at_a_time(tmp_path: Path) -> None:
    """With ``jobs=2`` two programs are in their checks together (each waits for the other at a barrier);
    the same program's two checks never overlap (the second sees the bytes already checked)."""
    together = threading.Barrier(2, timeout=WAIT_S)

    def meet(program: Path) -> str:
        together.wait()
        return f"program: {program.name}\nresult: passed\n"

    for name in ("Alpha.py", "Beta.py"):
        (tmp_path / name).write_text("print(0)\n")
    watcher = SubmissionWatcher(tmp_path, checker=meet, quiet_s=QUIET_S, jobs=2)
    runs = [threading.Thread(target=watcher.check, args=(tmp_path / n,)) for n in ("Alpha.py", "Beta.py")]
    for run in runs:
        run.start()
    for run in runs:
        run.join(WAIT_S)
    for name in ("Alpha.py", "Beta.py"):
        assert report_path(tmp_path / name).read_text().endswith("result: passed\n")
    assert not together.broken
    seen: list[Path] = []
    watcher = SubmissionWatcher(tmp_path, checker=lambda p: seen.append(p) or "result: passed\n", jobs=2)
    twice = [threading.Thread(target=watcher.check, args=(tmp_path / "Alpha.py",)) for _ in range(2)]
    for run in twice:
        run.start()
    for run in twice:
        run.join(WAIT_S)
    assert len(seen) == 1


def test_each_check_is_announced_as_it_begins_and_unchanged_bytes_are_not(tmp_path: Path) -> None:
    program = tmp_path / "Gamma.py"
    program.write_text("print(0)\n")
    started: list[tuple[str, bool]] = []
    watcher = SubmissionWatcher(
        tmp_path,
        checker=Recorder().check,
        on_start=lambda p: started.append((p.name, report_path(p).exists())),
    )
    watcher.check(program)
    watcher.check(program)  # the same bytes: no check, no announcement
    assert started == [("Gamma.py", False)]  # announced before its report was written
