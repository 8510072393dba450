"""Bot turns thought out in worker processes (``app.bots.BotWorkers``): the same move as in the
server's own process, the event loop free meanwhile, and a worker that dies or hangs costing
one more try of the turn."""

import asyncio
import functools
import os
import signal
from pathlib import Path
from types import SimpleNamespace

import pytest

from app.bots import WORKER_NICENESS, BotWorkers, bot_move
from app.config import Settings
from engine.registry import GAMES, get_game
from engine.search import DEFAULT_BUDGET
from tests.app import bot_work


# The games with a searching bot, and a budget that keeps a test's search short.
SEARCHING = sorted(kind for kind, game in GAMES.items() if "search" in game.bots)
BUDGET = 400


def snapshot(kind: str = "summer-camp", seed: int = 7, level: str = "heuristic"):
    """What a bot turn reads of a game: a new game of ``kind`` whose seat to act is a bot."""
    game = get_game(kind)
    state = game.setup(2, game.options({}), seed)
    return SimpleNamespace(
        id="g1",
        kind=kind,
        game=game,
        state=state,
        seed=seed,
        version=0,
        bot_level=lambda seat: level,
    )


def seat_to_act(snap) -> int:
    return snap.game.to_act(snap.state)[0]


def notes(path: Path) -> list[int]:
    return [int(pid) for pid in path.read_text().split()] if path.exists() else []


async def wait_for_note(path: Path) -> int:
    while not notes(path):
        await asyncio.sleep(0.05)
    return notes(path)[0]


@pytest.fixture
def workers():
    made = []

    def make(work, timeout: float = 60) -> BotWorkers:
        made.append(BotWorkers(1, timeout, work))
        return made[-1]

    yield make
    for w in made:
        w.close()


@pytest.mark.parametrize("kind", ["summer-camp", "hike", "camping-life", "pinetop"])
async def test_a_worker_process_plays_the_move_the_server_would(kind, workers, tmp_path):
    snap = snapshot(kind)
    seat = seat_to_act(snap)
    path = tmp_path / "notes"
    move = await workers(functools.partial(bot_work.noting, str(path))).move(snap, seat)
    assert move == bot_move(snap, seat)
    assert move in snap.game.legal_moves(snap.state, seat)
    [pid] = notes(path)
    assert pid != os.getpid()


async def test_the_event_loop_runs_on_while_a_bot_thinks(workers, tmp_path):
    path = tmp_path / "notes"
    bots = workers(functools.partial(bot_work.hanging_once, str(path)), timeout=600)
    snap = snapshot()
    thinking = asyncio.create_task(bots.move(snap, seat_to_act(snap)))
    pid = await wait_for_note(path)
    ticks = 0
    for _ in range(10):
        await asyncio.sleep(0.02)
        ticks += 1
    assert ticks == 10 and not thinking.done()
    os.kill(pid, signal.SIGKILL)
    assert await thinking == bot_move(snap, seat_to_act(snap))


async def test_a_worker_killed_mid_thought_costs_one_more_try(workers, tmp_path):
    path = tmp_path / "notes"
    bots = workers(functools.partial(bot_work.hanging_once, str(path)))
    snap = snapshot()
    thinking = asyncio.create_task(bots.move(snap, seat_to_act(snap)))
    os.kill(await wait_for_note(path), signal.SIGKILL)
    assert await thinking == bot_move(snap, seat_to_act(snap))
    first, second = notes(path)
    assert first != second


async def test_a_hung_worker_is_replaced_after_its_time(workers, tmp_path):
    path = tmp_path / "notes"
    bots = workers(functools.partial(bot_work.hanging_once, str(path)), timeout=5)
    snap = snapshot()
    move = await bots.move(snap, seat_to_act(snap))
    assert move == bot_move(snap, seat_to_act(snap))
    hung, answered = notes(path)
    assert hung != answered


async def test_when_no_worker_answers_the_seat_plays_a_legal_move(workers, tmp_path):
    path = tmp_path / "notes"
    bots = workers(functools.partial(bot_work.hanging, str(path)), timeout=2)
    snap = snapshot()
    seat = seat_to_act(snap)
    move = await bots.move(snap, seat)
    assert move in snap.game.legal_moves(snap.state, seat)
    assert len(notes(path)) == 2


async def test_no_workers_think_in_the_servers_process(tmp_path):
    snap = snapshot()
    bots = BotWorkers(0, 10, functools.partial(bot_work.noting, str(tmp_path / "notes")))
    assert await bots.move(snap, seat_to_act(snap)) == bot_move(snap, seat_to_act(snap))
    assert not (tmp_path / "notes").exists() and bots._pool is None


@pytest.fixture(params=SEARCHING[:1] or [None])
def searching(request) -> str:
    if request.param is None:
        pytest.skip("no game has a search level")
    return request.param


async def test_a_search_bot_turn_is_thought_out_by_a_worker_within_the_budget(
    searching, workers, tmp_path
):
    snap = snapshot(searching, level="search")
    seat = seat_to_act(snap)
    path = tmp_path / "notes"
    bots = workers(functools.partial(bot_work.noting, str(path)))
    bots.budget = BUDGET
    move = await bots.move(snap, seat)
    assert move == bot_move(snap, seat, BUDGET)
    assert move in snap.game.legal_moves(snap.state, seat)
    [pid] = notes(path)
    assert pid != os.getpid()


async def test_a_worker_killed_mid_search_still_gives_one_move(searching, workers, tmp_path):
    path = tmp_path / "notes"
    bots = workers(functools.partial(bot_work.searching_once, str(path)))
    bots.budget = BUDGET
    snap = snapshot(searching, level="search")
    seat = seat_to_act(snap)
    thinking = asyncio.create_task(bots.move(snap, seat))
    searcher = await wait_for_note(path)
    # The worker searches (its CPU time grows past its note): the kill lands mid-search.
    noted = _cpu_ticks(searcher)
    while _cpu_ticks(searcher) < noted + 5:
        await asyncio.sleep(0.05)
    os.kill(searcher, signal.SIGKILL)
    assert await thinking == bot_move(snap, seat, BUDGET)
    killed, answered = notes(path)
    assert killed != answered


def _cpu_ticks(pid: int) -> int:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return int(fields[11]) + int(fields[12])


async def test_the_budget_setting_reaches_the_bot_through_engine_bots_decide(monkeypatch):
    asked = []

    def decide(game, bot, state, seat, legal, rng, budget=None):
        asked.append(budget)
        return legal[0]

    monkeypatch.setattr("app.bots.decide", decide)
    snap = snapshot()
    await BotWorkers(0, 10, budget=123).move(snap, seat_to_act(snap))
    assert asked == [123]


def test_bot_budget_is_a_setting_whose_default_is_the_searchs(monkeypatch):
    assert Settings().BOT_BUDGET == DEFAULT_BUDGET
    monkeypatch.setenv("BOT_BUDGET", "77")
    assert Settings().BOT_BUDGET == 77


async def test_a_worker_thinks_at_a_lower_priority_than_the_server(workers):
    future = workers(bot_work.niceness)._pool_now().schedule(bot_work.niceness)
    # Niceness stops at 19, where a server already run nicely may be close.
    expected = min(19, os.nice(0) + WORKER_NICENESS)
    assert (await asyncio.wrap_future(future))["niceness"] == expected > os.nice(0)
