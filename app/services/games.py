"""Games: start one from a lobby, load it, commit a move (one transaction), replay it."""

from __future__ import annotations

import hashlib
import secrets
import uuid
from dataclasses import dataclass, field
from typing import Any

from sqlalchemy import select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncSession

from app import names
from app.db import Database, storable
from app.models import Game, Lobby, Move, Player, Seat, now
from app.services.errors import Problem, StaleVersion
from engine.core import BaseState, IllegalMove, Outcome, full_view, play
from engine.core import Game as GameKind
from engine.registry import get_game


def new_id() -> str:
    return uuid.uuid4().hex


def commitment(seed: int) -> str:
    return hashlib.sha256(str(seed).encode()).hexdigest()


def bot_name(level: str) -> str:
    return f"{level.capitalize()} bot"


# Why a person's seat is played by the bot (``Game.stand_ins``): for good after a concession.
CONCEDED = "conceded"


def stand_in_level(game: GameKind) -> str:
    """The bot that plays a seat for a person: the heuristic one wherever the game has it."""
    return "heuristic" if "heuristic" in game.bots else next(iter(game.bots))


def stand_ins(row: Game) -> dict[int, str]:
    return {int(seat): why for seat, why in (row.stand_ins or {}).items()}


def final_outcome(outcome: Outcome, stand_ins: dict[int, str]) -> dict[str, Any]:
    """The engine's outcome, with seats that conceded ranked last: they never win, and
    ``conceded`` lists them."""
    result = outcome.model_dump(mode="json")
    conceded = sorted(seat for seat, why in stand_ins.items() if why == CONCEDED)
    if not conceded:
        return result
    winners = [seat for seat in outcome.winners if seat not in conceded]
    rest = [seat for seat in range(len(outcome.scores)) if seat not in conceded]
    if not winners and rest:
        best = max(outcome.scores[seat] for seat in rest)
        winners = [seat for seat in rest if outcome.scores[seat] == best]
    return result | {"winners": winners or outcome.winners, "conceded": conceded}


def conceded_outcome(players: int, seat: int) -> dict[str, Any]:
    """A two-player game that ``seat`` gave up: the other seat wins, nobody is scored."""
    others = [other for other in range(players) if other != seat]
    return {"scores": [], "winners": others, "details": {}, "conceded": [seat],
            "ended_by": "concession"}


@dataclass(frozen=True)
class TableSeat:
    seat: int
    player_id: str | None
    name: str
    bot: str | None


@dataclass
class Snapshot:
    """A game as stored at one version, with its seats: everything a view needs."""

    id: str
    kind: str
    game: GameKind
    version: int
    status: str
    seed: int
    seed_commitment: str
    state: BaseState
    seats: list[TableSeat]
    stand_ins: dict[int, str] = field(default_factory=dict)
    outcome: dict[str, Any] | None = None
    rematch_lobby_id: str | None = None

    def seat_of(self, player_id: str | None) -> int | None:
        if player_id is None:
            return None
        return next((s.seat for s in self.seats if s.player_id == player_id), None)

    def bot_level(self, seat: int) -> str | None:
        """The bot that plays ``seat``: its own, or the stand-in for a person who left it."""
        if seat in self.stand_ins:
            return stand_in_level(self.game)
        return next((s.bot for s in self.seats if s.seat == seat), None)

    def bot_seats_to_act(self) -> list[int]:
        if self.status != "active":
            return []
        return [seat for seat in self.game.to_act(self.state) if self.bot_level(seat)]

    def table(self) -> dict[str, Any]:
        return {
            "game_id": self.id,
            "kind": self.kind,
            "title": self.game.title,
            "status": self.status,
            "seats": [
                {
                    "seat": s.seat,
                    "name": s.name,
                    "bot": s.bot,
                    "conceded": self.stand_ins.get(s.seat) == CONCEDED,
                }
                for s in self.seats
            ],
            "rematch_lobby_id": self.rematch_lobby_id,
            "seed_commitment": self.seed_commitment,
            # Revealed once nothing can change any more, so anyone can replay and check.
            "seed": self.seed if self.status != "active" else None,
        }

    def view(self, seat: int | None) -> dict[str, Any]:
        """What ``seat`` may see (``None``: a spectator): the engine's projection plus the table."""
        view = full_view(self.game, self.state, seat) | {"table": self.table()}
        if self.status != "active":
            # Nobody acts in an ended game, and the stored outcome is the final word (a game
            # can end by concession, which the engine knows nothing of).
            view |= {"to_act": [], "legal_moves": [], "outcome": self.outcome}
        return view


async def table_seats(session: AsyncSession, lobby_id: str) -> list[TableSeat]:
    rows = await session.execute(
        select(Seat, Player.name)
        .outerjoin(Player, Seat.player_id == Player.id)
        .where(Seat.lobby_id == lobby_id)
        .order_by(Seat.seat)
    )
    found = rows.all()
    shown = names.distinct([name or bot_name(s.bot_level or "") for s, name in found])
    return [
        TableSeat(s.seat, s.player_id, name, s.bot_level) for (s, _), name in zip(found, shown)
    ]


SeatsCache = dict[str, tuple[int, list[TableSeat]]]


async def load_snapshot(
    session: AsyncSession, game_id: str, seats_cache: SeatsCache | None = None
) -> Snapshot:
    """The game as stored now. A game's seats only change with ``seats_version`` (a rename),
    so a caller may keep them in ``seats_cache`` and save two queries per load."""
    row = await session.get(Game, game_id, populate_existing=True) if storable(game_id) else None
    if row is None:
        raise Problem(404, "No such game.")
    cached = seats_cache.get(game_id) if seats_cache is not None else None
    if cached is not None and cached[0] == row.seats_version:
        seats = cached[1]
    else:
        lobby_id = await session.scalar(select(Lobby.id).where(Lobby.game_id == game_id))
        seats = await table_seats(session, lobby_id) if lobby_id else []
        if seats_cache is not None:
            seats_cache[game_id] = (row.seats_version, seats)
    game = get_game(row.kind)
    return Snapshot(
        id=row.id,
        kind=row.kind,
        game=game,
        version=row.version,
        status=row.status,
        seed=row.seed,
        seed_commitment=row.seed_commitment,
        state=game.load(row.state),
        seats=seats,
        stand_ins=stand_ins(row),
        outcome=row.outcome,
        rematch_lobby_id=row.rematch_lobby_id,
    )


def new_seed() -> int:
    """A fresh secret seed: every shuffle of the game and who starts come from it."""
    return secrets.randbits(63)


def create_game(session: AsyncSession, lobby: Lobby) -> Game:
    """A new game for a full lobby, in the caller's transaction. The seed stays secret."""
    game = get_game(lobby.game)
    seed = new_seed()
    state = game.setup(lobby.seat_count, game.options(lobby.options), seed)
    row = Game(
        id=new_id(),
        kind=game.id,
        options=lobby.options,
        seed_commitment=commitment(seed),
        seed=seed,
        state=game.dump(state),
        version=0,
        status="active",
    )
    session.add(row)
    return row


@dataclass(frozen=True)
class Committed:
    kind: str
    version: int
    state: BaseState
    status: str
    stand_ins: dict[int, str]
    outcome: dict[str, Any] | None


async def commit_move(
    db: Database, game_id: str, seat: int, move: Any, expect_version: int, *,
    stand_in: bool = False,
) -> Committed:
    """Apply one move for ``seat`` in one transaction; returns the new version and state.
    ``stand_in``: the bot moves for the seat's person, which it may only while it stands in.

    Raises ``StaleVersion`` when ``expect_version`` is not the current version (or another
    writer won the race) and ``IllegalMove`` when the engine refuses the move; in both cases
    nothing is written.
    """
    async with db.writing() as session:
        row = await session.get(Game, game_id, populate_existing=True)
        if row is None:
            raise Problem(404, "No such game.")
        if row.status == "aborted":
            raise IllegalMove("The game was aborted.")
        standing = stand_ins(row)
        if not stand_in and standing.get(seat) == CONCEDED:
            raise IllegalMove("You conceded this game: the bot plays your seat now.")
        if row.version != expect_version or (stand_in and seat not in standing):
            raise StaleVersion(row.version)
        game = get_game(row.kind)
        parsed = game.parse_move(move) if isinstance(move, dict) else move
        state = play(game, game.load(row.state), seat, parsed)
        version = row.version + 1
        record = parsed.model_dump(mode="json")
        session.add(Move(game_id=game_id, seq=version, seat=seat, move=record))
        try:
            await session.flush()
        except IntegrityError:
            raise StaleVersion(version) from None
        values: dict[str, Any] = {"state": game.dump(state), "version": version}
        values["updated_at"] = now()
        outcome = game.outcome(state)
        status = "active" if outcome is None else "finished"
        if outcome is not None:
            values |= {"status": status, "outcome": final_outcome(outcome, standing)}
            values["finished_at"] = now()
        result = await session.execute(
            update(Game)
            .where(Game.id == game_id, Game.version == row.version, Game.status == "active")
            .values(**values)
            .execution_options(synchronize_session=False)
        )
        if result.rowcount != 1:
            # Another writer won, or an admin aborted the game meanwhile.
            now_status = await session.scalar(select(Game.status).where(Game.id == game_id))
            if now_status == "aborted":
                raise IllegalMove("The game was aborted.")
            raise StaleVersion(version)
        return Committed(row.kind, version, state, status, standing, values.get("outcome"))


async def concede(db: Database, game_id: str, seat: int, players: int) -> int:
    """``seat`` gives up: with two players the other wins now; with more, the bot plays the
    seat to the end and it is ranked last. Returns the game's version."""
    async with db.writing() as session:
        row = await session.get(Game, game_id, populate_existing=True, with_for_update=True)
        if row is None:
            raise Problem(404, "No such game.")
        if row.status != "active":
            raise Problem(409, f"The game is already {row.status}.")
        standing = stand_ins(row)
        if standing.get(seat) == CONCEDED:
            raise Problem(409, "You have already conceded this game.")
        standing[seat] = CONCEDED
        values: dict[str, Any] = {
            "stand_ins": {str(s): why for s, why in sorted(standing.items())},
            "updated_at": now(),
        }
        if players == 2:
            values |= {"status": "finished", "outcome": conceded_outcome(players, seat),
                       "finished_at": now()}
        await session.execute(
            update(Game)
            .where(Game.id == game_id, Game.status == "active")
            .values(**values)
            .execution_options(synchronize_session=False)
        )
        return row.version


async def replay(session: AsyncSession, game_id: str, at: int) -> dict[str, Any]:
    """The state after move ``at``, rebuilt from the seed and the move log alone."""
    row = await session.get(Game, game_id) if storable(game_id) else None
    if row is None:
        raise Problem(404, "No such game.")
    if not 0 <= at <= row.version:
        raise Problem(422, f"at must be between 0 and {row.version}.")
    game = get_game(row.kind)
    players = await session.scalar(select(Lobby.seat_count).where(Lobby.game_id == game_id))
    state = game.setup(players, game.options(row.options), row.seed)
    moves = await session.scalars(
        select(Move).where(Move.game_id == game_id, Move.seq <= at).order_by(Move.seq)
    )
    for m in moves:
        state = play(game, state, m.seat, m.move)
    return game.dump(state)
