"""Rematch: one lobby per finished game, the old players' seats kept, told over the socket."""

from tests.app.sockets import Socket


def finished(live, *people, bots=(), private=False):
    game_id = live.start_game(*people, bots=bots, private=private)
    assert people[-1].post(f"/api/games/{game_id}/concede").status_code == 200
    return game_id


def test_a_rematch_is_one_lobby_however_often_it_is_asked(live, documented):
    ana, ben, cal = live.guest("Ana"), live.guest("Ben"), live.guest("Cal")
    game_id = live.start_game(ana, ben, bots=("heuristic",))
    early = ana.post(f"/api/games/{game_id}/rematch")
    assert early.status_code == 409
    documented(early, "POST", "/api/games/{game_id}/rematch")
    ana.post(f"/api/games/{game_id}/concede")
    ben.post(f"/api/games/{game_id}/concede")
    live.wait_for(ana, game_id, lambda s: s["view"]["outcome"] is not None, tries=3000)
    sock = Socket(live, game_id, token=ben.token)
    try:
        r = ana.post(f"/api/games/{game_id}/rematch")
        documented(r, "POST", "/api/games/{game_id}/rematch")
        assert r.status_code == 200, r.text
        lobby = r.json()
        assert lobby["game"] == "hike" and lobby["host_id"] == ana.id and lobby["you"] == 0
        seats = lobby["seats"]
        assert seats[0]["player"]["id"] == ana.id and seats[2]["bot"] == "heuristic"
        assert seats[1]["player"] is None and seats[1]["reserved_for"] == ben.id
        assert seats[1]["reserved_until"] is not None
        assert sock.next() == {"type": "rematch", "lobby_id": lobby["id"]}
        sock.until_version(sock.version)
        assert ana.post(f"/api/games/{game_id}/rematch").json()["id"] == lobby["id"]
        # Ben's seat is his, even for someone with the invite code.
        full = cal.post("/api/lobbies/join", json={"invite_code": lobby["invite_code"]})
        assert full.status_code == 409
        joined = ben.post(f"/api/games/{game_id}/rematch").json()
        assert joined["id"] == lobby["id"] and joined["you"] == 1
    finally:
        sock.close()
    assert live.state(ben, game_id)["view"]["table"]["rematch_lobby_id"] == lobby["id"]
    assert cal.post(f"/api/games/{game_id}/rematch").status_code == 403
    r = ana.post(f"/api/lobbies/{lobby['id']}/start")
    assert r.status_code == 201, r.text


def test_the_rematch_has_the_same_game_and_options(live):
    ana, ben = live.guest("Ana"), live.guest("Ben")
    game_id = finished(live, ana, ben)
    old = ana.get(f"/api/games/{game_id}/state").json()["view"]
    lobby = ben.post(f"/api/games/{game_id}/rematch").json()
    assert lobby["you"] == 1 and lobby["host_id"] == ben.id
    assert lobby["seats"][0]["reserved_for"] == ana.id
    assert len(lobby["seats"]) == old["players"]
    assert lobby["options"] == live.admin().get(f"/api/admin/games/{game_id}").json()["options"]


def test_a_kept_seat_is_taken_by_id_even_in_a_private_lobby(live):
    ana, ben = live.guest("Ana"), live.guest("Ben")
    game_id = finished(live, ana, ben, private=True)
    lobby = ana.post(f"/api/games/{game_id}/rematch").json()
    assert lobby["private"] is True
    r = ben.post(f"/api/lobbies/{lobby['id']}/join")
    assert r.status_code == 200 and r.json()["you"] == 1


def seen_on(sock: Socket, key: str, value, tries: int = 20) -> dict:
    """The socket's view once its table's ``key`` is ``value`` (patches applied)."""
    for _ in range(tries):
        if sock.view["table"][key] == value:
            return sock.view
        message = sock.recv()
        if message["type"] == "patch":
            sock.apply(message)
        elif message["type"] == "state":
            sock.version, sock.view = message["version"], message["view"]
    raise AssertionError(f"the table's {key} never became {value!r}: {sock.view['table'][key]!r}")


def test_the_old_table_follows_its_rematch_lobby_until_it_starts_or_closes(live):
    """Waiting while the lobby is open; once it starts (here without Ana, whose kept seat Ben
    gave to a bot), its game; once closed, closed: every socket on the old game is told."""
    ana, ben = live.guest("Ana"), live.guest("Ben")
    game_id = finished(live, ana, ben)
    assert live.state(ana, game_id)["view"]["table"]["rematch_status"] is None
    sock = Socket(live, game_id, token=ana.token)
    try:
        lobby = ben.post(f"/api/games/{game_id}/rematch").json()
        seen_on(sock, "rematch_status", "open")
        assert sock.view["table"]["rematch_game_id"] is None
        assert (
            ben.post(
                f"/api/lobbies/{lobby['id']}/bots", json={"seat": 0, "level": "random"}
            ).status_code
            == 200
        )
        started = ben.post(f"/api/lobbies/{lobby['id']}/start").json()["game_id"]
        assert seen_on(sock, "rematch_status", "started")["table"]["rematch_game_id"] == started
    finally:
        sock.close()
    table = live.state(ana, game_id)["view"]["table"]
    assert (table["rematch_lobby_id"], table["rematch_status"], table["rematch_game_id"]) == (
        lobby["id"],
        "started",
        started,
    )

    other = finished(live, ana, ben)
    lobby = ana.post(f"/api/games/{other}/rematch").json()
    sock = Socket(live, other, token=ben.token)
    try:
        assert sock.view["table"]["rematch_status"] == "open"
        assert ana.post(f"/api/lobbies/{lobby['id']}/close").status_code == 200
        seen_on(sock, "rematch_status", "closed")
    finally:
        sock.close()
