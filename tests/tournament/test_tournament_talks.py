"""A tournament that talks, plays by the organiser's knobs and leaves a report per team.

One small real tournament (an honest team, a C team, a crashing one, one whose C does not build, and files
that are not programs) played with its own blinds, stacks and fault limit: what it says before, during and
after play; the knobs at every table and at the final, recorded in the run; ``RUN/reports/<TeamId>.md``
with every fault's ``arena replay`` command, which reruns the fault.
"""

from __future__ import annotations

import io
import json
import re
import shlex
from pathlib import Path

import pytest
from rich.console import Console

from arena.cli import main
from arena.cli.tournament_view import standings_table
from arena.errors import ConfigError
from arena.tournament.host import TournamentSettings
from arena.tournament.schedule import plan_tournament
from arena.tournament.standings import Standing
from arena.tournament.store import Store, TeamRow

from support.sandbox import needs_namespaces

pytestmark = needs_namespaces

BOTS = Path(__file__).resolve().parents[2] / "bots" / "codem"
KNOBS = ["--blinds", "10/20", "--stack", "1000", "--max-faults", "3", "--deals", "4", "--seed", "5"]


@pytest.fixture(scope="module")
def run(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, str, str]:
    root = tmp_path_factory.mktemp("talks")
    subs = root / "subs"
    subs.mkdir()
    (subs / "Caller.py").write_bytes((BOTS / "Caller.py").read_bytes())
    (subs / "Tight.c").write_bytes((BOTS / "Tight.c").read_bytes())
    (subs / "Crasher.py").write_text(
        "import sys\nprint('my answer is 0')\nsys.exit('Crasher: out of ideas')\n"
    )
    (subs / "Unbuilt.c").write_text("int main(void) { this is not C }\n")
    (subs / "notes.txt").write_text("not a program\n")
    (subs / "my bot.py").write_text("pass\n")
    out = root / "run"
    capture = io.StringIO()
    argv = ["tournament", str(subs), "--out", str(out), "--standings-format", "json"]
    argv += ["--time-limit", "5", *KNOBS]
    from contextlib import redirect_stderr, redirect_stdout

    stdout, stderr = io.StringIO(), io.StringIO()
    with redirect_stdout(stdout), redirect_stderr(stderr):
        assert main(argv) == 0
    capture.write(stderr.getvalue())
    return out, stdout.getvalue(), stderr.getvalue()


def test_before_play_it_names_teams_skipped_files_tables_and_isolation(run) -> None:
    _out, _stdout, stderr = run
    lines = stderr.splitlines()
    assert lines[0] == "teams: 4 (Caller [Python], Crasher [Python], Tight [C], Unbuilt [C])"
    assert "skipped: my bot.py: team id 'my bot' may hold only ASCII letters" in stderr
    assert "skipped: notes.txt: extension .txt is not one of .c, .cpp, .java, .pl, .rb, .py" in lines
    tables = next(line for line in lines if line.startswith("tables: "))
    assert tables.startswith("tables: 1 of 4 seats ")  # four teams: one table of four, not of six
    assert tables.endswith(
        "(4 deals each); 5 s a decision, disqualified after 3 faults, blinds 10/20, stacks 1000, seed 5"
    )
    assert any(line.startswith("sandbox isolation: ") for line in lines)


def test_during_play_a_line_per_fault_and_after_it_a_summary_and_the_outputs(run) -> None:
    out, _stdout, stderr = run
    lines = stderr.splitlines()
    fault_lines = [line for line in lines if line.startswith("fault: Crasher at ")]
    assert fault_lines and all(": crash: " in line for line in fault_lines)
    summary = lines.index("faults per team:")
    assert lines.index(fault_lines[0]) < summary
    assert lines.index("build failures:") < summary
    assert "  Unbuilt: " in stderr
    assert "  Crasher: 3 (3 crash)" in lines[summary:]
    outputs = lines[lines.index("outputs:") + 1 :]
    assert f"  standings:    {out / 'standings.csv'}" in outputs
    assert f"  team reports: {out / 'reports'}" in outputs
    assert f"  submissions:  {out / 'submissions.csv'}" in outputs


def test_format_json_prints_the_standings_for_scripts(run) -> None:
    _out, stdout, _stderr = run
    standings = json.loads(stdout)
    assert [s["team"] for s in standings][-1] == "Unbuilt"
    assert {s["team"] for s in standings} == {"Caller", "Crasher", "Tight", "Unbuilt"}


def test_the_knobs_reach_every_table_and_the_final_and_are_recorded(run, capsys) -> None:
    out, _stdout, _stderr = run
    settings = json.loads((out / "results.json").read_text())["settings"]
    assert (settings["small_blind"], settings["big_blind"], settings["stack"], settings["max_faults"]) == (
        10,
        20,
        1000,
        3,
    )
    assert main(["final", str(out), "--deals", "2"]) == 0
    capsys.readouterr()
    folders = [p for p in (out / "tables").iterdir() if (p / "events.jsonl").is_file()]
    assert any(p.name == "final" for p in folders)
    for folder in folders:
        first = json.loads((folder / "events.jsonl").read_text().splitlines()[0])["events"]
        start = next(e for e in first if e["kind"] == "deal_started")
        blinds = sorted(e["amount"] for e in first if e["kind"] == "blind_posted")
        assert set(start["stacks"]) <= {0, 1000} and blinds == [10, 20]
        crasher = [
            t for t in json.loads((folder / "results.json").read_text())["teams"] if t["team"] == "Crasher"
        ]
        if crasher and folder.name != "final":
            assert crasher[0]["disqualified"] and len(crasher[0]["faults"]) == 3


def test_submissions_csv_lists_every_file(run) -> None:
    out, _stdout, _stderr = run
    rows = (out / "submissions.csv").read_text().splitlines()
    assert rows[0] == "file,team,language,sha256,played,reason"
    played = {row.split(",")[0]: row.split(",")[4] for row in rows[1:]}
    assert played == {
        "Caller.py": "yes",
        "Crasher.py": "yes",
        "Tight.c": "yes",
        "Unbuilt.c": "no",  # it did not build, so it never played
        "my bot.py": "no",
        "notes.txt": "no",
    }


def test_a_report_per_team_with_replay_commands_that_rerun_the_fault(run, capsys) -> None:
    out, _stdout, _stderr = run
    assert sorted(p.name for p in (out / "reports").iterdir()) == [
        "Caller.md",
        "Crasher.md",
        "Tight.md",
        "Unbuilt.md",
    ]
    report = (out / "reports" / "Crasher.md").read_text()
    assert report.startswith("# Crasher: tournament report\n")
    assert "## Faults (3)" in report and report.count("**crash**") == 3
    assert "## Decision times (limit 5000 ms)" in report
    assert "VPIP" in report and "went to showdown" in report
    assert "| table | seat | deals | profit | final stack | faults | status |" in report
    replays = [line.split("`")[1] for line in report.splitlines() if line.strip().startswith("replay: `")]
    assert len(replays) == 3
    argv = shlex.split(replays[0])
    assert argv[:3] == ["arena", "replay", str(out)]
    capsys.readouterr()
    assert main(argv[1:]) == 1
    printed = capsys.readouterr().out
    assert "recorded fault: crash: exited with status 1" in printed
    assert "Crasher: out of ideas" in printed and "my answer is 0" in printed
    assert "VPIP" in (out / "reports" / "Caller.md").read_text()
    assert "the program did not build" in (out / "reports" / "Unbuilt.md").read_text()


def test_standings_fit_the_width_and_never_cut_a_figure_or_lose_a_name() -> None:
    standing = Standing(
        rank=1,
        team="A_team_with_a_name_as_long_as_the_rules_allow_it",
        tables=123,
        deals=123000,
        profit=4880123,
        profit_per_deal=488.1234,
        ci95_low=-1234.5,
        ci95_high=2210.75,
        faults=1000,
        disqualified=12,
        build_failed=0,
    )
    for width in (80, 60, 30):
        text = io.StringIO()
        Console(file=text, width=width, no_color=True).print(standings_table([standing]))
        shown = text.getvalue()
        assert max(len(line) for line in shown.splitlines()) <= width
        for figure in ("+4880123", "+488.12", "1722.62", "123000", "1000"):
            assert figure in shown
        folded = "".join(
            line.split("│")[2].strip() if line.count("│") > 2 else line for line in shown.splitlines()
        )
        assert standing.team in folded


def test_a_run_recorded_before_the_knobs_resumes_with_their_defaults(tmp_path: Path) -> None:
    store = Store(tmp_path)
    old = {"deals": 4, "seed": 0, "duplicate": False, "time_limit_s": 1.0}
    teams = [TeamRow("A", "A.py", "Python", "a"), TeamRow("B", "B.py", "Python", "b")]
    store.initialise(old, teams, plan_tournament(["A", "B"], seed=0, duplicate=False))
    now = TournamentSettings(deals=4, seed=0).model_dump()
    store.initialise(now, teams, [], defaults=TournamentSettings().model_dump())
    with pytest.raises(ConfigError, match="max_faults was 10, now 3"):
        store.initialise({**now, "max_faults": 3}, teams, [], defaults=TournamentSettings().model_dump())
    store.close()


def test_the_progress_line_reads_done_of_total_rate_elapsed_and_time_left() -> None:
    """``3 of 10 done · 6.0/min · 0:00:30 elapsed · 0:01:00 left``: each figure says what it is."""
    from arena.cli.tournament import BarsOnTerminal

    out = io.StringIO()
    bars = BarsOnTerminal(Console(file=out, width=160, force_terminal=False))
    bars.start("tables", tables=10, deals=50)
    bars.advance(tables=3, deals=15)
    bars.stop()
    figures = r"(\d+:\d\d:\d\d|-:--:--)"
    rate = r"(-|\d+\.\d)/(s|min)"
    tables, deals = [line for line in out.getvalue().splitlines() if line.strip()][-2:]
    line = r"\s+{} of {} done ·\s+{} ·\s+{} elapsed ·\s+{} left$"  # columns align from row to row
    assert re.search(r"^tables .*" + line.format(3, 10, rate, figures, figures), tables.strip())
    assert re.search(r"^deals .*" + line.format(15, 50, rate, figures, figures), deals.strip())


def test_arena_watchs_reports_are_one_skipped_line_and_other_files_one_each() -> None:
    from arena.cli.tournament_view import announce_plan
    from arena.tournament.host import TournamentPlan
    from arena.tournament.submissions import Skipped

    reports = [Skipped(f"T{n}.py.report.txt", "a report written by arena watch") for n in range(7)]
    plan = TournamentPlan(
        [], [*reports, Skipped("notes.txt", "not a program")], 0, 0, 5, TournamentSettings()
    )
    out = io.StringIO()
    announce_plan(Console(file=out, width=200), plan)
    skipped = [line for line in out.getvalue().splitlines() if line.startswith("skipped: ")]
    assert skipped == [
        "skipped: 7 reports written by arena watch (*.report.txt)",
        "skipped: notes.txt: not a program",
    ]
