"""Admin and moderation over REST: games filtered, chat lines removed, players muted, and the
audit log of every change an admin makes."""

import ast
import json
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import get_args

from websockets.sync.client import connect

from app.services.moderation import ACTIONS, Action
from tests.app.sockets import Socket, next_lobby
from tests.app.test_chat import next_of


def sam(live):
    """The admin client, naming itself for the audit log."""
    admin = live.admin()
    admin.headers["X-Admin-Name"] = "sam"
    return admin


def test_games_are_filtered_by_kind_status_player_and_start(live, documented):
    ana, ben, cal = live.guest("Ana"), live.guest("Ben"), live.guest("Cal")
    hike = live.start_game(ana, ben)
    life = live.start_game(ana, cal, game="camping-life")
    aborted = live.start_game(ben, cal)
    assert live.admin().post(f"/api/admin/games/{aborted}/abort").status_code == 200
    admin = live.admin()

    def ids(**query) -> list[str]:
        r = admin.get("/api/admin/games", params=query)
        documented(r, "GET", "/api/admin/games")
        return [g["id"] for g in r.json()]

    assert ids(player=ana.id) == [life, hike]
    assert ids(player=ana.id, kind="hike") == [hike]
    assert ids(player=cal.id, status="aborted") == [aborted]
    assert ids(player=cal.id, status="active") == [life]
    assert ids(player="nobody") == []
    started = admin.get(f"/api/admin/games/{life}").json()["created_at"]
    after = (datetime.fromisoformat(started) + timedelta(microseconds=1)).isoformat()
    assert ids(player=cal.id, since=started) == [aborted, life]
    assert aborted in ids(since=after) and life not in ids(since=after)
    bad = admin.get("/api/admin/games", params={"status": "sleeping"})
    assert bad.status_code == 422
    documented(bad, "GET", "/api/admin/games")


def test_a_removed_line_is_gone_for_the_table_and_kept_in_the_audit(live, documented):
    ana, ben = live.guest("Ana"), live.guest("Ben")
    game_id = live.start_game(ana, ben)
    writer, reader = Socket(live, game_id, token=ana.token), Socket(live, game_id)
    try:
        writer.send({"type": "chat", "text": "something rude"})
        line = next_of(reader, "chat")
        assert next_of(writer, "chat") == line and isinstance(line["id"], int)
        r = sam(live).delete(f"/api/admin/chat/{line['id']}")
        assert r.status_code == 200, r.text
        documented(r, "DELETE", "/api/admin/chat/{message_id}")
        removed = r.json()
        assert (removed["text"], removed["player_id"], removed["game_id"]) == (
            "something rude",
            ana.id,
            game_id,
        )
        for sock in (reader, writer):
            notice = next_of(sock, "chat")
            assert notice["removes"] == line["id"] and notice["name"] == "Moderator"
            assert notice["seat"] is None and "Ana" in notice["text"]
    finally:
        writer.close()
        reader.close()
    assert live.client().get(f"/api/games/{game_id}/chat").json() == []
    again = sam(live).delete(f"/api/admin/chat/{line['id']}")
    assert again.status_code == 404
    documented(again, "DELETE", "/api/admin/chat/{message_id}")
    entry = live.admin().get("/api/admin/audit", params={"action": "chat.delete"}).json()[0]
    assert (entry["actor"], entry["address"], entry["target"]) == (
        "sam",
        "127.0.0.1",
        str(line["id"]),
    )
    assert entry["details"]["text"] == "something rude" and entry["request_id"]


def test_a_muted_player_cannot_chat_and_the_tables_are_told(live, documented):
    ana, ben = live.guest("Ana"), live.guest("Ben")
    game_id = live.start_game(ana, ben)
    lobby = live.lobby(ana, seats=2)
    muted_sock, other = (
        Socket(live, game_id, token=ana.token),
        Socket(live, game_id, token=ben.token),
    )
    lobby_url = f"{live.ws_url}/ws/lobbies/{lobby['id']}?token={ana.token}"
    with connect(lobby_url, open_timeout=10) as lobby_ws:
        try:
            next_lobby(lobby_ws)
            r = sam(live).post(
                f"/api/admin/players/{ana.id}/mute", json={"minutes": 30, "reason": "insults"}
            )
            assert r.status_code == 200, r.text
            documented(r, "POST", "/api/admin/players/{player_id}/mute")
            until = datetime.fromisoformat(r.json()["muted_until"])
            assert timedelta(minutes=29) < until - datetime.now(UTC) <= timedelta(minutes=30)
            told = next_of(other, "chat")
            assert told["text"] == "A moderator muted Ana in chat for 30 minutes."
            assert json.loads(lobby_ws.recv(timeout=10))["text"] == told["text"]
            assert next_of(muted_sock, "chat")["text"] == told["text"]

            muted_sock.send({"type": "chat", "text": "hello?", "ref": "c1"})
            refused = next_of(muted_sock, "error")
            assert refused["ref"] == "c1" and "muted you in chat until" in refused["message"]
            lobby_ws.send(json.dumps({"type": "chat", "text": "hello?"}))
            assert "muted" in json.loads(lobby_ws.recv(timeout=10))["message"]
            assert live.client().get(f"/api/games/{game_id}/chat").json() == []

            r = sam(live).delete(f"/api/admin/players/{ana.id}/mute")
            assert r.status_code == 200 and r.json()["muted_until"] is None
            documented(r, "DELETE", "/api/admin/players/{player_id}/mute")
            assert next_of(other, "chat")["text"] == "Ana may chat again."
            next_of(muted_sock, "chat")
            muted_sock.send({"type": "chat", "text": "sorry"})
            assert next_of(muted_sock, "chat")["text"] == "sorry"
        finally:
            muted_sock.close()
            other.close()
    unknown = sam(live).post("/api/admin/players/nobody/mute", json={"minutes": 5})
    assert unknown.status_code == 404
    documented(unknown, "POST", "/api/admin/players/{player_id}/mute")
    bad = sam(live).post(f"/api/admin/players/{ana.id}/mute", json={"minutes": 0})
    assert bad.status_code == 422
    log = live.admin().get("/api/admin/audit", params={"limit": 2}).json()
    assert [(e["action"], e["target"], e["actor"]) for e in log] == [
        ("player.unmute", ana.id, "sam"),
        ("player.mute", ana.id, "sam"),
    ]
    assert log[1]["details"]["reason"] == "insults" and log[1]["details"]["minutes"] == 30


def test_every_change_is_in_the_audit_log_newest_first_in_pages(live, documented):
    ana = live.guest("Ana")
    games = [live.start_game(ana, live.guest("Ben")) for _ in range(3)]
    started = datetime.now(UTC).isoformat()
    for game_id in games:
        r = live.admin().post(f"/api/admin/games/{game_id}/abort")
        assert r.status_code == 200
    admin = live.admin()
    r = admin.get("/api/admin/audit", params={"action": "game.abort", "since": started})
    documented(r, "GET", "/api/admin/audit")
    entries = r.json()
    assert [e["target"] for e in entries] == games[::-1]
    assert all(e["actor"] == "admin" and e["at"] >= started for e in entries)
    page = admin.get(
        "/api/admin/audit",
        params={"action": "game.abort", "since": started, "before": entries[0]["id"], "limit": 1},
    )
    assert [e["target"] for e in page.json()] == [games[1]]
    # A refused change (the game already ended) is no change: nothing is recorded.
    assert admin.post(f"/api/admin/games/{games[0]}/abort").status_code == 409
    assert len(admin.get("/api/admin/audit", params={"since": started}).json()) == 3
    nobody = live.client().get("/api/admin/audit")
    assert nobody.status_code == 401
    documented(nobody, "GET", "/api/admin/audit")


def recorded_actions() -> set[str]:
    """Every action a ``record(session, actor, action, ...)`` call in ``app/`` can write: the
    text constants of its third argument (``"a" if x else "b"`` gives both)."""
    found = set()
    for path in (Path(__file__).parents[2] / "app").rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text())):
            if (
                isinstance(node, ast.Call)
                and getattr(node.func, "id", None) == "record"
                and len(node.args) >= 3
            ):
                action = node.args[2]
                texts = [
                    n.value
                    for n in ast.walk(action)
                    if isinstance(n, ast.Constant) and isinstance(n.value, str)
                ]
                assert texts, f"{path}:{node.lineno}: an action that is not written out"
                found.update(texts)
    return found


def test_the_audit_logs_description_names_every_action_recorded(live):
    assert recorded_actions() == set(ACTIONS)
    # Each action is described, and the schema's enum lists them in the same order.
    assert list(ACTIONS) == list(get_args(Action))
    described = live.client().get("/openapi.json").json()["paths"]["/api/admin/audit"]["get"]
    for action in ACTIONS:
        assert f"`{action}`" in described["description"], action
