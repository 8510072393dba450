"""GET /api/players/me/games: the caller's tables in the order a player wants them."""


def test_a_new_guest_has_no_games(live, documented):
    r = live.guest("New").get("/api/players/me/games")
    documented(r, "GET", "/api/players/me/games")
    assert r.json() == {"games": [], "lobbies": [], "next_before": None}
    assert live.client().get("/api/players/me/games").status_code == 401


def test_my_turn_first_then_waiting_then_results_and_open_lobbies(live, documented):
    ana, ben, cal = live.guest("Ana"), live.guest("Ben"), live.guest("Cal")
    ended = live.start_game(ana, ben)
    assert ben.post(f"/api/games/{ended}/concede").status_code == 200
    waiting = live.start_game(ben, ana)  # Ben acts first
    mine = live.start_game(ana, cal)  # Ana acts first
    other = live.start_game(ben, cal)
    lobby = live.lobby(ana, seats=2)
    r = ana.get("/api/players/me/games")
    documented(r, "GET", "/api/players/me/games")
    body = r.json()
    assert [g["game_id"] for g in body["games"]] == [mine, waiting, ended]
    first, second, third = body["games"]
    assert first["your_turn"] is True and first["status"] == "active" and first["you"] == 0
    assert first["kind"] == "hike" and first["title"] == "Let's Take a Hike"
    assert [s["name"] for s in first["seats"]] == ["Ana", "Cal"]
    assert second["your_turn"] is False and second["you"] == 1 and second["winners"] is None
    assert third["status"] == "finished" and third["winners"] == [0]
    assert [lb["id"] for lb in body["lobbies"]] == [lobby["id"]]
    assert body["next_before"] is None
    assert other not in {g["game_id"] for g in body["games"]}


def test_pages_follow_each_other(live, documented):
    ana = live.guest("Ana")
    games = [live.start_game(ana, live.guest("Ben")) for _ in range(3)]
    ended = [live.start_game(ana, live.guest("Ben")) for _ in range(3)]
    for game_id in ended:
        assert ana.post(f"/api/games/{game_id}/concede").status_code == 200
    seen, before = [], None
    while True:
        params = {"limit": 2} | ({"before": before} if before else {})
        body = ana.get("/api/players/me/games", params=params).json()
        assert len(body["games"]) <= 2
        if before:
            assert body["lobbies"] == []
        seen += [g["game_id"] for g in body["games"]]
        before = body["next_before"]
        if before is None:
            break
    assert seen == list(reversed(games)) + list(reversed(ended))
    r = ana.get("/api/players/me/games", params={"before": "nope"})
    assert r.status_code == 422
    documented(r, "GET", "/api/players/me/games")
