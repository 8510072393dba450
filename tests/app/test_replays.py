"""Replays of an ended game: each step is what a rebuild from the seed gives, costs at most a
few moves once the game's checkpoints are kept, a long rebuild runs off the event loop, and
replays are rate-limited."""

from __future__ import annotations

import random
import threading

import pytest

import app.services.replays as replays
from app.services.game_log import SHOWN
from engine.core import full_view, log_view, play
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
    end = play_as(live, player, game_id, random.Random(5),
                  lambda s: s["view"]["outcome"] is not None)
    assert end["version"] > 3 * replays.EVERY
    return game_id, live.client().get(f"/api/games/{game_id}/export").json()


def rebuilt(record: dict, at: int) -> dict:
    """The spectator's view after move ``at``, from the seed and the moves alone, with the
    log's latest entries and its length."""
    game = get_game(record["kind"])
    state = game.setup(record["players"], game.options(record["options"]), int(record["seed"]))
    entries = list(state.log)
    for entry in record["moves"][:at]:
        state = play(game, state, entry["seat"], entry["move"])
        entries += state.log
    log = {"log_length": len(entries), "log": log_view(entries[-SHOWN:])}
    return full_view(game, state, None) | log


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


def test_a_step_costs_at_most_a_checkpoints_distance_and_long_ones_run_off_the_loop(
    live, ended, rebuilds
):
    game_id, record = ended
    live.app.state.ctx.replays = replays.Replays()
    last = len(record["moves"]) - 1
    loop_thread = live.thread

    def step(at: int) -> None:
        r = live.client().get(f"/api/games/{game_id}/replay", params={"at": at})
        assert r.status_code == 200, r.text

    step(last)
    first_start, first_at, where = rebuilds[-1]
    # The first look rebuilds the whole game, on a worker thread.
    assert (first_start, first_at) == (0, last) and where is not loop_thread
    for at in random.Random(4).sample(range(last + 1), 20):
        step(at)
        start, to, where = rebuilds[-1]
        assert to == at and at - start < replays.EVERY and where is loop_thread


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
