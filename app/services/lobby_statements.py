"""A lobby's statements, built once. On PostgreSQL asyncpg runs them itself (``Prepared``):
through the session, its unit of work and its transaction, they cost the server several times
what they cost PostgreSQL, and setting up a game took about 40 ms of the server's CPU. SQLite
runs some of them, as expressions, through the session.
"""

from __future__ import annotations

from sqlalchemy import Subquery, bindparam, func, insert, select, update

from app.db import Prepared, table_of
from app.models import Game, Lobby, Player, Rating, ReplacedInviteCode, Seat
from app.services import ratings

LOBBIES, SEATS = table_of(Lobby), table_of(Seat)


HOSTED_BY = select(func.count()).where(
    Lobby.host_id == bindparam("host_id"), Lobby.status == "open"
)


HOSTED = Prepared(HOSTED_BY)


def public_listing(per_host: int) -> Subquery:
    """The ids of the open public lobbies a listing shows: each host's newest ``per_host``, so
    that no one player fills it."""
    newest_of_host = (
        func.row_number()
        .over(partition_by=Lobby.host_id, order_by=(Lobby.created_at.desc(), Lobby.id))
        .label("rank")
    )
    ranked = (
        select(Lobby.id, newest_of_host)
        .where(Lobby.status == "open", Lobby.private.is_(False))
        .subquery()
    )
    return select(ranked.c.id).where(ranked.c.rank <= per_host).subquery()


INSERT_LOBBY = Prepared(insert(LOBBIES))


INSERT_SEAT = Prepared(insert(SEATS))


INSERT_GAME = Prepared(insert(table_of(Game)))


LOCK = {
    column.key: Prepared(select(LOBBIES).where(column == bindparam("key")).with_for_update())
    for column in (Lobby.id, Lobby.invite_code)
}
RATING_OF = select(Rating.mu, Rating.sigma, Rating.games).where(
    Rating.game == bindparam("game"), Rating.rater == bindparam("rater")
)
RATING = Prepared(RATING_OF)
REPLACED_CODE = Prepared(
    select(ReplacedInviteCode.code).where(ReplacedInviteCode.code == bindparam("code"))
)
INSERT_REPLACED = Prepared(insert(table_of(ReplacedInviteCode)))
# The ended game a lobby is the rematch of, and its version: told when the lobby starts or closes.
REMATCH_OF = select(Game.id, Game.version).where(Game.rematch_lobby_id == bindparam("lobby_id"))
REMATCH = Prepared(REMATCH_OF)


SEATED = Prepared(
    ratings.with_ratings(
        select(
            SEATS,
            Player.name.label("player_name"),
            Player.handle.label("player_handle"),
            Player.suspended_at.label("player_suspended_at"),
        )
        .join(Lobby, Lobby.id == Seat.lobby_id)
        .outerjoin(Player, Seat.player_id == Player.id)
        .where(Seat.lobby_id == bindparam("lobby_id"))
        .order_by(Seat.seat)
    )
)


# What a change to a lobby may change: the lobby's status, its game, when it closes, its
# invite code and whom the host removed, and who sits in each seat.
LOBBY_CHANGES = ("status", "game_id", "closes_at", "invite_code", "removed", "stand_in_level")


SEAT_CHANGES = ("player_id", "bot_level", "reserved_for", "reserved_until")


UPDATE_LOBBY = Prepared(
    update(LOBBIES)
    .where(Lobby.id == bindparam("lobby"))
    .values({name: bindparam(name) for name in LOBBY_CHANGES})
)


UPDATE_SEAT = Prepared(
    update(SEATS)
    .where(Seat.lobby_id == bindparam("lobby"), Seat.seat == bindparam("number"))
    .values({name: bindparam(name) for name in SEAT_CHANGES})
)
