"""Device cookies: a device that has signed in as a player is not locked out by guesses made
elsewhere (OWASP's "Slow Down Online Guessing Attacks with Device Cookies").

A successful sign-in (or a claim, or a device code) gives the browser a cookie naming the
handle, with a random id and an HMAC-SHA256 of both under a key the server keeps. A sign-in
that brings a valid cookie for the handle it tries is counted against that cookie alone; every
other attempt is counted against the handle (and the address), as before. So a stranger's
guesses spend the handle's attempts and lock out only untrusted devices, while the owner's
device keeps its own ten; a stolen cookie is no more than one more device with ten tries, and
a forged one is ignored. The key is made once, on first use, and kept in the database, so
every instance and every restart signs alike without a setting to configure.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import secrets

from sqlalchemy import select
from sqlalchemy.exc import IntegrityError

from app.db import Database
from app.models import ServerKey

COOKIE = "campground_device"
# Sent only to the sign-in calls.
PATH = "/api/sessions"
KEY_NAME = "device-cookie"
LONGEST = 200


class TrustedDevices:
    """Issues and recognises device cookies, with the key read once from the database."""

    def __init__(self, db: Database):
        self.db = db
        self._key: bytes | None = None

    async def _secret(self) -> bytes:
        if self._key is None:
            self._key = bytes.fromhex(await self._stored_key())
        return self._key

    async def _stored_key(self) -> str:
        query = select(ServerKey.value).where(ServerKey.name == KEY_NAME)
        async with self.db.session() as session:
            found = await session.scalar(query)
        if found is not None:
            return found
        try:
            async with self.db.writing() as session:
                session.add(ServerKey(name=KEY_NAME, value=secrets.token_hex(32)))
        except IntegrityError:
            pass  # another instance made it first: theirs is the key
        async with self.db.session() as session:
            return (await session.execute(query)).scalar_one()

    def _signature(self, key: bytes, handle_key: str, device: str) -> str:
        mac = hmac.new(key, f"{handle_key}.{device}".encode(), hashlib.sha256).digest()
        return base64.urlsafe_b64encode(mac).decode().rstrip("=")

    async def issue(self, handle_key: str) -> str:
        """A new cookie value for a device that has just become the player of ``handle_key``."""
        device = secrets.token_urlsafe(12)
        signature = self._signature(await self._secret(), handle_key, device)
        return f"{handle_key}.{device}.{signature}"

    async def recognise(self, cookie: str | None, handle_key: str) -> str | None:
        """The device's id when ``cookie`` is one this server issued for ``handle_key``."""
        if not cookie or len(cookie) > LONGEST or cookie.count(".") != 2:
            return None
        named, device, signature = cookie.split(".")
        if named != handle_key:
            return None
        expected = self._signature(await self._secret(), handle_key, device)
        return device if hmac.compare_digest(expected, signature) else None
