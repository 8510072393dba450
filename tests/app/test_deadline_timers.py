"""The timers an instance sets for the deadlines of the games it changes."""

from __future__ import annotations

import asyncio
import time
from datetime import timedelta

from app.bots import BotWorkers
from app.deadlines import Deadlines
from app.models import now


def timers() -> tuple[Deadlines, list[tuple[str, float]]]:
    """Deadlines whose wake-ups are recorded (with when they came) instead of acted on."""
    deadlines = Deadlines(db=None, table=None, poll=0, bots=BotWorkers(0, 1))
    woken: list[tuple[str, float]] = []
    deadlines._wake = lambda game_id: woken.append((game_id, time.monotonic()))
    return deadlines, woken


async def test_a_deadline_put_off_by_moves_wakes_once_at_its_new_time():
    deadlines, woken = timers()
    started = time.monotonic()
    deadlines.schedule("g1", now() + timedelta(seconds=0.2))
    # Moves put the deadline off; the timer set first fires, finds it later and waits on.
    deadlines.schedule("g1", now() + timedelta(seconds=0.4))
    deadlines.schedule("g1", now() + timedelta(seconds=0.6))
    await asyncio.sleep(0.45)
    assert woken == []
    await asyncio.sleep(0.5)
    assert [game for game, _ in woken] == ["g1"]
    assert woken[0][1] - started >= 0.55


async def test_an_earlier_deadline_wakes_at_its_time():
    deadlines, woken = timers()
    started = time.monotonic()
    deadlines.schedule("g1", now() + timedelta(seconds=5))
    deadlines.schedule("g1", now() + timedelta(seconds=0.1))
    await asyncio.sleep(0.5)
    assert [game for game, _ in woken] == ["g1"]
    assert woken[0][1] - started < 1
    await deadlines.close()


async def test_a_game_without_a_deadline_is_not_woken():
    deadlines, woken = timers()
    deadlines.schedule("g1", now() + timedelta(seconds=0.1))
    deadlines.schedule("g2", now() + timedelta(seconds=0.1))
    deadlines.schedule("g1", None)
    await asyncio.sleep(0.4)
    assert [game for game, _ in woken] == ["g2"]
    assert deadlines._timers == {} and deadlines._due == {}
