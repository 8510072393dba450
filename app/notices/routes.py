"""The notices' routes: what a page offers (push per device, mail per player), and the links
in mails, which work without a sign-in."""

from __future__ import annotations

import hmac
import secrets
from html import escape
from typing import Annotated, Literal

from fastapi import APIRouter, Query, status
from fastapi.responses import HTMLResponse
from pydantic import BaseModel, Field
from sqlalchemy import delete, func, select

from app.api.deps import (
    RATE_LIMITED,
    ContextDep,
    CurrentPlayer,
    Responses,
    SessionDep,
    rate_limit,
)
from app.models import MailAddress, Notice, PushSubscription, now
from app.notices import mail, push
from app.notices.outbox import KINDS
from app.schemas import UNREADABLE_BODY, ErrorBody, Unprocessable
from app.services.errors import Problem
from app.services.games import new_id

router = APIRouter(prefix="/api/notices", tags=["notices"])
# Devices one player may have push subscriptions on.
MAX_DEVICES = 10
Kind = Literal[KINDS]  # type: ignore[valid-type]
LIMITED = [rate_limit("notices")]
REFUSED = {
    422: {
        "model": Unprocessable,
        "description": "a malformed or foreign subscription, or not a mail address",
    },
    **UNREADABLE_BODY,
    **RATE_LIMITED,
}


class Keys(BaseModel):
    p256dh: str = Field(max_length=120, description="the device's P-256 key, base64url")
    auth: str = Field(max_length=40, description="the device's 16-byte auth secret, base64url")


class Subscription(BaseModel):
    endpoint: str = Field(max_length=1024, description="the push service's URL for the device")
    keys: Keys
    kinds: list[Kind] = Field(max_length=len(KINDS), description="what the device is told of")


class Device(BaseModel):
    kinds: list[Kind] = Field(description="what this device is told of")


class Forgotten(BaseModel):
    forgotten: bool = Field(
        description="always true: nothing of it is kept (also when there was nothing)"
    )


class MailChoice(BaseModel):
    address: str = Field(max_length=254, description='where "your turn" mails go')
    digest: bool = Field(default=False, description="one mail a day instead of one per turn")


class MailState(BaseModel):
    enabled: bool = Field(description="this server sends mail")
    has_address: bool
    confirmed: bool
    digest: bool


class Settings(BaseModel):
    push_key: str = Field(description="the VAPID public key, the applicationServerKey")
    kinds: list[Kind] = Field(description="what a device may ask to be told of")
    mail: MailState


@router.get("", summary="My notices: what may be asked for, and my mail's state")
async def settings(ctx: ContextDep, session: SessionDep, player: CurrentPlayer) -> Settings:
    """The address itself is never sent back, to its owner either: only whether there is one."""
    found = await session.get(MailAddress, player.id)
    return Settings(
        push_key=ctx.notices.keys.public,
        kinds=list(KINDS),
        mail=MailState(
            enabled=ctx.notices.smtp is not None,
            has_address=found is not None,
            confirmed=found is not None and found.confirmed_at is not None,
            digest=found is not None and found.digest,
        ),
    )


@router.get(
    "/push",
    summary="What this device is told of",
    responses={404: {"model": ErrorBody, "description": "not subscribed"}},
)
async def device(
    session: SessionDep,
    player: CurrentPlayer,
    endpoint: Annotated[str, Query(max_length=1024)],
) -> Device:
    """The kinds of notice this device's push subscription (named by its endpoint) asked for;
    404 when it has none."""
    sub = await session.scalar(
        select(PushSubscription).where(
            PushSubscription.endpoint == endpoint, PushSubscription.player_id == player.id
        )
    )
    if sub is None:
        raise Problem(404, "This device is not subscribed.")
    return Device(kinds=sub.kinds)


@router.put(
    "/push",
    summary="Tell this device of these kinds",
    responses={**REFUSED, 409: {"model": ErrorBody, "description": "10 devices already"}},
    dependencies=LIMITED,
)
async def subscribe(
    ctx: ContextDep, session: SessionDep, player: CurrentPlayer, data: Subscription
) -> Device:
    """A subscription from the browser's ``PushManager``; its endpoint must be on a known push
    service (``PUSH_SERVICES``). The same endpoint again replaces the kinds."""
    push.check(data.endpoint, data.keys.p256dh, data.keys.auth, ctx.settings.PUSH_SERVICES)
    kinds = [k for k in KINDS if k in data.kinds]
    sub = await session.scalar(
        select(PushSubscription).where(PushSubscription.endpoint == data.endpoint)
    )
    if sub is None:
        count = (
            await session.execute(
                select(func.count()).where(PushSubscription.player_id == player.id)
            )
        ).scalar_one()
        if count >= MAX_DEVICES:
            raise Problem(409, f"At most {MAX_DEVICES} devices get notices; stop one first.")
        sub = PushSubscription(id=new_id(), endpoint=data.endpoint)
        session.add(sub)
    sub.player_id, sub.p256dh, sub.auth, sub.kinds = (
        player.id,
        data.keys.p256dh,
        data.keys.auth,
        kinds,
    )
    await session.commit()
    return Device(kinds=kinds)


@router.delete(
    "/push", summary="Stop this device's notices", dependencies=LIMITED, responses=RATE_LIMITED
)
async def unsubscribe(
    session: SessionDep,
    player: CurrentPlayer,
    endpoint: Annotated[str, Query(max_length=1024)],
) -> Forgotten:
    """The push subscription of this device (named by its endpoint) is deleted: it is told of
    nothing more. Deleting one that is not there is no error."""
    await session.execute(
        delete(PushSubscription).where(
            PushSubscription.endpoint == endpoint, PushSubscription.player_id == player.id
        )
    )
    await session.commit()
    return Forgotten(forgotten=True)


@router.put(
    "/mail",
    status_code=status.HTTP_202_ACCEPTED,
    summary="Mail me when it is my turn",
    dependencies=LIMITED,
    responses={**REFUSED, 409: {"model": ErrorBody, "description": "this server sends no mail"}},
)
async def set_mail(
    ctx: ContextDep, session: SessionDep, player: CurrentPlayer, data: MailChoice
) -> MailState:
    """A new address is sent a confirmation link, and gets no other mail until it is used;
    the same address again changes only the digest choice."""
    if ctx.notices.smtp is None or not ctx.settings.PUBLIC_URL:
        raise Problem(409, "This server sends no mail (its operator sets SMTP_URL and PUBLIC_URL).")
    address = mail.clean_address(data.address)
    found = await session.get(MailAddress, player.id, with_for_update=True)
    if found is None or found.address.lower() != address.lower():
        if found is not None:
            await session.delete(found)
            await session.flush()
        found = MailAddress(player_id=player.id, address=address, nonce=secrets.token_urlsafe(16))
        session.add(found)
        session.add(
            Notice(
                player_id=player.id,
                kind="confirm",
                detail=found.nonce,
                created_at=now(),
                next_try_at=now(),
                tries=0,
                done=[],
            )
        )
    found.digest = data.digest
    state = MailState(
        enabled=True,
        has_address=True,
        confirmed=found.confirmed_at is not None,
        digest=found.digest,
    )
    await session.commit()
    ctx.notices.kick()
    return state


@router.delete("/mail", summary="Forget my address", dependencies=LIMITED, responses=RATE_LIMITED)
async def forget_mail(session: SessionDep, player: CurrentPlayer) -> Forgotten:
    """The address is forgotten: no mail, no digest, and nothing of it kept."""
    await session.execute(delete(MailAddress).where(MailAddress.player_id == player.id))
    await session.commit()
    return Forgotten(forgotten=True)


def _page(title: str, text: str, code: int = 200, form: str = "") -> HTMLResponse:
    body = (
        f'<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="'
        f'viewport" content="width=device-width"><title>{escape(title)} · Campground'
        f'</title><link rel="stylesheet" href="/static/app.css"></head><body><main>'
        f'<section class="card"><h1>{escape(title)}</h1><p>{escape(text)}</p>{form}'
        '<p><a href="/">Campground</a></p></section></main></body></html>'
    )
    return HTMLResponse(body, status_code=code)


Token = Annotated[str, Query(max_length=200, description="the token of the mail's link")]
PAGE = {"text/html": {"schema": {"type": "string"}}}
# The link's pages are HTML; a refusal by the rate limit is the API's JSON, as everywhere.
LINK: Responses = {
    400: {"description": "a link this server did not make", "content": PAGE},
    410: {"description": "a link used already, or for an address no longer kept", "content": PAGE},
    429: {
        "description": RATE_LIMITED[429]["description"],
        "content": {"application/json": {"schema": {"$ref": "#/components/schemas/ErrorBody"}}},
    },
}
LINK_LIMITED = [rate_limit("notices", by_player=False)]


@router.get(
    "/mail/confirm",
    response_class=HTMLResponse,
    summary="Confirm an address (the link in the confirmation mail)",
    responses=LINK,
    dependencies=LINK_LIMITED,
)
async def confirm(ctx: ContextDep, session: SessionDep, token: Token) -> HTMLResponse:
    """The signed one-time link of the confirmation mail: the address is confirmed and mail
    starts. A reused, forged or expired link is a page that says so."""
    try:
        player_id, nonce = mail.opened(ctx.notices.keys, token, "confirm")
    except Problem as exc:
        return _page("Not a link of ours", exc.detail, 400)
    found = await session.get(MailAddress, player_id, with_for_update=True)
    if (
        found is None
        or found.nonce is None
        or not hmac.compare_digest(found.nonce.encode(), nonce.encode())
    ):
        return _page(
            "Link already used",
            "This link was used already, or its address was changed since.",
            410,
        )
    found.nonce, found.confirmed_at = None, now()
    await session.commit()
    return _page(
        "Address confirmed", "Campground will mail you when it is your turn at a turn-based table."
    )


@router.get(
    "/mail/unsubscribe",
    response_class=HTMLResponse,
    summary="The unsubscribe link of a mail: a page with one button",
    responses=LINK,
    dependencies=LINK_LIMITED,
)
async def unsubscribe_page(ctx: ContextDep, token: Token) -> HTMLResponse:
    """The page a mail's unsubscribe link opens, without a sign-in: one button that posts the
    same signed link (a link alone unsubscribes nobody, as mail scanners open links)."""
    try:
        mail.opened(ctx.notices.keys, token, "unsubscribe")
    except Problem as exc:
        return _page("Not a link of ours", exc.detail, 400)
    form = (
        '<form method="post"><input type="hidden" name="List-Unsubscribe" value="'
        'One-Click"><button class="primary" type="submit">Stop the mails</button></form>'
    )
    return _page("Stop Campground's mails?", "One click, and this address is forgotten.", form=form)


@router.post(
    "/mail/unsubscribe",
    response_class=HTMLResponse,
    summary="Unsubscribe with one click (RFC 8058), without a sign-in",
    responses=LINK,
    dependencies=LINK_LIMITED,
)
async def unsubscribe_mail(ctx: ContextDep, session: SessionDep, token: Token) -> HTMLResponse:
    """Deletes the address the link was made for, and nothing else: a link made for another
    address (an old one of the same player) finds nothing."""
    try:
        player_id, digest = mail.opened(ctx.notices.keys, token, "unsubscribe")
    except Problem as exc:
        return _page("Not a link of ours", exc.detail, 400)
    found = await session.get(MailAddress, player_id, with_for_update=True)
    if found is None or not mail.is_for(found.address, digest):
        return _page("Already unsubscribed", "This address gets no mail from Campground.", 410)
    await session.delete(found)
    await session.commit()
    return _page("Unsubscribed", "This address gets no more mail from Campground.")
