"""Games: start one from a lobby, load it, concede, come back, abort it. A move's
commit is ``app.services.commit``."""

from __future__ import annotations

import dataclasses
import hashlib
import logging
import secrets
import uuid
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from sqlalchemy import Text, bindparam, cast, select, update
from sqlalchemy.ext.asyncio import AsyncSession

from app import names
from app.db import Database, RawJSON, for_asyncpg, storable
from app.models import Game, Lobby, Player, Seat, now
from app.services import clock, game_log, ratings
from app.services.clock import Clock, Timing
from app.services.errors import Problem
from engine import levels
from engine.core import BaseState, Event, Outcome, full_view
from engine.core import Game as GameKind
from engine.registry import get_game

log = logging.getLogger(__name__)


def new_id() -> str:
    return uuid.uuid4().hex


def commitment(seed: int) -> str:
    return hashlib.sha256(str(seed).encode()).hexdigest()


def bot_name(level_id: str) -> str:
    """A bot's name at the table and on leaderboards: "Expert bot"."""
    return f"{levels.level(level_id).name} bot"


# Why a person's seat is played by the bot (``Game.stand_ins``): for good after a concession,
# or after an admin suspended the person.
CONCEDED = "conceded"
SUSPENDED = "suspended"


def stand_in_level(game: GameKind, chosen: str | None = None) -> str:
    """The bot that plays a seat for a person: the host's choice, else the heuristic one
    wherever the game has it."""
    if chosen in game.bots:
        return chosen
    return "heuristic" if "heuristic" in game.bots else next(iter(game.bots))


def stand_ins(stored: dict[str, str] | None) -> dict[int, str]:
    """``Game.stand_ins`` as stored (keys are JSON text) by seat."""
    return {int(seat): why for seat, why in (stored or {}).items()}


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
    handle: str | None = None
    # The seat's rating in this game (``ratings.shown``): for signed-in players and bots.
    rating: dict[str, Any] | None = None


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
    updated_at: datetime | None = None
    turn_seconds: int | None = None
    clock: Clock = field(default_factory=Clock)
    options: dict[str, Any] = field(default_factory=dict)
    chosen_stand_in: str | None = None  # the host's stand-in level (``stand_in_level``)
    log: game_log.Tail = field(default_factory=game_log.Tail)
    _table: dict[str, Any] | None = field(default=None, init=False, repr=False, compare=False)

    def seat_of(self, player_id: str | None) -> int | None:
        if player_id is None:
            return None
        return next((s.seat for s in self.seats if s.player_id == player_id), None)

    def bot_level(self, seat: int) -> str | None:
        """The bot that plays ``seat``: its own, or the stand-in for a person who left it
        (conceded) or is away."""
        if seat in self.stand_ins or seat in self.clock.away:
            return self.stand_in()
        return next((s.bot for s in self.seats if s.seat == seat), None)

    def stand_in(self) -> str:
        return stand_in_level(self.game, self.chosen_stand_in)

    def people(self) -> set[int]:
        return people({s.seat: s.bot for s in self.seats}, self.stand_ins)

    def due(self, now: datetime, timing: Timing) -> clock.Due | None:
        if self.status != "active":
            return None
        acting = self.game.to_act(self.state)
        return clock.what_is_due(self.clock, acting, self.people(), timing, now)

    def next_due(self, now: datetime, timing: Timing) -> datetime | None:
        if self.status != "active":
            return None
        acting = self.game.to_act(self.state)
        return clock.due_at(self.clock, acting, self.people(), timing, now)

    def table(self) -> dict[str, Any]:
        """Built once: every seat's view of this version shares it."""
        if self._table is None:
            self._table = self._build_table()
        return self._table

    def _build_table(self) -> dict[str, Any]:
        deadlines, away = self.clock.deadlines, self.clock.away
        active = self.status == "active"
        return {
            "game_id": self.id,
            "kind": self.kind,
            "title": self.game.title,
            "status": self.status,
            "turn_seconds": self.turn_seconds,
            # The table's options as chosen (the game's defaults filled in), for its header.
            "options": self.options,
            "seats": [
                {
                    "seat": s.seat,
                    "name": s.name,
                    "bot": s.bot,
                    "handle": s.handle,
                    "rating": s.rating,
                    "conceded": self.stand_ins.get(s.seat) == CONCEDED,
                    # Why the bot plays this person's seat for good (conceded, suspended).
                    "stand_in": self.stand_ins.get(s.seat),
                    "away": s.seat in away,
                    "deadline": deadlines[s.seat].isoformat()
                    if active and s.seat in deadlines
                    else None,
                }
                for s in self.seats
            ],
            "rematch_lobby_id": self.rematch_lobby_id,
            # Who plays a seat the person gave up or lost: "Casual bot".
            "stand_in_bot": bot_name(self.stand_in()),
            "seed_commitment": self.seed_commitment,
            # Revealed once nothing can change any more, so anyone can replay and check; as
            # text, since a browser reads JSON numbers as doubles (53 bits).
            "seed": str(self.seed) if self.status != "active" else None,
        }

    def live_view(self, seat: int | None) -> dict[str, Any]:
        """What ``seat`` may see of the game now (``None``: a spectator), without the log's
        entries: the engine's projection, the table and the log's length."""
        view = full_view(self.game, self.state, seat, person=seat is not None)
        view["table"] = self.table()
        view["log_length"] = self.log.length
        if self.status != "active":
            # Nobody acts in an ended game, and the stored outcome is the final word (a game
            # can end by concession, which the engine knows nothing of).
            view |= {"to_act": [], "legal_moves": [], "outcome": self.outcome}
        return view

    def view(self, seat: int | None) -> dict[str, Any]:
        """``live_view`` with the log's latest entries, oldest first."""
        return self.live_view(seat) | {"log": self.log.latest()}

    def moved(self, done: Any) -> Snapshot:
        """This game after ``done`` (``commit.Committed``), a move committed at its version."""
        return dataclasses.replace(
            self, version=done.version, state=done.state, status=done.status,
            stand_ins=done.stand_ins, outcome=done.outcome, updated_at=done.updated_at,
            clock=done.clock, log=self.log.after(done.entries, done.log_length),
        )


def people(bots: dict[int, str | None], stand_ins: dict[int, str]) -> set[int]:
    """The seats a person still plays (``bots``: each seat's bot level, None for a person):
    not bots, not given up to the stand-in for good."""
    return {seat for seat, bot in bots.items() if bot is None and seat not in stand_ins}


async def seat_bots(db_or_session: Any, game_id: str) -> dict[int, str | None]:
    """Each seat's bot level (None: a person sits there); they never change once started."""
    rows = await db_or_session.execute(
        select(Seat.seat, Seat.bot_level)
        .join(Lobby, Lobby.id == Seat.lobby_id)
        .where(Lobby.game_id == game_id)
    )
    return {seat: bot for seat, bot in rows.all()}


def _table(found: list[Any]) -> list[TableSeat]:
    """Seats as (seat, player id, bot level, player's name, handle, and rating's mu, sigma and
    games), in order, as the table shows them."""
    shown = names.distinct([row[3] or bot_name(row[2] or "") for row in found])
    return [
        TableSeat(seat, player_id, name, bot, handle, ratings.shown(mu, sigma, played))
        for (seat, player_id, bot, _, handle, mu, sigma, played), name in zip(found, shown)
    ]


SeatsCache = dict[str, tuple[int, list[TableSeat]]]

# The state as its stored text, which pydantic validates straight into the state
# (``Game.load_json``): decoding it to a dict first was a fifth of a game's load.
_SNAPSHOT = select(
    Game.kind, Game.version, Game.status, Game.seed, Game.seed_commitment,
    cast(Game.state, Text).label("state"),
    Game.stand_ins, Game.outcome, Game.rematch_lobby_id, Game.updated_at, Game.turn_seconds,
    Game.clock, Game.seats_version, Game.options, Game.log_length, Game.stand_in_level,
).where(Game.id == bindparam("game_id"))
_TABLE = ratings.with_ratings(
    select(Seat.seat, Seat.player_id, Seat.bot_level, Player.name, Player.handle)
    .join(Lobby, Lobby.id == Seat.lobby_id)
    .outerjoin(Player, Seat.player_id == Player.id)
    .where(Lobby.game_id == bindparam("game_id"))
    .order_by(Seat.seat)
)
_SNAPSHOT_SQL = for_asyncpg(_SNAPSHOT).string
_TABLE_SQL = for_asyncpg(_TABLE).string


async def table_seats(session: AsyncSession, game_id: str) -> list[TableSeat]:
    """The game's seats as its table shows them."""
    return _table((await session.execute(_TABLE, {"game_id": game_id})).all())


async def load_snapshot(
    session: AsyncSession, game_id: str, seats_cache: SeatsCache | None = None
) -> Snapshot:
    """The game as stored now. A game's seats only change with ``seats_version`` (a rename),
    so a caller may keep them in ``seats_cache`` and save a query per load.

    On PostgreSQL asyncpg runs the statements itself, on the session's connection: every
    socket's first state and every reload reads a game, and SQLAlchemy's execution path
    around a statement cost more than the statement. The state comes as its stored text
    (``Game.load_json``); the other JSON columns arrive decoded either way (the engine gave
    the connection its JSON codec)."""
    if not storable(game_id):
        raise Problem(404, "No such game.")
    conn = None
    if session.bind.dialect.name == "postgresql":
        conn = (await (await session.connection()).get_raw_connection()).driver_connection
        found = await conn.fetchrow(_SNAPSHOT_SQL, game_id)
    else:
        found = (await session.execute(_SNAPSHOT, {"game_id": game_id})).mappings().first()
    if found is None:
        raise Problem(404, "No such game.")
    row = dict(found.items())
    cached = seats_cache.get(game_id) if seats_cache is not None else None
    if cached is not None and cached[0] == row["seats_version"]:
        seats = cached[1]
    else:
        if conn is not None:
            seats = _table(await conn.fetch(_TABLE_SQL, game_id))
        else:
            seats = await table_seats(session, game_id)
        if seats_cache is not None:
            seats_cache[game_id] = (row["seats_version"], seats)
    game = get_game(row["kind"])
    return Snapshot(
        id=game_id,
        kind=row["kind"],
        game=game,
        version=row["version"],
        status=row["status"],
        seed=row["seed"],
        seed_commitment=row["seed_commitment"],
        state=game.load_json(row["state"]),
        seats=seats,
        stand_ins=stand_ins(row["stand_ins"]),
        outcome=row["outcome"],
        rematch_lobby_id=row["rematch_lobby_id"],
        updated_at=row["updated_at"],
        turn_seconds=row["turn_seconds"],
        clock=Clock.load(row["clock"]),
        options=row["options"] or {},
        chosen_stand_in=row["stand_in_level"],
        log=await game_log.tail(session, conn, game_id, row["log_length"]),
    )


def new_seed() -> int:
    """A fresh secret seed: every shuffle of the game and who starts come from it."""
    return secrets.randbits(63)


def create_game(lobby: Lobby, seat_people: set[int], timing: Timing) -> tuple[Game, list[Event]]:
    """A new game's row for a full lobby and its setup's log entries, for the caller to
    insert. The seed stays secret. A setup that fails is a 409: the caller's transaction then
    leaves the lobby as it was."""
    game = get_game(lobby.game)
    seed = new_seed()
    try:
        state = game.setup(lobby.seat_count, game.options(lobby.options), seed)
    except Exception:
        log.exception("%s setup failed for lobby %s", game.id, lobby.id)
        raise Problem(409, f"The {game.title} table could not be set up; the lobby stays "
                           "open: try starting it again.") from None
    acting, at = game.to_act(state), now()
    started = clock.started(acting, seat_people, lobby.turn_seconds, at)
    row = Game(
        id=new_id(),
        kind=game.id,
        options=lobby.options,
        seed_commitment=commitment(seed),
        seed=seed,
        state=RawJSON(game.dump_json(state)),
        version=0,
        status="active",
        rated=lobby.rated,
        turn_seconds=lobby.turn_seconds,
        stand_in_level=lobby.stand_in_level,
        clock=started.dump(),
        due_at=clock.due_at(started, acting, seat_people, timing, at),
        log_length=len(state.log),
    )
    return row, state.log


async def abort_game(db: Database, game_id: str, version: int | None = None) -> bool:
    """Stop an active game for good (at ``version``, when given); False if it was not
    active (or had moved on)."""
    async with db.writing() as session:
        query = update(Game).where(Game.id == game_id, Game.status == "active")
        if version is not None:
            query = query.where(Game.version == version)
        at = now()
        result = await session.execute(
            query.values(status="aborted", updated_at=at, finished_at=at, due_at=None)
            .execution_options(synchronize_session=False)
        )
        return result.rowcount == 1
