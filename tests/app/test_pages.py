"""The browser client's pages and files, and the OpenAPI description."""

import re

import pytest

from app.config import project_path
from app.static_files import version

INDEX = project_path("static") / "index.html"
PRELOADS = re.compile(r'<link rel="modulepreload" href="[^"]+">\n  ')


@pytest.mark.parametrize("path", ["/", "/lobbies/abc", "/join/x87464kcaw", "/games/abc"])
def test_client_pages_serve_the_single_page_app(live, path):
    r = live.client().get(path)
    assert r.status_code == 200
    assert r.headers["content-type"].startswith("text/html")
    # index.html, its files named under the client's version, with the modules its script
    # imports named for preloading.
    current = f"/static/v/{version(INDEX.parent)}/"
    assert PRELOADS.sub("", r.text).replace(current, "/static/") == INDEX.read_text()


def test_static_files_are_served(live):
    r = live.client().get("/static/index.html")
    assert r.status_code == 200 and r.content == INDEX.read_bytes()
    assert live.client().get("/static/no-such-file.js").status_code == 404


def test_every_route_is_described(live):
    spec = live.client().get("/openapi.json").json()
    operations = [
        (path, method, op) for path, ops in spec["paths"].items() for method, op in ops.items()
    ]
    assert {p for p, _, _ in operations} >= {
        "/api/players",
        "/api/players/me",
        "/api/games",
        "/api/games/{game_id}/state",
        "/api/games/{game_id}/moves",
        "/api/lobbies",
        "/api/lobbies/join",
        "/api/lobbies/{lobby_id}",
        "/api/lobbies/{lobby_id}/join",
        "/api/lobbies/{lobby_id}/leave",
        "/api/lobbies/{lobby_id}/bots",
        "/api/lobbies/{lobby_id}/seats/{seat}",
        "/api/lobbies/{lobby_id}/start",
        "/api/admin/games",
        "/api/admin/games/{game_id}",
        "/api/admin/games/{game_id}/moves",
        "/api/admin/games/{game_id}/state",
        "/api/admin/games/{game_id}/abort",
    }
    for path, method, op in operations:
        assert op.get("summary") and op.get("description"), f"{method} {path}"
        ok = next(code for code in op["responses"] if code.startswith("2"))
        # JSON everywhere, but for /metrics' text in Prometheus' format.
        content = op["responses"][ok].get("content", {})
        assert any(body.get("schema") for body in content.values()), (
            f"{method} {path} has no response model"
        )
