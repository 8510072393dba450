"""Who may watch a table: a private table's chat is its seats'; its state, log, replay,
export and sockets are its seats' and its invited spectators' (whoever holds the invite code)
while it is played, and then as its host chose; a public table is anyone's. Whoever may not
watch is told the table does not exist (404, socket close 4404); an invited spectator is
refused the chat with 403."""

import json

import pytest
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import connect

from app.services import rating_rules
from tests.app.accounts import signed_in
from tests.app.rated import played
from tests.app.sockets import Socket


def private_game(live, host, *others, after_end=None, game="hike") -> tuple[str, dict]:
    """A private table of ``host`` and ``others`` started: its game id and its lobby."""
    body = {"after_end": after_end} if after_end else {}
    lobby = live.lobby(host, game=game, seats=1 + len(others), private=True, **body)
    for other in others:
        r = other.post("/api/lobbies/join", json={"invite_code": lobby["invite_code"]})
        assert r.status_code == 200, r.text
    r = host.post(f"/api/lobbies/{lobby['id']}/start")
    assert r.status_code == 201, r.text
    return r.json()["game_id"], lobby


def with_invite(code: str | None) -> dict:
    return {"invite": code} if code else {}


def reads(client, game_id, invite=None) -> dict[str, int]:
    """The status of each HTTP channel of the game for ``client`` (sending ``invite``)."""
    params = with_invite(invite)
    return {
        channel: client.get(f"/api/games/{game_id}/{path}", params=params).status_code
        for channel, path in [
            ("state", "state"),
            ("log", "log"),
            ("chat", "chat"),
            ("replay", "replay?at=0"),
            ("export", "export"),
        ]
    }


def opens(live, game_id, token=None, invite=None) -> dict | None:
    """The first state a game socket is sent, or None when the socket is closed with 4404."""
    query = "&".join(f"{k}={v}" for k, v in ({"token": token} | with_invite(invite)).items() if v)
    with connect(f"{live.ws_url}/ws/games/{game_id}" + (f"?{query}" if query else "")) as ws:
        try:
            first = json.loads(ws.recv(timeout=10))
        except ConnectionClosed as closed:
            assert closed.rcvd.code == 4404
            return None
    assert first["type"] == "state"
    return first


def test_an_anonymous_caller_cannot_read_a_private_tables_chat(live):
    ana, ben = live.guest("Ana"), live.guest("Ben")
    game_id, _ = private_game(live, ana, ben)
    sock = Socket(live, game_id, token=ana.token)
    try:
        sock.send({"type": "chat", "text": "my home address is 12 Elm St"})
        assert sock.next()["type"] == "chat"
    finally:
        sock.close()
    assert [line["text"] for line in ben.get(f"/api/games/{game_id}/chat").json()] == [
        "my home address is 12 Elm St"
    ]
    r = live.client().get(f"/api/games/{game_id}/chat")
    assert r.status_code == 404, r.text
    assert "12 Elm St" not in r.text


def test_while_played_a_private_table_is_its_seats_and_invited_spectators(live, documented):
    ana, ben, cy = live.guest("Ana"), live.guest("Ben"), live.guest("Cy")
    game_id, lobby = private_game(live, ana, ben)
    code = lobby["invite_code"]
    hidden = {"state": 404, "log": 404, "chat": 404, "replay": 404, "export": 404}
    assert reads(live.client(), game_id) == hidden
    assert reads(cy, game_id) == hidden
    wrong = ("y" if code[0] == "x" else "x") + code[1:]  # one character off, never the code
    assert reads(cy, game_id, invite=wrong) == hidden
    # Replays and records open at the end, for those who may see the table.
    assert reads(ben, game_id) == {
        "state": 200,
        "log": 200,
        "chat": 200,
        "replay": 409,
        "export": 409,
    }
    invited = {"state": 200, "log": 200, "chat": 403, "replay": 409, "export": 409}
    assert reads(live.client(), game_id, invite=code) == invited
    assert reads(cy, game_id, invite=code) == invited
    for path in ("state", "log", "chat", "replay", "export"):
        r = live.client().get(f"/api/games/{game_id}/{path}")
        assert r.json() == {"detail": "No such game."}
        documented(r, "GET", f"/api/games/{{game_id}}/{path}")
    r = cy.get(f"/api/games/{game_id}/chat", params={"invite": code})
    documented(r, "GET", "/api/games/{game_id}/chat")
    assert r.json() == {"detail": "Only the players at the table can read its chat."}
    watched = live.client().get(f"/api/games/{game_id}/state", params={"invite": code}).json()
    assert watched["view"]["you"] is None and watched["view"]["legal_moves"] == []
    assert opens(live, game_id) is None
    assert opens(live, game_id, token=cy.token) is None
    assert opens(live, game_id, invite=code)["view"]["you"] is None
    assert opens(live, game_id, token=cy.token, invite=code)["view"]["you"] is None
    assert opens(live, game_id, token=ben.token)["view"]["you"] == 1


def test_a_private_tables_chat_reaches_its_seats_only(live):
    ana, ben = live.guest("Ana"), live.guest("Ben")
    game_id, lobby = private_game(live, ana, ben)
    writer, reader = Socket(live, game_id, token=ana.token), Socket(live, game_id, token=ben.token)
    url = f"{live.ws_url}/ws/games/{game_id}?invite={lobby['invite_code']}"
    try:
        with connect(url) as watcher:
            assert json.loads(watcher.recv(timeout=10))["type"] == "state"
            writer.send({"type": "chat", "text": "for the table only"})
            assert reader.next()["text"] == "for the table only"
            # A line for the watcher would have been queued before this answer to its sync.
            watcher.send(json.dumps({"type": "sync"}))
            assert json.loads(watcher.recv(timeout=10))["type"] == "state"
            watcher.send(json.dumps({"type": "chat", "text": "hello", "ref": 1}))
            refused = json.loads(watcher.recv(timeout=10))
            assert refused["code"] == "not_seated" and refused["ref"] == 1
    finally:
        writer.close()
        reader.close()


@pytest.mark.parametrize("after_end", ["private", "public"])
def test_after_the_end_a_private_table_is_as_its_host_chose(live, after_end):
    ana, ben, cy = live.guest("Ana"), live.guest("Ben"), live.guest("Cy")
    game_id, lobby = private_game(live, ana, ben, after_end=after_end)
    code = lobby["invite_code"]
    assert lobby["after_end"] == after_end
    assert ben.post(f"/api/games/{game_id}/concede").status_code == 200
    ended = {"state": 200, "log": 200, "replay": 200, "export": 200}
    assert reads(ana, game_id) == ended | {"chat": 200}
    assert reads(live.client(), game_id, invite=code) == ended | {"chat": 403}
    if after_end == "public":
        # Anyone may watch the record; the chat stays the players'.
        assert reads(live.client(), game_id) == ended | {"chat": 403}
        assert reads(cy, game_id) == ended | {"chat": 403}
        assert opens(live, game_id)["view"]["table"]["status"] == "finished"
    else:
        assert set(reads(live.client(), game_id).values()) == {404}
        assert set(reads(cy, game_id).values()) == {404}
        assert opens(live, game_id) is None


def test_a_public_table_is_anyones_to_watch_and_read(live):
    ana, ben = live.guest("Ana"), live.guest("Ben")
    game_id = live.start_game(ana, ben)
    assert reads(live.client(), game_id) == {
        "state": 200,
        "log": 200,
        "chat": 200,
        "replay": 409,
        "export": 409,
    }
    assert opens(live, game_id)["view"]["you"] is None
    lobby = live.lobby(ana, private=False)
    assert lobby["after_end"] is None
    r = ana.post("/api/lobbies", json={"game": "hike", "private": False, "after_end": "public"})
    assert r.status_code == 422 and "private table" in r.json()["detail"]


def test_a_private_lobby_is_its_members_and_invited_spectators(live, documented):
    ana, ben, cy = live.guest("Ana"), live.guest("Ben"), live.guest("Cy")
    lobby = live.lobby(ana, seats=3, private=True, after_end="public")
    assert (
        ben.post("/api/lobbies/join", json={"invite_code": lobby["invite_code"]}).status_code == 200
    )
    code, path = lobby["invite_code"], f"/api/lobbies/{lobby['id']}"
    for who in (live.client(), cy):
        r = who.get(path)
        assert r.status_code == 404 and r.json() == {"detail": "No such lobby."}
        assert who.get(f"{path}/chat").status_code == 404
    documented(r, "GET", "/api/lobbies/{lobby_id}")
    watched = cy.get(path, params={"invite": code})
    assert watched.status_code == 200 and watched.json()["after_end"] == "public"
    assert watched.json()["invite_code"] is None and watched.json()["you"] is None
    r = cy.get(f"{path}/chat", params={"invite": code})
    assert r.status_code == 403
    documented(r, "GET", "/api/lobbies/{lobby_id}/chat")
    assert ben.get(f"{path}/chat").status_code == 200
    with connect(f"{live.ws_url}/ws/lobbies/{lobby['id']}") as ws:
        with pytest.raises(ConnectionClosed) as closed:
            ws.recv(timeout=10)
    assert closed.value.rcvd.code == 4404
    seated = f"{live.ws_url}/ws/lobbies/{lobby['id']}?token={ben.token}"
    with (
        connect(f"{live.ws_url}/ws/lobbies/{lobby['id']}?invite={code}") as watcher,
        connect(seated) as sitting,
    ):
        assert json.loads(watcher.recv(timeout=10))["lobby"]["id"] == lobby["id"]
        assert json.loads(sitting.recv(timeout=10))["type"] == "lobby"
        sitting.send(json.dumps({"type": "chat", "text": "just us"}))
        assert json.loads(sitting.recv(timeout=10))["text"] == "just us"
        # The lobby's next change reaches the watcher; the chat line before it did not.
        ana.post(f"{path}/bots", json={"seat": 2, "level": "random"})
        assert json.loads(watcher.recv(timeout=10))["type"] == "lobby"


def test_profiles_list_a_private_table_to_its_own_player_only(live):
    ana, ben = signed_in(live, "Ana"), signed_in(live, "Ben")
    public = live.start_game(ana, ben, game="camping-life")
    private, _ = private_game(live, ana, ben, game="camping-life")
    for game_id in (public, private):  # rated: each seat makes a few moves before the end
        played(live, game_id, {0: ana, 1: ben}, rating_rules.MIN_MOVES)
        assert ben.post(f"/api/games/{game_id}/concede").status_code == 200
    for who in (live.client(), ben):
        listed = [g["game_id"] for g in who.get(f"/api/players/{ana.handle}").json()["recent"]]
        assert listed == [public]
        page = who.get(f"/players/{ana.handle}")
        assert f"/games/{public}" in page.text and private not in page.text
    own = [g["game_id"] for g in ana.get(f"/api/players/{ana.handle}").json()["recent"]]
    assert own == [private, public]
    visitor = live.client()
    visitor.cookies.set("campground_token", ana.token)
    page = visitor.get(f"/players/{ana.handle}")
    assert f"/games/{private}" in page.text


def test_the_admin_sees_private_tables(live):
    ana, ben = live.guest("Ana"), live.guest("Ben")
    game_id, _ = private_game(live, ana, ben)
    admin = live.admin()
    assert admin.get(f"/api/admin/games/{game_id}").json()["id"] == game_id
    assert admin.get(f"/api/admin/games/{game_id}/moves").status_code == 200
    listed = admin.get("/api/admin/games", params={"player": ana.id}).json()
    assert game_id in [g["id"] for g in listed]


def test_a_rematch_keeps_the_hosts_choice(live):
    ana, ben = live.guest("Ana"), live.guest("Ben")
    game_id, _ = private_game(live, ana, ben, after_end="public")
    ben.post(f"/api/games/{game_id}/concede")
    again = ana.post(f"/api/games/{game_id}/rematch")
    assert again.status_code == 200, again.text
    assert again.json()["private"] is True and again.json()["after_end"] == "public"
    # Ben, kept a seat by the rematch, may open its private lobby before joining it.
    assert ben.get(f"/api/lobbies/{again.json()['id']}").status_code == 200
