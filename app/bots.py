"""Bots on the server: what a bot plays for a seat, thought out in worker processes so that a
bot taking its time never holds up another table. When a bot plays is up to ``app.deadlines``.

A worker gets the game as JSON and answers the move as JSON. A worker that dies or runs past
``BOT_TIMEOUT`` is replaced (``pebble`` kills it) and the turn is thought out once more; if that
fails too, the seat plays a random legal move. Either way the move is committed as any bot move
is, against the version the bot looked at, so a bot never moves twice.
"""

from __future__ import annotations

import asyncio
import logging
import multiprocessing
import os
import random
from collections.abc import Callable
from concurrent.futures import TimeoutError as FutureTimeout
from typing import Any

from pebble import ProcessExpired, ProcessPool

from app import metrics
from app.services.games import Snapshot
from engine.bots import decide, random_bot
from engine.registry import get_game

log = logging.getLogger(__name__)


def choose(
    kind: str, state: Any, seat: int, level: str, seed: str, budget: int | None = None
) -> Any:
    """The move ``level``'s bot makes for ``seat``; ``seed`` seeds its choices, ``budget``
    bounds a searching bot's thinking (``BOT_BUDGET``; None: its own default)."""
    game = get_game(kind)
    legal = game.legal_moves(state, seat)
    rng = random.Random(seed)
    try:
        return decide(game, game.bots[level], state, seat, legal, rng, budget)
    except Exception:
        # A broken bot must not stall the table: fall back to a uniform legal choice.
        log.exception("%s bot of %s failed; playing a random legal move", level, kind)
        return random_bot({}, legal, rng)


def think(
    kind: str, state_json: str, seat: int, level: str, seed: str, budget: int | None = None
) -> dict:
    """``choose`` in a worker process: the game in and the move out as JSON."""
    state = get_game(kind).load_json(state_json)
    return choose(kind, state, seat, level, seed, budget).model_dump(mode="json")


def _turn(snap: Snapshot, seat: int) -> tuple[str, str]:
    """The bot level of ``seat`` (the stand-in when a person sits there) and its seed, which is
    per (game, version, seat): a replayed bot decision is the same decision."""
    level = snap.bot_level(seat) or snap.stand_in()
    return level, f"{snap.seed}/{snap.version}/{seat}"


def bot_move(snap: Snapshot, seat: int, budget: int | None = None) -> Any:
    """The move of ``seat``'s bot at this version, thought out in this process."""
    level, seed = _turn(snap, seat)
    return choose(snap.kind, snap.state, seat, level, seed, budget)


WORKER_NICENESS = 10


def _think_behind() -> None:
    """A worker yields the CPU to the server: a search takes whole cores for as long as its
    budget, and at the server's priority it would hold up every table's moves meanwhile."""
    os.nice(WORKER_NICENESS)


class BotWorkers:
    """``workers`` processes thinking out bot turns (none: in this process, on the event loop),
    started at the first bot turn. ``budget``: the searching bots' (``BOT_BUDGET``)."""

    def __init__(
        self,
        workers: int,
        timeout: float,
        work: Callable[..., dict] = think,
        budget: int | None = None,
    ):
        self.workers = workers
        self.timeout = timeout
        self.budget = budget
        self._work = work
        self._pool: ProcessPool | None = None

    def _pool_now(self) -> ProcessPool:
        if self._pool is None or not self._pool.active:
            # Spawned, not forked: a fork of a running server would copy its threads' locks.
            self._pool = ProcessPool(
                max_workers=self.workers,
                context=multiprocessing.get_context("spawn"),
                initializer=_think_behind,
            )
        return self._pool

    async def move(self, snap: Snapshot, seat: int) -> Any:
        if not self.workers:
            return bot_move(snap, seat, self.budget)
        level, seed = _turn(snap, seat)
        args = (snap.kind, snap.game.dump_json(snap.state), seat, level, seed, self.budget)
        for attempt in (1, 2):
            future = self._pool_now().schedule(self._work, args=args, timeout=self.timeout)
            try:
                return snap.game.parse_move(await asyncio.wrap_future(future))
            except (ProcessExpired, FutureTimeout) as exc:
                why = "ran out of time" if isinstance(exc, FutureTimeout) else "died"
                log.warning("a bot worker %s on game %s (try %d)", why, snap.id, attempt)
        log.error("no bot worker answered for game %s; playing a random legal move", snap.id)
        metrics.note_outcome("fallback")
        return random_bot({}, snap.game.legal_moves(snap.state, seat), random.Random(seed))

    def close(self) -> None:
        if self._pool is not None:
            self._pool.stop()
            self._pool.join(timeout=5)
            self._pool = None
