"""The post: a sending pass's pushes and mails, delivered by a process of its own beside the
server (``NOTICE_SENDING=process``, the default) or on the server's own event loop (``inline``).

A push costs its sender about 0.7 ms of CPU (the payload's encryption, the HTTP request) and a
mail more. On a busy server that work shared the one event loop with the moves, and the
notices fell behind by tens of seconds while the moves lost a tenth of their rate. The server
still claims, reads and records every notice (the database and who is looking are its); only
what is to be sent crosses to the post, in one call a pass, and only the outcomes come back.
"""

from __future__ import annotations

import asyncio
import logging
import multiprocessing
import os
import signal
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass
from typing import TYPE_CHECKING

import aiohttp
from py_vapid import Vapid

from app.notices import mail, push

if TYPE_CHECKING:
    from app.config import Settings
    from app.notices.keys import Keys

log = logging.getLogger(__name__)

# The post's process's priority below the server's (a niceness added to the server's own).
NICE = 10
# Spawned, not forked: a fork would copy the server's loop, threads and open sockets.
SPAWN = multiprocessing.get_context("spawn")


@dataclass(frozen=True)
class Push:
    endpoint: str
    p256dh: str
    auth: str
    payload: dict


@dataclass(frozen=True)
class Letter:
    """A mail, composed where it is sent."""

    to: str
    subject: str
    paragraphs: tuple[str, ...]
    link: str
    label: str
    unsubscribe: str


@dataclass(frozen=True)
class Sending:
    """What the post needs to send, the same wherever it runs."""

    vapid_pem: bytes
    subject: str
    smtp: mail.Smtp | None
    mail_from: str
    timeout: float


class Office:
    """Sends: one HTTP session kept from pass to pass (a push service's connections stay open),
    each VAPID header signed once an hour, a pass's mails over a few reused connections."""

    def __init__(self, sending: Sending) -> None:
        self.sending = sending
        self.signatures = push.Signatures(Vapid.from_pem(sending.vapid_pem), sending.subject)
        self.http: aiohttp.ClientSession | None = None

    async def deliver(self, items: list[Push | Letter]) -> list[push.Result]:
        """Each item's outcome, in order: ``sent``, ``gone`` (a subscription the push service
        no longer knows) or ``failed`` (to be tried again)."""
        if self.http is None:
            self.http = aiohttp.ClientSession()  # made on the loop that uses it
        s = self.sending
        sender = (
            mail.Sender(s.smtp, s.timeout)
            if s.smtp is not None and any(isinstance(i, Letter) for i in items)
            else None
        )

        async def one(item: Push | Letter) -> push.Result:
            if isinstance(item, Push):
                assert self.http is not None
                return await push.send(
                    self.http,
                    self.signatures,
                    item.endpoint,
                    item.p256dh,
                    item.auth,
                    item.payload,
                    s.timeout,
                )
            if sender is None:
                return "failed"
            msg = mail.compose(
                s.mail_from,
                item.to,
                item.subject,
                list(item.paragraphs),
                item.link,
                item.label,
                item.unsubscribe,
            )
            return "sent" if await sender.send(msg) else "failed"

        try:
            return list(await asyncio.gather(*(one(i) for i in items)))
        finally:
            if sender is not None:
                await sender.close()

    async def close(self) -> None:
        if self.http is not None:
            await self.http.close()


# The post's process: its own loop and office, made once when the process starts.
_loop: asyncio.AbstractEventLoop | None = None
_office: Office | None = None


def _open(sending: Sending) -> None:
    global _loop, _office
    # Ctrl-C reaches the whole process group: the server decides when the post stops.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    # A move is waited for, a notice is not: on a machine short of CPU the moves go first.
    os.nice(NICE)
    _loop = asyncio.new_event_loop()
    _office = Office(sending)


def _deliver(items: list[Push | Letter]) -> list[push.Result]:
    assert _loop is not None and _office is not None, "the post's process was not opened"
    return _loop.run_until_complete(_office.deliver(items))


class Post:
    """The server's side: hands a pass's items to the post's process (started at the first
    item, started again if it dies) or sends them on this loop."""

    def __init__(self, settings: Settings, keys: Keys) -> None:
        self.sending = Sending(
            keys.vapid.private_pem(),
            settings.VAPID_SUBJECT,
            mail.smtp(settings.SMTP_URL) if settings.SMTP_URL else None,
            settings.MAIL_FROM,
            settings.PUSH_TIMEOUT,
        )
        self.office = Office(self.sending) if settings.NOTICE_SENDING == "inline" else None
        self.pool: ProcessPoolExecutor | None = None

    async def deliver(self, items: list[Push | Letter]) -> list[push.Result]:
        if not items:
            return []
        if self.office is not None:
            return await self.office.deliver(items)
        if self.pool is None:
            self.pool = ProcessPoolExecutor(
                1, mp_context=SPAWN, initializer=_open, initargs=(self.sending,)
            )
        try:
            return await asyncio.get_running_loop().run_in_executor(self.pool, _deliver, items)
        except BrokenProcessPool:
            # Whatever it sent before it died may go twice; nothing is lost.
            log.error("the notices' sending process died; its pass is tried again")
            self.pool.shutdown(wait=False)
            self.pool = None
            return ["failed"] * len(items)

    async def close(self) -> None:
        if self.office is not None:
            await self.office.close()
        if self.pool is not None:
            # A pass under way finishes (a push service may take PUSH_TIMEOUT), off this loop.
            await asyncio.to_thread(self.pool.shutdown, True, cancel_futures=True)
            self.pool = None
