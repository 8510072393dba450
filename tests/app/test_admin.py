import random
from datetime import datetime

from engine.core import play
from engine.registry import get_game


def started_game(live, moves: int = 6):
    """A two-player hike with ``moves`` random legal moves played over HTTP."""
    ana, ben = live.guest("Ana"), live.guest("Ben")
    game_id = live.start_game(ana, ben)
    rng = random.Random(moves)
    for _ in range(moves):
        state = live.state(ana, game_id)
        client = ana if 0 in state["view"]["to_act"] else ben
        legal = live.state(client, game_id)["view"]["legal_moves"]
        body = {"move": rng.choice(legal)["move"], "expect_version": state["version"]}
        assert client.post(f"/api/games/{game_id}/moves", json=body).status_code == 200
    return ana, ben, game_id


def test_admin_needs_the_token(live):
    for headers in ({}, {"Authorization": "Bearer wrong"}, {"Authorization": "Basic abc"}):
        r = live.client().get("/api/admin/games", headers=headers)
        assert r.status_code == 401
    assert live.guest().get("/api/admin/games").status_code == 401


def test_admin_is_off_without_a_token(database_url, serve):
    with serve(database_url, ADMIN_TOKEN=None) as off:
        r = off.client().get("/api/admin/games", headers={"Authorization": "Bearer anything"})
        assert r.status_code == 404


def test_list_and_full_state(live):
    ana, ben, game_id = started_game(live)
    admin = live.admin()
    listed = {g["id"]: g for g in admin.get("/api/admin/games").json()}
    summary = listed[game_id]
    assert (summary["kind"], summary["status"], summary["version"]) == ("hike", "active", 6)
    assert [p["name"] for p in summary["players"]] == ["Ana", "Ben"]
    full = admin.get(f"/api/admin/games/{game_id}").json()
    view = live.state(ana, game_id)["view"]
    assert full["seed_commitment"] == view["table"]["seed_commitment"]
    assert isinstance(full["seed"], int)
    # The unredacted state: the RNG and the draw pile that no view carries.
    assert "rng" in full["state"] and "rng" not in view
    game = get_game("hike")
    assert game.dump(game.load(full["state"])) == full["state"]
    assert admin.get("/api/admin/games/nope").status_code == 404


def test_a_game_id_with_a_nul_character_is_404(live):
    admin = live.admin()
    for path in ("", "/moves", "/state?at=0"):
        assert admin.get(f"/api/admin/games/no%00pe{path}").status_code == 404
    assert admin.post("/api/admin/games/no%00pe/abort").status_code == 404


def test_times_carry_their_utc_offset(live, documented):
    ana, ben, game_id = started_game(live, moves=1)
    admin = live.admin()
    r = admin.get("/api/admin/games")
    documented(r, "GET", "/api/admin/games")
    summary = next(g for g in r.json() if g["id"] == game_id)
    log = admin.get(f"/api/admin/games/{game_id}/moves").json()
    for stamp in (summary["created_at"], summary["updated_at"], log[0]["created_at"]):
        assert datetime.fromisoformat(stamp).utcoffset() is not None


def test_move_log_and_state_at_k_is_the_replay(live, documented):
    ana, ben, game_id = started_game(live, moves=8)
    admin = live.admin()
    full = admin.get(f"/api/admin/games/{game_id}").json()
    log = admin.get(f"/api/admin/games/{game_id}/moves").json()
    assert [m["seq"] for m in log] == list(range(1, 9))
    game = get_game("hike")
    state = game.setup(2, game.options(full["options"]), full["seed"])
    for k in range(9):
        at = admin.get(f"/api/admin/games/{game_id}/state", params={"at": k}).json()
        assert at["at"] == k and at["state"] == game.dump(state)
        if k < 8:
            state = play(game, state, log[k]["seat"], log[k]["move"])
    assert game.dump(state) == full["state"]
    r = admin.get(f"/api/admin/games/{game_id}/state", params={"at": 9})
    assert r.status_code == 422
    documented(r, "GET", "/api/admin/games/{game_id}/state")
    r = admin.get(f"/api/admin/games/{game_id}/state")
    assert r.status_code == 422 and r.json()["detail"][0]["loc"] == ["query", "at"]
    documented(r, "GET", "/api/admin/games/{game_id}/state")


def test_abort(live):
    ana, ben, game_id = started_game(live, moves=2)
    admin = live.admin()
    mover = ana if 0 in live.state(ana, game_id)["view"]["to_act"] else ben
    move = live.state(mover, game_id)["view"]["legal_moves"][0]["move"]
    r = admin.post(f"/api/admin/games/{game_id}/abort")
    assert r.status_code == 200 and r.json()["status"] == "aborted"
    table = live.state(ana, game_id)["view"]["table"]
    assert table["status"] == "aborted"
    assert table["seed"] == str(admin.get(f"/api/admin/games/{game_id}").json()["seed"])
    view = live.state(ana, game_id)["view"]
    assert view["legal_moves"] == [] and view["to_act"] == []
    for client in (ana, ben):
        r = client.post(f"/api/games/{game_id}/moves", json={"move": move, "expect_version": 2})
        assert r.status_code == 422 and r.json()["detail"] == "The game was aborted."
    assert admin.post(f"/api/admin/games/{game_id}/abort").status_code == 409
