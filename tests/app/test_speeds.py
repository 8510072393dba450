"""Speeds: a lobby names one, every place shows it in words, and a table's banks run as the
speed says (``tests/app/test_clock.py`` has the clock's rules on their own)."""

from datetime import UTC, datetime, timedelta

from tests.app.test_deadlines import deadline_at, seat_of

DAY = 86400


def test_a_lobby_chooses_a_speed_shown_in_words(live):
    ana = live.guest("Ana")
    lobby = live.lobby(ana, speed="1d")
    assert (lobby["speed"], lobby["pace"], lobby["turn_seconds"]) == ("1d", "turn-based", None)
    assert lobby["speed_name"] == "Turn-based · 1 day a move, 2 to spare"
    assert ana.get(f"/api/lobbies/{lobby['id']}").json()["speed_name"] == lobby["speed_name"]
    assert live.lobby(ana, speed="20m")["speed_name"] == "Real time · 20 min + 1 min a move"
    assert live.lobby(ana, speed="untimed")["speed_name"] == "Untimed"
    # A script's per-move clock, as before speeds had names, and no clock at all.
    assert live.lobby(ana, turn_seconds=600)["speed_name"] == "10 min per move"
    assert live.lobby(ana)["speed_name"] == "3 min per move"
    assert live.lobby(ana, turn_seconds=None)["speed"] == "untimed"


def test_an_unknown_speed_or_two_clocks_at_once_is_refused(live):
    ana = live.guest("Ana")
    for body, reason in (
        ({"speed": "5+3"}, "Unknown speed '5+3'"),
        ({"speed": "3m", "turn_seconds": 60}, "not both"),
        ({"speed": "x" * 17}, "at most 16"),
    ):
        r = ana.post("/api/lobbies", json={"game": "hike", **body})
        assert r.status_code == 422 and reason in r.text, r.text


def start(live, speed, *people, game="hike"):
    host, *others = people
    lobby = live.lobby(host, game=game, seats=len(people), speed=speed)
    for other in others:
        assert other.post(
            "/api/lobbies/join", json={"invite_code": lobby["invite_code"]}
        ).is_success
    return host.post(f"/api/lobbies/{lobby['id']}/start").json()["game_id"]


def left_of(entry) -> float:
    if entry["deadline"] is not None:
        return (datetime.fromisoformat(entry["deadline"]) - datetime.now(UTC)).total_seconds()
    return entry["bank"]


def test_a_turn_based_bank_keeps_what_a_day_away_left_and_adds_a_day(live, database_url):
    ana, ben = live.guest("Ana"), live.guest("Ben")
    game_id = start(live, "1d", ana, ben)
    view = live.state(ana, game_id)["view"]
    assert view["table"]["speed_name"] == "Turn-based · 1 day a move, 2 to spare"
    seat = view["to_act"][0]
    other = 1 - seat
    assert 3 * DAY - 5 < left_of(seat_of(view, seat)) <= 3 * DAY + 1
    assert seat_of(view, other)["bank"] == 3 * DAY and seat_of(view, other)["deadline"] is None
    # Two days of the three gone, as if the person had been busy.
    deadline_at(
        database_url, game_id, seat, datetime.now(UTC).replace(microsecond=0) + timedelta(days=1)
    )
    mover = (ana, ben)[seat]
    state = live.state(mover, game_id)
    move = state["view"]["legal_moves"][0]["move"]
    r = mover.post(
        f"/api/games/{game_id}/moves", json={"move": move, "expect_version": state["version"]}
    )
    assert r.status_code == 200, r.text
    # What was left (a day) plus a day a move: two days, not a fresh three.
    left = left_of(seat_of(r.json()["view"], seat))
    assert 2 * DAY - 60 < left <= 2 * DAY + 1


def start_at_my_turn(live, speed, me, other):
    """A table of ``speed`` where ``me`` (seat 0) is to act: Hike's first player is drawn."""
    for _ in range(40):
        game_id = start(live, speed, me, other)
        if 0 in live.state(me, game_id)["view"]["to_act"]:
            return game_id
    raise AssertionError("seat 0 never drew the first turn")


def test_your_tables_show_time_left_and_your_turns_soonest_first(live, database_url):
    ana, ben = live.guest("Ana"), live.guest("Ben")
    untimed = start_at_my_turn(live, "untimed", ana, ben)
    daily = start_at_my_turn(live, "1d", ana, ben)
    weekly = start_at_my_turn(live, "7d", ana, ben)
    # Played in one sitting first; then turn-based, the weekly table's time now running out
    # first.
    mine = [untimed, weekly, daily]
    deadline_at(
        database_url, weekly, 0, datetime.now(UTC).replace(microsecond=0) + timedelta(hours=5)
    )
    games = ana.get("/api/players/me/games?limit=100").json()["games"]
    assert [g["game_id"] for g in games if g["game_id"] in mine] == mine
    by_id = {g["game_id"]: g for g in games}
    assert 5 * 3600 - 60 < by_id[weekly]["time_left"] <= 5 * 3600 + 1
    assert by_id[weekly]["speed_name"] == "Turn-based · 7 days a move, 7 to spare"
    assert by_id[daily]["deadline"] is not None
    assert by_id[untimed]["time_left"] is None and by_id[untimed]["deadline"] is None
    turns = ana.get("/api/players/me/turns").json()
    listed = [g["game_id"] for g in turns["games"]]
    assert turns["count"] == len(listed) and [g for g in listed if g in mine] == mine
    assert turns["games"][listed.index(weekly)]["pace"] == "turn-based"
    # Ben waits at every one of these tables: his time left is his bank.
    bens = {g["game_id"]: g for g in ben.get("/api/players/me/games?limit=100").json()["games"]}
    assert not bens[weekly]["your_turn"] and bens[weekly]["time_left"] == 14 * DAY


def test_a_rematch_keeps_the_speed(live):
    ana, ben = live.guest("Ana"), live.guest("Ben")
    game_id = start(live, "3d", ana, ben)
    assert ana.post(f"/api/games/{game_id}/concede").status_code == 200
    lobby = ben.post(f"/api/games/{game_id}/rematch").json()
    assert (lobby["speed"], lobby["speed_name"]) == ("3d", "Turn-based · 3 days a move, 3 to spare")


def test_steps_taken_back_give_no_time_to_a_bank(live, database_url):
    """A coin put down and taken back again and again keeps the turn's deadline: no time is
    added to the bank for a step that can be taken back, nor for taking it back."""
    ana, ben = live.guest("Ana"), live.guest("Ben")
    game_id = start(live, "10m", ana, ben, game="camping-life")
    seat = live.state(ana, game_id)["view"]["to_act"][0]
    mover = (ana, ben)[seat]
    deadline_at(
        database_url,
        game_id,
        seat,
        datetime.now(UTC).replace(microsecond=0) + timedelta(seconds=100),
    )
    state = live.state(mover, game_id)
    started = seat_of(state["view"], seat)["deadline"]
    for move in [None, {"type": "undo"}] * 3:
        legal = [e["move"] for e in state["view"]["legal_moves"]]
        move = move or next(m for m in legal if m["type"] == "bid_card")
        r = mover.post(
            f"/api/games/{game_id}/moves", json={"move": move, "expect_version": state["version"]}
        )
        assert r.status_code == 200, r.text
        state = r.json()
        assert seat_of(state["view"], seat)["deadline"] == started
