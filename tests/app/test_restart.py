"""Nothing game-related lives only in memory: a new server on the same database carries on."""

from datetime import datetime


def test_games_and_bots_survive_a_restart(database_url, serve):
    # The bot's deadline is set by this server and comes only after it has stopped.
    with serve(database_url, BOT_DELAY=3) as first:
        ana, ben = first.guest("Ana"), first.guest("Ben")
        game_id = first.start_game(ana, ben)
        for _ in range(3):
            state = first.state(ana, game_id)
            mover = ana if 0 in state["view"]["to_act"] else ben
            move = first.state(mover, game_id)["view"]["legal_moves"][0]["move"]
            body = {"move": move, "expect_version": state["version"]}
            assert mover.post(f"/api/games/{game_id}/moves", json=body).status_code == 200
        before = {who: first.state(c, game_id) for who, c in (("ana", ana), ("ben", ben))}
        # A game left waiting on its bot, which is slower than the shutdown.
        bot_game = first.start_game(ana, bots=("random",))
        state = first.state(ana, bot_game)
        while 1 not in state["view"]["to_act"]:
            move = state["view"]["legal_moves"][0]["move"]
            body = {"move": move, "expect_version": state["version"]}
            r = ana.post(f"/api/games/{bot_game}/moves", json=body)
            state = r.json()
        waiting_at = state["version"]
        tokens = {"ana": ana.token, "ben": ben.token}

    restarted = datetime.now().astimezone()
    with serve(database_url) as second:
        clients = {}
        for who, token in tokens.items():
            clients[who] = second.client()
            clients[who].headers["Authorization"] = f"Bearer {token}"
        assert clients["ana"].get("/api/players/me").json()["name"] == "Ana"
        for who, client in clients.items():
            assert second.state(client, game_id) == before[who]
        state = before["ana"]
        mover = "ana" if 0 in state["view"]["to_act"] else "ben"
        move = before[mover]["view"]["legal_moves"][0]["move"]
        body = {"move": move, "expect_version": state["version"]}
        r = clients[mover].post(f"/api/games/{game_id}/moves", json=body)
        assert r.status_code == 200 and r.json()["version"] == state["version"] + 1
        # The new server finds the bot's deadline in the database, with nobody connected.
        second.wait_for(clients["ana"], bot_game, lambda s: s["version"] > waiting_at)
        moves = second.admin().get(f"/api/admin/games/{bot_game}/moves").json()
        assert moves[waiting_at]["seat"] == 1
        assert datetime.fromisoformat(moves[waiting_at]["created_at"]) > restarted
