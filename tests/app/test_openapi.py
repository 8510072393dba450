"""/openapi.json lists the refusals that come from around the routes: 403 (cross-site) and
413 (body too large) on every call that changes something, 429 on the rate-limited calls,
503 (no database connection in time) on every call that uses the database."""

import json
import re
from pathlib import Path

import httpx
import pytest
import schemathesis

from app import shapes
from app.main import create_app
from app.services.moderation import ACTIONS
from engine.levels import LEVELS
from engine.registry import GAMES
from tests.app.conftest import settings_for, sqlite_copy


@pytest.fixture(scope="module")
def database_url(sqlite_template, tmp_path_factory) -> str:
    """SQLite only: the document and its answers do not depend on the database."""
    return sqlite_copy(sqlite_template, tmp_path_factory, "openapi")


CHANGES = {"post", "put", "patch", "delete"}


def operations(live):
    schema = live.client().get("/openapi.json").json()
    for path, item in schema["paths"].items():
        for method, operation in item.items():
            yield path, method, operation


def concrete(path: str) -> str:
    return (
        path.replace("{seat}", "1").replace("{message_id}", "1").replace("{", "").replace("}", "")
    )


def test_every_change_documents_and_gives_403_and_413(live, documented):
    checked = 0
    for path, method, operation in operations(live):
        if method not in CHANGES:
            continue
        assert {"403", "413"} <= set(operation["responses"]), (method, path)
        url = concrete(path)
        big = live.client().request(
            method, url, content=b"x" * 5000, headers={"Content-Type": "application/json"}
        )
        assert big.status_code == 413, (method, path, big.text)
        documented(big, method.upper(), path)
        foreign = live.client().request(
            method, url, json={}, headers={"Origin": "https://elsewhere.example"}
        )
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
        # /metrics reads the database's figures from a sample taken in the background;
        # /health/live asks nothing of anything.
        uses_database = path not in (
            "/api/games",
            "/api/games/{kind}/catalog",
            "/api/queue/speeds",
            "/metrics",
            "/health/live",
        )
        assert ("503" in operation["responses"]) == uses_database, (method, path)


async def test_a_request_that_finds_no_connection_in_time_is_503(sqlite_template, tmp_path):
    import shutil

    path = tmp_path / "campground.db"
    shutil.copy(sqlite_template, path)
    app = create_app(
        settings_for(f"sqlite+aiosqlite:///{path}", DB_POOL_SIZE=1, DB_POOL_TIMEOUT=0.2)
    )
    schema = schemathesis.openapi.from_dict(app.openapi())
    async with app.router.lifespan_context(app):
        transport = httpx.ASGITransport(app=app, client=("127.0.0.1", 5000))
        async with httpx.AsyncClient(transport=transport, base_url="http://test") as client:
            async with app.state.ctx.db.engine.connect():
                busy = await client.get("/api/games/abc/state")
        assert busy.status_code == 503 and busy.headers["Retry-After"] == "1"
        schema["/api/games/{game_id}/state"]["GET"].validate_response(busy)


def test_docs_api_md_names_every_call(live):
    """``docs/api.md`` states today's calls: each of /openapi.json's, as ``METHOD /path`` (any
    name in braces), and the two sockets."""

    def braces(text: str) -> str:
        return re.sub(r"\{[^}]*\}", "{}", text)

    doc = braces((Path(__file__).parents[2] / "docs" / "api.md").read_text())
    calls = [f"{method.upper()} {path}" for path, method, _ in operations(live)]
    calls += ["WS /ws/games/{game_id}", "WS /ws/lobbies/{lobby_id}"]
    assert [call for call in calls if braces(call) not in doc] == []


# Operation ids as clients generated from the document name their functions: a test fails
# when one changes. New routes add theirs (``{tag}-{name}``); these must stay.
STABLE_IDS = {
    "players-create_player",
    "players-current",
    "players-me",
    "players-rename",
    "players-my_games_page",
    "games-game_kinds",
    "games-game_catalog",
    "games-game_state",
    "games-game_log_page",
    "games-export_game",
    "games-replay_game",
    "games-make_move",
    "games-concede",
    "games-rematch",
    "games-game_chat",
    "games-back",
    "lobbies-list_lobbies",
    "lobbies-create_lobby",
    "lobbies-join_by_code",
    "lobbies-lobby_by_invite",
    "lobbies-get_lobby",
    "lobbies-join",
    "lobbies-leave",
    "lobbies-add_bot",
    "lobbies-choose_stand_in",
    "lobbies-free_seat",
    "lobbies-new_invite_code",
    "lobbies-close",
    "lobbies-start",
    "lobbies-lobby_chat",
    "admin-list_games",
    "admin-get_game",
    "admin-abort",
    "admin-audit_log",
    "health-live",
    "health-ready",
}


def test_operation_ids_are_tag_and_name_and_stay(live):
    ids = []
    for path, method, operation in operations(live):
        assert operation.get("tags"), (method, path)
        tag = operation["tags"][0]
        assert re.fullmatch(rf"{re.escape(tag)}-[a-z][a-z0-9_]*", operation["operationId"]), (
            method,
            path,
            operation["operationId"],
        )
        ids.append(operation["operationId"])
    assert len(ids) == len(set(ids))
    assert STABLE_IDS <= set(ids)


def test_security_says_which_calls_work_anonymously(live):
    """Every call that finds out who calls it lists the bearer token and the cookie; one that
    also works for nobody in particular lists ``{}`` too, and answers an anonymous caller
    without 401; one that does not answers it 401."""
    schemes = live.client().get("/openapi.json").json()["components"]["securitySchemes"]
    assert schemes["bearer"] == {
        "type": "http",
        "scheme": "bearer",
        "description": schemes["bearer"]["description"],
    }
    assert schemes["cookie"]["type"] == "apiKey" and schemes["cookie"]["in"] == "cookie"
    assert schemes["cookie"]["name"] == "campground_token"
    anonymous = checked = 0
    for path, method, operation in operations(live):
        security = operation.get("security", [])
        if not security or path.startswith("/api/admin"):
            continue
        assert {"bearer": []} in security and {"cookie": []} in security, (method, path)
        answer = live.client().request(method, concrete(path), json={})
        if {} in security:
            anonymous += 1
            assert answer.status_code != 401, (method, path, answer.text)
        else:
            assert answer.status_code == 401, (method, path, answer.text)
        checked += 1
    assert anonymous >= 8 and checked >= 30


GAME_PARTS = {"view", "move", "options", "outcome", "legal_moves", "table", "to_act"}


def untyped(schema: dict) -> bool:
    """Any JSON value, or an object of anything: what a client can only read as a dict."""
    if not schema or schema == {"type": "object"}:
        return True
    if schema.get("type") == "object" and "properties" not in schema:
        return schema.get("additionalProperties", True) in (True, {})
    return False


def test_the_games_parts_are_typed_wherever_they_appear(live):
    """Across the whole document (routes added later too), a property that holds a game's
    view, move, options or outcome is typed: never any object."""
    schema = live.client().get("/openapi.json").json()
    found = []

    def walk(value, where):
        if isinstance(value, dict):
            for name, prop in value.get("properties", {}).items():
                if name in GAME_PARTS:
                    found.append((where, name))
                    choices = prop.get("anyOf", [prop])
                    assert not any(untyped(c) for c in choices), (where, name, prop)
            for key, item in value.items():
                walk(item, f"{where}/{key}")
        elif isinstance(value, list):
            for i, item in enumerate(value):
                walk(item, f"{where}/{i}")

    walk(schema, "#")
    assert len(found) >= 20
    # Every place a typed part goes refers to it: none is left marked, untyped.
    assert shapes.REF not in json.dumps(schema)


def test_each_game_has_its_typed_view_move_options_and_outcome(live):
    components = live.client().get("/openapi.json").json()["components"]["schemas"]
    view = components["GameState"]["properties"]["view"]
    mapping = view["discriminator"]["mapping"]
    assert view["discriminator"]["propertyName"] == "game"
    assert set(mapping) == set(GAMES) == set(components["GameKindId"]["enum"])
    for kind, ref in mapping.items():
        model = components[ref.rsplit("/", 1)[1]]
        props = model["properties"]
        assert props["game"]["const"] == kind
        assert props["to_act"] == {
            "items": {"type": "integer"},
            "type": "array",
            "title": "To Act",
            "description": props["to_act"]["description"],
        }
        legal = components[props["legal_moves"]["items"]["$ref"].rsplit("/", 1)[1]]
        assert legal["properties"]["move"]["discriminator"]["propertyName"] == "type"
        assert "$ref" in props["table"] and "anyOf" in props["outcome"]
    move = components["MoveRequest"]["properties"]["move"]
    assert len(move["anyOf"]) == len(GAMES)
    assert all(union["discriminator"]["propertyName"] == "type" for union in move["anyOf"])
    assert len(components["LobbyCreate"]["properties"]["options"]["anyOf"]) == len(GAMES)


def test_statuses_kinds_levels_and_audit_actions_are_enums(live):
    components = live.client().get("/openapi.json").json()["components"]["schemas"]

    def enum(model: str, prop: str) -> set:
        schema = components[model]["properties"][prop]
        if "$ref" in schema:
            schema = components[schema["$ref"].rsplit("/", 1)[1]]
        return set(schema["enum"])

    assert enum("LobbyOut", "status") == {"open", "started", "closed"}
    assert enum("MyGame", "status") == {"active", "finished", "aborted"}
    assert enum("MyGame", "kind") == set(GAMES)
    assert enum("StandInRequest", "level") == {level.id for level in LEVELS}
    assert enum("BotLevel", "id") == {level.id for level in LEVELS}
    assert enum("AdminAuditEntry", "action") == set(ACTIONS)
