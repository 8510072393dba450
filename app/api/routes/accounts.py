"""Sign-ins and devices: claim the guest you are, sign in anywhere, see and end devices."""

import segno
from fastapi import APIRouter, Depends, Request, Response, status

from app.api.deps import (
    RATE_LIMITED,
    ContextDep,
    CurrentPlayer,
    Token,
)
from app.api.routes.players import YEAR, give_cookie, take_cookie
from app.context import Context
from app.guard import client_address, served_over_https
from app.schemas import (
    UNREADABLE_BODY,
    ErrorBody,
    PlayerCreated,
    Responses,
    SignedOut,
    Unprocessable,
)
from app.schemas_accounts import (
    Account,
    AccountCreate,
    DeviceCodeOut,
    DeviceCodeRedeem,
    DeviceOut,
    DevicesSignedOut,
    PasswordChange,
    SignIn,
)
from app.services import accounts, players, trusted_devices
from app.services.errors import Problem
from app.services.players import token_hash

router = APIRouter(tags=["sign-in"])

ERRORS: Responses = {
    **UNREADABLE_BODY,
    **RATE_LIMITED,
    401: {"model": ErrorBody},
    422: {"model": Unprocessable},
}


async def by_address(request: Request, ctx: ContextDep) -> None:
    """Every sign-in attempt counts against its address first, before any work."""
    await ctx.limits.sign_ins_by_address.spend(f"address:{client_address(request)}")


ByAddress = Depends(by_address)


def _device(request: Request) -> accounts.Device:
    return accounts.describe(request.headers.get("user-agent"))


async def _trust(ctx: Context, request: Request, response: Response, handle: str) -> None:
    """This device has shown it is the player's: its sign-ins count apart from now on."""
    value = await ctx.trusted.issue(accounts.handle_key(handle))
    response.set_cookie(
        trusted_devices.COOKIE,
        value,
        max_age=YEAR,
        path=trusted_devices.PATH,
        httponly=True,
        samesite="lax",
        secure=served_over_https(ctx.settings, request),
    )


async def _this_device(
    ctx: Context, request: Request, response: Response, signed: accounts.SignedIn
) -> PlayerCreated:
    """The device is the player now: its token, once, and as the cookie; and it is trusted."""
    give_cookie(ctx, request, response, signed.token)
    player = signed.player
    assert player.handle is not None
    await _trust(ctx, request, response, player.handle)
    return PlayerCreated(id=player.id, name=player.name, handle=player.handle, token=signed.token)


@router.post(
    "/api/accounts",
    status_code=status.HTTP_201_CREATED,
    summary="Add a sign-in to the guest you are",
    description="The caller (a guest) gets a handle and a password: nothing about their seats, "
    "games or name changes, and the token they hold becomes their first signed-in device. The "
    "password is kept only as an argon2id hash. 409 when the handle is taken (whatever its "
    "case) or the caller has a sign-in already.",
    responses=ERRORS | {409: {"model": ErrorBody}},
    dependencies=[ByAddress],
)
async def claim(
    data: AccountCreate,
    ctx: ContextDep,
    player: CurrentPlayer,
    request: Request,
    response: Response,
) -> Account:
    claimed = await accounts.claim(ctx.db, player, data.handle, data.password, _device(request))
    await _trust(ctx, request, response, data.handle)
    # The handle shows at the player's tables, and a lobby waiting on their sign-in is rated.
    async with ctx.db.writing() as session:
        games, lobbies = await players.seats_changed(session, player.id)
    for game_id, version in games.items():
        await ctx.game_changed(game_id, version)
    for lobby_id in lobbies:
        await ctx.lobby_changed(lobby_id)
    return Account(id=claimed.id, name=claimed.name, handle=data.handle)


@router.put(
    "/api/accounts/password",
    summary="Change my password",
    description="With the current password. Every other device of the player is signed out "
    "(their sockets closed at once, with code 4401) and every device code ends; this device "
    "stays. Attempts are rate-limited like sign-ins.",
    responses=ERRORS | {409: {"model": ErrorBody, "description": "a guest has no password"}},
    dependencies=[ByAddress],
)
async def change_password(
    data: PasswordChange, ctx: ContextDep, player: CurrentPlayer, token: Token
) -> DevicesSignedOut:
    await ctx.limits.sign_ins.spend(f"player:{player.id}")
    ended = await accounts.change_password(ctx.db, player, data.password, data.new_password, token)
    await ctx.sign_outs.ended(player.id, ended)
    return DevicesSignedOut(signed_out=len(ended))


@router.post(
    "/api/sessions",
    status_code=status.HTTP_201_CREATED,
    summary="Sign in",
    description="This device becomes the player with this handle, with a token of its own "
    "(returned once, and set as the HttpOnly cookie), like `POST /api/players`. An unknown "
    "handle and a wrong password get the same 401 after the same work. Attempts are "
    "rate-limited per handle and per address, except from a device that has been this player "
    "before: it brings the `campground_device` cookie every sign-in, claim and device code "
    "sets, and its attempts count against that cookie alone, so guesses made elsewhere never "
    "lock it out. 503 with `Retry-After` when too many passwords are being checked at once.",
    responses=ERRORS | {503: {"model": ErrorBody, "description": "too many sign-ins at once"}},
)
async def sign_in(
    data: SignIn, ctx: ContextDep, request: Request, response: Response
) -> PlayerCreated:
    handle = data.handle.strip()
    key = accounts.handle_key(handle)
    trusted = await ctx.trusted.recognise(request.cookies.get(trusted_devices.COOKIE), key)
    if trusted is not None:
        await ctx.limits.sign_ins.spend(f"device:{trusted}")
    else:
        await by_address(request, ctx)
        await ctx.limits.sign_ins.spend(f"handle:{key}")
    signed = await accounts.sign_in(ctx.db, handle, data.password, _device(request))
    return await _this_device(ctx, request, response, signed)


@router.get(
    "/api/sessions",
    summary="My signed-in devices",
    description="Newest first; `current` is the device asking. A guest has none.",
    responses={401: {"model": ErrorBody}},
)
async def devices(ctx: ContextDep, player: CurrentPlayer, token: Token) -> list[DeviceOut]:
    mine = token_hash(token or "")
    return [
        DeviceOut(
            id=d.id,
            how=d.how,
            device=d.device,
            browser=d.browser,
            system=d.system,
            created_at=d.created_at,
            last_used_at=d.last_used_at or d.created_at,
            current=d.token_hash == mine,
        )
        for d in await accounts.devices(ctx.db, player.id)
    ]


@router.delete(
    "/api/sessions/current",
    summary="Sign out on this device",
    description="This device's token stops working, its sockets are closed at once (code 4401), "
    "the device codes it made end and its cookie is cleared; the player's other devices stay "
    "signed in. 409 for a guest, whose one token is the only way back to "
    "their seats (`POST /api/players/sign-out` only makes the browser forget it).",
    responses={401: {"model": ErrorBody}, 409: {"model": ErrorBody}},
)
async def sign_out_here(
    ctx: ContextDep, player: CurrentPlayer, token: Token, request: Request, response: Response
) -> SignedOut:
    if player.handle is None:
        raise Problem(409, "A guest cannot sign out for good: add a sign-in first.")
    ended = await accounts.sign_out(ctx.db, player.id, token=token or "")
    await ctx.sign_outs.ended(player.id, ended)
    take_cookie(ctx, request, response)
    return SignedOut(signed_out=True)


@router.delete(
    "/api/sessions",
    summary="Sign out everywhere else",
    description="Every device of the player but this one is signed out: their sockets are "
    "closed at once (code 4401), on every server, and every device code of the player ends.",
    responses={401: {"model": ErrorBody}},
)
async def sign_out_others(ctx: ContextDep, player: CurrentPlayer, token: Token) -> DevicesSignedOut:
    ended = await accounts.sign_out(ctx.db, player.id, all_but=token)
    await ctx.sign_outs.ended(player.id, ended)
    return DevicesSignedOut(signed_out=len(ended))


@router.delete(
    "/api/sessions/{session_id}",
    summary="Sign out one device",
    description="One of the caller's devices (an `id` from `GET /api/sessions`) is signed out: "
    "its sockets are closed at once (code 4401), on every server, and its device codes end.",
    responses={401: {"model": ErrorBody}, 404: {"model": ErrorBody}},
)
async def sign_out_device(session_id: str, ctx: ContextDep, player: CurrentPlayer) -> SignedOut:
    ended = await accounts.sign_out(ctx.db, player.id, session_id=session_id)
    if not ended:
        raise Problem(404, "You have no such device.")
    await ctx.sign_outs.ended(player.id, ended)
    return SignedOut(signed_out=True)


@router.post(
    "/api/sessions/device-codes",
    status_code=status.HTTP_201_CREATED,
    summary="Use on another device",
    description="A one-time code, valid for 10 minutes, that makes another device this player "
    "without a password: typed at `/device` there, or by opening `url` (its QR code is "
    "`qr_svg`). It ends sooner when this device is signed out, or with any change of "
    "credentials (a new password, every other device signed out, an admin's sign-out or "
    "suspension). 403 for a guest.",
    responses={401: {"model": ErrorBody}, 403: {"model": ErrorBody}, **RATE_LIMITED},
    dependencies=[ByAddress],
)
async def new_device_code(
    ctx: ContextDep, player: CurrentPlayer, token: Token, request: Request
) -> DeviceCodeOut:
    code, expires = await accounts.new_device_code(ctx.db, player, token or "")
    url = f"{ctx.base_url(request)}/device#{code}"
    qr = segno.make(url, error="m").svg_data_uri(scale=4, dark="#1f2d1f", light="#ffffff")
    return DeviceCodeOut(code=code, url=url, qr_svg=qr, expires_at=expires)


@router.post(
    "/api/sessions/device",
    status_code=status.HTTP_201_CREATED,
    summary="Become the player of a device code",
    description="This device becomes the player who made the code, with a token of its own "
    "(set as the cookie too). A code works once, for 10 minutes, while the device that made it "
    "is signed in: after that, or for an unknown one, 401.",
    responses=ERRORS,
    dependencies=[ByAddress],
)
async def redeem_device_code(
    data: DeviceCodeRedeem, ctx: ContextDep, request: Request, response: Response
) -> PlayerCreated:
    signed = await accounts.redeem_device_code(ctx.db, data.code, _device(request))
    return await _this_device(ctx, request, response, signed)
