"""A person's seat played by the bot: for good after a concession (or an admin's suspension),
or while the person is away until they take it back."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import insert, update

from app.db import Database, RawJSON
from app.models import Game, LogEntry, now
from app.notices import outbox
from app.services import clock, game_log, ratings, speeds
from app.services.clock import Clock, Timing
from app.services.errors import Problem
from app.services.games import CONCEDED, conceded_outcome, people, seat_bots, stand_ins
from engine.concession import conceded
from engine.registry import get_game


async def concede(
    db: Database, game_id: str, seat: int, players: int, *, timing: Timing, why: str = CONCEDED
) -> tuple[int, datetime | None]:
    """``seat`` gives up: with two players the other wins now; with more, the bot plays the
    seat to the end and it is ranked last. Returns the game's version and next ``due_at``.
    ``why``: SUSPENDED when an admin takes the seat from its person, whom the bot then
    replaces to the end whatever the number of players."""
    async with db.writing() as session:
        row = await session.get(Game, game_id, populate_existing=True, with_for_update=True)
        if row is None:
            raise Problem(404, "No such game.")
        if row.status != "active":
            raise Problem(409, f"The game is already {row.status}.")
        standing = stand_ins(row.stand_ins)
        if standing.get(seat) == CONCEDED:
            raise Problem(409, "You have already conceded this game.")
        if seat in standing:
            raise Problem(409, "The bot already plays this seat for good.")
        standing[seat] = why
        at = now()
        # The seat is the bot's for good: no deadline, not away, no longer a person at the table.
        held = Clock.load(row.clock)
        left = Clock(
            {s: t for s, t in held.deadlines.items() if s != seat},
            {s: t for s, t in held.away.items() if s != seat},
            {s: b for s, b in held.banks.items() if s != seat},
            {s: t for s, t in held.since.items() if s != seat},
        )
        game = get_game(row.kind)
        state = game.load(row.state)
        acting = game.to_act(state)
        seated = await outbox.seating(session, game_id)
        seat_people = people({s: bot for s, (bot, _) in seated.items()}, standing)
        values: dict[str, Any] = {
            "stand_ins": {str(s): why for s, why in sorted(standing.items())},
            "updated_at": at,
            "clock": left.dump(),
            "away_since": left.away_since(),
            "due_at": clock.due_at(left, acting, seat_people, timing, at),
        }
        ends = players == 2 and why == CONCEDED
        if ends:
            values |= {
                "status": "finished",
                "outcome": conceded_outcome(players, seat),
                "finished_at": at,
                "due_at": None,
            }
        if why == CONCEDED and row.rated and row.unrated_because is None:
            early = await ratings.conceded_early(session, game_id, seat, players)
            if early is not None:
                values["unrated_because"] = early
        if why == CONCEDED:
            # Everyone reads it in the log, numbered after the moves before it.
            told = conceded(game, state, seat, played_on=not ends)
            values |= {
                "state": RawJSON(game.dump_json(told)),
                "log_length": row.log_length + len(told.log),
            }
            await session.execute(
                insert(LogEntry), game_log.rows(game_id, row.log_length, told.log)
            )
        await session.execute(
            update(Game)
            .where(Game.id == game_id, Game.status == "active")
            .values(**values)
            .execution_options(synchronize_session=False)
        )
        if "outcome" in values:
            await ratings.game_ended(session, game_id)
            # The other person hears of the end off the site, as after a game's last move.
            ended = outbox.of_move(
                [], [], seat_people, [], {s: p for s, (_, p) in seated.items()}, seat, True
            )
            await outbox.add(session, game_id, ended, at=at)
        return row.version, values["due_at"]


async def come_back(
    db: Database, game_id: str, seat: int, *, timing: Timing
) -> tuple[int, datetime | None] | None:
    """``seat``'s person takes the seat back from the bot. Returns the game's version and its
    new ``due_at``, or None when the seat was not away (nothing changes). It sets
    ``updated_at``, so a bot move chosen before it no longer commits."""
    async with db.writing() as session:
        row = await session.get(Game, game_id, populate_existing=True, with_for_update=True)
        if row is None:
            raise Problem(404, "No such game.")
        held = Clock.load(row.clock)
        if row.status != "active" or seat not in held.away:
            return None
        at = now()
        game = get_game(row.kind)
        acting = game.to_act(game.load(row.state))
        seat_people = people(await seat_bots(session, game_id), stand_ins(row.stand_ins))
        bank = speeds.table_clock(row.speed, row.turn_seconds).bank
        returned = clock.back(held, seat, acting, bank, at)
        due = clock.due_at(returned, acting, seat_people, timing, at)
        await session.execute(
            update(Game)
            .where(Game.id == game_id, Game.version == row.version)
            .values(
                clock=returned.dump(), away_since=returned.away_since(), due_at=due, updated_at=at
            )
            .execution_options(synchronize_session=False)
        )
        return row.version, due
