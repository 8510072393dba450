"""The bot in ``docs/api.md`` ("A bot of your own"), run as written against a client that
``openapi-python-client`` generates from the server's /openapi.json, unmodified: two of them
at a Hike table with one of the server's bots play a whole game. The client parses every
answer into the document's models, and refuses a status the document does not list."""

from __future__ import annotations

import importlib.util
import os
import re
import subprocess
import sys
import threading
from pathlib import Path

import pytest
from tests.app.conftest import sqlite_copy


@pytest.fixture(scope="module")
def database_url(sqlite_template, tmp_path_factory) -> str:
    """SQLite only: what the generated client sends and reads does not depend on the database."""
    return sqlite_copy(sqlite_template, tmp_path_factory, "bot_client")


DOC = Path(__file__).parents[2] / "docs" / "api.md"
BIN = Path(sys.executable).parent


def bot_code() -> str:
    """The one Python block of the doc's "A bot of your own"."""
    section = DOC.read_text().split("## A bot of your own", 1)[1].split("\n## ", 1)[0]
    blocks = re.findall(r"```python\n(.*?)```", section, re.S)
    assert len(blocks) == 1
    return blocks[0]


@pytest.fixture(scope="module")
def bot_module(live, tmp_path_factory):
    where = tmp_path_factory.mktemp("client")
    (where / "openapi.json").write_text(live.client().get("/openapi.json").text)
    env = os.environ | {"PATH": f"{BIN}{os.pathsep}{os.environ.get('PATH', '')}"}
    made = subprocess.run(
        [
            BIN / "openapi-python-client",
            "generate",
            "--path",
            "openapi.json",
            "--meta",
            "none",
            "--output-path",
            "campground_client",
        ],
        cwd=where,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert made.returncode == 0, made.stdout + made.stderr
    # Every schema and every call of the document made it into the client.
    assert "Unable to" not in made.stdout + made.stderr, made.stdout + made.stderr
    (where / "bot.py").write_text(bot_code())
    sys.path.insert(0, str(where))
    try:
        spec = importlib.util.spec_from_file_location("campground_bot", where / "bot.py")
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
        yield module
    finally:
        sys.path.remove(str(where))
        for name in [n for n in sys.modules if n.split(".")[0] == "campground_client"]:
            del sys.modules[name]


def test_two_bots_of_the_doc_play_a_whole_game_through_the_generated_client(live, bot_module):
    host = bot_module.Bot(live.url, "Hosting bot", seed=1)
    guest = bot_module.Bot(live.url, "Joining bot", seed=2)
    lobby = host.host("hike", seats=3, bots={2: "random"})
    outcomes: dict[str, object] = {}

    def run(name, bot, lobby, start):
        outcomes[name] = bot.play(bot.started(lobby, start_when_full=start))

    threads = [
        threading.Thread(target=run, args=("host", host, lobby, True)),
        threading.Thread(target=run, args=("guest", guest, guest.join(lobby.invite_code), False)),
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(120)
    assert set(outcomes) == {"host", "guest"}
    outcome = outcomes["host"]
    # Typed: Hike's own outcome, with Hike's own details.
    assert type(outcome).__name__ == "HikeOutcome"
    assert type(outcome.details).__name__ == "HikeDetails"
    assert len(outcome.scores) == 3 and outcome.winners
    assert outcomes["guest"].to_dict() == outcome.to_dict()
