"""Who may watch a table, and read its chat.

A public table is anyone's to watch. A private table (its lobby's ``private``) is for its
seats, and for the spectators its players invited: whoever holds the lobby's invite code
and sends it along (``?invite=<code>``: the invite link's code, which the invite page passes
on). That holds for its state, its log, its sockets, and its replay and export once it has
ended; after the end the host's choice (``Lobby.after_end``) may open it to anyone. Its chat
is for its seats only, during the game and after it.

Whoever may not watch a table is told it does not exist (404, socket close 4404), exactly as
for an unknown id; an invited spectator, who knows the table exists, is told the chat is
not theirs (403). The admin API sees every table.
"""

from __future__ import annotations

import hmac
from dataclasses import dataclass, field

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession

from app.db import storable
from app.models import Game, Lobby, Seat
from app.services.errors import Problem

PRIVATE, PUBLIC = "private", "public"
AFTER_END = (PRIVATE, PUBLIC)
NO_SUCH_GAME = "No such game."
NOT_YOUR_CHAT = "Only the players at the table can read its chat."


@dataclass(frozen=True)
class Privacy:
    """A table's privacy, from its lobby: a table without one is public."""

    private: bool = False
    after_end: str = PRIVATE
    invite_code: str | None = None

    def invited(self, invite: str | None) -> bool:
        """Whether ``invite`` is the table's invite code (compared in constant time)."""
        if not invite or self.invite_code is None:
            return False
        return hmac.compare_digest(invite.strip().encode(), self.invite_code.encode())

    def may_watch(self, status: str, seated: bool, invite: str | None) -> bool:
        """Whether a caller (``seated`` at the table or not, holding ``invite``) may see the
        table whose status is ``status``."""
        if not self.private or seated:
            return True
        if status != "active" and self.after_end == PUBLIC:
            return True
        return self.invited(invite)

    def may_read_chat(self, seated: bool) -> bool:
        return seated or not self.private


PUBLIC_TABLE = Privacy()


def privacy(private: bool | None, after_end: str | None, invite_code: str | None) -> Privacy:
    """From the lobby's columns (all None for a game without a lobby)."""
    if not private:
        return PUBLIC_TABLE
    return Privacy(True, after_end or PRIVATE, invite_code)


@dataclass(frozen=True)
class Watched:
    """What the checks need of a game: its status and log length, its privacy, and the
    players seated at it (looked up for a private table only)."""

    status: str
    log_length: int
    privacy: Privacy
    players: frozenset[str] = field(default_factory=frozenset)

    def seated(self, player_id: str | None) -> bool:
        return player_id is not None and player_id in self.players

    def may_watch(self, player_id: str | None, invite: str | None) -> bool:
        return self.privacy.may_watch(self.status, self.seated(player_id), invite)


async def load(session: AsyncSession, game_id: str) -> Watched:
    """The game's ``Watched``; 404 for an unknown game."""
    found = None
    if storable(game_id):
        found = (
            await session.execute(
                select(
                    Game.status,
                    Game.log_length,
                    Lobby.id,
                    Lobby.private,
                    Lobby.after_end,
                    Lobby.invite_code,
                )
                .outerjoin(Lobby, Lobby.game_id == Game.id)
                .where(Game.id == game_id)
            )
        ).first()
    if found is None:
        raise Problem(404, NO_SUCH_GAME)
    status, log_length, lobby_id, private, after_end, code = found
    table = privacy(private, after_end, code)
    players: frozenset[str] = frozenset()
    if table.private:
        seated = await session.scalars(select(Seat.player_id).where(Seat.lobby_id == lobby_id))
        players = frozenset(p for p in seated if p is not None)
    return Watched(status, log_length, table, players)


async def watchable(
    session: AsyncSession, game_id: str, player_id: str | None, invite: str | None
) -> Watched:
    """The game, if the caller may watch it; else 404, as for an unknown game."""
    watched = await load(session, game_id)
    if not watched.may_watch(player_id, invite):
        raise Problem(404, NO_SUCH_GAME)
    return watched


async def chat_readable(
    session: AsyncSession, game_id: str, player_id: str | None, invite: str | None
) -> None:
    """Nothing if the caller may read the game's chat; else 404 (may not watch it either)
    or 403 (an invited spectator)."""
    watched = await watchable(session, game_id, player_id, invite)
    if not watched.privacy.may_read_chat(watched.seated(player_id)):
        raise Problem(403, NOT_YOUR_CHAT)
