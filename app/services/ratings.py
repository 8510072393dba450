"""Ratings: one OpenSkill rating per game per rater, a rater being a signed-in player or a
bot level, updated in the transaction that ends a rated game, by the rules of
``app.services.rating_rules``.

A game is rated when its lobby said so and, at its end, every seat is a signed-in person or a
bot, unless it was given up too early. Places come from the stored outcome: the winners share
first place, the other seats follow by score (equal scores share a place), and seats given up
for good (a concession, a suspension) share last place. A game whose ``rating_changes`` rows
exist has been rated: processing its end again changes nothing. When a lobby said "rated" and
the game is not, ``games.unrated_because`` says why.

Each change applies to the rating as it is when the game ends: the raters' rows are created
if missing (an insert that ignores a row another transaction made meanwhile) and locked
(``FOR UPDATE`` on PostgreSQL; SQLite has one writer), in the raters' order, so that games
ending at once queue rather than overwrite each other.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, overload

from sqlalchemy import Select, String, and_, delete, func, literal_column, select, update
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.ext.asyncio import AsyncSession
from sqlalchemy.orm import aliased

from app.models import (
    Game,
    Lobby,
    Move,
    Player,
    Rating,
    RatingChange,
    RatingOpponent,
    Seat,
    now,
)
from app.names import distinct, joined
from app.services import rating_rules as rules

# BOT, MU, SIGMA and points are read as ``ratings.*`` too.
from app.services.rating_rules import BOT, MU, SIGMA, Standing, points

# A rating stays provisional while its uncertainty is this high (it starts at 25/3 and
# falls below after five to ten games).
PROVISIONAL_SIGMA = 6.0


def provisional(sigma: float) -> bool:
    return sigma > PROVISIONAL_SIGMA


def matching_points(mu: float | None, sigma: float | None) -> float:
    """The rating "Play now" matches a person by, in points: the conservative rating
    (``rules.ordinal``). A provisional one (a newcomer's too) counts as the ordinal it would
    have once no longer provisional, its uncertainty down to ``PROVISIONAL_SIGMA``: its first
    few games do not place a person below everyone who has played more."""
    mu, sigma = (MU, SIGMA) if mu is None or sigma is None else (mu, sigma)
    return rules.POINTS_PER_MU * rules.ordinal(mu, min(sigma, PROVISIONAL_SIGMA))


def bot_rater(level: str) -> str:
    return f"{BOT}{level}"


def rater_of(player_id: str | None, bot: str | None) -> str:
    """Whose rating a seat's is: its bot level's, else its player's."""
    return bot_rater(bot) if bot is not None else player_id or ""


# Given a rating, each gives what shows it: callers that hold one need not check for None.
@overload
def shown(mu: float, sigma: float, games: int | None) -> dict[str, Any]: ...
@overload
def shown(mu: float | None, sigma: float | None, games: int | None) -> dict[str, Any] | None: ...
def shown(mu: float | None, sigma: float | None, games: int | None) -> dict[str, Any] | None:
    """A rating as players see it; None for no rating yet."""
    if mu is None or sigma is None:
        return None
    return {"points": points(mu), "provisional": provisional(sigma), "games": games or 0}


@overload
def change_shown(mu0: float, sigma0: float, mu1: float, sigma1: float) -> dict[str, Any]: ...
@overload
def change_shown(
    mu0: float | None, sigma0: float | None, mu1: float | None, sigma1: float | None
) -> dict[str, Any] | None: ...
def change_shown(
    mu0: float | None, sigma0: float | None, mu1: float | None, sigma1: float | None
) -> dict[str, Any] | None:
    """What a rated game did to a seat's rating, as the outcome shows it: "1779? → 1897?"."""
    if mu0 is None or sigma0 is None or mu1 is None or sigma1 is None:
        return None
    return {
        "before": {"points": points(mu0), "provisional": provisional(sigma0)},
        "after": {"points": points(mu1), "provisional": provisional(sigma1)},
    }


def with_ratings(seats: Select) -> Select:
    """``seats`` (a query of seats joined to their lobby) with each seat's rating in the
    lobby's game: its mu, sigma and games, None where it has none (a guest, a newcomer)."""
    rater = func.coalesce(Seat.player_id, literal_column(f"'{BOT}'", String) + Seat.bot_level)
    return seats.outerjoin(
        Rating, and_(Rating.game == Lobby.game, Rating.rater == rater)
    ).add_columns(Rating.mu, Rating.sigma, Rating.games)


def places(outcome: dict[str, Any], players: int, given_up: Iterable[int]) -> list[int]:
    """Each seat's place (0 first; equal places are ties) in a finished game's outcome."""
    last = set(given_up) | set(outcome.get("conceded") or [])
    winners = set(outcome.get("winners") or []) - last
    scores = outcome.get("scores") or []

    def key(seat: int) -> tuple:
        if seat in last:
            return (2, 0)
        if seat in winners:
            return (0, 0)
        return (1, -(scores[seat] if seat < len(scores) else 0))

    keys = [key(seat) for seat in range(players)]
    # Competition ranking: a place is one more than the number of seats strictly ahead.
    return [sum(1 for k in keys if k < mine) for mine in keys]


@dataclass(frozen=True)
class Seated:
    seat: int
    rater: str | None  # None: a guest sits here, so the game is not rated
    name: str = ""


@dataclass(frozen=True)
class Rated:
    """What a game's end did to its ratings: each rated seat's new rating (``shown``) and
    change (``change_shown``), or why a game its lobby rated was not."""

    ratings: dict[int, dict[str, Any]] = field(default_factory=dict)
    changes: dict[int, dict[str, Any]] = field(default_factory=dict)
    unrated_because: str | None = None

    def __bool__(self) -> bool:
        return bool(self.changes)


def _seated(player_id: str | None, handle: str | None, bot: str | None) -> str | None:
    if bot is not None:
        return bot_rater(bot)
    return player_id if handle is not None else None


_SEATS = (
    select(Seat.seat, Seat.player_id, Player.handle, Seat.bot_level, Player.name)
    .join(Lobby, Lobby.id == Seat.lobby_id)
    .outerjoin(Player, Player.id == Seat.player_id)
    .order_by(Seat.seat)
)


async def _seats(session: AsyncSession, game_id: str) -> list[Seated]:
    rows = (await session.execute(_SEATS.where(Lobby.game_id == game_id))).all()
    # Named as the table names them, for the reasons a game is not rated.
    people = iter(distinct([name for *_, bot, name in rows if bot is None and name]))
    return [
        Seated(seat, _seated(player_id, handle, bot), next(people) if bot is None and name else "")
        for seat, player_id, handle, bot, name in rows
    ]


async def _moves_by_seat(
    session: AsyncSession, game_id: str, before: datetime | None = None
) -> dict[int, int]:
    query = select(Move.seat, func.count()).where(Move.game_id == game_id).group_by(Move.seat)
    if before is not None:
        query = query.where(Move.created_at < before)
    return dict((await session.execute(query)).all())


def _short(made: dict[int, int], seats: int) -> bool:
    return any(made.get(seat, 0) < rules.MIN_MOVES for seat in range(seats))


def _early(name: str, how: str) -> str:
    return f"{name} {how} before every seat had made {rules.MIN_MOVES} moves"


async def conceded_early(session: AsyncSession, game_id: str, seat: int, seats: int) -> str | None:
    """Why the game ``seat`` concedes now is no longer rated, if every seat has not made
    ``MIN_MOVES`` moves yet (the seat's stand-in plays on, so only now can it be told)."""
    if not _short(await _moves_by_seat(session, game_id), seats):
        return None
    name = next((s.name for s in await _seats(session, game_id) if s.seat == seat), "")
    return _early(name, "conceded")


async def _unrated_because(
    session: AsyncSession, game_id: str, game: Any, seats: list[Seated]
) -> str | None:
    """Why a game its lobby rated is not rated at its end: a guest's seat, or a seat given up
    before every seat had made its first moves (a two-player concession, which ended the
    game, or a person away from then to the end)."""
    guests = [s.name for s in seats if s.rater is None]
    if guests:
        return f"{joined(guests)} {'has' if len(guests) == 1 else 'have'} no sign-in"
    if game.unrated_because:
        return game.unrated_because
    outcome = game.outcome or {}
    by_name = {s.seat: s.name for s in seats}
    if outcome.get("ended_by") == "concession":
        if _short(await _moves_by_seat(session, game_id), len(seats)):
            return _early(
                joined([by_name.get(s, "") for s in outcome.get("conceded") or []]), "conceded"
            )
    for seat, since in sorted((game.clock or {}).get("away", {}).items()):
        left = datetime.fromisoformat(since)
        if _short(await _moves_by_seat(session, game_id, left), len(seats)):
            return _early(by_name.get(int(seat), ""), "left")
    return None


_GAME = select(
    Game.kind,
    Game.status,
    Game.rated,
    Game.outcome,
    Game.stand_ins,
    Game.clock,
    Game.finished_at,
    Game.unrated_because,
)


async def game_ended(session: AsyncSession, game_id: str) -> Rated:
    """Rate the game that just ended in ``session``'s transaction, if it is rated and was not
    rated before; or note why not. Returns what it did (false when it rated nothing)."""
    game = (await session.execute(_GAME.where(Game.id == game_id))).one_or_none()
    if game is None or game.status != "finished" or not game.rated:
        return Rated()
    done = await session.scalar(
        select(RatingChange.seat).where(RatingChange.game_id == game_id).limit(1)
    )
    if done is not None:
        return Rated()
    seats = await _seats(session, game_id)
    why = await _unrated_because(session, game_id, game, seats)
    if why is not None:
        if why != game.unrated_because:
            await _note(session, game_id, why)
        return Rated(unrated_because=why)
    given_up = [int(seat) for seat in (game.stand_ins or {})]
    seat_places = places(game.outcome or {}, len(seats), given_up)
    return await _rate(session, game.kind, game_id, seats, seat_places, game.finished_at or now())


async def _note(session: AsyncSession, game_id: str, why: str) -> None:
    await session.execute(
        update(Game)
        .where(Game.id == game_id)
        .values(unrated_because=why[:200])
        .execution_options(synchronize_session=False)
    )


def _insert(session: AsyncSession, model: Any):
    """An insert of ``model`` rows that leaves a row already there as it is."""
    dialect = postgresql if session.get_bind().dialect.name == "postgresql" else sqlite
    return dialect.insert(model).on_conflict_do_nothing()


def _start(kind: str, rater: str) -> tuple[float, float]:
    if rules.is_bot(rater):
        return rules.anchor(kind, rater.removeprefix(BOT)), rules.BOT_SIGMA
    return MU, SIGMA


async def _locked(
    session: AsyncSession, kind: str, raters: list[str], at: datetime
) -> dict[str, Rating]:
    """The raters' rows, made where missing and locked until the transaction ends."""
    fresh = []
    for rater in raters:
        mu, sigma = _start(kind, rater)
        fresh.append(
            {
                "game": kind,
                "rater": rater,
                "mu": mu,
                "sigma": sigma,
                "games": 0,
                "ordinal": rules.ordinal(mu, sigma),
                "opponents": 0,
                "updated_at": at,
            }
        )
    await session.execute(_insert(session, Rating).values(fresh))
    rows = await session.scalars(
        select(Rating)
        .where(Rating.game == kind, Rating.rater.in_(raters))
        .order_by(Rating.rater)
        .with_for_update()
        .execution_options(populate_existing=True)
    )
    return {row.rater: row for row in rows}


async def _repeats(
    session: AsyncSession, kind: str, people: list[str], at: datetime
) -> dict[str, int]:
    """For each person, the most rated games they played with any one other person at this
    table in the window before ``at``."""
    if len(people) < 2:
        return {}
    mine, theirs = aliased(RatingChange), aliased(RatingChange)
    rows = await session.execute(
        select(mine.rater, func.count())
        .join(theirs, theirs.game_id == mine.game_id)
        .where(
            mine.kind == kind,
            mine.rater.in_(people),
            theirs.rater.in_(people),
            theirs.rater != mine.rater,
            mine.created_at >= at - rules.REPEAT_WINDOW,
            mine.created_at < at,
        )
        .group_by(mine.rater, theirs.rater)
    )
    most: dict[str, int] = {}
    for rater, games in rows.all():
        most[rater] = max(most.get(rater, 0), games)
    return most


async def _met(
    session: AsyncSession, kind: str, people: list[str], raters: list[str]
) -> dict[str, int]:
    """Record who met whom; returns how many different opponents each person has met."""
    pairs = [{"game": kind, "rater": p, "opponent": o} for p in people for o in raters if o != p]
    if pairs:
        await session.execute(_insert(session, RatingOpponent).values(pairs))
    met = await session.execute(
        select(RatingOpponent.rater, func.count())
        .where(RatingOpponent.game == kind, RatingOpponent.rater.in_(people))
        .group_by(RatingOpponent.rater)
    )
    return dict(met.all())


async def _rate(
    session: AsyncSession,
    kind: str,
    game_id: str,
    seats: list[Seated],
    seat_places: list[int],
    at: datetime,
) -> Rated:
    rated = [(s.seat, s.rater) for s in seats if s.rater is not None]
    assert len(rated) == len(seats)  # a game found rated has no guest's seat
    raters = sorted({rater for _, rater in rated if rater})
    held = await _locked(session, kind, raters, at)
    people = [r for r in raters if not rules.is_bot(r)]
    repeats = await _repeats(session, kind, people, at)
    before = {r: (held[r].mu, held[r].sigma) if r in people else _start(kind, r) for r in raters}
    after = rules.rated(
        [
            Standing(rater, place, *before[rater], rules.repeat_weight(repeats.get(rater, 0)))
            for (_, rater), place in zip(rated, seat_places)
        ]
    )
    met = await _met(session, kind, people, raters)
    new: dict[str, tuple[float, float]] = {}
    for (seat, rater), place, (mu1, sigma1) in zip(rated, seat_places, after):
        mu0, sigma0 = before[rater]
        new[rater] = (mu1, sigma1)
        session.add(
            RatingChange(
                game_id=game_id,
                seat=seat,
                kind=kind,
                rater=rater,
                place=place,
                mu_before=mu0,
                sigma_before=sigma0,
                mu_after=mu1,
                sigma_after=sigma1,
                created_at=at,
            )
        )
    for rater, row in held.items():
        row.mu, row.sigma = new[rater]
        row.ordinal, row.games, row.updated_at = rules.ordinal(row.mu, row.sigma), row.games + 1, at
        row.opponents = met.get(rater, 0)
    # Every instance loads the table's seats again: their ratings changed.
    await session.execute(
        update(Game)
        .where(Game.id == game_id)
        .values(seats_version=Game.seats_version + 1)
        .execution_options(synchronize_session=False)
    )
    await session.flush()
    return Rated(
        ratings={seat: shown(*new[rater], held[rater].games) for seat, rater in rated},
        changes={seat: change_shown(*before[rater], *new[rater]) for seat, rater in rated},
    )


async def recompute(session: AsyncSession, kind: str) -> int:
    """Every rating of game ``kind`` again, by the rules as they are now, from the stored
    records of the games rated before (their seats and outcomes), in the order they
    finished. Returns how many games were rated."""
    rated = (
        await session.execute(
            select(RatingChange.game_id, RatingChange.seat, RatingChange.rater)
            .join(Game, Game.id == RatingChange.game_id)
            .where(RatingChange.kind == kind)
            .order_by(Game.finished_at, Game.id, RatingChange.seat)
        )
    ).all()
    games: dict[str, list[tuple[int, str]]] = {}
    for game_id, seat, rater in rated:
        games.setdefault(game_id, []).append((seat, rater))
    await session.execute(delete(RatingChange).where(RatingChange.kind == kind))
    await session.execute(delete(RatingOpponent).where(RatingOpponent.game == kind))
    await session.execute(delete(Rating).where(Rating.game == kind))
    done = 0
    for game_id, recorded in games.items():
        game = (await session.execute(_GAME.where(Game.id == game_id))).one()
        names = {s.seat: s.name for s in await _seats(session, game_id)}
        seats = [Seated(seat, rater, names.get(seat, "")) for seat, rater in recorded]
        why = await _unrated_because(session, game_id, game, seats)
        if why is not None:
            await _note(session, game_id, why)
            continue
        given_up = [int(seat) for seat in (game.stand_ins or {})]
        seat_places = places(game.outcome or {}, len(seats), given_up)
        await _rate(session, kind, game_id, seats, seat_places, game.finished_at or now())
        done += 1
    return done


async def count(session: AsyncSession, kind: str) -> int:
    """How many raters game ``kind`` has."""
    return (await session.execute(select(func.count()).where(Rating.game == kind))).scalar_one()
