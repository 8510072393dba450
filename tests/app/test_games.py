import hashlib
import random
import threading

from engine.core import full_view
from engine.registry import GAMES, get_game


def test_game_kinds(live):
    kinds = {k["id"]: k for k in live.client().get("/api/games").json()}
    assert set(kinds) == set(GAMES)
    hike = kinds["hike"]
    assert (hike["title"], hike["min_players"], hike["max_players"]) == ("Let's Take a Hike", 2, 5)
    assert hike["options_schema"] == GAMES["hike"].Options.model_json_schema()
    assert set(hike["bot_levels"]) == {"random", "heuristic", "search"}


def test_seat_and_spectator_views(live):
    ana, ben = live.guest("Ana"), live.guest("Ben")
    game_id = live.start_game(ana, ben)
    mine = live.state(ana, game_id)
    assert mine["game_id"] == game_id and mine["version"] == 0
    view = mine["view"]
    assert view["you"] == 0 and view["to_act"] == [0] and view["legal_moves"]
    table = view["table"]
    assert table["kind"] == "hike" and table["status"] == "active" and table["seed"] is None
    assert [s["name"] for s in table["seats"]] == ["Ana", "Ben"]
    assert len(table["seed_commitment"]) == 64
    assert live.state(ben, game_id)["view"]["you"] == 1
    for spectator in (live.client(), live.guest("Cal")):
        view = live.state(spectator, game_id)["view"]
        assert view["you"] is None and view["legal_moves"] == []
    assert live.client().get("/api/games/nope/state").status_code == 404


def test_a_game_id_with_a_nul_character_is_404(live):
    ana = live.guest("Ana")
    assert ana.get("/api/games/no%00pe/state").status_code == 404
    body = {"move": {"type": "draw"}, "expect_version": 0}
    assert ana.post("/api/games/no%00pe/moves", json=body).status_code == 404


def test_views_never_carry_the_seed(live, monkeypatch):
    import app.services.games

    # A seed of full length: the short seeds that seat the host first (conftest) are digits
    # that may well appear in a view by chance.
    monkeypatch.setattr(app.services.games, "new_seed", lambda: 7_312_458_906_115_322_871)
    ana = live.guest("Ana")
    game_id = live.start_game(ana, live.guest("Ben"))
    seed = live.admin().get(f"/api/admin/games/{game_id}").json()["seed"]
    for client in (ana, live.client()):
        assert str(seed) not in live.client().get(f"/api/games/{game_id}/state").text
        assert str(seed) not in client.get(f"/api/games/{game_id}/state").text


def test_a_legal_move(live):
    ana, ben = live.guest("Ana"), live.guest("Ben")
    game_id = live.start_game(ana, ben)
    move = live.state(ana, game_id)["view"]["legal_moves"][0]["move"]
    r = ana.post(f"/api/games/{game_id}/moves", json={"move": move, "expect_version": 0})
    assert r.status_code == 200
    body = r.json()
    assert body["version"] == 1
    assert body["view"] == live.state(ana, game_id)["view"]
    moves = live.admin().get(f"/api/admin/games/{game_id}/moves").json()
    assert [(m["seq"], m["seat"], m["move"]) for m in moves] == [(1, 0, move)]


def test_stale_version_is_409_and_changes_nothing(live):
    ana, ben = live.guest("Ana"), live.guest("Ben")
    game_id = live.start_game(ana, ben)
    move = live.state(ana, game_id)["view"]["legal_moves"][0]["move"]
    ana.post(f"/api/games/{game_id}/moves", json={"move": move, "expect_version": 0})
    before = live.state(ana, game_id)
    again = ana.post(f"/api/games/{game_id}/moves", json={"move": move, "expect_version": 0})
    assert again.status_code == 409
    assert "version 1" in again.json()["detail"]
    assert live.state(ana, game_id) == before


def test_illegal_move_is_422_with_the_engines_reason(live, engine_reason):
    ana, ben = live.guest("Ana"), live.guest("Ben")
    game_id = live.start_game(ana, ben)
    before = {c: live.state(c, game_id) for c in (ana, ben)}
    full = live.admin().get(f"/api/admin/games/{game_id}").json()["state"]
    for client, seat, move in ((ana, 0, {"type": "join"}), (ben, 1, {"type": "draw"})):
        r = client.post(f"/api/games/{game_id}/moves", json={"move": move, "expect_version": 0})
        assert r.status_code == 422
        assert r.json()["detail"] == engine_reason("hike", full, seat, move)
    assert r.json()["detail"] == "It is not your turn."
    assert {c: live.state(c, game_id) for c in (ana, ben)} == before


def test_malformed_moves_are_422(live, documented):
    ana = live.guest("Ana")
    game_id = live.start_game(ana, live.guest("Ben"))
    path = "/api/games/{game_id}/moves"
    r = ana.post(f"/api/games/{game_id}/moves", json={"move": {"type": "fly"}, "expect_version": 0})
    assert r.status_code == 422
    assert r.json()["detail"].startswith("Not a valid move")
    documented(r, "POST", path)
    r = ana.post(f"/api/games/{game_id}/moves", json={"move": "draw", "expect_version": 0})
    assert r.status_code == 422
    documented(r, "POST", path)
    r = ana.post(f"/api/games/{game_id}/moves", json={"move": {"type": "draw"}})
    assert r.status_code == 422
    documented(r, "POST", path)
    r = ana.post(
        f"/api/games/{game_id}/moves", content=b"\xff", headers={"Content-Type": "application/json"}
    )
    assert r.status_code == 400
    documented(r, "POST", path)
    assert live.state(ana, game_id)["version"] == 0


def test_only_seated_players_move(live, documented):
    ana = live.guest("Ana")
    game_id = live.start_game(ana, live.guest("Ben"))
    body = {"move": {"type": "draw"}, "expect_version": 0}
    r = live.client().post(f"/api/games/{game_id}/moves", json=body)
    assert r.status_code == 401
    documented(r, "POST", "/api/games/{game_id}/moves")
    r = live.guest("Cal").post(f"/api/games/{game_id}/moves", json=body)
    assert r.status_code == 403
    assert live.state(ana, game_id)["version"] == 0


def test_two_writers_never_both_win(live):
    ana = live.guest("Ana")
    game_id = live.start_game(ana, live.guest("Ben"))
    twin = live.client()
    twin.headers["Authorization"] = f"Bearer {ana.token}"
    move = live.state(ana, game_id)["view"]["legal_moves"][0]["move"]
    barrier = threading.Barrier(2)
    codes = []

    def send(client):
        barrier.wait()
        r = client.post(f"/api/games/{game_id}/moves", json={"move": move, "expect_version": 0})
        codes.append(r.status_code)

    threads = [threading.Thread(target=send, args=(c,)) for c in (ana, twin)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert sorted(codes) == [200, 409]
    assert live.state(ana, game_id)["version"] == 1
    assert len(live.admin().get(f"/api/admin/games/{game_id}/moves").json()) == 1


def play_as(live, client, game_id, rng, until):
    """Make random legal moves for ``client`` whenever it is to act, until ``until(state)``."""
    while True:
        state = live.wait_for(
            client, game_id, lambda s: until(s) or s["view"]["you"] in s["view"]["to_act"]
        )
        if until(state):
            return state
        move = rng.choice(state["view"]["legal_moves"])["move"]
        r = client.post(
            f"/api/games/{game_id}/moves", json={"move": move, "expect_version": state["version"]}
        )
        # 409: a bot moved first; look again.
        assert r.status_code in (200, 409), r.text


def test_bots_move_with_nobody_connected(live):
    ana = live.guest("Ana")
    game_id = live.start_game(ana, bots=("random",))
    rng = random.Random(7)
    # Play until the bot's seat is to act; then the bot moves on its own.
    state = play_as(live, ana, game_id, rng, lambda s: 1 in s["view"]["to_act"])
    k = state["version"]
    live.wait_for(ana, game_id, lambda s: s["version"] > k)
    admin = live.admin()
    bot_move = admin.get(f"/api/admin/games/{game_id}/moves").json()[k]
    assert bot_move["seat"] == 1
    # The bot saw only its seat's view and drew from Random("{seed}/{version}/{seat}").
    seed = admin.get(f"/api/admin/games/{game_id}").json()["seed"]
    game = get_game("hike")
    at_k = admin.get(f"/api/admin/games/{game_id}/state", params={"at": k}).json()["state"]
    before = game.load(at_k)
    chosen = game.bots["random"](
        full_view(game, before, 1), game.legal_moves(before, 1), random.Random(f"{seed}/{k}/1")
    )
    assert chosen.model_dump(mode="json") == bot_move["move"]


def test_a_whole_game_against_a_bot_reveals_the_seed(live):
    ana = live.guest("Ana")
    # Camping Life: about half as many moves as a hike.
    game_id = live.start_game(ana, bots=("random",), game="camping-life")
    end = play_as(live, ana, game_id, random.Random(3), lambda s: s["view"]["outcome"] is not None)
    table = end["view"]["table"]
    assert table["status"] == "finished"
    assert hashlib.sha256(str(table["seed"]).encode()).hexdigest() == table["seed_commitment"]
    assert end["view"]["legal_moves"] == [] and end["view"]["to_act"] == []
    admin = live.admin()
    stored = admin.get(f"/api/admin/games/{game_id}").json()
    assert stored["status"] == "finished" and stored["outcome"] == end["view"]["outcome"]
    replayed = admin.get(f"/api/admin/games/{game_id}/state", params={"at": end["version"]}).json()
    assert replayed["state"] == stored["state"]
    last = live.admin().get(f"/api/admin/games/{game_id}/moves").json()[-1]["move"]
    body = {"move": last, "expect_version": end["version"]}
    r = ana.post(f"/api/games/{game_id}/moves", json=body)
    assert r.status_code == 422 and r.json()["detail"] == "The game is over."


def test_a_failing_bot_still_makes_a_legal_move(live, monkeypatch):
    def broken(view, legal, rng):
        raise RuntimeError("this bot is broken")

    monkeypatch.setitem(get_game("hike").bots, "broken", broken)
    ana = live.guest("Ana")
    game_id = live.start_game(ana, bots=("broken",))
    state = play_as(live, ana, game_id, random.Random(2), lambda s: 1 in s["view"]["to_act"])
    k = state["version"]
    live.wait_for(ana, game_id, lambda s: s["version"] > k)
    admin = live.admin()
    bot_move = admin.get(f"/api/admin/games/{game_id}/moves").json()[k]
    at_k = admin.get(f"/api/admin/games/{game_id}/state", params={"at": k}).json()["state"]
    game = get_game("hike")
    legal = [m.model_dump(mode="json") for m in game.legal_moves(game.load(at_k), 1)]
    assert bot_move["seat"] == 1 and bot_move["move"] in legal


def test_a_game_kinds_catalog(live):
    client = live.client()
    for kind, game in GAMES.items():
        r = client.get(f"/api/games/{kind}/catalog")
        assert r.status_code == 200 and r.json() == game.catalog()
    assert len(client.get("/api/games/pinetop/catalog").json()["map_cards"]) == 35
    assert client.get("/api/games/summer-camp/catalog").json()["cards"]["hiking"]["cost"] == 5
    r = client.get("/api/games/nope/catalog")
    assert r.status_code == 404 and r.json()["detail"] == "There is no such game kind."
    assert "/api/games/{kind}/catalog" in client.get("/openapi.json").json()["paths"]
