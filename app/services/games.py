"""Games: start one from a lobby, concede, come back, abort it. A game's load is
``app.services.game_loading``, a move's commit ``app.services.commit``."""

from __future__ import annotations

import dataclasses
import hashlib
import logging
import secrets
import uuid
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from sqlalchemy import select

from app.db import RawJSON
from app.models import Game, Lobby, Seat, now
from app.services import clock, game_log, ratings, speeds
from app.services.clock import Bank, Clock, Due, Timing
from app.services.errors import Problem
from app.services.watching import PUBLIC_TABLE, Privacy
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
    return {
        "scores": [],
        "winners": others,
        "details": {},
        "conceded": [seat],
        "ended_by": "concession",
    }


@dataclass(frozen=True)
class TableSeat:
    seat: int
    player_id: str | None
    name: str
    bot: str | None
    handle: str | None = None
    # The seat's rating in this game (``ratings.shown``): for signed-in players and bots.
    rating: dict[str, Any] | None = None
    # What this game did to it, once rated (``ratings.change_shown``).
    change: dict[str, Any] | None = None


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
    # The rematch's lobby as it stands: open, started (its game) or closed.
    rematch_status: str | None = None
    rematch_game_id: str | None = None
    updated_at: datetime | None = None
    speed: str | None = None
    turn_seconds: int | None = None
    clock: Clock = field(default_factory=Clock)
    options: dict[str, Any] = field(default_factory=dict)
    chosen_stand_in: str | None = None  # the host's stand-in level (``stand_in_level``)
    rated: bool = False  # its lobby said "rated"
    unrated_because: str | None = None
    log: game_log.Tail = field(default_factory=game_log.Tail)
    privacy: Privacy = PUBLIC_TABLE
    _table: dict[str, Any] | None = field(default=None, init=False, repr=False, compare=False)

    def seat_of(self, player_id: str | None) -> int | None:
        if player_id is None:
            return None
        return next((s.seat for s in self.seats if s.player_id == player_id), None)

    def may_watch(self, player_id: str | None, invite: str | None) -> bool:
        """Whether the caller may see this table (``app.services.watching``)."""
        seated = self.seat_of(player_id) is not None
        return self.privacy.may_watch(self.status, seated, invite)

    def bot_level(self, seat: int) -> str | None:
        """The bot that plays ``seat``: its own, or the stand-in for a person who left it
        (conceded) or is away."""
        if seat in self.stand_ins or seat in self.clock.away:
            return self.stand_in()
        return next((s.bot for s in self.seats if s.seat == seat), None)

    def stand_in(self) -> str:
        return stand_in_level(self.game, self.chosen_stand_in)

    @property
    def bank(self) -> Bank | None:
        return speeds.table_clock(self.speed, self.turn_seconds).bank

    def people(self) -> set[int]:
        return people({s.seat: s.bot for s in self.seats}, self.stand_ins)

    def due(self, now: datetime, timing: Timing) -> Due | None:
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
            **speeds.shown(self.speed, self.turn_seconds),
            # A private table is watched by its seats and invited spectators only, and its
            # chat is its seats' (``app.services.watching``).
            "private": self.privacy.private,
            "rated": self.rated,
            # Why the table its lobby rated is not (or no longer) rated: "Gus has no sign-in".
            "unrated_because": self.unrated_because,
            # The table's options as chosen (the game's defaults filled in), for its header.
            "options": self.options,
            "seats": [
                {
                    "seat": s.seat,
                    "name": s.name,
                    "bot": s.bot,
                    "handle": s.handle,
                    "rating": s.rating,
                    "rating_change": s.change,
                    "conceded": self.stand_ins.get(s.seat) == CONCEDED,
                    # Why the bot plays this person's seat for good (conceded, suspended).
                    "stand_in": self.stand_ins.get(s.seat),
                    "away": s.seat in away,
                    "deadline": deadlines[s.seat].isoformat()
                    if active and s.seat in deadlines
                    else None,
                    "bank": self._banked(s.seat) if active else None,
                }
                for s in self.seats
            ],
            "rematch_lobby_id": self.rematch_lobby_id,
            "rematch_status": self.rematch_status,
            "rematch_game_id": self.rematch_game_id,
            # Who plays a seat the person gave up or lost: "Casual bot".
            "stand_in_bot": bot_name(self.stand_in()),
            "seed_commitment": self.seed_commitment,
            # Revealed once nothing can change any more, so anyone can replay and check; as
            # text, since a browser reads JSON numbers as doubles (53 bits).
            "seed": str(self.seed) if self.status != "active" else None,
        }

    def _banked(self, seat: int) -> int | None:
        """Seconds in the bank of a person not acting now; None while its deadline runs, for
        a bot or a seat the stand-in plays, and on an untimed table."""
        if seat in self.clock.deadlines or seat not in self.people():
            return None
        return self.clock.banks.get(seat, self.bank.start) if self.bank is not None else None

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
        """This game after ``done`` (``commit.Committed``), a move committed at its version,
        with the new ratings when that move ended the game."""
        ended = done.rated if done.rated is not None else ratings.Rated()
        return dataclasses.replace(
            self,
            version=done.version,
            state=done.state,
            status=done.status,
            stand_ins=done.stand_ins,
            outcome=done.outcome,
            updated_at=done.updated_at,
            clock=done.clock,
            log=self.log.after(done.entries, done.log_length),
            seats=[
                dataclasses.replace(s, rating=ended.ratings[s.seat], change=ended.changes[s.seat])
                if s.seat in ended.changes
                else s
                for s in self.seats
            ],
            unrated_because=ended.unrated_because or self.unrated_because,
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


def new_seed() -> int:
    """A fresh secret seed: every shuffle of the game and who starts come from it."""
    return secrets.randbits(63)


def create_game(
    lobby: Lobby, seat_people: set[int], timing: Timing, suspended: set[int]
) -> tuple[Game, list[Event]]:
    """A new game's row for a full lobby and its setup's log entries, for the caller to
    insert. The seed stays secret. The stand-in bot plays the seats of ``suspended`` persons
    from the start. A setup that fails is a 409: the caller's transaction then leaves the
    lobby as it was."""
    game = get_game(lobby.game)
    seed = new_seed()
    try:
        state = game.setup(lobby.seat_count, game.options(lobby.options), seed)
    except Exception:
        log.exception("%s setup failed for lobby %s", game.id, lobby.id)
        raise Problem(
            409,
            f"The {game.title} table could not be set up; the lobby stays "
            "open: try starting it again.",
        ) from None
    acting, at = game.to_act(state), now()
    seat_people = seat_people - suspended
    bank = speeds.table_clock(lobby.speed, lobby.turn_seconds).bank
    started = clock.started(acting, seat_people, bank, at)
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
        speed=lobby.speed,
        turn_seconds=lobby.turn_seconds,
        stand_in_level=lobby.stand_in_level,
        stand_ins={str(seat): SUSPENDED for seat in sorted(suspended)},
        clock=started.dump(),
        due_at=clock.due_at(started, acting, seat_people, timing, at),
        log_length=len(state.log),
    )
    return row, state.log
