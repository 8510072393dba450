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

from app.bots import BotWorkers, bot_move
from engine.registry import get_game
from tests.app import bot_work


def snapshot(kind: str = "summer-camp", seed: int = 7):
    """What a bot turn reads of a game: a new game of ``kind`` whose seat to act is a bot."""
    game = get_game(kind)
    state = game.setup(2, game.options({}), seed)
    return SimpleNamespace(
        id="g1", kind=kind, game=game, state=state, seed=seed, version=0,
        bot_level=lambda seat: "heuristic",
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
