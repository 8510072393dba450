"""Table chat over the sockets: seated players write, everyone at the table reads; stored;
trimmed and bounded; at most 5 lines per 10 seconds per player."""

import json

from websockets.sync.client import connect

from tests.app.sockets import Socket, next_lobby


def next_of(sock: Socket, kind: str) -> dict:
    message = sock.next()
    assert message["type"] == kind, message
    return message


def test_players_write_and_spectators_read(live, documented):
    ana, ben = live.guest("Ana"), live.guest("Ben")
    game_id = live.start_game(ana, ben)
    writer = Socket(live, game_id, token=ana.token)
    watcher = Socket(live, game_id)
    try:
        writer.send({"type": "chat", "text": "  <script>alert(1)</script> hi  "})
        line = next_of(watcher, "chat")
        assert line["seat"] == 0 and line["name"] == "Ana"
        assert line["text"] == "<script>alert(1)</script> hi" and line["at"]
        assert next_of(writer, "chat") == line
        watcher.send({"type": "chat", "text": "me too"})
        refused = next_of(watcher, "error")
        assert refused["code"] == "not_seated"
    finally:
        writer.close()
        watcher.close()
    r = live.client().get(f"/api/games/{game_id}/chat")
    documented(r, "GET", "/api/games/{game_id}/chat")
    assert r.json() == [line]
    missing = live.client().get("/api/games/nope/chat")
    assert missing.status_code == 404
    documented(missing, "GET", "/api/games/{game_id}/chat")


def test_length_is_checked_after_trimming(live):
    ana = live.guest("Ana")
    game_id = live.start_game(ana, live.guest("Ben"))
    sock = Socket(live, game_id, token=ana.token)
    try:
        for text in ["   ", "x" * 301, 7, None]:
            sock.send({"type": "chat", "text": text, "ref": "c"})
            error = next_of(sock, "error")
            assert error["code"] == "bad_request" and error["ref"] == "c"
        sock.send({"type": "chat", "text": " " + "x" * 300 + " "})
        assert next_of(sock, "chat")["text"] == "x" * 300
    finally:
        sock.close()


def test_over_the_limit_is_refused_and_nothing_is_stored(live, sql):
    ana = live.guest("Ana")
    game_id = live.start_game(ana, live.guest("Ben"))
    sock = Socket(live, game_id, token=ana.token)
    try:
        for i in range(5):
            sock.send({"type": "chat", "text": f"line {i}"})
            assert next_of(sock, "chat")["text"] == f"line {i}"
        sock.send({"type": "chat", "text": "one too many", "ref": 6})
        error = next_of(sock, "error")
        assert error["code"] == "rate_limited" and error["ref"] == 6
        assert 1 <= error["retry_after"] <= 10
        assert "5 messages every 10 seconds" in error["message"]
    finally:
        sock.close()
    stored = sql("select text from chat_messages where game_id = :g order by id", g=game_id)
    assert [t for (t,) in stored] == [f"line {i}" for i in range(5)]


def test_the_lobby_chats_before_the_start(live, documented):
    ana, ben = live.guest("Ana"), live.guest("Ben")
    lobby = live.lobby(ana, seats=2)
    ben.post("/api/lobbies/join", json={"invite_code": lobby["invite_code"]})
    base = f"{live.ws_url}/ws/lobbies/{lobby['id']}"
    with connect(f"{base}?token={ana.token}") as ws, connect(f"{base}?token={ben.token}") as other:
        next_lobby(ws)
        next_lobby(other)
        ws.send('{"type": "chat", "text": "ready?"}')
        line = json.loads(other.recv(timeout=10))
        assert line["type"] == "chat" and line["name"] == "Ana" and line["text"] == "ready?"
        assert json.loads(ws.recv(timeout=10)) == line
    r = ben.get(f"/api/lobbies/{lobby['id']}/chat")
    documented(r, "GET", "/api/lobbies/{lobby_id}/chat")
    assert r.json() == [line]
