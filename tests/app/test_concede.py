"""Conceding: two players end at once; with more, the bot plays the seat and it ranks last."""

import pytest


def test_conceding_a_two_player_game_makes_the_other_win(live, documented):
    ana, ben = live.guest("Ana"), live.guest("Ben")
    game_id = live.start_game(ana, ben)
    r = ana.post(f"/api/games/{game_id}/concede")
    documented(r, "POST", "/api/games/{game_id}/concede")
    assert r.status_code == 200, r.text
    outcome = r.json()["view"]["outcome"]
    assert outcome["winners"] == [1] and outcome["conceded"] == [0]
    assert outcome["ended_by"] == "concession"
    view = live.state(ben, game_id)["view"]
    assert view["outcome"] == outcome and view["table"]["status"] == "finished"
    assert view["to_act"] == [] and view["legal_moves"] == []
    assert view["table"]["seats"][0]["conceded"] is True
    assert view["table"]["seed"] is not None
    again = ana.post(f"/api/games/{game_id}/concede")
    assert again.status_code == 409, again.text
    documented(again, "POST", "/api/games/{game_id}/concede")


def test_only_a_seated_player_concedes(live, documented):
    game_id = live.start_game(live.guest("Ana"), live.guest("Ben"))
    r = live.guest("Cal").post(f"/api/games/{game_id}/concede")
    assert r.status_code == 403
    documented(r, "POST", "/api/games/{game_id}/concede")
    assert live.client().post(f"/api/games/{game_id}/concede").status_code == 401


@pytest.mark.slow
def test_with_three_players_the_bot_plays_a_conceded_seat_which_ranks_last(live, sql):
    ana, ben = live.guest("Ana"), live.guest("Ben")
    game_id = live.start_game(ana, ben, bots=("random",))
    r = ben.post(f"/api/games/{game_id}/concede")
    assert r.status_code == 200, r.text
    view = r.json()["view"]
    assert view["outcome"] is None and view["table"]["seats"][1]["conceded"] is True
    # Ben may no longer move; Ana plays on, and concedes too: the bots finish the game.
    live.wait_for(ana, game_id, lambda s: s["view"]["to_act"] == [0])
    state = live.state(ben, game_id)
    assert state["view"]["legal_moves"] == []
    move = live.state(ana, game_id)["view"]["legal_moves"][0]["move"]
    r = ben.post(f"/api/games/{game_id}/moves", json={"move": move, "expect_version": state["version"]})
    assert r.status_code in (409, 422)
    assert ana.post(f"/api/games/{game_id}/concede").status_code == 200
    final = live.wait_for(ana, game_id, lambda s: s["view"]["outcome"] is not None, tries=3000)
    outcome = final["view"]["outcome"]
    assert outcome["conceded"] == [0, 1] and outcome["winners"] == [2]
    assert "ended_by" not in outcome and len(outcome["scores"]) == 3
    seats_moved = {seat for (seat,) in sql("select seat from moves where game_id = :g", g=game_id)}
    assert seats_moved == {0, 1, 2}
