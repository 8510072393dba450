import contextlib
import threading
from collections.abc import Iterator

import pytest
from sqlalchemy import event

from engine.registry import get_game

UNRESERVED = {"reserved_for": None, "reserved_until": None, "rating": None, "unrated_because": None}


def test_create_lobby_defaults(live):
    ana = live.guest("Ana")
    lobby = live.lobby(ana)
    assert lobby["game"] == "hike" and lobby["title"] == "Let's Take a Hike"
    assert lobby["private"] is True and lobby["status"] == "open" and lobby["game_id"] is None
    assert lobby["host_id"] == ana.id and lobby["you"] == 0
    assert lobby["seats"] == [
        {
            "seat": 0,
            "player": {"id": ana.id, "name": "Ana", "handle": None},
            "bot": None,
            **UNRESERVED,
        },
        {"seat": 1, "player": None, "bot": None, **UNRESERVED},
    ]
    assert lobby["rated"] is False  # a guest's table
    assert lobby["invite_url"] == f"{live.url}/join/{lobby['invite_code']}"


def test_create_lobby_needs_a_player(live):
    assert live.client().post("/api/lobbies", json={"game": "hike"}).status_code == 401


@pytest.mark.parametrize(
    ("method", "path", "body"),
    [
        ("POST", "/api/lobbies/join", {"invite_code": "x"}),
        ("POST", "/api/lobbies/{lobby_id}/join", None),
        ("POST", "/api/lobbies/{lobby_id}/leave", None),
        ("POST", "/api/lobbies/{lobby_id}/bots", {"seat": 1, "level": "random"}),
        ("DELETE", "/api/lobbies/{lobby_id}/seats/{seat}", None),
        ("POST", "/api/lobbies/{lobby_id}/start", None),
    ],
)
def test_lobby_changes_without_a_player_are_a_documented_401(live, documented, method, path, body):
    lobby = live.lobby(live.guest())
    url = path.format(lobby_id=lobby["id"], seat=1)
    r = live.client().request(method, url, json=body)
    assert r.status_code == 401
    documented(r, method, path)


def test_a_body_that_is_not_utf8_is_a_documented_400(live, documented):
    ana = live.guest()
    lobby = live.lobby(ana)
    r = ana.post(
        f"/api/lobbies/{lobby['id']}/bots",
        content=b"\xff",
        headers={"Content-Type": "application/json"},
    )
    assert r.status_code == 400
    documented(r, "POST", "/api/lobbies/{lobby_id}/bots")


@pytest.mark.parametrize(
    ("body", "message"),
    [
        ({"game": "chess"}, "Unknown game 'chess'"),
        ({"game": "hike", "seats": 6}, "for 2 to 5 players, not 6"),
        ({"game": "hike", "seats": 1}, "for 2 to 5 players, not 1"),
        ({"game": "camping-life", "seats": 3}, "for 2 to 2 players, not 3"),
        ({"game": "hike", "options": {"no_such_option": 1}}, "Invalid options"),
    ],
)
def test_bad_lobby_requests_are_422_with_a_reason(live, documented, body, message):
    r = live.guest().post("/api/lobbies", json=body)
    assert r.status_code == 422
    assert message in r.json()["detail"]
    documented(r, "POST", "/api/lobbies")


def test_a_request_that_does_not_parse_is_a_documented_422(live, documented):
    r = live.guest().post("/api/lobbies", json={"seats": "many"})
    assert r.status_code == 422
    assert {tuple(e["loc"]) for e in r.json()["detail"]} == {("body", "game"), ("body", "seats")}
    documented(r, "POST", "/api/lobbies")


def test_private_lobby_is_joined_by_invite_code_only(live):
    ana, ben = live.guest("Ana"), live.guest("Ben")
    lobby = live.lobby(ana)
    r = ben.post(f"/api/lobbies/{lobby['id']}/join")
    assert r.status_code == 403
    assert "invite code" in r.json()["detail"]
    r = ben.post("/api/lobbies/join", json={"invite_code": lobby["invite_code"]})
    assert r.status_code == 200
    joined = r.json()
    assert joined["you"] == 1
    assert joined["seats"][1]["player"] == {"id": ben.id, "name": "Ben", "handle": None}


def test_joining_again_changes_nothing(live):
    ana, ben = live.guest("Ana"), live.guest("Ben")
    lobby = live.lobby(ana, seats=3)
    first = ben.post("/api/lobbies/join", json={"invite_code": lobby["invite_code"]}).json()
    again = ben.post("/api/lobbies/join", json={"invite_code": lobby["invite_code"]})
    assert again.status_code == 200
    assert again.json() == first
    assert ana.post(f"/api/lobbies/{lobby['id']}/join").json()["you"] == 0


def test_unknown_invite_code_is_404(live):
    r = live.guest().post("/api/lobbies/join", json={"invite_code": "nosuchcode"})
    assert r.status_code == 404


def test_ids_and_codes_with_a_nul_or_a_lone_surrogate_are_404(live):
    ana = live.guest()
    for code in (r"no\u0000code", r"no\ud800code"):
        r = ana.post(
            "/api/lobbies/join",
            content=f'{{"invite_code": "{code}"}}'.encode(),
            headers={"Content-Type": "application/json"},
        )
        assert r.status_code == 404
    assert ana.get("/api/lobbies/no%00pe").status_code == 404
    assert ana.post("/api/lobbies/no%00pe/join").status_code == 404


def test_full_lobby_is_409(live):
    ana, ben, cal = live.guest("Ana"), live.guest("Ben"), live.guest("Cal")
    lobby = live.lobby(ana, private=False)
    assert ben.post(f"/api/lobbies/{lobby['id']}/join").status_code == 200
    r = cal.post(f"/api/lobbies/{lobby['id']}/join")
    assert r.status_code == 409
    assert "full" in r.json()["detail"]


def test_public_listing_shows_open_public_lobbies_newest_first(live):
    ana = live.guest("Ana")
    older = live.lobby(ana, private=False)
    private = live.lobby(ana, private=True)
    newer = live.lobby(ana, game="camping-life", private=False)
    started = live.lobby(ana, private=False)
    ana.post(f"/api/lobbies/{started['id']}/bots", json={"seat": 1, "level": "random"})
    assert ana.post(f"/api/lobbies/{started['id']}/start").status_code == 201
    listed = live.client().get("/api/lobbies").json()
    ours = {older["id"], private["id"], newer["id"], started["id"]}
    assert [lobby["id"] for lobby in listed if lobby["id"] in ours] == [newer["id"], older["id"]]
    # Only members see invite codes; a public lobby is joined by its id.
    assert all(lobby["invite_code"] is None and lobby["you"] is None for lobby in listed)
    for lobby in listed:
        if lobby["id"] in ours:
            assert lobby == live.client().get(f"/api/lobbies/{lobby['id']}").json()
            assert lobby["seats"][0]["player"] == {"id": ana.id, "name": "Ana", "handle": None}


def test_invite_code_is_shown_to_members_only(live):
    ana, ben = live.guest("Ana"), live.guest("Ben")
    for private in (False, True):
        lobby = live.lobby(ana, private=private)
        # A private lobby is seen by whoever holds its invite code (``test_watching.py``).
        invite = {"invite": lobby["invite_code"]} if private else {}
        seen_by_stranger = ben.get(f"/api/lobbies/{lobby['id']}", params=invite).json()
        assert seen_by_stranger["invite_code"] is None and seen_by_stranger["invite_url"] is None
        assert ana.get(f"/api/lobbies/{lobby['id']}").json()["invite_code"] == lobby["invite_code"]
    assert live.client().get("/api/lobbies/nope").status_code == 404


def test_a_player_leaves_but_the_host_cannot(live):
    ana, ben = live.guest("Ana"), live.guest("Ben")
    lobby = live.lobby(ana, private=False)
    ben.post(f"/api/lobbies/{lobby['id']}/join")
    r = ben.post(f"/api/lobbies/{lobby['id']}/leave")
    assert r.status_code == 200
    assert r.json()["seats"][1]["player"] is None and r.json()["you"] is None
    assert ben.post(f"/api/lobbies/{lobby['id']}/leave").status_code == 409
    assert ana.post(f"/api/lobbies/{lobby['id']}/leave").status_code == 403


def test_host_seats_and_removes_bots(live):
    ana = live.guest("Ana")
    lobby = live.lobby(ana, seats=3)
    r = ana.post(f"/api/lobbies/{lobby['id']}/bots", json={"seat": 2, "level": "heuristic"})
    assert r.status_code == 200
    assert r.json()["seats"][2] == {"seat": 2, "player": None, "bot": "heuristic", **UNRESERVED}
    r = ana.delete(f"/api/lobbies/{lobby['id']}/seats/2")
    assert r.status_code == 200
    assert r.json()["seats"][2] == {"seat": 2, "player": None, "bot": None, **UNRESERVED}
    assert ana.delete(f"/api/lobbies/{lobby['id']}/seats/2").status_code == 409


def test_bot_rules(live):
    ana, ben = live.guest("Ana"), live.guest("Ben")
    lobby = live.lobby(ana, seats=3, private=False)
    ben.post(f"/api/lobbies/{lobby['id']}/join")
    bots = f"/api/lobbies/{lobby['id']}/bots"
    assert ben.post(bots, json={"seat": 2, "level": "random"}).status_code == 403
    r = ana.post(bots, json={"seat": 2, "level": "genius"})
    assert r.status_code == 422 and "genius" in r.json()["detail"]
    assert ana.post(bots, json={"seat": 1, "level": "random"}).status_code == 409
    assert ana.post(bots, json={"seat": 7, "level": "random"}).status_code == 422
    ana.post(bots, json={"seat": 2, "level": "random"})
    assert ben.delete(f"/api/lobbies/{lobby['id']}/seats/2").status_code == 403


def test_start_needs_every_seat_and_the_host(live):
    ana, ben = live.guest("Ana"), live.guest("Ben")
    lobby = live.lobby(ana, seats=3, private=False)
    ben.post(f"/api/lobbies/{lobby['id']}/join")
    r = ana.post(f"/api/lobbies/{lobby['id']}/start")
    assert r.status_code == 409 and "empty: 2" in r.json()["detail"]
    ana.post(f"/api/lobbies/{lobby['id']}/bots", json={"seat": 2, "level": "random"})
    assert ben.post(f"/api/lobbies/{lobby['id']}/start").status_code == 403
    r = ana.post(f"/api/lobbies/{lobby['id']}/start")
    assert r.status_code == 201
    game_id = r.json()["game_id"]
    started = ana.get(f"/api/lobbies/{lobby['id']}").json()
    assert started["status"] == "started" and started["game_id"] == game_id
    assert ana.post(f"/api/lobbies/{lobby['id']}/start").status_code == 409
    assert live.guest("Cal").post(f"/api/lobbies/{lobby['id']}/join").status_code == 409
    table = live.state(ben, game_id)["view"]["table"]
    assert [(s["name"], s["bot"]) for s in table["seats"]] == [
        ("Ana", None),
        ("Ben", None),
        ("Beginner bot", "random"),
    ]


def test_a_game_whose_setup_fails_is_refused_and_the_lobby_stays_open(
    live, documented, monkeypatch
):
    def broken(players, options, seed):
        raise ValueError("empty range")

    monkeypatch.setattr(get_game("hike"), "setup", broken)
    ana = live.guest("Ana")
    lobby = live.lobby(ana)
    ana.post(f"/api/lobbies/{lobby['id']}/bots", json={"seat": 1, "level": "random"})
    before = ana.get(f"/api/lobbies/{lobby['id']}").json()
    r = ana.post(f"/api/lobbies/{lobby['id']}/start")
    assert r.status_code == 409 and "could not be set up" in r.json()["detail"]
    documented(r, "POST", "/api/lobbies/{lobby_id}/start")
    after = ana.get(f"/api/lobbies/{lobby['id']}").json()
    assert after == before and after["status"] == "open" and after["game_id"] is None
    monkeypatch.undo()
    assert ana.post(f"/api/lobbies/{lobby['id']}/start").status_code == 201


def test_concurrent_joins_by_invite_code_take_different_seats(live):
    ana = live.guest("Ana")
    lobby = live.lobby(ana, seats=3)
    guests = [live.guest(name) for name in ("Ben", "Cal", "Dee")]
    barrier = threading.Barrier(len(guests))
    results = {}

    def join(guest):
        barrier.wait()
        results[guest.name] = guest.post(
            "/api/lobbies/join", json={"invite_code": lobby["invite_code"]}
        )

    threads = [threading.Thread(target=join, args=(g,)) for g in guests]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert sorted(r.status_code for r in results.values()) == [200, 200, 409]
    assert {r.json()["you"] for r in results.values() if r.status_code == 200} == {1, 2}


@contextlib.contextmanager
def statements_about(live, *keys: str) -> Iterator[list[tuple[str, str]]]:
    """The statements the server runs meanwhile with one of ``keys`` among their parameters
    (not the deadline poller's, say), as (where, SQL): "session" for those SQLAlchemy runs,
    "asyncpg" for those run on asyncpg's own connection (``Database.driver``)."""
    db = live.app.state.ctx.db
    seen: list[tuple[str, str]] = []

    def ours(parameters) -> bool:
        values = parameters.values() if isinstance(parameters, dict) else parameters or ()
        flat = [v for p in values for v in (p if isinstance(p, (list, tuple)) else [p])]
        return any(key in flat for key in keys)

    def on_cursor(_conn, _cursor, statement, parameters, _context, _many):
        if ours(parameters):
            seen.append(("session", statement))

    def on_query(record):
        if ours(record.args):
            seen.append(("asyncpg", record.query))

    driver = db.driver

    @contextlib.asynccontextmanager
    async def logged(*args, **kwargs):
        async with driver(*args, **kwargs) as conn:
            conn.add_query_logger(on_query)
            try:
                yield conn
            finally:
                conn.remove_query_logger(on_query)

    engine = db.engine.sync_engine
    event.listen(engine, "before_cursor_execute", on_cursor)
    db.driver = logged
    try:
        yield seen
    finally:
        event.remove(engine, "before_cursor_execute", on_cursor)
        del db.driver


def _kinds(statements: list[tuple[str, str]]) -> list[str]:
    return [sql.split()[0].upper() + " " + _table(sql) for _, sql in statements]


def _table(sql: str) -> str:
    words = sql.split()
    after = {"SELECT": "FROM", "INSERT": "INTO", "UPDATE": "UPDATE"}[words[0].upper()]
    return words[[w.upper() for w in words].index(after) + 1]


def test_join_by_invite_code_finds_the_lobby_in_its_own_transaction(live):
    """The lobby is looked up by its code and locked in one statement, in the transaction
    that seats the player: no separate look-up before it. Then its seats are read, and the
    taken seat and the lobby (open a while longer) written."""
    ana, ben = live.guest("Ana"), live.guest("Ben")
    lobby = live.lobby(ana)
    with statements_about(live, lobby["id"], lobby["invite_code"]) as seen:
        r = ben.post("/api/lobbies/join", json={"invite_code": lobby["invite_code"]})
    assert r.status_code == 200 and r.json()["you"] == 1
    kinds = _kinds(seen)
    assert kinds[:2] == ["SELECT lobbies", "SELECT seats"]
    assert sorted(kinds[2:]) == ["UPDATE lobbies", "UPDATE seats"]
    assert "invite_code" in seen[0][1]
    if live.app.state.ctx.db.postgres:
        assert "FOR UPDATE" in seen[0][1]


@pytest.mark.parametrize("step", ["create", "join", "bot", "leave", "start"])
def test_on_postgresql_lobby_changes_run_on_asyncpg_itself(live, step):
    """Setting a game up is part of the load when games are played fast: on PostgreSQL its
    statements skip SQLAlchemy's session and unit of work, which cost the server several
    times what the statements cost PostgreSQL. (SQLite's all go through the session.)"""
    ana, ben = live.guest("Ana"), live.guest("Ben")
    keys = [ana.id, ben.id]
    with statements_about(live, *keys) as seen:
        lobby = live.lobby(ana)
    keys += [lobby["id"], lobby["invite_code"]]
    steps = {
        "join": lambda: ben.post("/api/lobbies/join", json={"invite_code": lobby["invite_code"]}),
        "bot": lambda: ana.post(
            f"/api/lobbies/{lobby['id']}/bots", json={"seat": 1, "level": "random"}
        ),
        "leave": lambda: ben.post(f"/api/lobbies/{lobby['id']}/leave"),
        "start": lambda: ana.post(f"/api/lobbies/{lobby['id']}/start"),
    }
    order = {
        "create": [],
        "join": ["join"],
        "bot": ["bot"],
        "leave": ["join", "leave"],
        "start": ["join", "start"],
    }[step]
    for earlier in order[:-1]:
        assert steps[earlier]().status_code == 200
    if order:
        with statements_about(live, *keys) as seen:
            r = steps[order[-1]]()
        assert r.status_code in (200, 201), r.text
    expected = "asyncpg" if live.app.state.ctx.db.postgres else "session"
    assert seen and {where for where, _ in seen} == {expected}


def test_concurrent_joins_take_different_seats(live):
    ana = live.guest("Ana")
    lobby = live.lobby(ana, seats=3, private=False)
    guests = [live.guest(name) for name in ("Ben", "Cal", "Dee")]
    barrier = threading.Barrier(len(guests))
    results = {}

    def join(guest):
        barrier.wait()
        results[guest.name] = guest.post(f"/api/lobbies/{lobby['id']}/join")

    threads = [threading.Thread(target=join, args=(g,)) for g in guests]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    codes = sorted(r.status_code for r in results.values())
    assert codes == [200, 200, 409]
    seated = {r.json()["you"] for r in results.values() if r.status_code == 200}
    assert seated == {1, 2}
    seats = ana.get(f"/api/lobbies/{lobby['id']}").json()["seats"]
    assert all(s["player"] is not None for s in seats)


def test_invite_links_use_public_url_when_set(database_url, serve):
    with serve(database_url, PUBLIC_URL="https://camp.example/") as server:
        lobby = server.lobby(server.guest("Ana"))
        assert lobby["invite_url"] == f"https://camp.example/join/{lobby['invite_code']}"


def test_an_invite_code_shows_its_lobby_without_joining(live, documented):
    ana = live.guest("Ana")
    lobby = live.lobby(ana, seats=2)
    stranger = live.client()
    r = stranger.get(f"/api/lobbies/invite/{lobby['invite_code']}")
    assert r.status_code == 200
    documented(r, "GET", "/api/lobbies/invite/{invite_code}")
    seen = r.json()
    assert seen["id"] == lobby["id"] and seen["title"] == "Let's Take a Hike"
    assert seen["host_id"] == ana.id and seen["you"] is None and seen["invite_code"] is None
    assert [s["player"] for s in seen["seats"]][1] is None
    assert live.client().get("/api/lobbies/invite/nope").status_code == 404
    # Looking creates no player and takes no seat.
    assert "set-cookie" not in r.headers
    assert ana.get(f"/api/lobbies/{lobby['id']}").json()["seats"] == lobby["seats"]
