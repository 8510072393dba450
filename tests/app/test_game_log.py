"""A game's log on the wire: a view carries its latest entries and its length, a patch appends
the new entries, and older ones come a page at a time."""

import asyncio
import random
import threading

from app.db import Database
from app.services import game_log
from app.services.game_log import SHOWN
from engine.core import log_view, play
from engine.registry import get_game
from tests.app.sockets import Socket
from tests.app.test_games import play_as


def replayed_log(live, game_id, kind: str, players: int) -> list[dict]:
    """The whole log, rebuilt by the engine from the seed and the moves."""
    admin = live.admin()
    game = get_game(kind)
    seed = int(admin.get(f"/api/admin/games/{game_id}").json()["seed"])
    state = game.setup(players, game.options({}), seed)
    entries = list(state.log)
    for m in admin.get(f"/api/admin/games/{game_id}/moves").json():
        state = play(game, state, m["seat"], m["move"])
        entries += state.log
    return log_view(entries)


def test_patches_append_entries_and_older_ones_come_by_page(live, documented):
    ana = live.guest("Ana")
    game_id = live.start_game(ana, bots=("random",))
    watcher = Socket(live, game_id)
    try:
        first = watcher.view
        assert first["log_length"] == len(first["log"]) > 0
        end = play_as(
            live, ana, game_id, random.Random(2), lambda s: s["view"]["log_length"] > SHOWN + 20
        )
        held = list(first["log"])
        while watcher.version < end["version"]:
            message = watcher.recv()
            assert message["type"] == "patch", message
            log_ops = [op for op in message["ops"] if op["path"].startswith("/log")]
            # Only appended entries and the new length: never a diff of the whole log.
            assert all(
                op["op"] == "add" and op["path"] == "/log/-"
                for op in log_ops
                if op["path"] != "/log_length"
            )
            held += [op["value"] for op in log_ops if op["path"] == "/log/-"]
            watcher.apply(message)
            assert len(held) == watcher.view["log_length"]
    finally:
        watcher.close()

    whole = replayed_log(live, game_id, "hike", 2)
    assert held == whole
    view = live.state(ana, game_id)["view"]
    assert view["log"] == whole[-SHOWN:] and view["log_length"] == len(whole)

    # Back from the oldest entry the page holds, a page at a time.
    pages, before = [], len(whole) - SHOWN
    while before > 0:
        r = live.client().get(f"/api/games/{game_id}/log", params={"before": before, "limit": 20})
        assert r.status_code == 200, r.text
        documented(r, "GET", "/api/games/{game_id}/log")
        page = r.json()
        assert page["log_length"] == len(whole) and page["before"] == before
        pages = page["entries"] + pages
        before -= len(page["entries"])
    assert pages + view["log"] == whole
    latest = live.client().get(f"/api/games/{game_id}/log").json()
    assert latest["before"] == len(whole) and latest["entries"] == whole[-SHOWN:]

    assert live.client().get(f"/api/games/{game_id}/log?limit=201").status_code == 422
    assert live.client().get(f"/api/games/{game_id}/log?before=-1").status_code == 422
    assert live.client().get("/api/games/nope/log").status_code == 404


def test_a_page_is_made_off_the_event_loop(live, monkeypatch):
    made = []
    real = game_log.encoded_page

    def encoded_page(*args):
        made.append(threading.current_thread())
        return real(*args)

    monkeypatch.setattr(game_log, "encoded_page", encoded_page)
    ana = live.guest("Ana")
    game_id = live.start_game(ana, bots=("random",))
    r = live.client().get(f"/api/games/{game_id}/log", params={"before": 1})
    assert r.status_code == 200 and r.json()["entries"]
    assert [t.name.split("_")[0] for t in made] == ["pages"] and live.thread not in made


def test_a_log_read_after_a_newer_move_keeps_to_the_rows_length(live, database_url):
    """A game's row and its log are read by two statements: a move committed between them must
    not put its lines under the row's older version (its ``log_length``)."""
    ana = live.guest("Ana")
    game_id = live.start_game(ana, bots=("random",))
    state = play_as(live, ana, game_id, random.Random(3), lambda s: s["view"]["log_length"] >= 8)
    length = state["view"]["log_length"]

    async def read(n: int) -> game_log.Tail:
        db = Database(database_url)
        try:
            async with db.session() as session:
                return await game_log.tail(session, None, game_id, n)
        finally:
            await db.dispose()

    older, now = asyncio.run(read(length - 3)), asyncio.run(read(length))
    assert len(now.entries) == length
    assert older.entries == now.entries[:-3]
