"""Rated games ending at the same moment on PostgreSQL, where writers do not queue: every
change applies to the rating as it is then, and first ratings made at once do not collide."""

from concurrent.futures import ThreadPoolExecutor

import pytest

from app.services import rating_rules
from tests.app.accounts import signed_in
from tests.app.rated import played, rating

GAMES = 20


def test_twenty_game_ends_at_once_each_count(live, sql, database_url):
    if not database_url.startswith("postgresql"):
        pytest.skip("SQLite has one writer at a time: its game ends queue")
    ana = signed_in(live, "Ana")
    # Ana against twenty others, and twenty people against one Beginner bot: Ana, the bot
    # and the bot level's first rating are all made by games ending at the same moment.
    others = [signed_in(live, f"Ben{i}") for i in range(GAMES)]
    people = [signed_in(live, f"Cal{i}") for i in range(GAMES)]

    def against_ana(i):
        game_id = live.start_game(ana, others[i], game="camping-life")
        played(live, game_id, {0: ana, 1: others[i]}, rating_rules.MIN_MOVES, seed=i)
        return others[i], game_id

    def against_bot(i):
        game_id = live.start_game(people[i], bots=("random",), game="camping-life")
        played(live, game_id, {0: people[i]}, rating_rules.MIN_MOVES, seed=i)
        return people[i], game_id

    # The games are made a few at a time (the server's work, not the test's waiting, is what
    # each costs); they end together below.
    with ThreadPoolExecutor(8) as pool:
        ends = list(pool.map(against_ana, range(GAMES))) + list(pool.map(against_bot, range(GAMES)))
    assert rating(sql, "camping-life", ana.id) is None
    assert rating(sql, "camping-life", "bot:random") is None

    def concede(pair):
        client, game_id = pair
        return client.post(f"/api/games/{game_id}/concede").status_code

    with ThreadPoolExecutor(2 * GAMES) as pool:
        answers = list(pool.map(concede, ends))
    assert answers == [200] * (2 * GAMES)
    assert rating(sql, "camping-life", ana.id)[2] == GAMES
    assert rating(sql, "camping-life", "bot:random")[2] == GAMES
    changes = sql("select count(*) from rating_changes where kind = 'camping-life'")
    assert changes == [(4 * GAMES,)]
    # Each of Ana's changes started from where the one before it left her.
    steps = sql(
        "select mu_before, mu_after from rating_changes where rater = :r order by mu_before",
        r=ana.id,
    )
    for (_, after), (before, _) in zip(steps, steps[1:]):
        assert before == pytest.approx(after)
