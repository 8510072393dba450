"""Replays of an ended game: each step is what a rebuild from the seed gives, costs at most a
few moves once the game's checkpoints are kept, a long rebuild runs off the event loop, and
replays are rate-limited."""

from __future__ import annotations

import random
import threading

import pytest

import app.services.replays as replays
from app.services.game_log import SHOWN
from engine.core import Event, full_view, log_view, play
from engine.registry import get_game
from tests.app.conftest import sqlite_copy
from tests.app.test_games import play_as


@pytest.fixture(scope="module")
def database_url(sqlite_template, tmp_path_factory) -> str:
    """SQLite only: what is kept and where it runs do not depend on the database."""
    return sqlite_copy(sqlite_template, tmp_path_factory, "replays")


@pytest.fixture(scope="module")
def player(live):
    return live.guest("Ana")


@pytest.fixture(scope="module")
def ended(live, player):
    game_id = live.start_game(player, bots=("random",), game="camping-life")
    end = play_as(
        live, player, game_id, random.Random(5), lambda s: s["view"]["outcome"] is not None
    )
    assert end["version"] > 3 * replays.EVERY
    return game_id, live.client().get(f"/api/games/{game_id}/export").json()


def rebuilt(record: dict, at: int, conceded: tuple[int, Event] | None = None) -> dict:
    """The spectator's view after move ``at``, from the seed and the moves alone, with the
    log's latest entries and its length. ``conceded``: the move after which a seat conceded,
    and the line it wrote then."""
    game = get_game(record["kind"])
    state = game.setup(record["players"], game.options(record["options"]), int(record["seed"]))
    entries = list(state.log)
    before = None
    for k, entry in enumerate(record["moves"][:at], start=1):
        state = play(game, state, entry["seat"], entry["move"])
        entries += state.log
        if conceded and k == conceded[0]:
            before = len(entries)
    view = full_view(game, state, None)
    if before is not None:
        entries.insert(before, conceded[1])
        if view["last_decision"] is not None and view["last_decision"] >= before:
            view["last_decision"] += 1
    return view | {"log_length": len(entries), "log": log_view(entries[-SHOWN:])}


@pytest.fixture
def rebuilds(monkeypatch):
    """Every rebuild the server makes: (from, to, the thread it ran on)."""
    made = []
    real = replays.Replay.rebuild

    def rebuild(self, start, at):
        made.append((start, at, threading.current_thread()))
        return real(self, start, at)

    monkeypatch.setattr(replays.Replay, "rebuild", rebuild)
    return made


def test_every_step_is_the_rebuild_from_the_seed_in_any_order(live, ended):
    game_id, record = ended
    steps = list(range(len(record["moves"])))
    random.Random(3).shuffle(steps)
    for at in steps:
        view = live.client().get(f"/api/games/{game_id}/replay", params={"at": at}).json()["view"]
        view.pop("table")
        assert view == rebuilt(record, at), at


def test_a_step_costs_at_most_a_checkpoints_distance_and_runs_off_the_loop(live, ended, rebuilds):
    game_id, record = ended
    live.app.state.ctx.replays = replays.Replays(live.app.state.ctx.pages)
    last = len(record["moves"]) - 1

    def step(at: int) -> None:
        r = live.client().get(f"/api/games/{game_id}/replay", params={"at": at})
        assert r.status_code == 200, r.text

    step(last)
    first_start, first_at, where = rebuilds[-1]
    # The first look rebuilds the whole game; it and every step after it on the pages'
    # thread, never the event loop's.
    assert (first_start, first_at) == (0, last) and where.name.startswith("pages")
    for at in random.Random(4).sample(range(last + 1), 20):
        step(at)
        start, to, where = rebuilds[-1]
        assert to == at and at - start < replays.EVERY and where.name.startswith("pages")


def test_a_rename_after_the_end_shows_in_the_replay(live, ended, player):
    game_id, _ = ended

    def names() -> list[str]:
        view = live.client().get(f"/api/games/{game_id}/replay", params={"at": 1}).json()["view"]
        return [seat["name"] for seat in view["table"]["seats"]]

    before = names()
    assert player.patch("/api/players/me", json={"name": "Anabel"}).status_code == 200
    assert names() == ["Anabel", *before[1:]]
    player.patch("/api/players/me", json={"name": "Ana"})


def test_replays_are_rate_limited(ended, database_url, serve):
    game_id, _ = ended
    with serve(database_url, RATE_REPLAYS="3/60", RATE_REPLAYS_PER_ADDRESS="5/60") as live:
        ana, ben = live.guest("Ana"), live.guest("Ben")
        url = f"/api/games/{game_id}/replay"
        assert [ana.get(url, params={"at": k}).status_code for k in range(4)] == [200] * 3 + [429]
        assert ben.get(url).status_code == 200
        # Spectators without a player count by address alone.
        limited = live.client().get(url)
        assert limited.status_code == 429 and int(limited.headers["retry-after"]) >= 1


def test_a_concession_is_a_line_of_the_replay_where_it_was_made(live):
    """From the step after which Ana conceded, each step's log holds her line where she wrote
    it, and the latest decision of each later step is its own line."""
    ana = live.guest("Ana")
    game_id = live.start_game(ana, bots=("random", "random"))
    play_as(live, ana, game_id, random.Random(2), lambda s: s["version"] >= 5)
    r = ana.post(f"/api/games/{game_id}/concede")
    assert r.status_code == 200, r.text
    conceded_at = r.json()["version"]
    live.wait_for(ana, game_id, lambda s: s["view"]["outcome"] is not None, tries=3000)
    record = live.client().get(f"/api/games/{game_id}/export").json()
    line = Event(text="Player 1 concedes: a bot plays the seat to the end.", seat=0)
    last = len(record["moves"])
    steps = {
        *range(max(0, conceded_at - 2), conceded_at + 3),
        last,
        *random.Random(6).sample(range(last + 1), 15),
    }
    for at in sorted(steps):
        view = live.client().get(f"/api/games/{game_id}/replay", params={"at": at}).json()["view"]
        view.pop("table")
        expected = rebuilt(record, at, conceded=(conceded_at, line))
        if at == last:  # the stored outcome ranks the conceded seat last, the engine's does not
            expected["outcome"] = record["outcome"]
        assert view == expected, at
