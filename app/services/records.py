"""A finished game's record: exported as one document, and verified (replays move by move are
``app.services.replays``).

The record holds everything needed to rebuild the game with the engine alone: the game kind,
its options, the number of players, the seed (revealed once the game is over), the published
commitment to it, the move log, and the final outcome with any seats that conceded.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from typing import Any

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession

from app.db import storable
from app.models import Game, Lobby, Move
from app.services.errors import Problem
from app.services.games import CONCEDED, conceded_outcome, final_outcome
from engine.core import IllegalMove, play
from engine.registry import GAMES, get_game

FORMAT = "campground-game/1"


async def ended(session: AsyncSession, game_id: str) -> Game:
    """The game's row, once it has ended (finished or aborted)."""
    row = await session.get(Game, game_id) if storable(game_id) else None
    if row is None:
        raise Problem(404, "No such game.")
    if row.status == "active":
        raise Problem(409, "The game is still being played: its record opens when it ends.")
    return row


async def export(session: AsyncSession, game_id: str) -> dict[str, Any]:
    """The whole record of an ended game, as one JSON-ready document."""
    row = await ended(session, game_id)
    players = await session.scalar(select(Lobby.seat_count).where(Lobby.game_id == game_id))
    moves = await session.scalars(select(Move).where(Move.game_id == game_id).order_by(Move.seq))
    return {
        "format": FORMAT,
        "game_id": row.id,
        "kind": row.kind,
        "options": row.options,
        "players": players,
        "status": row.status,
        # Text: a 64-bit seed read by a browser as a JSON number loses digits.
        "seed": str(row.seed),
        "seed_commitment": row.seed_commitment,
        "stand_ins": row.stand_ins or {},
        "moves": [{"seq": m.seq, "seat": m.seat, "move": m.move} for m in moves],
        "outcome": row.outcome,
    }


async def state_at(session: AsyncSession, game_id: str, at: int) -> dict[str, Any]:
    """The state after move ``at`` of any game (the admin's), rebuilt from the seed and the
    move log alone: the live game, as stored."""
    row = await session.get(Game, game_id) if storable(game_id) else None
    if row is None:
        raise Problem(404, "No such game.")
    if not 0 <= at <= row.version:
        raise Problem(422, f"at must be between 0 and {row.version}.")
    game = get_game(row.kind)
    players = (
        await session.execute(select(Lobby.seat_count).where(Lobby.game_id == game_id))
    ).scalar_one()
    state = game.setup(players, game.options(row.options), row.seed)
    moves = await session.scalars(
        select(Move).where(Move.game_id == game_id, Move.seq <= at).order_by(Move.seq)
    )
    for m in moves:
        state = play(game, state, m.seat, m.move)
    return game.dump(state)


@dataclass
class Verdict:
    ok: bool
    message: str


def verify(record: dict[str, Any]) -> Verdict:
    """Rebuild the game from its record and check it: the seed matches the commitment, every
    move was legal when made, and the moves lead to the recorded outcome."""
    try:
        kind = record["kind"]
        seed = int(record["seed"])
        commitment = str(record["seed_commitment"])
        players = int(record["players"])
        moves = list(record["moves"])
        outcome = record.get("outcome")
        stand_ins = {int(s): why for s, why in (record.get("stand_ins") or {}).items()}
    except (KeyError, TypeError, ValueError) as exc:
        return Verdict(False, f"Not a game record: {exc!r} is missing or malformed.")
    if kind not in GAMES:
        return Verdict(False, f"Unknown game kind {kind!r}.")
    game = get_game(kind)
    if hashlib.sha256(str(seed).encode()).hexdigest() != commitment:
        return Verdict(
            False,
            "The seed does not match the commitment published at the start: "
            f"sha256({seed}) is not {commitment}.",
        )
    try:
        state = game.setup(players, game.options(record.get("options")), seed)
    except IllegalMove as exc:
        return Verdict(False, f"The game cannot be set up: {exc.reason}")
    for k, entry in enumerate(moves, start=1):
        if entry.get("seq") != k:
            return Verdict(False, f"Move {k} is missing: the log jumps to seq {entry.get('seq')}.")
        try:
            state = play(game, state, int(entry["seat"]), entry["move"])
        except IllegalMove as exc:
            return Verdict(False, f"Move {k} by seat {entry['seat']} was not legal: {exc.reason}")
    ended = game.outcome(state)
    conceded = [seat for seat, why in stand_ins.items() if why == CONCEDED]
    if ended is not None:
        expected = final_outcome(ended, stand_ins)
    elif record.get("status") == "finished" and len(conceded) == 1 and players == 2:
        expected = conceded_outcome(players, conceded[0])
    else:
        expected = None
    if record.get("status") == "aborted" and ended is None:
        return Verdict(
            True,
            f"Fair: the seed matches its commitment and all {len(moves)} moves "
            "were legal; the game was aborted before its end.",
        )
    if expected != outcome:
        return Verdict(
            False,
            "The moves do not lead to the recorded outcome: replaying them "
            f"gives {expected}, the record says {outcome}.",
        )
    winners = ", ".join(f"seat {w}" for w in (outcome or {}).get("winners", [])) or "nobody"
    return Verdict(
        True,
        f"Fair: the seed matches its commitment, all {len(moves)} moves were "
        f"legal, and they lead to the recorded outcome (won by {winners}).",
    )
