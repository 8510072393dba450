"""Helpers for tests of sign-ins: a guest who claims a handle, and a second device."""

from __future__ import annotations

import itertools

PASSWORD = "correct horse battery"
_numbers = itertools.count()


def new_handle(stem: str = "ana") -> str:
    """A handle no other test of the run uses (tests share a database per module)."""
    return f"{stem}{next(_numbers)}"


def signed_in(live, name: str = "Ana", handle: str | None = None, password: str = PASSWORD):
    """A guest who added a sign-in; ``client.handle`` is theirs."""
    client = live.guest(name)
    client.handle = handle or new_handle(name.lower())
    r = client.post("/api/accounts", json={"handle": client.handle, "password": password})
    assert r.status_code == 201, r.text
    return client


def device(live, handle: str, password: str = PASSWORD):
    """Another device of the player with ``handle``, signed in; it sends its bearer token."""
    client = live.client()
    r = client.post("/api/sessions", json={"handle": handle, "password": password})
    assert r.status_code == 201, r.text
    body = r.json()
    client.cookies.clear()
    client.token, client.id, client.name = body["token"], body["id"], body["name"]
    client.handle = handle
    client.headers["Authorization"] = f"Bearer {client.token}"
    return client


def session_id(client) -> str:
    """The id of ``client``'s own device, as its player's list of devices gives it."""
    [found] = [d["id"] for d in client.get("/api/sessions").json() if d["current"]]
    return found


def _this_device(live, laptop, phone):
    return phone.delete("/api/sessions/current")


def _one_device(live, laptop, phone):
    return laptop.delete(f"/api/sessions/{session_id(phone)}")


def _every_other_device(live, laptop, phone):
    return laptop.delete("/api/sessions")


def _password_change(live, laptop, phone):
    return laptop.put(
        "/api/accounts/password", json={"password": PASSWORD, "new_password": "a new secret"}
    )


def _admin_sign_out(live, laptop, phone):
    return live.admin().delete(f"/api/admin/players/{laptop.id}/sessions")


def _suspension(live, laptop, phone):
    return live.admin().post(f"/api/admin/players/{laptop.id}/suspension")


# Every way a device (``phone``, a second device of ``laptop``'s player) is signed out, and
# whether the laptop stays signed in.
SIGN_OUTS = {
    "this device": (_this_device, True),
    "one device": (_one_device, True),
    "every other device": (_every_other_device, True),
    "password change": (_password_change, True),
    "admin sign-out": (_admin_sign_out, False),
    "suspension": (_suspension, False),
}
