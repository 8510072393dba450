"""The bot levels as the lobby offers them, and the host's choice of the bot that stands in
for a person who is away or conceded."""

from types import SimpleNamespace

from app.bots import _turn
from app.services.games import Snapshot
from engine.levels import LEVELS
from engine.registry import GAMES, get_game


def test_every_game_offers_its_levels_by_name_with_a_sentence_weakest_first(live):
    kinds = {k["id"]: k for k in live.client().get("/api/games").json()}
    order = [level.id for level in LEVELS]
    for kind, game in GAMES.items():
        offered = kinds[kind]["levels"]
        ids = [level["id"] for level in offered]
        assert sorted(ids) == sorted(game.bots) and kinds[kind]["bot_levels"] == ids
        assert ids == sorted(ids, key=order.index)
        names = {level["id"]: level["name"] for level in offered}
        assert names["random"] == "Beginner" and names["heuristic"] == "Casual"
        if "search" in ids:
            assert names["search"] == "Expert"
        assert all(level["about"].endswith(".") for level in offered)


def test_a_bot_is_named_after_its_level_at_the_table(live):
    ana = live.guest("Ana")
    game_id = live.start_game(ana, bots=("heuristic",))
    table = live.state(ana, game_id)["view"]["table"]
    seats = [(s["name"], s["bot"]) for s in table["seats"]]
    assert seats == [("Ana", None), ("Casual bot", "heuristic")]
    assert table["stand_in_bot"] == "Casual bot"


def test_the_hosts_stand_in_level_is_kept_by_the_lobby_the_game_and_a_rematch(live):
    ana, ben = live.guest("Ana"), live.guest("Ben")
    lobby = live.lobby(ana, seats=2, stand_in_level="random")
    assert lobby["stand_in_level"] == "random"
    assert live.lobby(ana, seats=2)["stand_in_level"] == "heuristic"
    joined = ben.post("/api/lobbies/join", json={"invite_code": lobby["invite_code"]})
    assert joined.status_code == 200
    game_id = ana.post(f"/api/lobbies/{lobby['id']}/start").json()["game_id"]
    assert live.state(ana, game_id)["view"]["table"]["stand_in_bot"] == "Beginner bot"
    assert ben.post(f"/api/games/{game_id}/concede").status_code == 200
    again = ana.post(f"/api/games/{game_id}/rematch")
    assert again.status_code in (200, 201), again.text
    assert again.json()["stand_in_level"] == "random"


def test_a_stand_in_level_the_game_has_no_bot_for_is_refused(live):
    body = {"game": "hike", "stand_in_level": "grandmaster"}
    r = live.guest("Ana").post("/api/lobbies", json=body)
    assert r.status_code == 422 and "grandmaster" in r.text


def test_the_stand_in_plays_an_away_or_conceded_seat_at_the_hosts_level():
    game = get_game("hike")
    seats = [SimpleNamespace(seat=0, bot=None), SimpleNamespace(seat=1, bot="heuristic")]
    snap = Snapshot(
        id="g",
        kind="hike",
        game=game,
        version=3,
        status="active",
        seed=5,
        seed_commitment="",
        state=game.setup(2, game.options({}), 5),
        seats=seats,
        stand_ins={0: "conceded"},
        chosen_stand_in="random",
    )
    assert _turn(snap, 0)[0] == "random" and _turn(snap, 1)[0] == "heuristic"
    snap.chosen_stand_in = None
    assert _turn(snap, 0)[0] == "heuristic"


def test_the_host_changes_the_stand_in_level_until_the_start(live, documented):
    ana, ben = live.guest("Ana"), live.guest("Ben")
    lobby = live.lobby(ana, seats=2)
    path = f"/api/lobbies/{lobby['id']}/stand_in"
    r = ana.put(path, json={"level": "random"})
    documented(r, "PUT", "/api/lobbies/{lobby_id}/stand_in")
    assert r.status_code == 200 and r.json()["stand_in_level"] == "random"
    assert ana.get(f"/api/lobbies/{lobby['id']}").json()["stand_in_level"] == "random"
    unknown = ana.put(path, json={"level": "grandmaster"})
    documented(unknown, "PUT", "/api/lobbies/{lobby_id}/stand_in")
    assert unknown.status_code == 422
    assert ben.post("/api/lobbies/join", json={"invite_code": lobby["invite_code"]}).is_success
    not_host = ben.put(path, json={"level": "heuristic"})
    documented(not_host, "PUT", "/api/lobbies/{lobby_id}/stand_in")
    assert not_host.status_code == 403
    game_id = ana.post(f"/api/lobbies/{lobby['id']}/start").json()["game_id"]
    assert live.state(ana, game_id)["view"]["table"]["stand_in_bot"] == "Beginner bot"
    assert ana.put(path, json={"level": "heuristic"}).status_code == 409
