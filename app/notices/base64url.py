"""Base64url without padding, as Web Push writes keys and as the mail links carry tokens.

A module of its own so that the post's process (``post``) imports it without the database."""

from __future__ import annotations

import base64


def b64(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def unb64(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))
