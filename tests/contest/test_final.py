"""After the tournament, through the API: the finalists' zip and window, the final, the certificates."""

from __future__ import annotations

import datetime as dt
import io
import zipfile
from pathlib import Path

import pytest

from support.contest import contest_settings, make_contest, poll, start, stop

ROOT = Path(__file__).parents[2]
BROKEN_C = b"int main(void) { return undefined_symbol; }\n"


@pytest.mark.slow
def test_finalists_get_their_logs_and_window_then_the_final_and_certificates(tmp_path: Path) -> None:
    root = tmp_path / "contest"
    passwords = make_contest(root, teams=3, settings=contest_settings(finalists_window_hours=0.02))
    server = start(root)
    try:
        tokens = {team: server.sign_in(team, passwords[team]) for team in passwords}
        bots = {"TeamA": ("TeamA.py", "Caller.py"), "TeamB": ("TeamB.c", "Tight.c")}
        for team, (name, bot) in bots.items():
            assert server.upload(tokens[team], name, (ROOT / "bots/codem" / bot).read_bytes()).status == 201
        assert server.upload(tokens["TeamC"], "TeamC.c", BROKEN_C).status == 201  # never builds
        boss = tokens["organiser"]
        assert server.call("GET", "/api/finals-logs", token=tokens["TeamA"]).status == 404  # not yet
        assert server.call("POST", "/api/tournament", {"deals": 4}, token=boss).status == 202
        status = server.wait_stage("/api/tournament")
        assert status["status"] == "done" and sorted(status["finalists"]) == ["TeamA", "TeamB"], status
        standings = {row["team"]: row for row in server.call("GET", "/api/standings").json["standings"]}
        assert (standings["TeamC"]["built"], standings["TeamC"]["deals"]) == (False, 0)
        assert standings["TeamA"]["built"] and standings["TeamA"]["deals"] > 0
        page = server.request("GET", "/standings").body.decode()
        assert "did not build" in page.split('data-team="TeamC"')[1].split("</tr>")[0]

        # the finalists' zip: the other finalist's tables, in seed 004's folder shape
        logs = server.call("GET", "/api/finals-logs", token=tokens["TeamA"])
        assert logs.status == 200 and logs.headers["content-type"] == "application/zip"
        names = zipfile.ZipFile(io.BytesIO(logs.body)).namelist()
        assert names and all(name.startswith("TeamA/TeamB/") for name in names), names[:5]
        assert server.call("GET", "/api/finals-logs", token=tokens["TeamC"]).status == 404
        assert server.call("GET", "/api/finals-logs", token=boss).status == 403

        # the window: finalists upload code and help files; an update that fails its check is set aside
        window = server.call("GET", "/api/deadlines").json["finalists_window"]
        assert window is not None
        helps = [("opening.txt", b"raise"), ("notes.txt", b"tight")]
        tight = (ROOT / "bots/codem/Tight.c").read_bytes()
        updated = server.upload(tokens["TeamB"], "TeamB.c", tight, helps)
        assert updated.status == 201, updated.body
        failing = server.upload(tokens["TeamA"], "TeamA.py", b"def broken(:\n")
        assert failing.status == 201
        refused = server.upload(tokens["TeamC"], "TeamC.c", tight)
        assert refused.status == 400 and "only finalists upload" in refused.json["error"]
        too_many = [(f"h{n}.txt", b"x") for n in range(16)]
        assert server.upload(tokens["TeamB"], "TeamB.c", tight, too_many).status == 400
        early = server.call("POST", "/api/final", token=boss)
        assert early.status == 400 and "window is open until" in early.json["error"]

        closes = dt.datetime.fromisoformat(window[1])
        poll(lambda: True if dt.datetime.now(dt.UTC) > closes else None, 180, every=1)
        late = server.upload(tokens["TeamB"], "TeamB.c", tight)
        assert late.status == 400 and "the finalists' window is" in late.json["error"]
        assert server.wait_checked(tokens["TeamB"], updated.json["id"])["verdict"] == "PASS"
        assert server.wait_checked(tokens["TeamA"], failing.json["id"])["verdict"] == "FAIL"
        started = server.call("POST", "/api/final", token=boss)
        assert started.status == 202, started.body
        assert started.json["programs"] == {
            "TeamA": "initial code (its update failed its check)",
            "TeamB": f"updated TeamB.c (upload {updated.json['id']})",
        }
        final = server.wait_stage("/api/final")
        assert final["status"] == "done", final

        # certificates: excellence for the finalists; none for a team that never built
        pdf = server.request("GET", "/api/certificates/excellence", token=tokens["TeamB"])
        assert (
            pdf.status == 200
            and pdf.body.startswith(b"%PDF")
            and pdf.headers["content-type"] == "application/pdf"
        )
        assert server.request("GET", "/api/certificates/excellence", token=tokens["TeamC"]).status == 404
        assert server.request("GET", "/api/certificates/participation", token=tokens["TeamC"]).status == 404

        # a team's own hands (its view) and faults; the whole folder without its secrets for the organiser
        hands = server.request("GET", "/api/hands/phh", token=tokens["TeamA"])
        assert hands.status == 200 and all(
            ".TeamA." in n for n in zipfile.ZipFile(io.BytesIO(hands.body)).namelist()
        )
        faults = server.call("GET", "/api/faults", token=tokens["TeamC"]).json["faults"]
        assert faults and {f["team"] for f in faults} == {"TeamC"} and faults[0]["kind"] == "build_failed"
        everything = server.request("GET", "/api/everything", token=boss)
        archive = zipfile.ZipFile(io.BytesIO(everything.body)).namelist()
        assert "contest/contest.sqlite" in archive and "contest/tournament/final.json" in archive
        assert not any(n.endswith(("credentials.csv", "secret.key")) or "deck-keys" in n for n in archive)
        revealed = server.call("POST", "/api/keys/reveal", token=boss)
        assert revealed.status == 200 or "known seed" in revealed.json["error"]
    finally:
        stop(server)
