"""Ratings that cannot be farmed: a game given up before every seat has made a few moves is
not rated, bots keep the ladder's ratings and a win far above an opponent proves nothing,
repeated games between the same accounts count less and less within a day, and several
seats of one bot level are one opponent."""

from pathlib import Path

import pytest

from app.models import now
from app.services import rating_rules, ratings
from tests.app.accounts import signed_in
from engine.registry import GAMES
from tests.app.rated import finish, played, points, rating, won

START = ratings.points(ratings.MU)


def test_a_throwaway_account_that_concedes_at_once_rates_nothing(live, sql):
    fay, tom = signed_in(live, "Fay"), signed_in(live, "Tom")
    for _ in range(6):
        game_id = live.start_game(fay, tom, game="camping-life")
        assert tom.post(f"/api/games/{game_id}/concede").status_code == 200
        table = live.state(fay, game_id)["view"]["table"]
        assert table["status"] == "finished"
        assert sql("select seat from rating_changes where game_id = :g", g=game_id) == []
        assert table["unrated_because"] == (
            f"Tom conceded before every seat had made {rating_rules.MIN_MOVES} moves"
        )
    assert rating(sql, "camping-life", fay.id) is None


def test_a_concession_after_every_seat_made_its_moves_is_rated(live, sql):
    fay, tom = signed_in(live, "Fay"), signed_in(live, "Tom")
    game_id = live.start_game(fay, tom, game="camping-life")
    played(live, game_id, {0: fay, 1: tom}, rating_rules.MIN_MOVES)
    assert tom.post(f"/api/games/{game_id}/concede").status_code == 200
    assert live.state(fay, game_id)["view"]["table"]["unrated_because"] is None
    assert points(sql, "camping-life", fay.id) > START > points(sql, "camping-life", tom.id)


def test_an_early_concession_at_a_bigger_table_leaves_the_rest_of_it_unrated(
    live, sql, database_url
):
    ana, ben = signed_in(live, "Ana"), signed_in(live, "Ben")
    game_id = live.start_game(ana, ben, bots=("heuristic",))
    assert ben.post(f"/api/games/{game_id}/concede").status_code == 200
    # The bot plays Ben's seat on: it will make many moves, but Ben left before they did.
    assert not finish(database_url, game_id, [0], [3, 1, 2])
    assert sql("select seat from rating_changes where game_id = :g", g=game_id) == []
    assert live.state(ana, game_id)["view"]["table"]["unrated_because"] == (
        f"Ben conceded before every seat had made {rating_rules.MIN_MOVES} moves"
    )


def mu(sql, kind, rater):
    held = rating(sql, kind, rater)
    return held[0] if held else ratings.MU


def test_repeated_games_between_the_same_accounts_count_less_and_less(live, sql, database_url):
    ana, ben = signed_in(live, "Ana"), signed_in(live, "Ben")
    gains = []
    for _ in range(6):
        before = mu(sql, "camping-life", ana.id)
        won(live, database_url, ana, ben, game="camping-life")
        gains.append(mu(sql, "camping-life", ana.id) - before)
    assert all(gain > 0 for gain in gains)
    for earlier, later in zip(gains, gains[1:]):
        assert later <= earlier * rating_rules.REPEAT_WEIGHT + 1e-9
    # However many, a day's games between two accounts count less than two first ones.
    assert sum(gains) < 2 * gains[0]
    # A third account is a first game again.
    cal = signed_in(live, "Cal")
    before = mu(sql, "camping-life", ana.id)
    won(live, database_url, ana, cal, game="camping-life")
    assert mu(sql, "camping-life", ana.id) - before > 4 * gains[-1]


def test_a_player_who_beats_beginner_bots_forty_times_gains_next_to_nothing(
    live, sql, database_url
):
    cas = signed_in(live, "Cas")
    for _ in range(40):
        won(live, database_url, cas, bots=("random",))
    assert rating(sql, "hike", cas.id)[2] == 40
    assert points(sql, "hike", cas.id) <= START + 20
    # The bot keeps its place on the ladder: games against people never move it.
    bot_mu, bot_sigma, _ = rating(sql, "hike", "bot:random")
    assert (bot_mu, bot_sigma) == pytest.approx(
        (rating_rules.anchor("hike", "random"), rating_rules.BOT_SIGMA)
    )
    assert ratings.points(bot_mu) < START - 500


def test_against_bots_a_loss_to_a_weaker_one_and_a_win_over_a_stronger_one_count(
    live, sql, database_url
):
    lou, vic = signed_in(live, "Lou"), signed_in(live, "Vic")
    won(live, database_url, lou, bots=("random",), place=1)
    assert points(sql, "hike", lou.id) < START - 200
    won(live, database_url, vic, bots=("search",))
    assert points(sql, "hike", vic.id) > START + 50
    expert = rating_rules.anchor("hike", "search")
    assert rating(sql, "hike", "bot:search")[0] == pytest.approx(expert)


def test_five_seats_against_four_beginner_bots_count_as_one_win_over_one(live, sql, database_url):
    one, five = signed_in(live, "Uno"), signed_in(live, "Cinq")
    # Both first lose twice to a Beginner bot, so that a win over one still says something.
    for person in (one, five):
        for _ in range(2):
            won(live, database_url, person, bots=("random",), place=1)
    assert rating(sql, "hike", one.id) == pytest.approx(rating(sql, "hike", five.id))
    before = mu(sql, "hike", one.id)
    won(live, database_url, one, bots=("random",))
    won(live, database_url, five, bots=("random",) * 4)
    gain_one = mu(sql, "hike", one.id) - before
    gain_five = mu(sql, "hike", five.id) - before
    assert gain_one > 0
    assert gain_five == pytest.approx(gain_one)
    assert rating(sql, "hike", "bot:random")[0] == pytest.approx(
        rating_rules.anchor("hike", "random")
    )


def test_a_person_who_left_early_for_good_leaves_the_game_unrated(live, sql, database_url):
    ana, ben = signed_in(live, "Ana"), signed_in(live, "Ben")
    early = live.start_game(ana, ben, game="camping-life")
    played(live, early, {0: ana, 1: ben}, 1)
    # Ben's time ran out after his first move and he never came back: the bot played on.
    assert not finish(database_url, early, [0], [2, 1], away={1: now()})
    assert live.state(ana, early)["view"]["table"]["unrated_because"] == (
        f"Ben left before every seat had made {rating_rules.MIN_MOVES} moves"
    )
    # Away only once every seat had made its moves: rated.
    later = live.start_game(ana, ben, game="camping-life")
    played(live, later, {0: ana, 1: ben}, rating_rules.MIN_MOVES)
    assert finish(database_url, later, [0], [2, 1], away={1: now()})
    assert rating(sql, "camping-life", ana.id)[2] == 1


def test_recomputing_gives_the_same_ratings_by_the_rules_as_they_are_now(
    live, sql, database_url, documented, monkeypatch
):
    ana, ben, cal = signed_in(live, "Ana"), signed_in(live, "Ben"), signed_in(live, "Cal")
    for _ in range(3):
        won(live, database_url, ana, ben)
    won(live, database_url, ana, bots=("random",))
    won(live, database_url, ben, cal, bots=("heuristic", "random", "random"), place=1)
    conceded = live.start_game(cal, ana)
    played(live, conceded, {0: cal, 1: ana}, rating_rules.MIN_MOVES)
    assert ana.post(f"/api/games/{conceded}/concede").status_code == 200
    # A game rated under an older rule that counted a concession at once.
    zed, yan = signed_in(live, "Zed"), signed_in(live, "Yan")
    monkeypatch.setattr(rating_rules, "MIN_MOVES", 0)
    older = live.start_game(zed, yan)
    assert yan.post(f"/api/games/{older}/concede").status_code == 200
    monkeypatch.undo()
    assert rating(sql, "hike", zed.id)[2] == 1
    every = (
        "select rater, mu, sigma, ordinal, games, opponents from ratings "
        "where game = 'hike' and rater not in (:z, :y) order by rater"
    )
    changes = (
        "select game_id, seat, rater, place, mu_before, sigma_before, mu_after, "
        "sigma_after, created_at from rating_changes where kind = 'hike' and "
        "game_id != :g order by game_id, seat"
    )
    before = sql(every, z=zed.id, y=yan.id), sql(changes, g=older)
    r = live.admin().post("/api/admin/ratings/hike/recompute")
    documented(r, "POST", "/api/admin/ratings/{kind}/recompute")
    assert r.status_code == 200 and r.json()["games"] >= 6
    after = sql(every, z=zed.id, y=yan.id), sql(changes, g=older)
    for old_rows, new_rows in zip(before, after):
        assert len(new_rows) == len(old_rows)
        for old, new in zip(old_rows, new_rows):
            assert new == pytest.approx(old) if isinstance(old[1], float) else new == old
    assert rating(sql, "hike", zed.id) is None
    assert live.state(zed, older)["view"]["table"]["unrated_because"] == (
        f"Yan conceded before every seat had made {rating_rules.MIN_MOVES} moves"
    )
    assert live.admin().post("/api/admin/ratings/nope/recompute").status_code == 404


def test_the_ladder_in_docs_is_the_one_bots_are_rated_at():
    text = (Path(__file__).parents[2] / "docs" / "bots.md").read_text()
    section = text.split("### In rating points", 1)[1]
    rows = section.split("| game | Beginner | Casual | Expert |")[1]
    documented = {}
    for line in rows.strip().splitlines()[1:]:
        if not line.startswith("|"):
            break
        title, *figures = [cell.strip() for cell in line.strip("|").split("|")]
        documented[title] = [int(figure) for figure in figures]
    assert documented == {
        GAMES[kind].title: [
            ratings.points(rating_rules.anchor(kind, level))
            for level in ("random", "heuristic", "search")
        ]
        for kind in rating_rules.LADDER
    }
    for kind in GAMES:
        beginner, casual, expert = (
            rating_rules.anchor(kind, level) for level in ("random", "heuristic", "search")
        )
        assert beginner < casual == ratings.MU < expert
