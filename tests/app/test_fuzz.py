"""Schemathesis against the running server's own OpenAPI schema: whatever a client sends, the
server answers without a 5xx, with a documented status code and a body of the documented shape.

The caller is a guest player, or the admin for /api/admin. The caller hosts a started game and an
open public lobby; the operations with ids in their path are fuzzed a second time with the ids of
those, so that bodies and queries also reach real rows. Generation is derandomized: the same
inputs every run."""

from __future__ import annotations

import shutil

import pytest
import schemathesis
from hypothesis import HealthCheck, settings
from schemathesis.checks import not_a_server_error
from schemathesis.specs.openapi.checks import (
    content_type_conformance,
    response_schema_conformance,
    status_code_conformance,
)

from app.config import Settings
from app.main import create_app

CHECKS = [
    not_a_server_error,
    status_code_conformance,
    content_type_conformance,
    response_schema_conformance,
]


@pytest.fixture(scope="module")
def database_url(sqlite_template, tmp_path_factory) -> str:
    """SQLite only: the schema and the checks do not depend on the database."""
    path = tmp_path_factory.mktemp("fuzz") / "campground.db"
    shutil.copy(sqlite_template, path)
    return f"sqlite+aiosqlite:///{path}"


@pytest.fixture(scope="module")
def caller(live) -> dict:
    """The Authorization header for each kind of route, and the ids of the caller's tables."""
    guest = live.guest("Fuzz")
    game_id = live.start_game(guest, live.guest("Other"))
    lobby = live.lobby(guest, private=False, seats=3)
    return {
        "headers": {
            "player": {"Authorization": f"Bearer {guest.token}"},
            "admin": {"Authorization": live.admin().headers["Authorization"]},
        },
        "ids": {"game_id": game_id, "lobby_id": lobby["id"]},
    }


# The document the app serves at /openapi.json, built without starting it: the schema does not
# depend on the database, and test collection needs it before any server runs.
schema = schemathesis.openapi.from_dict(
    create_app(Settings(DATABASE_URL="sqlite+aiosqlite://")).openapi()
)


FUZZ = settings(
    max_examples=25, derandomize=True, deadline=None, suppress_health_check=list(HealthCheck)
)


def call(case, live, caller) -> None:
    who = "admin" if case.path.startswith("/api/admin") else "player"
    case.call_and_validate(base_url=live.url, headers=caller["headers"][who], checks=CHECKS)


@schema.parametrize()
@FUZZ
def test_no_input_breaks_the_api(case, live, caller):
    call(case, live, caller)


@schema.include(path_regex=r"\{").parametrize()
@FUZZ
def test_no_input_breaks_the_api_at_real_tables(case, live, caller):
    """The same with the path's game and lobby ids replaced by those of the caller's tables."""
    ids = caller["ids"]
    case.path_parameters |= {name: ids[name] for name in case.path_parameters if name in ids}
    call(case, live, caller)


def test_the_fuzzed_schema_is_the_one_served(live):
    assert live.client().get("/openapi.json").json() == schema.raw_schema
