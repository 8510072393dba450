"""Ratings: OpenSkill per game, updated as a rated game ends; profiles and leaderboards."""

import asyncio
import random

import pytest

from app.db import Database
from app.services import ratings
from tests.app.accounts import signed_in
from tests.app.test_games import play_as

START = ratings.points(ratings.MU)


@pytest.mark.parametrize(
    ("outcome", "players", "given_up", "expected"),
    [
        ({"winners": [0], "scores": [10, 5, 7]}, 3, [], [0, 2, 1]),
        ({"winners": [1], "scores": [5, 9, 5, 2]}, 4, [], [1, 0, 1, 3]),
        ({"winners": [0, 2], "scores": [8, 3, 8]}, 3, [], [0, 2, 0]),
        # Conceded seats share last place, whatever they scored.
        ({"winners": [2], "scores": [9, 9, 4, 1, 0], "conceded": [0, 1]}, 5, [], [3, 3, 0, 1, 2]),
        ({"winners": [1], "scores": [], "conceded": [0], "ended_by": "concession"}, 2, [], [1, 0]),
        # A suspended person's seat, played by the bot, is last too.
        ({"winners": [0], "scores": [10, 5, 7]}, 3, [0], [2, 1, 0]),
    ],
)
def test_places_come_from_the_outcome(outcome, players, given_up, expected):
    assert ratings.places(outcome, players, given_up) == expected


def test_the_winner_goes_up_the_last_down_and_ties_share():
    fresh = [(ratings.MU, ratings.SIGMA)] * 5
    two = ratings.new_ratings(fresh[:2], [0, 1])
    assert two[0][0] > ratings.MU > two[1][0] and two[0][1] < ratings.SIGMA
    three = ratings.new_ratings(fresh[:3], [0, 1, 2])
    assert three[0][0] > three[1][0] > three[2][0] and three[2][0] < ratings.MU
    five = ratings.new_ratings(fresh, [0, 1, 1, 3, 3])
    assert five[1] == pytest.approx(five[2]) and five[3] == pytest.approx(five[4])
    assert five[0][0] > five[1][0] > five[3][0]
    tied = ratings.new_ratings(fresh[:2], [0, 0])
    assert tied[0] == pytest.approx(tied[1]) and tied[0][0] == pytest.approx(ratings.MU)


def rating(sql, kind, rater):
    found = sql("select mu, sigma, games from ratings where game = :g and rater = :r", g=kind, r=rater)
    return found[0] if found else None


def test_a_two_player_game_rates_the_winner_up_and_the_conceder_down(live, sql, documented):
    ana, ben = signed_in(live, "Ana"), signed_in(live, "Ben")
    lobby = live.lobby(ana, game="camping-life", seats=2)
    assert lobby["rated"] is True  # the default for a signed-in host
    ben.post("/api/lobbies/join", json={"invite_code": lobby["invite_code"]})
    game_id = ana.post(f"/api/lobbies/{lobby['id']}/start").json()["game_id"]
    assert ben.post(f"/api/games/{game_id}/concede").status_code == 200
    ana_mu, _, ana_games = rating(sql, "camping-life", ana.id)
    ben_mu, _, ben_games = rating(sql, "camping-life", ben.id)
    assert ana_mu > ratings.MU > ben_mu and ana_games == ben_games == 1
    # The next table shows the ratings, in the lobby and at the table.
    lobby = live.lobby(ana, game="camping-life", seats=2)
    ben.post("/api/lobbies/join", json={"invite_code": lobby["invite_code"]})
    r = ana.get(f"/api/lobbies/{lobby['id']}")
    documented(r, "GET", "/api/lobbies/{lobby_id}")
    seats = r.json()["seats"]
    assert seats[0]["rating"]["points"] > START > seats[1]["rating"]["points"]
    assert seats[0]["rating"]["provisional"] and seats[0]["rating"]["games"] == 1
    assert seats[0]["player"]["handle"] == ana.handle
    game_id = ana.post(f"/api/lobbies/{lobby['id']}/start").json()["game_id"]
    table = live.state(ben, game_id)["view"]["table"]
    assert [s["rating"]["points"] for s in table["seats"]] == [s["rating"]["points"] for s in seats]
    assert table["seats"][1]["handle"] == ben.handle


def test_a_three_player_game_played_to_its_end(live, sql):
    ana = signed_in(live, "Ana")
    game_id = live.start_game(ana, bots=("random", "heuristic"))
    end = play_as(live, ana, game_id, random.Random(3), lambda s: s["view"]["outcome"] is not None)
    changes = sql("select seat, rater, place, mu_before, mu_after from rating_changes "
                  "where game_id = :g order by seat", g=game_id)
    assert [rater for _, rater, *_ in changes] == [ana.id, "bot:random", "bot:heuristic"]
    outcome = end["view"]["outcome"]
    places = [place for _, _, place, *_ in changes]
    assert places == ratings.places(outcome, 3, [])
    for _, _, place, before, after in changes:
        if place == 0:
            assert after > before
        if place == max(places) and place > 0:
            assert after < before


def test_conceders_of_a_five_player_game_share_last_place(live, sql):
    ana, ben = signed_in(live, "Ana"), signed_in(live, "Ben")
    game_id = live.start_game(ana, ben, bots=("random", "random", "heuristic"))
    for person in (ana, ben):
        assert person.post(f"/api/games/{game_id}/concede").status_code == 200
    live.wait_for(ana, game_id, lambda s: s["view"]["outcome"] is not None, tries=3000)
    changes = sql("select seat, place, mu_after, sigma_after from rating_changes "
                  "where game_id = :g order by seat", g=game_id)
    assert len(changes) == 5
    assert changes[0][1] == changes[1][1] == 3
    assert changes[0][2:] == pytest.approx(changes[1][2:])
    assert changes[0][2] < ratings.MU
    # Two seats of one bot level are one rater: it played the game twice.
    assert rating(sql, "hike", "bot:random")[2] >= 2


def test_unrated_when_a_guest_sits_or_the_lobby_said_so(live, sql):
    ana, guest = signed_in(live, "Ana"), live.guest("Gus")
    game_id = live.start_game(ana, guest, game="camping-life")
    guest.post(f"/api/games/{game_id}/concede")
    ben = signed_in(live, "Ben")
    lobby = live.lobby(ana, game="camping-life", seats=2, rated=False)
    assert lobby["rated"] is False
    ben.post("/api/lobbies/join", json={"invite_code": lobby["invite_code"]})
    unrated = ana.post(f"/api/lobbies/{lobby['id']}/start").json()["game_id"]
    ben.post(f"/api/games/{unrated}/concede")
    for finished in (game_id, unrated):
        assert live.state(ana, finished)["view"]["table"]["status"] == "finished"
        assert sql("select seat from rating_changes where game_id = :g", g=finished) == []
    assert rating(sql, "camping-life", ben.id) is None


def test_a_guest_host_cannot_open_a_rated_table(live):
    gus = live.guest("Gus")
    assert live.lobby(gus)["rated"] is False
    r = gus.post("/api/lobbies", json={"game": "hike", "rated": True})
    assert r.status_code == 422 and "signed-in host" in r.json()["detail"]


def test_an_aborted_game_changes_nothing(live, sql):
    ana, ben = signed_in(live, "Ana"), signed_in(live, "Ben")
    game_id = live.start_game(ana, ben)
    assert live.admin().post(f"/api/admin/games/{game_id}/abort").status_code == 200
    assert sql("select seat from rating_changes where game_id = :g", g=game_id) == []
    assert rating(sql, "hike", ana.id) is None


def test_a_game_end_processed_twice_is_rated_once(live, sql, database_url):
    ana, ben = signed_in(live, "Ana"), signed_in(live, "Ben")
    game_id = live.start_game(ana, ben, game="camping-life")
    ben.post(f"/api/games/{game_id}/concede")
    before = rating(sql, "camping-life", ana.id)

    async def again() -> bool:
        db = Database(database_url)
        try:
            async with db.writing() as session:
                return await ratings.game_ended(session, game_id)
        finally:
            await db.dispose()

    assert asyncio.run(again()) is False
    assert rating(sql, "camping-life", ana.id) == before
    assert len(sql("select seat from rating_changes where game_id = :g", g=game_id)) == 2


def test_recomputing_a_game_gives_the_same_ratings(live, sql, documented):
    ana, ben = signed_in(live, "Ana"), signed_in(live, "Ben")
    for loser in (ben, ana, ben):
        game_id = live.start_game(ana, ben, game="camping-life")
        loser.post(f"/api/games/{game_id}/concede")
    before = [rating(sql, "camping-life", p.id) for p in (ana, ben)]
    r = live.admin().post("/api/admin/ratings/camping-life/recompute")
    documented(r, "POST", "/api/admin/ratings/{kind}/recompute")
    assert r.status_code == 200 and r.json()["games"] >= 3
    after = [rating(sql, "camping-life", p.id) for p in (ana, ben)]
    for old, new in zip(before, after):
        assert new == pytest.approx(old)
    assert live.admin().post("/api/admin/ratings/nope/recompute").status_code == 404


def test_a_profile_shows_ratings_and_rated_games_only(live, documented):
    ana, ben, gus = signed_in(live, "Ana"), signed_in(live, "Ben"), live.guest("Gus")
    rated = live.start_game(ana, ben, game="camping-life")
    ben.post(f"/api/games/{rated}/concede")
    unrated = live.start_game(ana, gus, game="camping-life")
    gus.post(f"/api/games/{unrated}/concede")
    r = live.client().get(f"/api/players/{ana.handle.upper()}")
    documented(r, "GET", "/api/players/{handle}")
    profile = r.json()
    assert profile["handle"] == ana.handle and profile["name"] == "Ana"
    [played] = profile["ratings"]
    assert played["game"] == "camping-life" and played["rating"]["games"] == 1
    [game] = profile["recent"]
    assert game["game_id"] == rated and game["place"] == 0
    assert game["replay_url"] == f"/games/{rated}"
    assert game["points_after"] > game["points_before"] == START
    assert [s["handle"] for s in game["seats"]] == [ana.handle, ben.handle]
    assert "Gus" not in r.text and unrated not in r.text
    page = live.client().get(f"/players/{ana.handle}")
    assert page.status_code == 200 and ana.handle in page.text and f"/games/{rated}" in page.text
    assert unrated not in page.text


def test_guests_and_unknown_handles_have_no_profile(live, documented):
    gus = live.guest("Gus")
    for name in (gus.id, "nobody-here", "no%00pe"):
        r = live.client().get(f"/api/players/{name}")
        assert r.status_code == 404
    documented(r, "GET", "/api/players/{handle}")
    page = live.client().get("/players/nobody-here", headers={"Accept": "text/html"})
    assert page.status_code == 404 and "Nothing here" in page.text


def test_the_leaderboard_ranks_players_and_bots_and_marks_provisional_ones(live, documented):
    ana = signed_in(live, "Ana")
    game_id = live.start_game(ana, bots=("heuristic",), game="summer-camp")
    ana.post(f"/api/games/{game_id}/concede")
    r = live.client().get("/api/games/summer-camp/leaderboard")
    documented(r, "GET", "/api/games/{kind}/leaderboard")
    board = r.json()
    assert board["title"] == "Summer Camp"
    entries = {e["handle"] or f"bot:{e['bot']}": e for e in board["entries"]}
    bot, mine = entries["bot:heuristic"], entries[ana.handle]
    assert bot["name"] == "Casual bot" and bot["rank"] < mine["rank"]
    assert mine["rating"]["provisional"] is True and mine["rating"]["points"] < START
    assert [e["rank"] for e in board["entries"]] == list(range(1, len(board["entries"]) + 1))
    first = live.client().get("/api/games/summer-camp/leaderboard", params={"limit": 1}).json()
    assert len(first["entries"]) == 1 and first["next_offset"] == 1
    second = live.client().get(
        "/api/games/summer-camp/leaderboard", params={"limit": 1, "offset": 1}
    ).json()
    assert second["entries"][0]["rank"] == 2
    assert live.client().get("/api/games/nope/leaderboard").status_code == 404
    page = live.client().get("/leaderboard/summer-camp")
    assert page.status_code == 200 and "Casual bot" in page.text and ana.handle in page.text


def test_the_answer_to_a_seat_taken_shows_the_rating_as_a_reload_would(live):
    """The page draws the answer to its own change and the socket's reload, in either order:
    both show the ratings of whoever the change seated."""
    ana, ben = signed_in(live, "Ana"), signed_in(live, "Ben")
    first = live.lobby(ana, game="hike", seats=2)
    bot = ana.post(f"/api/lobbies/{first['id']}/bots", json={"seat": 1, "level": "heuristic"})
    assert bot.status_code == 200
    game_id = ana.post(f"/api/lobbies/{first['id']}/start").json()["game_id"]
    assert ana.post(f"/api/games/{game_id}/concede").status_code == 200
    lobby = live.lobby(ben, game="hike", seats=3)
    added = ben.post(f"/api/lobbies/{lobby['id']}/bots", json={"seat": 1, "level": "heuristic"})
    joined = ana.post("/api/lobbies/join", json={"invite_code": lobby["invite_code"]})
    reloaded = ana.get(f"/api/lobbies/{lobby['id']}").json()["seats"]
    assert added.json()["seats"][1]["rating"] == reloaded[1]["rating"] is not None
    [ana_seat] = [s for s in joined.json()["seats"] if s["player"] and s["player"]["id"] == ana.id]
    assert ana_seat["rating"] == reloaded[ana_seat["seat"]]["rating"] is not None
