"""Nothing game-related lives only in memory: a new server on the same database carries on."""


def test_games_and_bots_survive_a_restart(database_url, serve):
    with serve(database_url, BOT_DELAY=60) as first:
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
        # The new server resumes the bot at startup, with nobody connected.
        second.wait_for(clients["ana"], bot_game, lambda s: s["version"] > waiting_at)


def test_a_bot_left_waiting_by_another_instance_is_picked_up_by_the_sweep(database_url, serve):
    # The first instance's bot waits an hour, as if that instance had hung or gone away; the
    # second was started before the game existed, so only its sweep can find the game.
    with serve(database_url, BOT_DELAY=3600) as stuck, serve(
        database_url, BOT_SWEEP=0.2
    ) as sweeper:
        ana = stuck.guest("Ana")
        game_id = stuck.start_game(ana, bots=("random",))
        state = stuck.state(ana, game_id)
        while 1 not in state["view"]["to_act"]:
            move = state["view"]["legal_moves"][0]["move"]
            body = {"move": move, "expect_version": state["version"]}
            state = ana.post(f"/api/games/{game_id}/moves", json=body).json()
        waiting_at = state["version"]
        watcher = sweeper.client()
        watcher.headers["Authorization"] = f"Bearer {ana.token}"
        sweeper.wait_for(watcher, game_id, lambda s: s["version"] > waiting_at)
        log = sweeper.admin().get(f"/api/admin/games/{game_id}/moves").json()
        assert log[waiting_at]["seat"] == 1
