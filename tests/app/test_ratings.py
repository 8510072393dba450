"""Ratings: OpenSkill per game, updated as a rated game ends, and the same figure wherever a
rating shows: the outcome's change, the seat strip (live and after a reload), the next lobby
and the profile."""

import asyncio
import random

import pytest
from websockets.sync.client import connect

from app.db import Database
from app.services import rating_rules, ratings
from tests.app.accounts import PASSWORD, new_handle, signed_in
from tests.app.rated import played, rating
from tests.app.sockets import Socket, next_lobby
from tests.app.test_games import play_as

START = ratings.points(ratings.MU)
MOVES = rating_rules.MIN_MOVES


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


def fresh(places):
    return rating_rules.rated(
        [
            rating_rules.Standing(f"p{i}", place, ratings.MU, ratings.SIGMA)
            for i, place in enumerate(places)
        ]
    )


def test_the_winner_goes_up_the_last_down_and_ties_share():
    two = fresh([0, 1])
    assert two[0][0] > ratings.MU > two[1][0] and two[0][1] < ratings.SIGMA
    three = fresh([0, 1, 2])
    assert three[0][0] > three[1][0] > three[2][0] and three[2][0] < ratings.MU
    five = fresh([0, 1, 1, 3, 3])
    assert five[1] == pytest.approx(five[2]) and five[3] == pytest.approx(five[4])
    assert five[0][0] > five[1][0] > five[3][0]
    tied = fresh([0, 0])
    assert tied[0] == pytest.approx(tied[1]) and tied[0][0] == pytest.approx(ratings.MU)


def figures(seat):
    """A seat's rating change as the outcome box prints it: "1500? → 1560?"."""
    change = seat["rating_change"]
    return tuple(
        f"{r['points']}{'?' if r['provisional'] else ''}"
        for r in (change["before"], change["after"])
    )


def test_a_two_player_game_rates_the_winner_up_and_the_conceder_down(live, sql, documented):
    ana, ben = signed_in(live, "Ana"), signed_in(live, "Ben")
    lobby = live.lobby(ana, game="camping-life", seats=2, private=False)
    assert lobby["rated"] is True  # the default for a signed-in host
    ben.post("/api/lobbies/join", json={"invite_code": lobby["invite_code"]})
    game_id = ana.post(f"/api/lobbies/{lobby['id']}/start").json()["game_id"]
    played(live, game_id, {0: ana, 1: ben}, MOVES)
    conceded = ben.post(f"/api/games/{game_id}/concede")
    assert conceded.status_code == 200
    ana_mu, _, ana_games = rating(sql, "camping-life", ana.id)
    ben_mu, _, ben_games = rating(sql, "camping-life", ben.id)
    assert ana_mu > ratings.MU > ben_mu and ana_games == ben_games == 1
    # The outcome says what the game did to each rating, and the seats show the new one: in
    # the answer, in every player's reload.
    for table in (
        conceded.json()["view"]["table"],
        live.state(ana, game_id)["view"]["table"],
        live.state(live.client(), game_id)["view"]["table"],
    ):
        assert table["rated"] is True and table["unrated_because"] is None
        ana_seat, ben_seat = table["seats"]
        assert figures(ana_seat) == (f"{START}?", f"{ratings.points(ana_mu)}?")
        assert figures(ben_seat) == (f"{START}?", f"{ratings.points(ben_mu)}?")
        assert ana_seat["rating"] == {
            "points": ratings.points(ana_mu),
            "provisional": True,
            "games": 1,
        }
    # The next table shows the same ratings, in the lobby and at the table.
    lobby = live.lobby(ana, game="camping-life", seats=2)
    ben.post("/api/lobbies/join", json={"invite_code": lobby["invite_code"]})
    r = ana.get(f"/api/lobbies/{lobby['id']}")
    documented(r, "GET", "/api/lobbies/{lobby_id}")
    seats = r.json()["seats"]
    assert seats[0]["rating"]["points"] == ratings.points(ana_mu) > START
    assert seats[1]["rating"]["points"] == ratings.points(ben_mu) < START
    assert seats[0]["rating"]["provisional"] and seats[0]["rating"]["games"] == 1
    assert seats[0]["player"]["handle"] == ana.handle
    game_id = ana.post(f"/api/lobbies/{lobby['id']}/start").json()["game_id"]
    table = live.state(ben, game_id)["view"]["table"]
    assert [s["rating"]["points"] for s in table["seats"]] == [s["rating"]["points"] for s in seats]
    assert [s["rating_change"] for s in table["seats"]] == [None, None]
    assert table["seats"][1]["handle"] == ben.handle
    profile = live.client().get(f"/api/players/{ana.handle}").json()
    assert profile["ratings"][0]["rating"]["points"] == ratings.points(ana_mu)


def test_a_three_player_game_played_to_its_end(live, sql):
    ana = signed_in(live, "Ana")
    game_id = live.start_game(ana, bots=("random", "heuristic"))
    socket = Socket(live, game_id, token=ana.token)
    end = play_as(live, ana, game_id, random.Random(3), lambda s: s["view"]["outcome"] is not None)
    changes = sql(
        "select seat, rater, place, mu_before, mu_after from rating_changes "
        "where game_id = :g order by seat",
        g=game_id,
    )
    assert [rater for _, rater, *_ in changes] == [ana.id, "bot:random", "bot:heuristic"]
    outcome = end["view"]["outcome"]
    places = [place for _, _, place, *_ in changes]
    assert places == ratings.places(outcome, 3, [])
    for _seat, rater, place, before, after in changes:
        if rater.startswith("bot:"):
            # Bots keep the ladder's rating.
            assert after == before == pytest.approx(rating_rules.anchor("hike", rater[4:]))
        elif place == max(places):
            assert after < before
    # The table shows the new rating of Ana's seat, as her rating now reads: after a reload,
    # and on the socket that watched the last move, whoever made it.
    ana_mu = rating(sql, "hike", ana.id)[0]
    socket.until_version(end["version"])
    socket.close()
    for table in (end["view"]["table"], socket.view["table"]):
        assert table["seats"][0]["rating"]["points"] == ratings.points(ana_mu)
        assert figures(table["seats"][0])[1].rstrip("?") == str(ratings.points(ana_mu))


def test_conceders_of_a_five_player_game_share_last_place(live, sql):
    ana, ben = signed_in(live, "Ana"), signed_in(live, "Ben")
    bot_before = rating(sql, "hike", "bot:random")
    game_id = live.start_game(ana, ben, bots=("random", "random", "heuristic"))
    played(live, game_id, {0: ana, 1: ben}, MOVES)
    for person in (ana, ben):
        assert person.post(f"/api/games/{game_id}/concede").status_code == 200
    live.wait_for(ana, game_id, lambda s: s["view"]["outcome"] is not None, tries=3000)
    changes = sql(
        "select seat, place, mu_after, sigma_after from rating_changes "
        "where game_id = :g order by seat",
        g=game_id,
    )
    assert len(changes) == 5
    assert changes[0][1] == changes[1][1] == 3
    assert changes[0][2:] == pytest.approx(changes[1][2:])
    assert changes[0][2] < ratings.MU
    # Two seats of one bot level are one opponent: the level played one more game.
    assert rating(sql, "hike", "bot:random")[2] == (bot_before[2] if bot_before else 0) + 1


def test_unrated_when_a_guest_sits_or_the_lobby_said_so(live, sql):
    ana, guest = signed_in(live, "Ana"), live.guest("Gus")
    game_id = live.start_game(ana, guest, game="camping-life")
    played(live, game_id, {0: ana, 1: guest}, MOVES)
    guest.post(f"/api/games/{game_id}/concede")
    table = live.state(ana, game_id)["view"]["table"]
    assert table["rated"] is True and table["unrated_because"] == "Gus has no sign-in"
    assert all(s["rating_change"] is None for s in table["seats"])
    ben = signed_in(live, "Ben")
    lobby = live.lobby(ana, game="camping-life", seats=2, rated=False)
    assert lobby["rated"] is False
    ben.post("/api/lobbies/join", json={"invite_code": lobby["invite_code"]})
    unrated = ana.post(f"/api/lobbies/{lobby['id']}/start").json()["game_id"]
    played(live, unrated, {0: ana, 1: ben}, MOVES)
    ben.post(f"/api/games/{unrated}/concede")
    table = live.state(ana, unrated)["view"]["table"]
    assert table["rated"] is False and table["unrated_because"] is None
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
    played(live, game_id, {0: ana, 1: ben}, MOVES)
    ben.post(f"/api/games/{game_id}/concede")
    before = rating(sql, "camping-life", ana.id)
    assert before[2] == 1

    async def again() -> ratings.Rated:
        db = Database(database_url)
        try:
            async with db.writing() as session:
                return await ratings.game_ended(session, game_id)
        finally:
            await db.dispose()

    assert not asyncio.run(again())
    assert rating(sql, "camping-life", ana.id) == before
    assert len(sql("select seat from rating_changes where game_id = :g", g=game_id)) == 2


def test_a_profile_shows_ratings_and_rated_games_only(live, documented):
    ana, ben, gus = signed_in(live, "Ana"), signed_in(live, "Ben"), live.guest("Gus")
    rated = live.start_game(ana, ben, game="camping-life")
    played(live, rated, {0: ana, 1: ben}, MOVES)
    ben.post(f"/api/games/{rated}/concede")
    unrated = live.start_game(ana, gus, game="camping-life")
    played(live, unrated, {0: ana, 1: gus}, MOVES)
    gus.post(f"/api/games/{unrated}/concede")
    r = live.client().get(f"/api/players/{ana.handle.upper()}")
    documented(r, "GET", "/api/players/{handle}")
    profile = r.json()
    assert profile["handle"] == ana.handle and profile["name"] == "Ana"
    [played_kind] = profile["ratings"]
    assert played_kind["game"] == "camping-life" and played_kind["rating"]["games"] == 1
    [game] = profile["recent"]
    assert game["game_id"] == rated and game["place"] == 0
    assert game["replay_url"] == f"/games/{rated}"
    assert game["points_after"] > game["points_before"] == START
    assert game["points_after"] == played_kind["rating"]["points"]
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


def test_the_answer_to_a_seat_taken_shows_the_rating_as_a_reload_would(live):
    """The page draws the answer to its own change and the socket's reload, in either order:
    both show the ratings of whoever the change seated."""
    ana, ben = signed_in(live, "Ana"), signed_in(live, "Ben")
    first = live.lobby(ana, game="hike", seats=2)
    bot = ana.post(f"/api/lobbies/{first['id']}/bots", json={"seat": 1, "level": "heuristic"})
    assert bot.status_code == 200
    game_id = ana.post(f"/api/lobbies/{first['id']}/start").json()["game_id"]
    played(live, game_id, {0: ana}, MOVES)
    assert ana.post(f"/api/games/{game_id}/concede").status_code == 200
    lobby = live.lobby(ben, game="hike", seats=3)
    added = ben.post(f"/api/lobbies/{lobby['id']}/bots", json={"seat": 1, "level": "heuristic"})
    joined = ana.post("/api/lobbies/join", json={"invite_code": lobby["invite_code"]})
    reloaded = ana.get(f"/api/lobbies/{lobby['id']}").json()["seats"]
    assert added.json()["seats"][1]["rating"] == reloaded[1]["rating"] is not None
    [ana_seat] = [s for s in joined.json()["seats"] if s["player"] and s["player"]["id"] == ana.id]
    assert ana_seat["rating"] == reloaded[ana_seat["seat"]]["rating"] is not None


def test_a_lobby_says_who_keeps_it_from_being_rated_until_they_sign_in(live, documented):
    ana, gus = signed_in(live, "Ana"), live.guest("Gus")
    lobby = live.lobby(ana, game="camping-life", seats=2)
    assert lobby["rated"] is True and lobby["seats"][0]["unrated_because"] is None
    joined = gus.post("/api/lobbies/join", json={"invite_code": lobby["invite_code"]})
    documented(joined, "POST", "/api/lobbies/join")
    seats = joined.json()["seats"]
    assert joined.json()["rated"] is False
    assert [s["unrated_because"] for s in seats] == [None, "Gus has no sign-in"]
    with connect(f"{live.ws_url}/ws/lobbies/{lobby['id']}?token={ana.token}") as ws:
        assert next_lobby(ws)["rated"] is False
        # Gus adds a sign-in: the host's page hears the table is rated now.
        claim = {"handle": new_handle("gus"), "password": PASSWORD}
        claimed = gus.post("/api/accounts", json=claim)
        assert claimed.status_code == 201
        heard = next_lobby(ws)
    assert heard["rated"] is True
    assert [s["unrated_because"] for s in heard["seats"]] == [None, None]
    # A table the host made unrated names nobody.
    unrated = live.lobby(ana, game="camping-life", seats=2, rated=False)
    cal = live.guest("Cal")
    seats = cal.post("/api/lobbies/join", json={"invite_code": unrated["invite_code"]}).json()
    assert seats["rated"] is False and all(s["unrated_because"] is None for s in seats["seats"])
