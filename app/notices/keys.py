"""The server's own secrets for notices, made on first start and kept in ``server_keys``: the
VAPID key push services know this server by (unless ``VAPID_PRIVATE_KEY`` is set), and the key
that signs the links of mails. Every instance reads the same ones; the first to start makes
them, and one that loses that race reads the winner's."""

from __future__ import annotations

import hashlib
import hmac
import secrets
from dataclasses import dataclass

from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat
from py_vapid import Vapid
from sqlalchemy import select
from sqlalchemy.exc import IntegrityError

from app.db import Database
from app.models import ServerKey
from app.notices.base64url import b64, unb64


@dataclass(frozen=True)
class Keys:
    vapid: Vapid
    # The VAPID public key as the browser's ``applicationServerKey`` takes it.
    public: str
    signing: bytes

    def sign(self, *parts: str) -> str:
        """A token that carries ``parts`` and proves this server made it."""
        body = b64(":".join(parts).encode())
        mac = hmac.new(self.signing, body.encode(), hashlib.sha256).digest()
        return f"{body}.{b64(mac[:18])}"

    def open(self, token: str) -> list[str] | None:
        """The parts of a token this server signed; None for anything else."""
        body, _, mac = token.partition(".")
        good = b64(hmac.new(self.signing, body.encode(), hashlib.sha256).digest()[:18])
        if not mac or not hmac.compare_digest(mac.encode(), good.encode()):
            return None
        try:
            return unb64(body).decode().split(":")
        except (ValueError, UnicodeDecodeError):
            return None


async def _kept(db: Database, name: str, make) -> str:
    async with db.session() as session:
        found = await session.scalar(select(ServerKey.value).where(ServerKey.name == name))
    if found is not None:
        return found
    try:
        async with db.writing() as session:
            session.add(ServerKey(name=name, value=make()))
    except IntegrityError:
        pass  # another instance made it first: theirs is the one
    async with db.session() as session:
        return (
            await session.execute(select(ServerKey.value).where(ServerKey.name == name))
        ).scalar_one()


def _new_vapid() -> str:
    key = ec.generate_private_key(ec.SECP256R1())
    return b64(key.private_numbers().private_value.to_bytes(32, "big"))


def _vapid(text: str) -> Vapid:
    if "BEGIN" in text:
        return Vapid.from_pem(text.encode())
    return Vapid.from_string(text)


async def load(db: Database, vapid_setting: str | None) -> Keys:
    vapid = _vapid(vapid_setting or await _kept(db, "vapid", _new_vapid))
    public = vapid.public_key.public_bytes(Encoding.X962, PublicFormat.UncompressedPoint)
    signing = unb64(await _kept(db, "mail links", lambda: b64(secrets.token_bytes(32))))
    return Keys(vapid, b64(public), signing)
