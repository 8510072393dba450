"""Conceding: two players end at once; with more, the bot plays the seat and it ranks last."""

import random

import pytest

from tests.app.test_games import play_as


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
    r = ben.post(
        f"/api/games/{game_id}/moves", json={"move": move, "expect_version": state["version"]}
    )
    assert r.status_code in (409, 422)
    assert ana.post(f"/api/games/{game_id}/concede").status_code == 200
    final = live.wait_for(ana, game_id, lambda s: s["view"]["outcome"] is not None, tries=3000)
    outcome = final["view"]["outcome"]
    assert outcome["conceded"] == [0, 1] and outcome["winners"] == [2]
    assert "ended_by" not in outcome and len(outcome["scores"]) == 3
    seats_moved = {seat for (seat,) in sql("select seat from moves where game_id = :g", g=game_id)}
    assert seats_moved == {0, 1, 2}


def test_a_concession_is_a_line_of_the_log_in_the_games_words(live):
    ana, ben = live.guest("Ana"), live.guest("Ben")
    game_id = live.start_game(ana, ben, game="pinetop")
    before = live.state(ben, game_id)["view"]
    assert ana.post(f"/api/games/{game_id}/concede").status_code == 200
    view = live.state(ben, game_id)["view"]
    # Numbered after the lines before it, and the latest decision: "Last:" on every table.
    assert view["log_length"] == before["log_length"] + 1
    assert view["log"][-1] == {"text": "Red concedes the game.", "seat": 0}
    assert view["last_decision"] == before["log_length"]


def test_the_moves_after_a_concession_keep_their_lines_numbers(live):
    """With three players the game goes on: the line says the bot plays the seat, and each
    later move's latest decision is its own first line, not one before it."""
    ana, ben = live.guest("Ana"), live.guest("Ben")
    game_id = live.start_game(ana, ben, bots=("random",), game="pinetop")
    assert ben.post(f"/api/games/{game_id}/concede").status_code == 200
    view = live.state(ana, game_id)["view"]
    # The bot may have played Blue's seat on already: the line is found, not taken as the last.
    line = {"text": "Blue concedes: a bot plays the seat to the end.", "seat": 1}
    assert line in view["log"]
    n = view["log_length"] - len(view["log"]) + view["log"].index(line)
    assert view["last_decision"] >= n
    later = play_as(live, ana, game_id, random.Random(1), lambda s: s["version"] >= 4)
    moves = live.admin().get(f"/api/admin/games/{game_id}/moves").json()
    last = later["view"]["last_decision"]
    held = later["view"]["log_length"] - len(later["view"]["log"])
    assert (
        last > n
        and later["view"]["log"][last - held]["seat"] == moves[later["version"] - 1]["seat"]
    )
    page = ana.get(f"/api/games/{game_id}/log", params={"before": n + 1, "limit": 1}).json()
    assert page["entries"] == [line]
