"""Helpers for tests of ratings: a rater's stored rating, tables played until every seat has
made a few moves, and games ended by hand (their outcome written as the engine would) and
rated by the same code as a game's end."""

from __future__ import annotations

import asyncio
import random
from datetime import datetime
from typing import Any

from sqlalchemy import text, update

from app.db import Database
from app.models import Game, now
from app.services import ratings
from app.services.clock import Clock


def execute(database_url: str, statement: str, **params: Any) -> None:
    """Run one statement that writes on the test database, committed."""

    async def run() -> None:
        db = Database(database_url)
        try:
            async with db.writing() as session:
                await session.execute(text(statement), params)
        finally:
            await db.dispose()

    asyncio.run(run())


def rating(sql, kind: str, rater: str) -> tuple[float, float, int] | None:
    """(mu, sigma, games) of ``rater`` in game ``kind``; None while it has none."""
    found = sql(
        "select mu, sigma, games from ratings where game = :g and rater = :r", g=kind, r=rater
    )
    return found[0] if found else None


def points(sql, kind: str, rater: str) -> int:
    held = rating(sql, kind, rater)
    return ratings.points(held[0] if held else ratings.MU)


def moves_by_seat(live, game_id: str) -> dict[int, int]:
    made: dict[int, int] = {}
    for move in live.admin().get(f"/api/admin/games/{game_id}/moves").json():
        made[move["seat"]] = made.get(move["seat"], 0) + 1
    return made


def played(live, game_id: str, people: dict[int, Any], moves: int, seed: int = 1) -> None:
    """Random legal moves for ``people`` (seat: client) until every seat of the game has made
    ``moves`` moves (bots move by themselves)."""
    rng = random.Random(seed)
    seats = len(live.state(next(iter(people.values())), game_id)["view"]["table"]["seats"])
    while min(moves_by_seat(live, game_id).get(seat, 0) for seat in range(seats)) < moves:
        for seat, client in people.items():
            state = live.state(client, game_id)
            if seat in state["view"]["to_act"] and state["view"]["legal_moves"]:
                move = rng.choice(state["view"]["legal_moves"])["move"]
                r = client.post(
                    f"/api/games/{game_id}/moves",
                    json={"move": move, "expect_version": state["version"]},
                )
                assert r.status_code in (200, 409), r.text  # 409: a bot moved first


def finish(
    database_url: str,
    game_id: str,
    winners: list[int],
    scores: list[int],
    away: dict[int, datetime] | None = None,
) -> bool:
    """End ``game_id`` with this outcome, as a last move would, and rate it in the same
    transaction; ``away``: the seats whose person was away since then, to the end (the bot
    played them). Returns whether it was rated."""

    async def run() -> bool:
        db = Database(database_url)
        try:
            async with db.writing() as session:
                at = now()
                values = {
                    "status": "finished",
                    "finished_at": at,
                    "updated_at": at,
                    "due_at": None,
                    "outcome": {"winners": winners, "scores": scores, "details": {}},
                }
                if away:
                    values["clock"] = Clock(away=away).dump()
                await session.execute(
                    update(Game)
                    .where(Game.id == game_id, Game.status == "active")
                    .values(**values)
                    .execution_options(synchronize_session=False)
                )
                return bool(await ratings.game_ended(session, game_id))
        finally:
            await db.dispose()

    return asyncio.run(run())


def won(
    live,
    database_url: str,
    winner,
    *others,
    bots: tuple[str, ...] = (),
    game: str = "hike",
    place: int = 0,
) -> str:
    """A rated game of ``winner`` (seat 0), ``others`` and ``bots``, ended with seat
    ``place`` first and the other seats after it in seat order."""
    game_id = live.start_game(winner, *others, bots=bots, game=game)
    seats = 1 + len(others) + len(bots)
    order = [place] + [s for s in range(seats) if s != place]
    scores = [0] * seats
    for rank, seat in enumerate(order):
        scores[seat] = seats - rank
    finish(database_url, game_id, [place], scores)
    return game_id
