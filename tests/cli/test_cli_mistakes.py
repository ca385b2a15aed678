"""Every mistaken command: one line on the terminal, exit code 2, no traceback, nothing written.

Run in-process through ``arena.cli.main`` from a folder of ordinary mistakes: files where folders are
wanted and back, a folder named ``Dir.py``, a damaged database, a record with a card that is no card,
runs of one command named as the output of another. ``docs/mistakes.md`` lists what each prints.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from arena.cli import main

ROOT = Path(__file__).parents[2]
SAMPLES = ROOT / "sample_tables"
P = "subs/Pr0001.py"
Q = "subs/Pr0011.py"
STRATEGY = min((ROOT / "bots" / "twocard" / "strategies").iterdir())

# (command, a few words the one line must hold)
NO_RUN_NEEDED = [
    ("", "required: COMMAND"),
    ("nosuch", "invalid choice: 'nosuch'"),
    ("table", "required: PROGRAM, --out"),
    (f"table {P}", "required: --out"),
    (f"table {P} {P} --out o1", "team names repeat"),
    (f"table nosuch.py {P} --out o2", "nosuch.py: no such program file"),
    (f"table {P} Dir.py --out o2", "Dir.py is a folder, not a program file"),
    (f"table {P} notes.txt --out o2", "unknown language extension '.txt'"),
    (f"table {P} {Q} --out o3 --deals 0", "--deals: must be at least 1, got 0"),
    (f"table {P} {Q} --out o3 --deals x", "invalid int value: 'x'"),
    (f"table {P} {Q} --out o3 --time-limit -1", "--time-limit: must be more than 0, got -1"),
    (f"table {P} {Q} --out afile", "afile is a file, not a folder"),
    (f"table {P} {Q} --out o7 --deck-key nosuch.key", "--deck-key nosuch.key: no such file"),
    (f"table {P} {Q} --out o7 --seed abc", "invalid int value: 'abc'"),
    ("check", "required: PROGRAM"),
    ("check nosuch.py", "nosuch.py: no such program file"),
    ("check Dir.py", "Dir.py is a folder, not a program file"),
    ("check notes.txt", "extension .txt is not one of"),
    ("check Pr0099.xyz", "extension .xyz is not one of"),
    (f"check {P} --seats 1", "--seats must be between 2 and 6, got 1"),
    (f"check {P} --seats 9", "--seats must be between 2 and 6, got 9"),
    (f"check {P} --deals -3", "--deals: must be at least 1, got -3"),
    (f"check {P} --blinds 10", "blinds '10' are not SB/BB"),
    (f"check {P} --blinds 10/5", "the small blind 10 exceeds the big blind 5"),
    (f"check {P} --stack 0", "--stack: must be at least 1, got 0"),
    (f"check {P} --against nosuch", "--against nosuch is not a folder of programs"),
    (f"check {P} --against emptydir", "--against emptydir holds no program"),
    (f"check {P} --time-limit 0", "--time-limit: must be more than 0, got 0"),
    (f"check {P} --max-faults 0", "--max-faults: must be at least 1, got 0"),
    (f"check {P} --out afile", "afile is a file, not a folder"),
    ("replay", "required: RUN, --deal, --team"),
    ("replay nosuch --deal 1 --team Pr0001", "nosuch is not a folder"),
    ("replay emptydir --deal 1 --team Pr0001", "emptydir is not a table's folder"),
    ("tournament", "required: SUBMISSIONS_DIR, --out"),
    ("tournament subs", "required: --out"),
    ("tournament nosuch --out t1", "submissions folder nosuch does not exist"),
    ("tournament afile --out t1", "submissions folder afile is not a folder"),
    ("tournament one --out t2", "one holds 1 program(s); a tournament needs at least 2"),
    ("tournament emptydir --out t3", "emptydir holds 0 program(s)"),
    ("tournament subs --out afile", "afile is a file, not a folder"),
    ("tournament subs --out t4 --scheduler nonsense", "'nonsense' is not tls://HOST:PORT or tcp://HOST:PORT"),
    ("tournament subs --out t5 --scheduler tcp://127.0.0.1:1", "nothing answers there"),
    ("tournament subs --out t6 --jobs 0", "--jobs must be at least 1, got 0"),
    ("tournament subs --out t6 --blinds a/b", "blinds 'a/b' are not SB/BB"),
    ("tournament subs --out t6 --deals 0", "--deals: must be at least 1, got 0"),
    ("final", "required: RUN_DIR"),
    ("final nosuch", "nosuch holds no tournament"),
    ("final emptydir", "emptydir holds no tournament"),
    ("final baddb", "is damaged or not a database"),
    ("final baddb --scheduler tcp://127.0.0.1:1", "nothing answers there"),
    ("finals-logs emptydir", "required: --out"),
    ("finals-logs emptydir --out afile", "afile is a file, not a folder"),
    ("watch", "required: SUBMISSIONS_DIR"),
    ("watch nosuch", "submissions folder nosuch does not exist"),
    ("watch afile", "submissions folder afile is not a folder"),
    ("watch subs --quiet -1", "must be 0 seconds or more, got -1"),
    ("headsup", "required: program"),
    ("headsup nosuch.py", "nosuch.py: no such program file"),
    ("headsup Dir.py", "Dir.py is a folder, not a program file"),
    (f"headsup {P} --hands 0", "--hands: must be at least 1, got 0"),
    (f"headsup {P} --interface x", "invalid choice: 'x'"),
    (f"headsup {P} --isolation bogus", "invalid choice: 'bogus'"),
    ("twocard", "required: ACTION"),
    ("twocard values", "invalid choice: 'values'"),
    ("twocard value", "required: FILE"),
    ("twocard value nosuch.txt", "nosuch.txt: cannot read"),
    ("twocard value strat.txt", "strat.txt:1: first line must be 'bet1 bet2'"),
    ("twocard value empty.txt", "empty.txt: empty file"),
    ("twocard generate --seed 1 --iterations 0 -o g.txt", "must be at least 1, got 0"),
    ("twocard generate --seed 1 --iterations 2 -o emptydir", "emptydir is a folder, not a file"),
    (f"twocard play {P}", "required: --strategy"),
    (f"twocard play {P} --strategy nosuch.txt", "nosuch.txt: cannot read"),
    ("twocard play nosuch.py --strategy good.txt", "nosuch.py: no such program file"),
    ("twocard play Dir.py --strategy good.txt", "Dir.py is a folder, not a program file"),
    (f"twocard play {P} --strategy strat.txt --hands 0", "--hands: must be at least 1, got 0"),
    ("export emptydir", "required: --format, --out"),
    ("export emptydir --format xml --out e1", "invalid choice: 'xml'"),
    ("export nosuch --format phh --out e1", "run folder nosuch does not exist"),
    ("export emptydir --format phh --out e4", "emptydir holds no recorded table"),
    ("export emptydir --format phh --out afile", "afile is a file, not a folder"),
    ("view", "required: RUN_DIR"),
    ("view nosuch", "run folder nosuch does not exist"),
    ("view afile", "afile is a file, not a run folder"),
    ("view emptydir", "emptydir is not a run folder"),
    ("view baddb", "damaged or not a database"),
    ("reveal", "required: RUN_DIR"),
    ("reveal nosuch", "nosuch: no commitment.json; nothing to reveal"),
    ("verify", "required: RUN_DIR"),
    ("verify emptydir", "emptydir: no commitment.json; nothing to verify"),
    ("doctor --jsn", "unrecognized arguments: --jsn"),
]

WITH_RUNS = [
    ("table subs/Pr0001.py subs/Pr0011.py --out run", "--out run holds the run of 'arena tournament'"),
    ("tournament subs --out trun", "--out trun holds the run of 'arena table'"),
    ("tournament subs --out run --deals 5", "run holds a tournament with other settings"),
    ("tournament subs --out fresh --scheduler tcp://127.0.0.1:1", "nothing answers there"),
    ("replay run", "required: --deal, --team"),
    ("replay run --table table001 --deal 1 --team Nobody", "team Nobody did not sit at table001"),
    ("replay run --table table001 --deal 999 --team Pr0001", "deal 999 was not played at run/tables"),
    ("replay run --table table001 --deal 0 --team Pr0001", "deal 0 was not played at run/tables/table001"),
    ("replay run --table table001 --deal 1 --team Pr0001 --decision 0", "--decision: must be at least 1"),
    ("replay run --table table001 --deal 1 --team Pr0001 --decision 99", "--decision must be 1 to"),
    ("replay run --deal 1 --team Pr0001 --table nosuch", "no played table 'nosuch' in run"),
    ("replay trun --deal 1 --team Pr0001 --table x", "no played table 'x' in trun"),
    ("final run --deals 0", "--deals must be at least 1, got 0"),
    ("final run --help-files nosuch", "help-files folder nosuch does not exist"),
    ("export run --format phh --out afile", "afile is a file, not a folder"),
    ("export run --format phh --out e2 --table nosuch", "run has no table 'nosuch'"),
    ("export run --format phh --out e3 --team Nobody", "team 'Nobody' sat at none of the tables"),
    ("view run --port 99999", "port 99999 is not 0..65535"),
    ("view run --export afile", "afile is a file, not a folder"),
    ("view run --export run/site", "the site folder run/site must be outside the run folder run"),
    ("reveal trun --stage bogus", "--stage bogus: trun has no such stage (it has table)"),
]


def _mistakes_folder(base: Path) -> None:
    (base / "subs").mkdir()
    for name in ("Pr0001.py", "Pr0011.py"):
        shutil.copy(SAMPLES / name, base / "subs" / name)
    (base / "one").mkdir()
    shutil.copy(SAMPLES / "Pr0001.py", base / "one" / "Pr0001.py")
    for folder in ("Dir.py", "emptydir", "baddb"):
        (base / folder).mkdir()
    (base / "baddb" / "tournament.sqlite").write_text("not a database")
    (base / "afile").write_text("x\n")
    (base / "empty.txt").write_text("")
    (base / "notes.txt").write_text("hello\n")
    (base / "strat.txt").write_text("not a strategy\n")
    shutil.copy(STRATEGY, base / "good.txt")
    (base / "Pr0099.xyz").write_text("x\n")


def _files(base: Path) -> list[Path]:
    """Every path beneath ``base``, but the empty lock file a tournament's commands take first."""
    return sorted(p.relative_to(base) for p in base.rglob("*") if p.name != "tournament.lock")


def _one_line(capfd: pytest.CaptureFixture[str], argv: list[str]) -> tuple[int, list[str]]:
    capfd.readouterr()
    code = main(argv)
    out, err = capfd.readouterr()
    return code, (out + err).splitlines()


@pytest.fixture
def mistakes(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    _mistakes_folder(tmp_path)
    monkeypatch.chdir(tmp_path)
    return tmp_path


@pytest.mark.parametrize(("command", "words"), NO_RUN_NEEDED, ids=[c or "(none)" for c, _ in NO_RUN_NEEDED])
def test_a_mistaken_command_prints_one_line_and_exits_2(
    mistakes: Path, capfd: pytest.CaptureFixture[str], command: str, words: str
) -> None:
    before = _files(mistakes)
    code, lines = _one_line(capfd, command.split())
    assert (code, len(lines)) == (2, 1), lines
    assert words in lines[0] and "Traceback" not in lines[0]
    assert "Input should be" not in lines[0]
    assert _files(mistakes) == before  # nothing written


@pytest.fixture(scope="module")
def runs(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The mistakes folder with a played tournament (``run``) and a played table (``trun``)."""
    base = tmp_path_factory.mktemp("runs")
    _mistakes_folder(base)
    with pytest.MonkeyPatch.context() as patch:
        patch.chdir(base)
        assert main(["tournament", "subs", "--out", "run", "--deals", "2"]) == 0
        assert main(["table", P, Q, "--out", "trun", "--deals", "2"]) == 0
    return base


@pytest.mark.slow
@pytest.mark.parametrize(("command", "words"), WITH_RUNS, ids=[c for c, _ in WITH_RUNS])
def test_a_mistaken_command_on_a_played_run_prints_one_line_and_exits_2(
    runs: Path, capfd: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, command: str, words: str
) -> None:
    monkeypatch.chdir(runs)
    before = _files(runs)
    code, lines = _one_line(capfd, command.split())
    assert (code, len(lines)) == (2, 1), lines
    assert words in lines[0] and "Traceback" not in lines[0]
    assert _files(runs) == before  # nothing written


@pytest.mark.slow
def test_verify_of_a_record_holding_a_card_that_is_no_card_fails_without_a_traceback(
    runs: Path, capfd: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    table = tmp_path / "table"
    shutil.copytree(runs / "trun", table)
    assert main(["reveal", str(table)]) == 0
    lines = (table / "events.jsonl").read_text().splitlines()
    deal = json.loads(lines[0])
    dealt = next(e for e in deal["events"] if e["kind"] == "hole_cards")
    dealt["cards"] = [99, dealt["cards"][1]]
    (table / "events.jsonl").write_text("\n".join([json.dumps(deal), *lines[1:]]) + "\n")
    code, printed = _one_line(capfd, ["verify", str(table)])
    assert code == 1
    assert "FAIL" in printed[0] and "(no card: 99)" in printed[0], printed
    assert not any("Traceback" in line for line in printed)
