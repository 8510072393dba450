"""The worker that sends notices, one in each instance.

It claims the rows that are due with one UPDATE that moves them a lease ahead (on PostgreSQL
picked ``FOR UPDATE SKIP LOCKED``, so two instances never take the same row; SQLite has one
writer at a time), reads what it needs and lets the connection go, has the post (``post``)
send it over the network, then deletes what was sent. A channel that failed is tried again
with backoff (the ones that worked are kept in ``done`` and not sent twice); a notice still
unsent after ``NOTICE_GIVE_UP`` is dropped and counted. Nobody is sent a notice about a table they have open.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from sqlalchemy import delete, select, update
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.ext.asyncio import AsyncSession

from app import metrics
from app.config import Settings
from app.db import Database
from app.models import Game, MailAddress, MailSent, Notice, PushSubscription, now
from app.notices import digests, keys, mail, reminders, texts
from app.notices.keys import Keys
from app.notices.outbox import turn_based
from app.notices.post import Letter, Post, Push
from app.notices.presence import Presence
from app.notices.reminders import utc

log = logging.getLogger(__name__)

BATCH = 100
# Passes at once while the notices are behind: one's sending overlaps the next one's claim and
# the last one's record, each a wait for a pooled connection on a busy server.
PASSES = 3
# A claimed notice is the claimer's for this long: far more than a send may take.
LEASE = timedelta(minutes=2)


def backoff(first: float, tries: int) -> timedelta:
    """How long after its ``tries``-th failure a notice is tried again."""
    return timedelta(seconds=min(first * 2 ** max(tries - 1, 0), 3600))


@dataclass
class _Claimed:
    id: int
    player_id: str
    game_id: str | None
    kind: str
    detail: str | None
    created_at: datetime
    tries: int
    done: list[str]
    failed: bool = False
    gone: list[str] = field(default_factory=list)
    mailed: bool = False


@dataclass
class _Known:
    """What a batch's sending needs, read in one go before any of it is sent."""

    games: dict[str, tuple[str, bool]]
    subs: dict[str, list[PushSubscription]]
    addresses: dict[str, MailAddress]
    mailed: set[tuple[str, str]]
    looking: set[tuple[str, str]]


class Notices:
    def __init__(self, db: Database, settings: Settings, presence: Presence):
        self.db = db
        self.settings = settings
        self.presence = presence
        self.smtp = mail.smtp(settings.SMTP_URL) if settings.SMTP_URL else None
        self._keys: Keys | None = None
        self.post: Post | None = None
        self._kick = asyncio.Event()
        self._task: asyncio.Task | None = None
        self._scanned = 0.0
        self._passed = 0.0

    async def start(self) -> None:
        self._keys = await keys.load(self.db, self.settings.VAPID_PRIVATE_KEY)
        self.post = Post(self.settings, self._keys)
        self.presence.start()
        if self.settings.NOTICE_POLL:
            self._task = asyncio.create_task(self._run(self.settings.NOTICE_POLL))

    @property
    def keys(self) -> Keys:
        """The server's keys (VAPID, and the links' signing key), which ``start`` loads."""
        assert self._keys is not None, "the notices were not started"
        return self._keys

    async def close(self) -> None:
        if self._task is not None:
            self._task.cancel()
            await asyncio.gather(self._task, return_exceptions=True)
        await self.presence.close()
        if self.post is not None:
            await self.post.close()

    def kick(self) -> None:
        """Notices were written here: send them now rather than at the next poll."""
        self._kick.set()

    async def _run(self, every: float) -> None:
        while True:
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._kick.wait(), every)
            # Kicked after every move that tells someone: on a busy server the notices of
            # several moves share one pass (its claim, reads and deletes), not one pass each.
            wait = self._passed + self.settings.NOTICE_GATHER - time.monotonic()
            if wait > 0:
                await asyncio.sleep(wait)
            self._kick.clear()
            self._passed = time.monotonic()
            try:
                if await self.send_due() == BATCH:
                    await self._catch_up()
                if time.monotonic() - self._scanned >= self.settings.NOTICE_SCAN_EVERY:
                    self._scanned = time.monotonic()
                    await self.scan()
            except Exception:
                log.exception("sending notices failed; trying again at the next poll")

    async def _catch_up(self) -> None:
        """Behind (a batch came full): ``PASSES`` passes at once, each claiming the next batch
        without looking first while its last one came full."""

        async def passes() -> None:
            while await self.send_due(look_first=False) == BATCH:
                pass

        await asyncio.gather(*(passes() for _ in range(PASSES)))

    async def scan(self) -> None:
        """Write the reminders that have come, and send the daily digests due."""
        at = now()
        await reminders.scan(self.db, at)
        if self.smtp is not None and self._keys is not None:
            await digests.send_due(self.db, self.settings, self.smtp, self.keys, at)

    async def send_due(self, look_first: bool = True) -> int:
        """Send the notices due now; how many were claimed. ``look_first``: a read first, as
        most polls find nothing and need take no write lock to learn it."""
        at = now()
        if look_first and not await self._any_due(at):
            return 0
        got = await self._claim(at)
        if got is None:
            return 0
        claimed, known = got
        assert self.post is not None, "the notices were not started"
        planned = [(n, self._plan(n, known)) for n in claimed]
        outcomes = iter(
            await self.post.deliver([item for _, sends in planned for _, item in sends])
        )
        for n, sends in planned:
            self._settle(n, [(channel, next(outcomes)) for channel, _ in sends])
        await self._record(claimed, at)
        return len(claimed)

    async def _any_due(self, at: datetime) -> bool:
        async with self.db.session() as session:
            found = await session.scalar(select(Notice.id).where(Notice.next_try_at <= at).limit(1))
        return found is not None

    async def _claim(self, at: datetime) -> tuple[list[_Claimed], _Known] | None:
        """The batch claimed (None when nothing was due), and what its sending needs read in
        the same transaction: one wait for a pooled connection, not two, on a server whose
        moves keep the pool busy."""
        due = (
            select(Notice.id)
            .where(Notice.next_try_at <= at)
            .order_by(Notice.next_try_at)
            .limit(BATCH)
            .with_for_update(skip_locked=True)
        )
        async with self.db.writing() as session:
            rows = (
                await session.execute(
                    update(Notice)
                    .where(Notice.id.in_(due.scalar_subquery()))
                    .values(next_try_at=at + LEASE, tries=Notice.tries + 1)
                    .returning(
                        Notice.id,
                        Notice.player_id,
                        Notice.game_id,
                        Notice.kind,
                        Notice.detail,
                        Notice.created_at,
                        Notice.tries,
                        Notice.done,
                    )
                    .execution_options(synchronize_session=False)
                )
            ).all()
            claimed = [_Claimed(*row) for row in rows]
            known = await self._read(session, claimed) if claimed else None
        if known is None:
            return None
        # Asked once the connection is back in the pool: presence may be a network away.
        known.looking = await self.presence.looking(
            [(n.game_id, n.player_id) for n in claimed if n.game_id and n.kind != "confirm"]
        )
        return claimed, known

    async def _read(self, session: AsyncSession, claimed: list[_Claimed]) -> _Known:
        """What the batch's sending needs (``looking`` is filled in after)."""
        players = {n.player_id for n in claimed}
        game_ids = {n.game_id for n in claimed if n.game_id}
        cutoff = now() - timedelta(seconds=self.settings.MAIL_EVERY)
        games = {
            g: (k, turn_based(speed, t))
            for g, k, speed, t in (
                await session.execute(
                    select(Game.id, Game.kind, Game.speed, Game.turn_seconds).where(
                        Game.id.in_(game_ids)
                    )
                )
            ).all()
        }
        subs: dict[str, list[PushSubscription]] = {}
        for sub in await session.scalars(
            select(PushSubscription).where(PushSubscription.player_id.in_(players))
        ):
            subs.setdefault(sub.player_id, []).append(sub)
        addresses = (
            {
                a.player_id: a
                for a in await session.scalars(
                    select(MailAddress).where(MailAddress.player_id.in_(players))
                )
            }
            if self.smtp
            else {}
        )
        mailed = (
            {
                (p, g)
                for p, g in (
                    await session.execute(
                        select(MailSent.player_id, MailSent.game_id).where(
                            MailSent.player_id.in_(players), MailSent.sent_at > cutoff
                        )
                    )
                ).all()
            }
            if addresses
            else set()
        )
        return _Known(games, subs, addresses, mailed, set())

    def _plan(self, n: _Claimed, known: _Known) -> list[tuple[str, Push | Letter]]:
        """What is sent for this notice, each item with its channel (``push:<id>``, ``mail``):
        nothing to a person looking at its table, nor again on a channel it went through."""
        if n.game_id and (n.game_id, n.player_id) in known.looking:
            metrics.NOTICES_UNSENT.inc()
            return []
        game_kind, by_turns = known.games.get(n.game_id or "", (None, False))
        sends: list[tuple[str, Push | Letter]] = []
        if n.kind != "confirm" and (n.game_id is None or game_kind is not None):
            text = texts.of(n.kind, game_kind, n.game_id, n.detail)
            payload = {
                "title": text.title,
                "body": text.body,
                "url": text.path,
                "tag": f"{n.game_id}:{n.kind}",
            }
            wanted = "turn" if n.kind == "reminder" else n.kind
            for sub in known.subs.get(n.player_id, []):
                if wanted in sub.kinds and f"push:{sub.id}" not in n.done:
                    sends.append(
                        (f"push:{sub.id}", Push(sub.endpoint, sub.p256dh, sub.auth, payload))
                    )
        address = known.addresses.get(n.player_id)
        if (
            address is not None
            and "mail" not in n.done
            and self._mails(n, address, known, by_turns)
        ):
            sends.append(("mail", self._letter(n, address, game_kind)))
        return sends

    def _settle(self, n: _Claimed, outcomes: list[tuple[str, str]]) -> None:
        for channel, outcome in outcomes:
            kind, _, sub_id = channel.partition(":")
            if outcome == "failed":
                n.failed = True
                metrics.NOTICE_FAILURES.labels(kind).inc()
                continue
            n.done.append(channel)
            metrics.NOTICES_SENT.labels(kind).inc()
            if outcome == "gone":
                n.gone.append(sub_id)
            if kind == "mail" and n.kind != "confirm":
                n.mailed = True
        if outcomes and not n.failed:
            metrics.NOTICE_DELAY.observe((now() - utc(n.created_at)).total_seconds())

    def _mails(self, n: _Claimed, address: MailAddress, known: _Known, by_turns: bool) -> bool:
        """Whether this notice is mailed: a confirmation to an address waiting for one; "your
        turn" and reminders at a turn-based table to a confirmed address without the digest,
        at most once per table per ``MAIL_EVERY``."""
        if n.kind == "confirm":
            return address.confirmed_at is None and address.nonce == n.detail
        if n.game_id is None:
            return False  # only a table's turns and reminders are mailed
        mails = (
            n.kind in ("turn", "reminder")
            and address.confirmed_at is not None
            and not address.digest
            and by_turns
            and (n.player_id, n.game_id) not in known.mailed
        )
        if mails:
            known.mailed.add((n.player_id, n.game_id))
        return mails

    def _letter(self, n: _Claimed, address: MailAddress, game_kind: str | None) -> Letter:
        base = (self.settings.PUBLIC_URL or "").rstrip("/")
        unsubscribe = (
            f"{base}/api/notices/mail/unsubscribe?token="
            f"{mail.unsubscribe_token(self.keys, n.player_id, address.address)}"
        )
        if n.kind == "confirm":
            token = mail.confirm_token(self.keys, n.player_id, n.detail or "")
            return Letter(
                address.address,
                "Confirm your address for Campground",
                (
                    "Someone (we hope you) asked Campground to tell this address when it is their "
                    "turn at a table.",
                    "If that was not you, do nothing: no more mail will come.",
                ),
                f"{base}/api/notices/mail/confirm?token={token}",
                "Confirm the address",
                unsubscribe,
            )
        text = texts.of(n.kind, game_kind, n.game_id, n.detail)
        return Letter(
            address.address,
            text.title,
            (text.body,),
            f"{base}{text.path}",
            "Open the table",
            unsubscribe,
        )

    async def _record(self, claimed: list[_Claimed], at: datetime) -> None:
        give_up = at - timedelta(seconds=self.settings.NOTICE_GIVE_UP)
        finished = [n.id for n in claimed if not n.failed]
        async with self.db.writing() as session:
            gone = [s for n in claimed for s in n.gone]
            if gone:
                await session.execute(delete(PushSubscription).where(PushSubscription.id.in_(gone)))
            for n in claimed:
                if n.failed and utc(n.created_at) < give_up:
                    metrics.NOTICES_GIVEN_UP.inc()
                    finished.append(n.id)
                elif n.failed:
                    await session.execute(
                        update(Notice)
                        .where(Notice.id == n.id)
                        .values(
                            done=n.done,
                            next_try_at=at + backoff(self.settings.NOTICE_RETRY, n.tries),
                        )
                    )
            mailed = {(n.player_id, n.game_id) for n in claimed if n.mailed and n.game_id}
            if mailed:
                # An upsert: two passes at once may both have mailed about one table.
                dialect = postgresql if session.get_bind().dialect.name == "postgresql" else sqlite
                new = dialect.insert(MailSent).values(
                    [{"player_id": p, "game_id": g, "sent_at": at} for p, g in sorted(mailed)]
                )
                await session.execute(
                    new.on_conflict_do_update(
                        index_elements=[MailSent.player_id, MailSent.game_id],
                        set_={"sent_at": new.excluded.sent_at},
                    )
                )
            if finished:
                await session.execute(delete(Notice).where(Notice.id.in_(finished)))
