"""Replays of ended games: what a spectator saw after move k.

An ended game's moves never change, so each instance keeps, for the games replayed lately,
the game as it ended, its move log and the state at every ``EVERY``-th move it has passed: step k is rebuilt from
the checkpoint below it, at most ``EVERY - 1`` moves. The rebuild, the view and its JSON are
made on a thread of their own (the whole game on a first look), so that the event loop goes on
serving everyone else meanwhile; the database session is closed before any of it.
"""

from __future__ import annotations

import asyncio
from collections import OrderedDict
from collections.abc import Callable
from concurrent.futures import Executor
from dataclasses import dataclass, field
from typing import Any, TypeVar

import orjson

from sqlalchemy import bindparam, select
from sqlalchemy.ext.asyncio import AsyncSession

from app.db import Database
from app.models import Game as GameRow
from app.models import Move
from app.services import game_log
from app.services.errors import Problem
from app.services.game_loading import load_snapshot
from app.services.games import CONCEDED, Snapshot
from app.services.records import ended
from engine import concession
from engine.core import BaseState, Event, Game, full_view, log_view, play

T = TypeVar("T")

EVERY = 16
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
    # Where concessions wrote their lines, counted in the moves' lines before each: the
    # states rebuilt from the moves alone do not count them.
    conceded_at: list[int] = field(default_factory=list)

    @property
    def game(self) -> Game:
        return self.snap.game

    def nearest(self, at: int) -> int:
        """The latest checkpoint at or before move ``at``."""
        return max(k for k in self.states if k <= at)

    def numbered(self, n: int) -> int:
        """The number in the game's log of the moves' line ``n`` (or of the line after them)."""
        return n + sum(1 for at in self.conceded_at if at <= n)

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
    """This instance's replays, by game id. Steps are rebuilt, viewed and encoded on
    ``pages`` (a thread of their own; the event loop's default executor without one)."""

    def __init__(self, pages: Executor | None = None) -> None:
        self._games: OrderedDict[str, Replay] = OrderedDict()
        self._pages = pages

    async def view(self, db: Database, game_id: str, at: int) -> dict[str, Any]:
        """What a spectator saw after move ``at`` (0: the setup) of an ended game."""
        replay = await self._replay(db, game_id, at)
        return await self._off_loop(_step, replay, at)

    async def page(self, db: Database, game_id: str, at: int) -> bytes:
        """The same as ``GameState`` JSON, the replay route's whole answer."""
        replay = await self._replay(db, game_id, at)

        def encoded() -> bytes:
            return orjson.dumps({"game_id": game_id, "version": at, "view": _step(replay, at)})

        return await self._off_loop(encoded)

    async def _off_loop(self, build: Callable[..., T], *args: Any) -> T:
        return await asyncio.get_running_loop().run_in_executor(self._pages, build, *args)

    async def _replay(self, db: Database, game_id: str, at: int) -> Replay:
        """The game's replay, checked to have a step ``at``. A game replayed lately costs one
        small query (have its seats been renamed?)."""
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
        return replay

    async def _load(self, session: AsyncSession, game_id: str, kept: Replay | None) -> Replay:
        """The game as stored, keeping what ``kept`` (its replay with older names) had."""
        row = await ended(session, game_id)
        snap = await load_snapshot(session, game_id)
        if kept is not None:
            return Replay(
                snap, row.seats_version, kept.moves, kept.entries, kept.states, kept.conceded_at
            )
        found = await session.scalars(
            select(Move).where(Move.game_id == game_id).order_by(Move.seq)
        )
        moves = [(m.seat, m.move) for m in found]
        entries = await game_log.entries(session, game_id)
        setup = snap.game.setup(len(snap.seats), snap.game.options(row.options), row.seed)
        return Replay(
            snap, row.seats_version, moves, entries, {0: setup}, _conceded_at(snap, entries)
        )


def _step(replay: Replay, at: int) -> dict[str, Any]:
    """The spectator's view after move ``at``: at most a checkpoint's distance rebuilt, the
    whole game the first time. Runs on the pages' thread, one step at a time."""
    if at == replay.snap.version:
        return replay.snap.view(None)
    state, passed = replay.rebuild(replay.nearest(at), at)
    replay.states.update(passed)
    length = replay.numbered(state.logged + len(state.log))
    last = state.last_decision
    return full_view(replay.game, state, None) | {
        "table": replay.snap.table(),
        "last_decision": None if last is None else replay.numbered(last),
        "log_length": length,
        "log": log_view(replay.entries[max(0, length - game_log.SHOWN) : length]),
    }


def _conceded_at(snap: Snapshot, entries: list[Event]) -> list[int]:
    """Where each concession's line stands among the moves' lines (``Replay.conceded_at``)."""
    lines = {
        concession.line(snap.game, seat, played_on=played_on)
        for seat, why in snap.stand_ins.items()
        if why == CONCEDED
        for played_on in (True, False)
    }
    found = [n for n, entry in enumerate(entries) if entry in lines]
    return [n - before for before, n in enumerate(found)]
