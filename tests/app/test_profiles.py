"""Leaderboards: ranked by the conservative rating, listing the people who have played enough
rated games against enough different opponents, and every bot level at its place on the
ladder; the page says these rules."""

from app.services import rating_rules, ratings
from tests.app.accounts import signed_in
from tests.app.rated import execute, rating, won

KIND = "pinetop"


def board(live, **params) -> list[dict]:
    r = live.client().get(f"/api/games/{KIND}/leaderboard", params=params)
    assert r.status_code == 200, r.text
    return r.json()["entries"]


def test_the_leaderboard_ranks_established_players_by_the_conservative_rating(
    live, sql, database_url, documented
):
    # Four people who played ten games together: each met three opponents.
    four = [signed_in(live, name) for name in ("Ana", "Ben", "Cal", "Dee")]
    for game in range(rating_rules.LEADERBOARD_GAMES):
        won(live, database_url, four[0], *four[1:], game=KIND, place=game % 2)
    # A newcomer's one lucky win over all four.
    new = signed_in(live, "Neo")
    won(live, database_url, new, *four, game=KIND)
    # Ten wins, all over one Beginner bot and one person: too few opponents.
    solo = signed_in(live, "Sol")
    for _ in range(rating_rules.LEADERBOARD_GAMES):
        won(live, database_url, solo, four[3], bots=("random",), game=KIND)
    r = live.client().get(f"/api/games/{KIND}/leaderboard")
    documented(r, "GET", "/api/games/{kind}/leaderboard")
    entries = r.json()["entries"]
    listed = {e["handle"] or f"bot:{e['bot']}": e for e in entries}
    assert set(listed) == {p.handle for p in four} | {"bot:random"}
    assert rating(sql, KIND, new.id)[2] == 1
    assert rating(sql, KIND, solo.id)[2] == rating_rules.LEADERBOARD_GAMES
    # Ranked by the rating less three times its uncertainty; each shows its rating as the
    # profile does.
    assert [e["rank"] for e in entries] == list(range(1, len(entries) + 1))
    ranked = [e["ranked_by"] for e in entries]
    assert ranked == sorted(ranked, reverse=True)
    for person in four:
        mu, sigma, games = rating(sql, KIND, person.id)
        entry = listed[person.handle]
        assert entry["ranked_by"] == ratings.points(rating_rules.ordinal(mu, sigma))
        assert entry["rating"] == ratings.shown(mu, sigma, games)
        profile = live.client().get(f"/api/players/{person.handle}").json()
        [held] = [r for r in profile["ratings"] if r["game"] == KIND]
        assert held["rating"] == entry["rating"]
    bot = listed["bot:random"]
    assert bot["name"] == "Beginner bot"
    assert bot["rating"]["points"] == ratings.points(rating_rules.anchor(KIND, "random"))
    first = board(live, limit=1)
    assert len(first) == 1 and first[0]["rank"] == 1
    assert board(live, limit=1, offset=1)[0]["rank"] == 2
    assert live.client().get("/api/games/nope/leaderboard").status_code == 404


def test_the_leaderboard_ranks_by_the_conservative_rating_not_the_mean(live, database_url):
    """Two listed players: the one with the higher rating but more uncertainty ranks lower."""
    kind = "summer-camp"
    sure, unsure = signed_in(live, "Sue"), signed_in(live, "Uma")
    for person, mu, sigma in ((sure, 28.0, 1.0), (unsure, 30.0, 3.0)):
        execute(
            database_url,
            "insert into ratings (game, rater, mu, sigma, ordinal, games, "
            "opponents, updated_at) values (:k, :r, :mu, :s, :o, 20, 5, current_timestamp)",
            k=kind,
            r=person.id,
            mu=mu,
            s=sigma,
            o=rating_rules.ordinal(mu, sigma),
        )
    entries = live.client().get(f"/api/games/{kind}/leaderboard").json()["entries"]
    order = [e["handle"] for e in entries if e["handle"] in (sure.handle, unsure.handle)]
    assert order == [sure.handle, unsure.handle]


def test_the_leaderboard_page_says_its_rules(live):
    page = live.client().get(f"/leaderboard/{KIND}")
    assert page.status_code == 200
    text = page.text
    for said in (
        f"after {rating_rules.LEADERBOARD_GAMES} rated games against "
        f"{rating_rules.LEADERBOARD_OPPONENTS} different opponents",
        f"before every seat has made {rating_rules.MIN_MOVES} moves",
        f"no higher than {rating_rules.REACH_POINTS} points above",
        "less three times its uncertainty",
        "halves",
    ):
        assert said in text
