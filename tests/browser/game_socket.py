"""The page's game socket seen from the test: a route on it that passes every message both
ways and keeps what the page sent."""

from __future__ import annotations

import json
import re

from playwright.sync_api import Page

GAME_SOCKET = re.compile(r"/ws/games/")


def record_sent(page: Page) -> list[dict]:
    """What the page sends on its game socket from now on, in order (a list that grows)."""
    sent: list[dict] = []

    def route(ws):
        server = ws.connect_to_server()
        server.on_message(ws.send)

        def to_server(message):
            sent.append(json.loads(message))
            server.send(message)

        ws.on_message(to_server)

    page.route_web_socket(GAME_SOCKET, route)
    return sent
