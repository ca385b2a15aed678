"""The sample Code'em programs (bots/codem/ and sample_tables/), built with the real toolchains and run one
process per decision on hand-written input-file sets (tests/data/codem_inputs/).

The contract is docs/protocol.md only: these tests read the files as a program sees them and never use
the arena's table code.
"""

from __future__ import annotations

import os
import re
import shutil
import signal
import subprocess
from dataclasses import dataclass
from pathlib import Path

import pytest

ROOT = Path(__file__).parents[3]
BOTS = ROOT / "bots" / "codem"
SAMPLES = ROOT / "sample_tables"
INPUTS = Path(__file__).parents[2] / "data" / "codem_inputs"
PROTOCOL_FILES = frozenset({"inputf.txt", "deals_money.txt", "deal.txt", "outputf.txt"})
BOT_NAMES = ["Caller.py", "Tight.c", "Raiser.cpp", "Bluffer.pl", "Tracker.rb", "Equity.java", "Learner.py"]
HELP_FOLDERS = {"Tracker": "tracker", "Learner": "learner"}
RUN_TIMEOUT = 60.0  # seconds; generous for a loaded machine, only a hang ever reaches it
HANG_TIMEOUT = 3.0
BIG_BLIND = 10
ROUNDS = ("Pre_Flop", "Flop", "Fourth_Street", "Fifth_Street")


def stage_of(case: str) -> str:
    for line in (INPUTS / case / "deal.txt").read_text().splitlines():
        words = line.split()
        if len(words) >= 2 and words[0] == "Stage":
            return words[1]
    raise AssertionError(f"{case}: deal.txt has no Stage line")


CASES = sorted(p.name for p in INPUTS.iterdir() if p.is_dir())
DECISION_CASES = [c for c in CASES if stage_of(c) != "Show_Down"]
SHOW_DOWN_CASES = [c for c in CASES if stage_of(c) == "Show_Down"]
DEAL_7_SEAT_3 = ["preflop_raise", "flop", "turn", "river", "showdown"]  # one deal, seen by seat 3


@dataclass(frozen=True)
class Built:
    """A program built in its own folder: the files to copy into a team folder and how to run it."""

    team: str
    folder: Path
    files: tuple[str, ...]
    command: tuple[str, ...]


def build(source: Path, into: Path) -> Built:
    """Build `source` the way docs/protocol.md's languages are built; a failed build fails the test."""
    into.mkdir(parents=True, exist_ok=True)
    shutil.copy(source, into / source.name)
    team, ext = source.stem, source.suffix
    compile_commands = {
        ".c": ["gcc", "-O2", "-o", team, source.name, "-lm"],
        ".cpp": ["g++", "-O2", "-std=c++17", "-o", team, source.name],
        ".java": ["javac", source.name],
    }
    if ext in compile_commands:
        done = subprocess.run(compile_commands[ext], cwd=into, capture_output=True, text=True, timeout=300)
        assert done.returncode == 0, f"{source.name} does not build:\n{done.stderr}"
    run_commands = {
        ".py": ("python3", source.name),
        ".c": (f"./{team}",),
        ".cpp": (f"./{team}",),
        ".java": ("java", "-cp", ".", team),
        ".pl": ("perl", source.name),
        ".rb": ("ruby", source.name),
    }
    files = tuple(sorted(p.name for p in into.iterdir()))
    return Built(team=team, folder=into, files=files, command=run_commands[ext])


def install(program: Built, folder: Path) -> Path:
    """A fresh team folder holding the built program."""
    folder.mkdir(parents=True, exist_ok=True)
    for name in program.files:
        shutil.copy(program.folder / name, folder / name)
    return folder


@dataclass(frozen=True)
class Run:
    returncode: int | None  # None: killed at the time-out
    output: str | None  # outputf.txt after the run (None when missing)
    stderr: str


def run(program: Built, folder: Path, case: str, timeout: float = RUN_TIMEOUT) -> Run:
    """One decision: fresh input files of `case`, an emptied outputf.txt, one process in its own group."""
    for name in ("inputf.txt", "deals_money.txt", "deal.txt"):
        shutil.copy(INPUTS / case / name, folder / name)
    (folder / "outputf.txt").write_text("")
    process = subprocess.Popen(
        program.command,
        cwd=folder,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,
    )
    try:
        _out, err = process.communicate(timeout=timeout)
        code: int | None = process.returncode
    except subprocess.TimeoutExpired:
        os.killpg(process.pid, signal.SIGKILL)
        _out, err = process.communicate()
        code = None
    output = folder / "outputf.txt"
    return Run(code, output.read_text() if output.exists() else None, err)


def help_files(program: Built, folder: Path) -> list[Path]:
    """Files the program made itself: everything but the protocol files and the program's build."""
    return sorted(
        p
        for p in folder.rglob("*")
        if p.is_file() and not (p.parent == folder and (p.name in PROTOCOL_FILES or p.name in program.files))
    )


def protocol_integer(output: str | None) -> int:
    """The one answer line of outputf.txt, checked against docs/protocol.md's table."""
    assert output is not None, "outputf.txt is missing"
    lines = output.splitlines()
    assert len(lines) == 1, f"expected exactly one line, got {output!r}"
    assert re.fullmatch(r"-?\d+", lines[0].strip()), f"not an integer: {lines[0]!r}"
    answer = int(lines[0])
    assert answer in (0, -10) or answer > 0, f"{answer} is not 0, -10 or a positive raise"
    return answer


@dataclass(frozen=True)
class Situation:
    """What a seat faces, worked out from the input files by docs/protocol.md (an independent reading)."""

    to_call: int
    behind: int  # chips left after calling
    min_raise: int


def situation(case: str) -> Situation:
    seat, spent = [int(w) for w in (INPUTS / case / "inputf.txt").read_text().split()][2:4]
    money = {
        int(w[0]): int(w[1])
        for w in (line.split() for line in (INPUTS / case / "deals_money.txt").read_text().splitlines())
        if len(w) == 2 and w[0].isdigit()
    }
    stage = stage_of(case)
    totals: dict[int, int] = {}
    rises: list[int] = []
    header: list[int] = []
    current = ""
    board_lines = 0
    for line in (INPUTS / case / "deal.txt").read_text().splitlines():
        words = line.split()
        if len(words) == 1 and words[0] in (*ROUNDS, "Show_Down"):
            current, header, board_lines = words[0], [], 0 if words[0] == "Pre_Flop" else 1
        elif current == stage and words and all(w.isdigit() for w in words):
            if board_lines:
                board_lines = 0
            elif not header:
                header = [int(w) for w in words]
        elif current == stage and words and words[0] != "End":
            cells = re.findall(r"-|(?:Call|Rise|Fold) \d+", " ".join(words))
            for column, cell in enumerate(cells):
                if cell != "-":
                    action, amount = cell.split()
                    totals[header[column]] = int(amount)
                    if action == "Rise":
                        rises.append(int(amount))
    to_call = max(totals.values(), default=0) - totals.get(seat, 0)
    levels = sorted(set(rises))
    steps = [b - a for a, b in zip([0, *levels], levels, strict=False)]
    opening = BIG_BLIND if stage in ("Pre_Flop", "Flop") else 2 * BIG_BLIND
    return Situation(to_call, money[seat] - spent - to_call, max([opening, *steps]))


# ---- the sample programs of bots/codem ----


@pytest.fixture(scope="module")
def bots(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Built]:
    root = tmp_path_factory.mktemp("bots")
    return {Path(n).stem: build(BOTS / n, root / Path(n).stem) for n in BOT_NAMES}


@pytest.mark.parametrize("case", DECISION_CASES)
@pytest.mark.parametrize("bot", [Path(n).stem for n in BOT_NAMES])
def test_bot_answers_every_decision_with_one_protocol_integer(
    bots: dict[str, Built], bot: str, case: str, tmp_path: Path
) -> None:
    folder = install(bots[bot], tmp_path / bot)
    first = run(bots[bot], folder, case)
    assert first.returncode == 0, first.stderr
    complaints = [
        line for line in first.stderr.splitlines() if not line.startswith("Picked up ")
    ]  # JVM notes
    assert complaints == [], first.stderr
    answer = protocol_integer(first.output)
    if answer > 0:  # a raise is a full raise, or the whole stack (an all-in is always allowed)
        facing = situation(case)
        assert answer >= facing.min_raise or answer == facing.behind, (answer, facing)
        assert answer <= facing.behind, (answer, facing)
    second = run(bots[bot], folder, case)  # the same files again, help files kept: the same answer
    assert second.returncode == 0 and second.output == first.output


@pytest.mark.parametrize("case", SHOW_DOWN_CASES)
@pytest.mark.parametrize("bot", [Path(n).stem for n in BOT_NAMES])
def test_show_down_run_writes_no_decision(
    bots: dict[str, Built], bot: str, case: str, tmp_path: Path
) -> None:
    folder = install(bots[bot], tmp_path / bot)
    done = run(bots[bot], folder, case)
    assert done.returncode == 0, done.stderr
    assert done.output == ""


def test_the_input_sets_cover_the_protocol_situations() -> None:
    assert {
        "preflop_blinds",
        "preflop_raise",
        "flop",
        "turn",
        "river",
        "side_pot",
        "showdown",
        "seed004_complete",
        "seed004_incomplete",
    } <= set(CASES)
    assert situation("side_pot").behind < 0  # calling is all-in for less: the side-pot situation
    assert situation("preflop_raise").min_raise == 30  # the raise to 40 over the big blind of 10
    assert situation("turn").min_raise == 100 and situation("river").min_raise == 200


@pytest.mark.parametrize("bot", sorted(HELP_FOLDERS))
def test_show_down_run_updates_the_help_files(bots: dict[str, Built], bot: str, tmp_path: Path) -> None:
    folder = install(bots[bot], tmp_path / bot)
    for case in DEAL_7_SEAT_3[:-1]:
        assert run(bots[bot], folder, case).returncode == 0
    before = {p: p.read_bytes() for p in help_files(bots[bot], folder)}
    assert run(bots[bot], folder, "showdown").returncode == 0
    after = {p: p.read_bytes() for p in help_files(bots[bot], folder)}
    assert after != before
    assert all(p.parent.name == HELP_FOLDERS[bot] for p in after)
    again = run(bots[bot], folder, "showdown")  # a repeated Show_Down run counts nothing twice
    assert again.returncode == 0
    assert {p: p.read_bytes() for p in help_files(bots[bot], folder)} == after


def test_tracker_counts_each_seat_of_the_show_down_deal(bots: dict[str, Built], tmp_path: Path) -> None:
    folder = install(bots["Tracker"], tmp_path / "Tracker")
    assert run(bots["Tracker"], folder, "showdown").returncode == 0
    lines = [line.split() for line in (folder / "tracker" / "stats.txt").read_text().splitlines()]
    assert lines[0] == ["Deal", "7"]
    stats = {int(w[0]): [int(x) for x in w[1:]] for w in lines[1:]}
    assert set(stats) == {1, 2, 3, 4, 5, 6}
    assert all(hands == 1 for hands, *_ in stats.values())
    vpip = {seat for seat, (_hands, played, *_rest) in stats.items() if played}
    assert vpip == {1, 3, 5, 6}  # seat 2 folded, seat 4 folded its small blind


def test_learner_scores_its_choices_at_show_down_when_it_loses(
    bots: dict[str, Built], tmp_path: Path
) -> None:
    folder = install(bots["Learner"], tmp_path / "Learner")
    for case in DEAL_7_SEAT_3:
        assert run(bots["Learner"], folder, case).returncode == 0
    table = [line.split() for line in (folder / "learner" / "table.txt").read_text().splitlines()]
    assert len(table) == 4  # one choice in each of the deal's four rounds
    # seat 3 began with 1710 and spent 600 in all, so each choice lost what was put in after it
    assert sorted(int(chips) for *_key, _games, chips in table) == [-600, -560, -500, -200]
    assert (folder / "learner" / "pending.txt").read_text() == ""


def test_learner_scores_a_fold_out_at_the_next_deal(bots: dict[str, Built], tmp_path: Path) -> None:
    folder = install(bots["Learner"], tmp_path / "Learner")
    assert run(bots["Learner"], folder, "preflop_raise").returncode == 0  # deal 7, seat 3, stack 1710
    assert not (folder / "learner" / "table.txt").exists()
    assert run(bots["Learner"], folder, "next_deal_preflop").returncode == 0  # deal 8: seat 3 has 1110
    table = [line.split() for line in (folder / "learner" / "table.txt").read_text().splitlines()]
    assert [(games, chips) for *_key, games, chips in table] == [("1", str(1110 - 1710))]
    pending = (folder / "learner" / "pending.txt").read_text().split()
    assert pending[0] == "8"


@pytest.mark.parametrize("bot", [Path(n).stem for n in BOT_NAMES])
def test_a_whole_table_of_runs_keeps_at_most_15_help_files(
    bots: dict[str, Built], bot: str, tmp_path: Path
) -> None:
    folder = install(bots[bot], tmp_path / bot)
    for case in CASES:
        done = run(bots[bot], folder, case)
        assert done.returncode == 0, (case, done.stderr)
    assert len(help_files(bots[bot], folder)) <= 15
    if bot not in HELP_FOLDERS:
        assert help_files(bots[bot], folder) == []


def test_bluffer_bluffs_only_sometimes_and_reproducibly(bots: dict[str, Built], tmp_path: Path) -> None:
    """The dealer facing a check on the river with nothing: a bluff depends on the seeded draw only."""
    answers = []
    for variant in range(40):
        case_folder = tmp_path / f"case{variant}"
        case_folder.mkdir()
        for name in ("inputf.txt", "deals_money.txt"):
            shutil.copy(INPUTS / "river" / name, case_folder / name)
        deal = (INPUTS / "river" / "deal.txt").read_text()
        deal = deal.replace("Dealer         3", "Dealer         6").replace("Rise 200", "Call 0")
        deal = deal.replace("Main_Pot       1145", f"Main_Pot       {945 + variant}")  # varies the seed
        (case_folder / "deal.txt").write_text(deal)
        (case_folder / "inputf.txt").write_text("2          42          3          400\n")  # 3s 4d: nothing
        folder = install(bots["Bluffer"], tmp_path / f"bluffer{variant}")
        results = []
        for _ in range(2):
            for name in ("inputf.txt", "deals_money.txt", "deal.txt"):
                shutil.copy(case_folder / name, folder / name)
            done = subprocess.run(
                bots["Bluffer"].command, cwd=folder, capture_output=True, text=True, timeout=RUN_TIMEOUT
            )
            assert done.returncode == 0, done.stderr
            results.append(protocol_integer((folder / "outputf.txt").read_text()))
        assert results[0] == results[1]
        answers.append(results[0])
    bluffs = [a for a in answers if a > 0]
    assert 0 < len(bluffs) < len(answers)  # about 30% of 40 chances
    assert all(a >= 2 * BIG_BLIND for a in bluffs)


# ---- the demo submissions folder ----

SAMPLE_FILES = sorted(
    p.name for p in SAMPLES.iterdir() if p.is_file() and p.name != "README.md" and not p.name.startswith(".")
)


@pytest.fixture(scope="module")
def samples(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Built]:
    root = tmp_path_factory.mktemp("samples")
    return {Path(n).stem: build(SAMPLES / n, root / Path(n).stem) for n in SAMPLE_FILES}


def hole_sum(case: str) -> int:
    card1, card2 = [int(w) for w in (INPUTS / case / "inputf.txt").read_text().split()][:2]
    return card1 + card2


def pocket_pair_pre_flop(case: str) -> bool:
    card1, card2 = [int(w) for w in (INPUTS / case / "inputf.txt").read_text().split()][:2]
    return stage_of(case) == "Pre_Flop" and (card1 - 1) % 13 == (card2 - 1) % 13


def test_sample_tables_holds_twelve_team_programs_named_by_team_id() -> None:
    assert len(SAMPLE_FILES) == 12
    assert all(re.fullmatch(r"Pr\d{4}\.(c|cpp|java|pl|rb|py)", n) for n in SAMPLE_FILES)
    assert {Path(n).suffix for n in SAMPLE_FILES} == {".c", ".cpp", ".java", ".pl", ".rb", ".py"}
    readme = (SAMPLES / "README.md").read_text()
    assert all(Path(n).stem in readme for n in SAMPLE_FILES)
    assert "public class Pr0006" in (SAMPLES / "Pr0006.java").read_text()


COPIES = {
    "Pr0001.py": "Caller.py",
    "Pr0002.c": "Tight.c",
    "Pr0003.cpp": "Raiser.cpp",
    "Pr0004.pl": "Bluffer.pl",
    "Pr0005.rb": "Tracker.rb",
    "Pr0006.java": "Equity.java",
    "Pr0007.py": "Learner.py",
}


@pytest.mark.parametrize("sample", sorted(COPIES))
def test_sample_copies_match_their_bots(sample: str) -> None:
    """The copies in sample_tables stay the programs bots/README.md explains (Java: class renamed only)."""
    copy = (SAMPLES / sample).read_text().replace(Path(sample).stem, Path(COPIES[sample]).stem)
    original = (BOTS / COPIES[sample]).read_text()
    if sample.endswith(".java"):
        copy = copy.replace(
            "// Equity: bots/codem/Equity.java with its class renamed to match the file name.\n", ""
        )
    assert copy == original


@pytest.mark.parametrize("case", DECISION_CASES)
@pytest.mark.parametrize("team", [Path(n).stem for n in SAMPLE_FILES])
def test_sample_team_answers_or_shows_its_documented_fault(
    samples: dict[str, Built], team: str, case: str, tmp_path: Path
) -> None:
    folder = install(samples[team], tmp_path / team)
    crashes = team == "Pr0011" and hole_sum(case) % 7 == 0
    hangs = team == "Pr0012" and pocket_pair_pre_flop(case)
    done = run(samples[team], folder, case, timeout=HANG_TIMEOUT if hangs else RUN_TIMEOUT)
    if crashes:
        assert done.returncode not in (0, None)
        assert "ZeroDivisionError" in done.stderr
        assert done.output == ""
    elif hangs:
        assert done.returncode is None
        assert done.output == ""
    else:
        assert done.returncode == 0, done.stderr
        protocol_integer(done.output)


def test_each_documented_fault_is_met_by_some_input_set() -> None:
    assert any(hole_sum(c) % 7 == 0 for c in DECISION_CASES)
    assert any(pocket_pair_pre_flop(c) for c in DECISION_CASES)
    assert any(hole_sum(c) % 7 for c in DECISION_CASES)
    assert any(not pocket_pair_pre_flop(c) for c in DECISION_CASES)


@pytest.mark.parametrize("case", SHOW_DOWN_CASES)
@pytest.mark.parametrize("team", [Path(n).stem for n in SAMPLE_FILES])
def test_sample_team_show_down_run_writes_nothing(
    samples: dict[str, Built], team: str, case: str, tmp_path: Path
) -> None:
    folder = install(samples[team], tmp_path / team)
    done = run(samples[team], folder, case)
    assert done.returncode == 0, done.stderr
    assert done.output == ""
