"""Web Push: checking a subscription a page sends, and sending one notice to it, encrypted as
RFC 8291 says and signed with the server's VAPID key (RFC 8292) by ``pywebpush``."""

from __future__ import annotations

import asyncio
import binascii
import ipaddress
import time
from collections.abc import Callable
from typing import Literal
from urllib.parse import urlsplit

import aiohttp
import orjson
from py_vapid import Vapid
from pywebpush import WebPushException, webpush_async

from app.notices.base64url import unb64
from app.services.errors import Problem

# How long a push service keeps a notice for a device that is off: a day, like the retries.
TTL = 24 * 3600

Result = Literal["sent", "gone", "failed"]

# A VAPID signature is made valid for 12 hours and used for one: every header sent still has
# 11 hours or more to run, as push services require less than a day.
SIGNED_FOR = 12 * 3600
USED_FOR = 3600


class Signatures:
    """The VAPID header for each push service (its origin, the JWT's audience), signed once an
    hour rather than once a push: the signature was a quarter of a push's CPU."""

    def __init__(self, vapid: Vapid, subject: str, clock: Callable[[], float] = time.time):
        self.vapid = vapid
        self.subject = subject
        self.clock = clock
        self.made: dict[str, tuple[float, dict[str, str]]] = {}

    def header(self, endpoint: str) -> dict[str, str]:
        url = urlsplit(endpoint)
        audience = f"{url.scheme}://{url.netloc}"
        at = self.clock()
        kept = self.made.get(audience)
        if kept is None or at - kept[0] >= USED_FOR:
            claims = {"sub": self.subject, "aud": audience, "exp": int(at) + SIGNED_FOR}
            if len(self.made) >= 100:  # a few push services in practice; never unbounded
                self.made.clear()
            kept = self.made[audience] = (at, self.vapid.sign(claims))
        return kept[1]


def _loopback(host: str) -> bool:
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return host == "localhost"


def check(endpoint: str, p256dh: str, auth: str, services: str) -> None:
    """Refuse (422) an endpoint off the known push services, or keys of the wrong form: the
    server will send to this address, so it must be a push service's."""
    url = urlsplit(endpoint)
    host = url.hostname or ""
    allowed = [h.strip().lower() for h in services.split(",") if h.strip()]
    known = any(host == h or host.endswith("." + h) or url.netloc.lower() == h for h in allowed)
    if not known or not (url.scheme == "https" or (url.scheme == "http" and _loopback(host))):
        raise Problem(422, "That endpoint is not on a push service this server sends to.")
    try:
        key, secret = unb64(p256dh), unb64(auth)
    except (binascii.Error, ValueError):
        raise Problem(422, "The subscription's keys are not base64url.") from None
    if len(key) != 65 or key[0] != 4:
        raise Problem(422, "The p256dh key must be an uncompressed P-256 point (65 bytes).")
    if len(secret) != 16:
        raise Problem(422, "The auth secret must be 16 bytes.")


async def send(
    http: aiohttp.ClientSession,
    signatures: Signatures,
    endpoint: str,
    p256dh: str,
    auth: str,
    payload: dict,
    timeout: float,
) -> Result:
    """``gone`` when the push service says the subscription is no more (404, 410)."""
    info = {"endpoint": endpoint, "keys": {"p256dh": p256dh, "auth": auth}}
    try:
        await asyncio.wait_for(
            webpush_async(
                info,
                orjson.dumps(payload).decode(),
                headers=signatures.header(endpoint),
                ttl=TTL,
                aiohttp_session=http,
                timeout=aiohttp.ClientTimeout(total=timeout),
            ),
            timeout,
        )
    except WebPushException as exc:
        return "gone" if exc.response is not None and exc.status_code in (404, 410) else "failed"
    except (TimeoutError, aiohttp.ClientError, OSError):
        return "failed"
    return "sent"
