"""Someone else's guesses never lock the owner out: a device that has signed in as the player
carries a signed device cookie, and its sign-ins count against that cookie alone, while every
other device is limited per handle and per address as before."""

from __future__ import annotations

import pytest

from app.limits import Limits
from app.services import trusted_devices
from tests.app.accounts import PASSWORD, new_handle, signed_in

WRONG = "not the password"


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def school(database_url, serve):
    """The default ten attempts per handle in 5 minutes; an address allowed twelve."""
    clock = Clock()
    with serve(database_url, RATE_SIGN_INS="10/300", RATE_SIGN_INS_PER_ADDRESS="12/300") as live:
        ctx = live.app.state.ctx
        ctx.limits = Limits(ctx.settings, clock)
        yield live, clock


def sign_in(client, handle: str, password: str) -> int:
    return client.post("/api/sessions", json={"handle": handle, "password": password}).status_code


def test_a_strangers_guesses_lock_out_strangers_but_never_the_owners_device(school):
    live, clock = school
    ana = signed_in(live, "Ana")  # the claim: one attempt of the address
    laptop = live.client()
    assert sign_in(laptop, ana.handle, PASSWORD) == 201  # one of the handle's ten, too
    assert trusted_devices.COOKIE in laptop.cookies
    thief = live.client()
    for _ in range(9):
        assert sign_in(thief, ana.handle, WRONG) == 401
    # The handle's ten are spent, and the address's twelve with this one.
    assert sign_in(thief, ana.handle, WRONG) == 429
    assert sign_in(thief, ana.handle, PASSWORD) == 429
    assert sign_in(live.client(), new_handle(), WRONG) == 429
    # A new device of the owner is a stranger too: guessing stays as limited as before.
    assert sign_in(live.client(), ana.handle, PASSWORD) == 429
    assert sign_in(laptop, ana.handle, PASSWORD) == 201
    # One guess every 30 s keeps strangers out, and the laptop in.
    for _ in range(5):
        clock.now += 30
        assert sign_in(thief, ana.handle, WRONG) == 401
        assert sign_in(thief, ana.handle, PASSWORD) == 429
        assert sign_in(laptop, ana.handle, PASSWORD) == 201


def test_a_forged_or_borrowed_device_cookie_is_a_stranger(school):
    live, _ = school
    ana, eve = signed_in(live, "Ana"), signed_in(live, "Eve")
    thief = live.client()
    for _ in range(10):
        assert sign_in(thief, ana.handle, WRONG) == 401
    # Eve's own cookie (from her claim) names Eve; a made-up one is signed by nobody.
    assert sign_in(eve, ana.handle, PASSWORD) == 429
    eves = eve.cookies[trusted_devices.COOKIE]
    forger = live.client()
    for forged in (
        f"{ana.handle.lower()}.abc.forged",
        "",
        "a.b",
        f"{ana.handle.lower()}..",
        eves.replace(eve.handle.lower(), ana.handle.lower()),
    ):
        forger.cookies.set(trusted_devices.COOKIE, forged)
        assert sign_in(forger, ana.handle, PASSWORD) == 429


def test_a_trusted_device_has_ten_guesses_of_its_own(school):
    live, clock = school
    ana = signed_in(live, "Ana")
    laptop = live.client()
    assert sign_in(laptop, ana.handle, PASSWORD) == 201
    clock.now += 300  # the address's attempts come back
    for _ in range(10):
        assert sign_in(laptop, ana.handle, WRONG) == 401
    assert sign_in(laptop, ana.handle, PASSWORD) == 429
    # A stranger is not held back by the laptop's guesses either.
    assert sign_in(live.client(), ana.handle, PASSWORD) == 201


def test_the_claim_and_a_device_code_trust_the_device(school):
    live, _ = school
    ana = signed_in(live, "Ana")
    assert trusted_devices.COOKIE in ana.cookies
    code = ana.post("/api/sessions/device-codes").json()["code"]
    phone = live.client()
    assert phone.post("/api/sessions/device", json={"code": code}).status_code == 201
    thief = live.client()
    for _ in range(10):
        sign_in(thief, ana.handle, WRONG)
    assert sign_in(thief, ana.handle, PASSWORD) == 429
    assert sign_in(phone, ana.handle, PASSWORD) == 201
    assert sign_in(ana, ana.handle, PASSWORD) == 201


def test_the_device_cookie_is_http_only_and_sent_only_to_sign_ins(live):
    ana = signed_in(live, "Ana")
    r = live.client().post("/api/sessions", json={"handle": ana.handle, "password": PASSWORD})
    [cookie] = [
        c for c in r.headers.get_list("set-cookie") if c.startswith(f"{trusted_devices.COOKIE}=")
    ]
    assert "HttpOnly" in cookie and "Path=/api/sessions" in cookie
    assert "samesite=lax" in cookie.lower()
    assert PASSWORD not in cookie and r.json()["token"] not in cookie
