"""HTTP requests, socket messages and socket closes on /metrics: counted by route template,
status class, message type and close code, never by an id; every name as Prometheus' own
linter (`promtool check metrics`) wants it."""

import json
import os
import shutil
import subprocess
import threading

import pytest
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import connect

from app import metrics, socket_metrics
from tests.app.conftest import running, settings_for, sqlite_copy
from tests.app.sockets import Socket
from tests.app.test_metrics import scrape, value


@pytest.fixture(scope="module")
def database_url(sqlite_template, tmp_path_factory) -> str:
    return sqlite_copy(sqlite_template, tmp_path_factory, "request_metrics")


def promtool() -> str:
    found = shutil.which("promtool")
    if found is None:
        message = (
            "promtool is not installed (Debian's prometheus package has it; .ci/run installs it)"
        )
        if os.environ.get("REQUIRE_TOOLS") == "1":
            pytest.fail(message)
        pytest.skip(message)
    return found


def moved(before, after, name, **labels) -> float:
    return value(after, name, **labels) - value(before, name, **labels)


def test_requests_are_counted_by_route_template_and_status_class(live):
    before = scrape(live.client())
    ana = live.guest("Ana")
    games = [live.start_game(ana, bots=("random",)) for _ in range(2)]
    for game_id in games:
        live.state(ana, game_id)
    assert ana.get("/api/games/no-such-game/state").status_code == 404
    assert live.client().get("/no/such/page/42").status_code == 404
    assert ana.post(f"/api/games/{games[0]}/moves", json={}).status_code == 422
    after = scrape(live.client())

    state = {"route": "/api/games/{game_id}/state", "method": "GET"}
    count = "campground_http_request_duration_seconds_count"
    assert moved(before, after, count, **state, status="2xx") == 2
    assert moved(before, after, count, **state, status="4xx") == 1
    assert moved(before, after, count, route="none", method="GET", status="4xx") == 1
    assert (
        moved(before, after, count, route="/api/games/{game_id}/moves", method="POST", status="4xx")
        == 1
    )
    assert moved(before, after, count, route="/api/players", method="POST", status="2xx") == 1
    assert (
        moved(
            before,
            after,
            "campground_http_request_duration_seconds_bucket",
            **state,
            status="2xx",
            le="+Inf",
        )
        == 2
    )
    # No label holds an id: not the games', not the paths asked for.
    labels = {v for (_, pairs) in after for _, v in pairs}
    assert not {*games, ana.id, "/no/such/page/42"} & labels


def test_an_unhandled_exception_is_counted_with_its_5xx(database_url):
    server = running(settings_for(database_url))
    with server as live:

        async def broken() -> None:
            raise RuntimeError("a bug")

        live.app.add_api_route("/api/broken", broken)
        before = scrape(live.client())
        assert live.client().get("/api/broken").status_code == 500
        after = scrape(live.client())
    assert (
        moved(
            before,
            after,
            "campground_http_exceptions_total",
            route="/api/broken",
            exception="RuntimeError",
        )
        == 1
    )
    assert (
        moved(
            before,
            after,
            "campground_http_request_duration_seconds_count",
            route="/api/broken",
            method="GET",
            status="5xx",
        )
        == 1
    )


def test_socket_messages_are_counted_by_type_and_closes_by_code(live):
    ana = live.guest("Ana")
    game_id = live.start_game(ana, live.guest("Ben"))
    before = scrape(live.client())
    socket = Socket(live, game_id, token=ana.token)
    socket.send({"type": "sync"})
    assert socket.next()["type"] == "state"
    socket.ws.send("not json")
    assert socket.next()["code"] == "bad_request"
    socket.send({"type": "dance"})
    assert socket.next()["code"] == "bad_request"
    socket.send({"type": ["move"]})
    assert socket.next()["code"] == "bad_request"
    move = socket.view["legal_moves"][0]["move"]
    socket.send({"type": "move", "move": move, "expect_version": socket.version, "ref": 1})
    assert socket.next()["type"] == "ack"
    socket.close()
    with connect(f"{live.ws_url}/ws/games/no-such-game") as ws, pytest.raises(ConnectionClosed):
        ws.recv(timeout=10)
    after = live_figures_until_closed(live, before, 2)

    received = "campground_ws_messages_received_total"
    for kind, count in {"sync": 1, "unreadable": 1, "other": 2, "move": 1}.items():
        assert moved(before, after, received, type=kind) == count, kind
    sent = "campground_ws_messages_sent_total"
    assert moved(before, after, sent, type="state") == 2
    assert moved(before, after, sent, type="error") == 3
    assert moved(before, after, sent, type="ack") == 1
    assert moved(before, after, sent, type="patch") >= 1
    assert moved(before, after, "campground_ws_sent_bytes_total", type="ack") == len(
        json.dumps({"type": "ack", "ref": 1, "version": 1}, separators=(",", ":"))
    )
    assert moved(before, after, "campground_ws_closed_total", code="1000") == 1
    assert moved(before, after, "campground_ws_closed_total", code="4404") == 1


def live_figures_until_closed(live, before, closes: int, tries: int = 500) -> dict:
    """Scrape until ``closes`` more sockets are counted closed: the server hears a client's
    close a moment after the client has sent it."""
    for _ in range(tries):
        figures = scrape(live.client())
        total = sum(v for (name, _), v in figures.items() if name == "campground_ws_closed_total")
        if (
            total
            - sum(v for (name, _), v in before.items() if name == "campground_ws_closed_total")
            >= closes
        ):
            return figures
        threading.Event().wait(0.01)
    raise AssertionError("the closes were never counted")


def test_close_codes_and_message_types_take_few_values():
    before = {
        (s.name, frozenset(s.labels.items())): s.value
        for m in socket_metrics.WS_CLOSED.collect()
        for s in m.samples
    }
    for code in (1000, 1006, 4404, 4999, 3000, None):
        socket_metrics.socket_closed(code)
    socket_metrics.message_sent('{"type":"' + "x" * 40 + '"}')
    socket_metrics.message_sent("[1]")
    after = {
        (s.name, frozenset(s.labels.items())): s.value
        for m in socket_metrics.WS_CLOSED.collect()
        for s in m.samples
    }
    codes = {dict(labels)["code"] for (_, labels) in after}
    assert {"1000", "1006", "4404", "other", "none"} <= codes
    assert not {"4999", "3000"} & codes
    assert (
        after[("campground_ws_closed_total", frozenset({("code", "other")}))]
        - before.get(("campground_ws_closed_total", frozenset({("code", "other")})), 0)
        == 2
    )
    sent = {dict(s.labels)["type"] for m in socket_metrics.WS_SENT.collect() for s in m.samples}
    assert sent <= socket_metrics.SENT_TYPES | {"other"}


def test_bot_moves_are_counted_by_outcome():
    def count(outcome):
        return metrics.BOT_MOVES.labels("hike", outcome)._value.get()

    before = {o: count(o) for o in ("committed", "fallback", "stale", "refused", "failed")}
    with metrics.bot_move("hike"):
        pass
    with metrics.bot_move("hike"):
        metrics.note_outcome("fallback")
    for error in (metrics.StaleVersion(3), metrics.IllegalMove("no"), RuntimeError("bug")):
        with pytest.raises(type(error)), metrics.bot_move("hike"):
            metrics.note_outcome("fallback")
            raise error
    after = {o: count(o) - before[o] for o in before}
    assert after == {"committed": 1, "fallback": 1, "stale": 1, "refused": 1, "failed": 1}


def test_promtool_finds_every_metric_named_right(live):
    tool = promtool()
    ana = live.guest("Ana")
    game_id = live.start_game(ana, bots=("random",))
    socket = Socket(live, game_id, token=ana.token)
    socket.send({"type": "sync"})
    socket.next()
    socket.close()
    live.client().get("/no/such/page")
    r = live.client().get("/metrics")
    assert r.status_code == 200
    for family in (
        "campground_http_request_duration_seconds",
        "campground_ws_messages_received_total",
        "campground_ws_messages_sent_total",
        "campground_ws_sent_bytes_total",
        "campground_ws_closed_total",
        "campground_bot_moves_total",
        "campground_db_sample_age_seconds",
        "campground_redis_up",
        "campground_games_active",
    ):
        assert f"# TYPE {family} " in r.text, family
    checked = subprocess.run(
        [tool, "check", "metrics"], input=r.text, capture_output=True, text=True, timeout=60
    )
    assert checked.returncode == 0 and not checked.stdout + checked.stderr, (
        checked.stdout + checked.stderr
    )


def test_promtool_would_catch_a_badly_named_metric():
    """The check above is not a formality: a counter without ``_total``, a time in
    milliseconds, are caught."""
    tool = promtool()
    bad = (
        "# HELP campground_moves Moves.\n# TYPE campground_moves counter\n"
        "campground_moves 1\n"
        "# HELP campground_wait_milliseconds Wait.\n# TYPE campground_wait_milliseconds gauge\n"
        "campground_wait_milliseconds 3\n"
    )
    checked = subprocess.run(
        [tool, "check", "metrics"], input=bad, capture_output=True, text=True, timeout=60
    )
    problems = checked.stdout + checked.stderr
    assert checked.returncode != 0
    assert "campground_moves" in problems and "campground_wait_milliseconds" in problems
