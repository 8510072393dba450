"""A sign-out takes effect at once, on every instance.

Whatever ends a session (a device signed out, every other device, a password change, an
admin's sign-out, a suspension) commits first; then this instance ends the game and lobby
sockets opened with that token (for a suspension, every socket of the player), before the
request answers, and a notice on the bus has every other instance end its own. An ended
socket acts on nothing more it receives and is sent nothing more but the close,
``CLOSE_SIGNED_OUT`` with ``SIGNED_OUT``, which the page turns into its sign-in offer.

A socket whose token was looked up before a sign-out and that joins its hub after it is ended
as it joins. Notices can be lost while Redis is away: when the bus says so (``RESYNC``), the
tokens of this instance's sockets are checked again, in a few queries.
"""

from __future__ import annotations

import asyncio
import contextvars
import json
import logging
from collections import OrderedDict
from collections.abc import Awaitable, Callable, Collection, Sequence

from app.bus import RESYNC, Bus, stop_tasks
from app.db import note_unavailable, unavailable
from app.sockets import Socket

log = logging.getLogger(__name__)

CHANNEL = "sessions"
# 4000 + the HTTP status a request with that token now gets.
CLOSE_SIGNED_OUT = 4401
SIGNED_OUT = "You were signed out on this device. Sign in again."
# Sign-outs remembered for sockets still joining their hub; a socket waits there far less
# long than this many sign-outs take.
REMEMBERED = 10_000


def notice(instance_id: str, player_id: str, token_hashes: Sequence[str] | None) -> str:
    return json.dumps([instance_id, player_id, token_hashes])


def _keys(player_id: str | None, token_hash: str | None) -> list[str]:
    return [f"player:{player_id}", f"token:{token_hash}"]


class SignOuts:
    """This instance's side of sign-outs: it ends its own sockets, and hears of the others'."""

    def __init__(
        self,
        bus: Bus,
        instance_id: str,
        sockets: Callable[[], list[Socket]],
        still_valid: Callable[[Collection[str]], Awaitable[set[str]]],
    ):
        self.bus = bus
        self.instance_id = instance_id
        self.sockets = sockets
        self.still_valid = still_valid
        # Each sign-out's key ("player:…" for every socket of a player, "token:…" for one
        # token's) and when this instance learnt of it, the latest last.
        self._when: OrderedDict[str, float] = OrderedDict()
        self._closing: set[asyncio.Task] = set()
        self.task: asyncio.Task | None = None

    def start(self) -> None:
        self.task = asyncio.create_task(
            self._listen(), name="sign-outs", context=contextvars.Context()
        )

    async def close(self) -> None:
        await stop_tasks([t for t in (self.task, *self._closing) if t is not None])

    async def ended(self, player_id: str, token_hashes: Sequence[str] | None = None) -> None:
        """The player's sessions with ``token_hashes`` ended (with None, the player is
        suspended: all of them, a guest's token too): their sockets here are closed now, and
        every other instance is told."""
        if token_hashes is not None and not token_hashes:
            return
        await self._end(player_id, token_hashes)
        await self.bus.publish(CHANNEL, notice(self.instance_id, player_id, token_hashes))

    def missed(self, sock: Socket) -> bool:
        """Whether ``sock``'s session ended after its token was looked up: a sign-out went by
        while the socket was joining its hub."""
        if sock.who.player_id is None:
            return False
        since = [self._when.get(key) for key in _keys(sock.who.player_id, sock.who.token_hash)]
        return any(at is not None and at >= sock.who.checked_at for at in since)

    async def _end(self, player_id: str, token_hashes: Collection[str] | None) -> None:
        loop = asyncio.get_running_loop()
        if token_hashes is None:
            self._remember([f"player:{player_id}"], loop.time())
        else:
            self._remember([f"token:{h}" for h in token_hashes], loop.time())
        await self._close(
            [
                sock
                for sock in self.sockets()
                if sock.who.player_id == player_id
                and (token_hashes is None or sock.who.token_hash in token_hashes)
            ]
        )

    def _remember(self, keys: list[str], at: float) -> None:
        for key in keys:
            self._when.pop(key, None)
            self._when[key] = at
        while len(self._when) > REMEMBERED:
            self._when.popitem(last=False)

    async def _close(self, socks: list[Socket]) -> None:
        # Every one ended before any close is awaited: a close waits for a send under way.
        for sock in socks:
            sock.end(CLOSE_SIGNED_OUT, SIGNED_OUT)
        await asyncio.gather(*(sock.close() for sock in socks))

    async def _listen(self) -> None:
        async with self.bus.subscribe(CHANNEL) as sub:
            async for message in sub:
                if message == RESYNC:
                    self._soon(self._check_again())
                    continue
                try:
                    sender, player_id, token_hashes = json.loads(message)
                except ValueError:
                    log.warning("not a sign-out notice: %r", message[:200])
                    continue
                # This instance ended its own sockets before it published.
                if sender != self.instance_id:
                    self._soon(self._end(player_id, token_hashes))

    def _soon(self, work: Awaitable[None]) -> None:
        """Closes wait on slow clients' sends: the listener does not wait with them."""
        task = asyncio.ensure_future(work)
        self._closing.add(task)
        task.add_done_callback(self._closing.discard)

    async def _check_again(self) -> None:
        """Notices may have been lost: end every socket whose token no longer names anyone."""
        held = [(s, s.who.token_hash) for s in self.sockets() if s.who.token_hash is not None]
        if not held:
            return
        try:
            valid = await self.still_valid({token for _, token in held})
        except Exception as exc:
            if unavailable(exc):
                note_unavailable(exc, "checking sockets' tokens again")
            else:
                log.exception("could not check sockets' tokens again")
            return
        await self._close([s for s, token in held if token not in valid])
