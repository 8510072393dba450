"""Replays of ended games: what a spectator saw after move k.

An ended game's moves never change, so each instance keeps, for the games replayed lately,
the game as it ended, its move log and the state at every ``EVERY``-th move it has passed: step k is rebuilt from
the checkpoint below it, at most ``EVERY - 1`` moves. A rebuild longer than ``LONG`` moves (the
first look at a long game) runs on a worker thread, so the event loop goes on serving everyone
else meanwhile; the database session is closed before any of it.
"""

from __future__ import annotations

import asyncio
from collections import OrderedDict
from dataclasses import dataclass, field
from typing import Any

from sqlalchemy import bindparam, select
from sqlalchemy.ext.asyncio import AsyncSession

from app.db import Database
from app.models import Game as GameRow
from app.models import Move
from app.services import game_log
from app.services.errors import Problem
from app.services.games import Snapshot, load_snapshot
from app.services.records import ended
from engine.core import BaseState, Event, Game, full_view, log_view, play

EVERY = 16
LONG = 2 * EVERY
# Games whose checkpoints are kept per instance, the least recently replayed dropped first.
KEPT = 32


@dataclass
class Replay:
    """One ended game's moves, its last view, and its states at the checkpoints passed so
    far. Its seats may still be renamed: ``seats_version`` says which names ``snap`` has."""

    snap: Snapshot
    seats_version: int
    moves: list[tuple[int, dict[str, Any]]]
    # The game's whole log: a step's view carries the latest entries up to it.
    entries: list[Event]
    states: dict[int, BaseState] = field(default_factory=dict)

    @property
    def game(self) -> Game:
        return self.snap.game

    def nearest(self, at: int) -> int:
        """The latest checkpoint at or before move ``at``."""
        return max(k for k in self.states if k <= at)

    def rebuild(self, start: int, at: int) -> tuple[BaseState, dict[int, BaseState]]:
        """The state after move ``at``, from the checkpoint ``start``, and the checkpoints
        passed on the way (pure: may run on a worker thread)."""
        state, passed = self.states[start], {}
        for k in range(start + 1, at + 1):
            seat, move = self.moves[k - 1]
            state = play(self.game, state, seat, move)
            if k % EVERY == 0:
                passed[k] = state
        return state, passed


_SEATS_VERSION = select(GameRow.seats_version).where(GameRow.id == bindparam("id"))


class Replays:
    """This instance's replays, by game id."""

    def __init__(self) -> None:
        self._games: OrderedDict[str, Replay] = OrderedDict()

    async def view(self, db: Database, game_id: str, at: int) -> dict[str, Any]:
        """What a spectator saw after move ``at`` (0: the setup) of an ended game. A game
        replayed lately costs one small query (have its seats been renamed?) and no rebuild
        longer than a checkpoint's distance."""
        kept = self._games.get(game_id)
        async with db.session() as session:
            if kept is None or (
                await session.scalar(_SEATS_VERSION, {"id": game_id}) != kept.seats_version
            ):
                kept = await self._load(session, game_id, kept)
        self._games[game_id] = replay = kept
        self._games.move_to_end(game_id)
        while len(self._games) > KEPT:
            self._games.popitem(last=False)
        last = replay.snap.version
        if not 0 <= at <= last:
            raise Problem(422, f"at must be between 0 and {last}.")
        if at == last:
            return replay.snap.view(None)
        start = replay.nearest(at)
        if at - start > LONG:
            state, passed = await asyncio.to_thread(replay.rebuild, start, at)
        else:
            state, passed = replay.rebuild(start, at)
        replay.states.update(passed)
        length = state.logged + len(state.log)
        return full_view(replay.game, state, None) | {
            "table": replay.snap.table(),
            "log_length": length,
            "log": log_view(replay.entries[max(0, length - game_log.SHOWN):length]),
        }

    async def _load(self, session: AsyncSession, game_id: str, kept: Replay | None) -> Replay:
        """The game as stored, keeping what ``kept`` (its replay with older names) had."""
        row = await ended(session, game_id)
        snap = await load_snapshot(session, game_id)
        if kept is not None:
            return Replay(snap, row.seats_version, kept.moves, kept.entries, kept.states)
        found = await session.scalars(
            select(Move).where(Move.game_id == game_id).order_by(Move.seq)
        )
        moves = [(m.seat, m.move) for m in found]
        entries = await game_log.entries(session, game_id)
        setup = snap.game.setup(len(snap.seats), snap.game.options(row.options), row.seed)
        return Replay(snap, row.seats_version, moves, entries, {0: setup})
