"""Page sessions end when the organiser resets the team's password or disables the team."""

from __future__ import annotations

from pathlib import Path

import pytest

from arena.contest.accounts import read_credentials

from support.contest import make_contest, serve
from support.contest_pages import Client


@pytest.mark.slow
def test_a_reset_password_or_a_disabled_team_ends_its_page_sessions_and_tokens(tmp_path: Path) -> None:
    root = tmp_path / "contest"
    passwords = make_contest(root, teams=2)
    with serve(root) as server:
        boss = server.sign_in("organiser", passwords["organiser"])
        team_a, team_b = Client(server), Client(server)
        assert team_a.sign_in("TeamA", passwords["TeamA"]).status == 303
        assert team_b.sign_in("TeamB", passwords["TeamB"]).status == 303
        token_a = server.sign_in("TeamA", passwords["TeamA"])
        assert team_a.get("/team").status == team_b.get("/team").status == 200

        assert server.call("POST", "/api/teams/TeamA/reset", token=boss).status == 200
        assert team_a.get("/team").status == 303  # to the sign-in page
        assert server.call("GET", "/api/me", token=token_a).status == 401
        new_password = read_credentials(root / "credentials.csv")["TeamA"]
        assert new_password != passwords["TeamA"]
        assert (
            server.call("POST", "/api/session", {"team": "TeamA", "password": passwords["TeamA"]}).status
            == 401
        )
        assert team_a.sign_in("TeamA", new_password).status == 303 and team_a.get("/team").status == 200

        assert server.call("POST", "/api/teams/TeamB/disable", token=boss).status == 200
        assert team_b.get("/team").status == 303
        assert (
            server.call("POST", "/api/session", {"team": "TeamB", "password": passwords["TeamB"]}).status
            == 401
        )
        assert server.call("POST", "/api/teams/TeamB/enable", token=boss).status == 200
        assert (
            server.call("POST", "/api/session", {"team": "TeamB", "password": passwords["TeamB"]}).status
            == 200
        )
