"""The campground command: its version and help, what migrate says, and an admin's changes
from the command line, made by the REST API's own services and written to the audit log."""

import socket
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

from app.cli import main as campground
from app.config import Settings
from app.migrate import head
from app.services import admin
from tests.app.accounts import device, signed_in
from tests.app.conftest import running, settings_for

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def database(database_url, monkeypatch) -> str:
    """The command reads its settings from the environment, as it does on a server."""
    monkeypatch.setenv("DATABASE_URL", database_url)
    monkeypatch.delenv("REDIS_URL", raising=False)
    return database_url


def test_version_is_the_project_s():
    done = subprocess.run(
        [sys.executable, "-m", "app.cli", "--version"], capture_output=True, text=True, timeout=60
    )
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["version"]
    assert done.returncode == 0 and done.stdout == f"campground {project}\n"


def test_help_names_every_setting_in_plain_text(capsys):
    with pytest.raises(SystemExit) as exited:
        campground(["--help"])
    assert exited.value.code == 0
    said = capsys.readouterr().out
    for name in Settings.model_fields:
        assert f"\n  {name}\n" in said, name
    assert "`" not in said and "``" not in said
    for command in ("serve", "migrate", "simulate", "verify", "admin"):
        assert f"    {command} " in said


def test_migrate_says_what_it_applied_then_that_nothing_was_left(tmp_path, monkeypatch, capsys):
    monkeypatch.setenv("DATABASE_URL", f"sqlite+aiosqlite:///{tmp_path / 'new.db'}")
    assert campground(["migrate"]) == 0
    said = capsys.readouterr().out
    assert f"Migrated from an empty database to revision {head()}, applying" in said
    assert "  0001  players, lobbies, seats, games and moves\n" in said
    assert f"\n  {head()}  " in said
    assert campground(["migrate"]) == 0
    assert f"Up to date at revision {head()} (" in capsys.readouterr().out


def audit(live, action: str) -> dict:
    return live.admin().get("/api/admin/audit", params={"action": action}).json()[0]


def test_admin_tasks_from_the_command_line_change_and_are_audited(live, database, capsys):
    ana, ben = signed_in(live, "Ana"), signed_in(live, "Ben")
    cy = live.guest("Cy")
    phone = device(live, ana.handle)
    game_id = live.start_game(ana, ben)
    host = f"cli@{socket.gethostname()}"[:64]

    assert campground(["admin", "mute", ana.handle, "--minutes", "5", "--reason", "spam"]) == 0
    assert f"Muted Ana ({ana.id}) in chat until" in capsys.readouterr().out
    entry = audit(live, "player.mute")
    assert (entry["actor"], entry["address"], entry["target"]) == ("cli", host, ana.id)
    assert entry["details"]["reason"] == "spam"

    assert campground(["admin", "--as", "sam", "sign-out", ana.id]) == 0
    assert capsys.readouterr().out == f"Signed out 2 devices of Ana ({ana.id}).\n"
    assert phone.get("/api/players/me").status_code == 401
    assert audit(live, "player.sign_out")["actor"] == "sam"

    assert campground(["admin", "suspend", ben.id]) == 0
    assert "the bot took 1 seat at games under way" in capsys.readouterr().out
    assert audit(live, "player.suspend")["target"] == ben.id
    assert campground(["admin", "unsuspend", ben.handle]) == 0
    assert audit(live, "player.unsuspend")["actor"] == "cli"
    assert campground(["admin", "unmute", ana.id]) == 0
    assert audit(live, "player.unmute")["actor"] == "cli"

    assert campground(["admin", "abort", game_id]) == 0
    assert f"Aborted game {game_id} (hike)" in capsys.readouterr().out
    assert live.state(cy, game_id)["view"]["table"]["status"] == "aborted"
    assert audit(live, "game.abort")["target"] == game_id

    assert campground(["admin", "recompute-ratings", "hike"]) == 0
    assert "Computed the ratings of hike again" in capsys.readouterr().out
    assert audit(live, "ratings.recompute")["actor"] == "cli"


def test_a_refused_task_says_why_and_changes_nothing(live, database, capsys):
    ana = live.guest("Ana")
    game_id = live.start_game(ana, live.guest("Ben"))
    assert campground(["admin", "abort", game_id]) == 0
    capsys.readouterr()
    assert campground(["admin", "abort", game_id]) == 1
    assert capsys.readouterr().err == "The game is already aborted.\n"
    assert campground(["admin", "suspend", "nobody-at-all"]) == 1
    assert "No player has the id or handle 'nobody-at-all'." in capsys.readouterr().err
    assert campground(["admin", "mute", ana.id, "--minutes", "0"]) == 1
    assert "--minutes" in capsys.readouterr().err
    assert campground(["admin", "recompute-ratings", "chess"]) == 1


def test_an_unmigrated_database_is_refused_with_the_remedy(tmp_path, monkeypatch, capsys):
    monkeypatch.setenv("DATABASE_URL", f"sqlite+aiosqlite:///{tmp_path / 'empty.db'}")
    assert campground(["admin", "recompute-ratings", "hike"]) == 2
    assert "run `campground migrate` first" in capsys.readouterr().err


def test_the_command_line_and_the_api_call_the_same_services(live, database, monkeypatch):
    """Not copies: the route and the command both go through ``app.services.admin``."""
    called = []
    for name in ("abort", "mute", "unmute", "suspend", "unsuspend", "sign_out", "recompute"):
        service = getattr(admin, name)

        async def noted(*args, _service=service, _name=name, **kwargs):
            called.append(_name)
            return await _service(*args, **kwargs)

        monkeypatch.setattr(admin, name, noted)
    ana = signed_in(live, "Ana")
    games = [live.start_game(ana, live.guest("Ben")) for _ in range(2)]
    api = live.admin()
    assert api.post(f"/api/admin/players/{ana.id}/mute", json={"minutes": 1}).status_code == 200
    assert api.delete(f"/api/admin/players/{ana.id}/mute").status_code == 200
    assert api.post(f"/api/admin/players/{ana.id}/suspension").status_code == 200
    assert api.delete(f"/api/admin/players/{ana.id}/suspension").status_code == 200
    assert api.delete(f"/api/admin/players/{ana.id}/sessions").status_code == 200
    assert api.post("/api/admin/ratings/hike/recompute").status_code == 200
    assert api.post(f"/api/admin/games/{games[0]}/abort").status_code == 200
    from_api, called[:] = list(called), []
    for args in (
        ["mute", ana.id, "--minutes", "1"],
        ["unmute", ana.id],
        ["suspend", ana.id],
        ["unsuspend", ana.id],
        ["sign-out", ana.id],
        ["recompute-ratings", "hike"],
        ["abort", games[1]],
    ):
        assert campground(["admin", *args]) == 0, args
    assert (
        called
        == from_api
        == ["mute", "unmute", "suspend", "unsuspend", "sign_out", "recompute", "abort"]
    )


@pytest.mark.redis
def test_a_running_server_s_sockets_hear_of_an_abort_from_the_command_line(
    database, redis_url, redis_prefix, monkeypatch
):
    monkeypatch.setenv("REDIS_URL", redis_url)
    monkeypatch.setenv("REDIS_PREFIX", redis_prefix)
    from tests.app.sockets import Socket

    with running(settings_for(database, REDIS_URL=redis_url, REDIS_PREFIX=redis_prefix)) as live:
        ana = live.guest("Ana")
        game_id = live.start_game(ana, live.guest("Ben"))
        watching = Socket(live, game_id, token=ana.token)
        try:
            assert campground(["admin", "abort", game_id]) == 0
            while watching.view["table"]["status"] != "aborted":
                message = watching.recv()
                if message["type"] == "patch":
                    watching.apply(message)
                elif message["type"] == "state":
                    watching.view = message["view"]
            assert watching.view["legal_moves"] == []
        finally:
            watching.close()


def test_the_readme_lists_every_setting_the_help_names():
    readme = (ROOT / "README.md").read_text()
    assert [name for name in Settings.model_fields if f"| `{name}` |" not in readme] == []
