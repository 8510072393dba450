"""A VAPID header is signed once an hour for each push service, and always has more than 11
of its 12 hours left when it is sent."""

from __future__ import annotations

import base64
import json

from py_vapid import Vapid02

from app.notices.push import SIGNED_FOR, Signatures


def claims(header: dict[str, str]) -> dict:
    token = header["Authorization"].split("t=")[1].split(",")[0]
    body = token.split(".")[1]
    return json.loads(base64.urlsafe_b64decode(body + "=" * (-len(body) % 4)))


def test_a_header_is_signed_once_an_hour_for_each_push_service():
    vapid = Vapid02()
    vapid.generate_keys()
    now = [1_000_000.0]
    signatures = Signatures(vapid, "mailto:camp@example.org", clock=lambda: now[0])
    first = signatures.header("https://push.example/send/a")
    assert Vapid02.verify(first["Authorization"])
    assert claims(first) == {
        "sub": "mailto:camp@example.org",
        "aud": "https://push.example",
        "exp": 1_000_000 + SIGNED_FOR,
    }
    now[0] += 3599
    assert signatures.header("https://push.example/send/b") is first
    other = signatures.header("https://other.example:8443/x")
    assert claims(other)["aud"] == "https://other.example:8443"
    now[0] += 1
    later = signatures.header("https://push.example/send/a")
    assert later is not first and claims(later)["exp"] == 1_003_600 + SIGNED_FOR
