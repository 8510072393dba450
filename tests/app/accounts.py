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
