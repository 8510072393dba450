"""Ended games made quickly through the API, for the pages that draw them.

Each maker returns ``(game_id, token)``: the game and the token of the person at seat 0, whose
browser then opens the table once. Bots move at once on the test server; a person's moves are
chosen here by the game's own heuristic bot from the person's view, so a finished game takes a
few seconds, not a whole game of clicks.
"""

from __future__ import annotations

import random
import time
from concurrent.futures import ThreadPoolExecutor

import httpx

from engine.registry import get_game

from tests.browser.conftest import ADMIN_TOKEN

COOKIE = "campground_token"


def api_client(base: str, token: str | None = None) -> httpx.Client:
    """A client of the test server at ``base`` (plain HTTP), sending ``token`` as its bearer
    token if given. Not verifying certificates spares loading them: ~20 ms of CPU a client,
    and the tests make hundreds."""
    headers = {"Authorization": f"Bearer {token}"} if token else {}
    return httpx.Client(base_url=base, timeout=30, headers=headers, verify=False)


def person(base: str, name: str) -> httpx.Client:
    client = api_client(base)
    r = client.post("/api/players", json={"name": name})
    assert r.status_code == 201, r.text
    client.headers["Authorization"] = f"Bearer {r.json()['token']}"
    client.token = r.json()["token"]  # type: ignore[attr-defined]
    return client


def signed_in(base: str, name: str, handle: str) -> httpx.Client:
    """A person who added a sign-in (handle and password): their tables can be rated."""
    client = person(base, name)
    r = client.post("/api/accounts", json={"handle": handle, "password": "correct horse battery"})
    assert r.status_code == 201, r.text
    return client


def start(
    base: str,
    kind: str,
    bots: int = 1,
    options: dict | None = None,
    others: tuple[httpx.Client, ...] = (),
    public: bool = False,
) -> tuple[httpx.Client, str]:
    """Ana at seat 0, then ``others``, then heuristic bots (or random where a game has none);
    a public table may be watched by anybody, a private one only by its seats."""
    ana = person(base, "Ana")
    body = {
        "game": kind,
        "seats": 1 + len(others) + bots,
        "turn_seconds": None,
        "private": not public,
    }
    if options:
        body["options"] = options
    r = ana.post("/api/lobbies", json=body)
    assert r.status_code == 201, r.text
    lobby = r.json()
    for other in others:
        r = other.post("/api/lobbies/join", json={"invite_code": lobby["invite_code"]})
        assert r.status_code == 200, r.text
    level = "heuristic" if "heuristic" in get_game(kind).bots else "random"
    for seat in range(1 + len(others), body["seats"]):
        r = ana.post(f"/api/lobbies/{lobby['id']}/bots", json={"seat": seat, "level": level})
        assert r.status_code == 200, r.text
    r = ana.post(f"/api/lobbies/{lobby['id']}/start")
    assert r.status_code == 201, r.text
    return ana, r.json()["game_id"]


def state(client: httpx.Client, game_id: str) -> dict:
    r = client.get(f"/api/games/{game_id}/state")
    assert r.status_code == 200, r.text
    return r.json()


def play(
    client: httpx.Client,
    game_id: str,
    kind: str,
    moves: int | None = None,
    timeout: float = 120,
    wait: bool = True,
) -> dict:
    """Play the person's seat with the heuristic bot's choices until the game ends (or for
    ``moves`` of its moves); returns the last state seen. ``wait=False``: return at once when
    it is not the person's turn (another person's, who only the caller can play: a move still
    on its way from a page may have passed the turn on since the caller looked)."""
    game = get_game(kind)
    bot = game.bots.get("heuristic") or game.bots["random"]
    rng = random.Random(1)
    made = 0
    deadline = time.monotonic() + timeout
    while True:
        assert time.monotonic() < deadline, "the game did not end in time"
        now = state(client, game_id)
        view = now["view"]
        if now["view"]["table"]["status"] != "active" or (moves is not None and made >= moves):
            return now
        if view["you"] not in view["to_act"]:
            if not wait:
                return now
            time.sleep(0.01)
            continue
        # What a bot is given: the game's own moves, never an undo.
        view["legal_moves"] = [e for e in view["legal_moves"] if e["move"]["type"] != "undo"]
        legal = [game.parse_move(e["move"]) for e in view["legal_moves"]]
        chosen = bot(view, legal, rng)
        chosen = chosen if isinstance(chosen, dict) else chosen.model_dump(mode="json")
        r = client.post(
            f"/api/games/{game_id}/moves", json={"move": chosen, "expect_version": now["version"]}
        )
        if r.status_code == 200:
            made += 1
        else:
            assert r.status_code == 409, r.text  # a bot's move came first: look again


def every_seat_moved(people: list[httpx.Client], game_id: str, kind: str, moves: int) -> None:
    """The people play on (as ``play``) until every seat has made ``moves`` moves: a game
    given up before that is not rated."""
    log = admin(str(people[0].base_url))
    seats = len(state(people[0], game_id)["view"]["table"]["seats"])
    while True:
        made: dict[int, int] = {}
        for move in log.get(f"/api/admin/games/{game_id}/moves").json():
            made[move["seat"]] = made.get(move["seat"], 0) + 1
        if all(made.get(seat, 0) >= moves for seat in range(seats)):
            return
        for client in people:
            view = state(client, game_id)["view"]
            if view["you"] in view["to_act"]:
                play(client, game_id, kind, moves=1, wait=False)
        time.sleep(0.01)


def play_until(
    client: httpx.Client, game_id: str, kind: str, wanted, timeout: float = 120
) -> dict | None:
    """Play the person's seat as ``play`` does until ``wanted(view)`` holds at one of their
    turns; that state, or None when the game ended first."""
    deadline = time.monotonic() + timeout
    while True:
        assert time.monotonic() < deadline, "the state wanted never came"
        now = state(client, game_id)
        view = now["view"]
        if view["table"]["status"] != "active":
            return None
        if view["you"] not in view["to_act"]:
            time.sleep(0.01)
        elif wanted(view):
            return now
        else:
            play(client, game_id, kind, moves=1)


def play_all_until(
    people: list[httpx.Client], game_id: str, kind: str, wanted, timeout: float = 120
) -> None:
    """The people at the table play on as ``play`` does, in turn, until ``wanted(view)``
    holds at a turn of one of them, or the game ends."""
    deadline = time.monotonic() + timeout
    while True:
        assert time.monotonic() < deadline, "the state wanted never came"
        for client in people:
            view = state(client, game_id)["view"]
            if view["table"]["status"] != "active":
                return
            if view["you"] in view["to_act"]:
                if wanted(view):
                    return
                play(client, game_id, kind, moves=1, wait=False)
        time.sleep(0.01)


def play_to_the_end(people: list[httpx.Client], game_id: str, kind: str) -> None:
    """Every person at the table plays on as ``play`` does, each in a thread of their own,
    until the game ends."""
    with ThreadPoolExecutor(len(people)) as pool:
        list(pool.map(lambda client: play(client, game_id, kind), people))


def as_player(page, base: str) -> httpx.Client:
    """A client that is the player of a browser page (its cookie's token)."""
    token = next(c["value"] for c in page.context.cookies() if c["name"] == COOKIE)
    return api_client(base, token)


def wait_ended(client: httpx.Client, game_id: str, timeout: float = 120) -> dict:
    deadline = time.monotonic() + timeout
    while True:
        now = state(client, game_id)
        if now["view"]["table"]["status"] != "active":
            return now
        assert time.monotonic() < deadline, "the bots did not finish the game"
        time.sleep(0.02)


def admin(base: str) -> httpx.Client:
    return api_client(base, ADMIN_TOKEN)


def concede(client: httpx.Client, game_id: str) -> None:
    r = client.post(f"/api/games/{game_id}/concede")
    assert r.status_code == 200, r.text


def ended_game(base: str, kind: str, how: str) -> tuple[str, str]:
    """An ended game of ``kind``, ended ``how``:

    * ``finished``: Ana plays a two-player game to its end against a bot;
    * ``conceded-at-start``: Ana concedes a two-player game before anyone moved (during setup,
      where the game has one);
    * ``conceded``: Ana concedes a two-player game after a few moves;
    * ``conceded-3p``: Ana concedes a three-player game before anyone moved; the bot stands in
      for her and the bots play it to the end;
    * ``suspended``: an admin suspends Ana in a two-player game; the bot stands in for her to
      the end;
    * ``aborted``: an admin aborts a two-player game after a few moves.
    """
    if how == "conceded-3p":
        ana, game_id = start(base, kind, bots=2)
        concede(ana, game_id)
        wait_ended(ana, game_id)
        return game_id, ana.token
    ana, game_id = start(base, kind)
    if how == "finished":
        play(ana, game_id, kind)
    elif how == "conceded-at-start":
        concede(ana, game_id)
    elif how == "conceded":
        play(ana, game_id, kind, moves=3)
        concede(ana, game_id)
    elif how == "suspended":
        play(ana, game_id, kind, moves=2)
        me = ana.get("/api/players/me").json()["id"]
        r = admin(base).post(f"/api/admin/players/{me}/suspension")
        assert r.status_code == 200, r.text
        wait_ended(ana, game_id)
    elif how == "aborted":
        play(ana, game_id, kind, moves=3)
        r = admin(base).post(f"/api/admin/games/{game_id}/abort")
        assert r.status_code == 200, r.text
    else:
        raise ValueError(how)
    return game_id, ana.token
