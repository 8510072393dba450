"""/openapi.json lists the refusals that come from around the routes: 403 (cross-site) and
413 (body too large) on every call that changes something, 429 on the rate-limited calls,
503 (no database connection in time) on every call that uses the database."""

import httpx
import schemathesis

from app.main import create_app
from tests.app.conftest import settings_for

CHANGES = {"post", "put", "patch", "delete"}


def operations(live):
    schema = live.client().get("/openapi.json").json()
    for path, item in schema["paths"].items():
        for method, operation in item.items():
            yield path, method, operation


def concrete(path: str) -> str:
    return path.replace("{seat}", "1").replace("{message_id}", "1").replace("{", "").replace(
        "}", "")


def test_every_change_documents_and_gives_403_and_413(live, documented):
    checked = 0
    for path, method, operation in operations(live):
        if method not in CHANGES:
            continue
        assert {"403", "413"} <= set(operation["responses"]), (method, path)
        url = concrete(path)
        big = live.client().request(method, url, content=b"x" * 5000,
                                    headers={"Content-Type": "application/json"})
        assert big.status_code == 413, (method, path, big.text)
        documented(big, method.upper(), path)
        foreign = live.client().request(method, url, json={},
                                        headers={"Origin": "https://elsewhere.example"})
        assert foreign.status_code == 403, (method, path, foreign.text)
        documented(foreign, method.upper(), path)
        checked += 1
    assert checked >= 19


def test_429_is_documented_where_rates_apply(database_url, serve):
    with serve(database_url, RATE_PLAYERS="1/60", RATE_MOVES="1/60") as tight:
        schema = schemathesis.openapi.from_url(f"{tight.url}/openapi.json", timeout=60)
        ana = tight.guest("Ana")
        again = tight.client().post("/api/players", json={"name": "Ben"})
        assert again.status_code == 429
        schema["/api/players"]["POST"].validate_response(again)
        assert "429" in schema["/api/players"]["POST"].definition.raw["responses"]
        body = {"move": {"type": "draw"}, "expect_version": 0}
        ana.post("/api/games/none/moves", json=body)
        limited = ana.post("/api/games/none/moves", json=body)
        assert limited.status_code == 429 and limited.headers["Retry-After"]
        responses = schema["/api/games/{game_id}/moves"]["POST"].definition.raw["responses"]
        assert "Retry-After" in responses["429"]["headers"]
    for path in ("/api/lobbies", "/api/lobbies/join", "/api/games/{game_id}/concede"):
        assert "429" in schema[path]["POST"].definition.raw["responses"], path


def test_503_is_documented_on_what_uses_the_database(live):
    for path, method, operation in operations(live):
        uses_database = path not in ("/api/games", "/api/games/{kind}/catalog")
        assert ("503" in operation["responses"]) == uses_database, (method, path)


async def test_a_request_that_finds_no_connection_in_time_is_503(sqlite_template, tmp_path):
    import shutil

    path = tmp_path / "campground.db"
    shutil.copy(sqlite_template, path)
    app = create_app(settings_for(f"sqlite+aiosqlite:///{path}", DB_POOL_SIZE=1,
                                  DB_POOL_TIMEOUT=0.2))
    schema = schemathesis.openapi.from_dict(app.openapi())
    async with app.router.lifespan_context(app):
        transport = httpx.ASGITransport(app=app, client=("127.0.0.1", 5000))
        async with httpx.AsyncClient(transport=transport, base_url="http://test") as client:
            async with app.state.ctx.db.engine.connect():
                busy = await client.get("/api/games/abc/state")
        assert busy.status_code == 503 and busy.headers["Retry-After"] == "1"
        schema["/api/games/{game_id}/state"]["GET"].validate_response(busy)
