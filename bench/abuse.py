"""Attacks on a running server, and what a bystander saw meanwhile.

Starts two ``campground serve`` instances on loopback that share a redis-server of the bench's
own (one instance when there is no ``redis-server``), on SQLite in a temporary file or, with
``--postgres``, a throw-away database beside the given server's. The limits are the defaults;
``TRUSTED_PROXIES=127.0.0.1`` lets ``X-Forwarded-For`` give the attacker and the bystander
addresses of their own, as a proxy would. A bystander plays Let's Take a Hike against a bot
over HTTP on the first instance, one GET of the state and one move every 0.25 s. Each attack
runs for a bounded count and time; for each, the bench prints what the attacker got (status
counts) and the bystander's GET and move latencies (median / p95 / worst) and failures while
it ran. Last come the faults of two instances: Redis stopped, then kill -9 of an instance.

    .venv/bin/python bench/abuse.py
    .venv/bin/python bench/abuse.py --postgres [URL]
    .venv/bin/python bench/abuse.py --postgres --only none,31.   # the baseline and some rows
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import re
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Awaitable, Callable
from pathlib import Path

import httpx
from sqlalchemy import make_url
from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed, InvalidStatus

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from app.migrate import upgrade  # noqa: E402
from bench.ws_roundtrip import (  # noqa: E402
    DEFAULT_POSTGRES,
    _admin,
    database,
    free_port,
    percentile,
)

ATTACKER = {"X-Forwarded-For": "203.0.113.66"}
BYSTANDER = {"X-Forwarded-For": "198.51.100.7"}
# Every attack stops after this long, whatever it has done by then.
ATTACK_SECONDS = 6.0


class Bystander:
    """A player in a game against a bot, timing a GET of the state and a move, over and over."""

    def __init__(self, http: httpx.AsyncClient):
        self.http = http
        self.game_id = ""
        self.gets: list[float] = []
        self.moves: list[float] = []
        self.failures: Counter[str] = Counter()
        self.finished: list[str] = []

    async def setup(self) -> None:
        body = (await self.http.post("/api/players", json={"name": "Bystander"})).json()
        self.http.headers["Authorization"] = f"Bearer {body['token']}"
        self.token = body["token"]
        await self.new_game()

    async def new_game(self) -> None:
        # Public: spectators of other addresses and instances watch it.
        lobby = (
            await self.http.post("/api/lobbies", json={"game": "hike", "private": False})
        ).json()
        bot = {"seat": 1, "level": "random"}
        await self.http.post(f"/api/lobbies/{lobby['id']}/bots", json=bot)
        self.game_id = (await self.http.post(f"/api/lobbies/{lobby['id']}/start")).json()["game_id"]

    async def timed(self, into: list[float], call: Awaitable[httpx.Response]) -> dict | None:
        started = time.perf_counter()
        try:
            r = await call
        except httpx.HTTPError as exc:
            self.failures[type(exc).__name__] += 1
            return None
        into.append((time.perf_counter() - started) * 1000)
        if r.status_code >= 400 and r.status_code != 409:
            self.failures[str(r.status_code)] += 1
            return None
        return r.json()

    async def play(self, until: asyncio.Event) -> None:
        self.gets, self.moves, self.failures = [], [], Counter()
        while not until.is_set():
            pace = asyncio.create_task(asyncio.sleep(0.25))
            state = await self.timed(self.gets, self.http.get(f"/api/games/{self.game_id}/state"))
            if state is not None:
                view = state["view"]
                if view["outcome"] is not None:
                    self.finished.append(self.game_id)
                    await self.new_game()
                elif 0 in view["to_act"]:
                    move = {
                        "move": view["legal_moves"][0]["move"],
                        "expect_version": state["version"],
                    }
                    url = f"/api/games/{self.game_id}/moves"
                    await self.timed(self.moves, self.http.post(url, json=move))
            await pace

    def summary(self) -> str:
        def spread(values: list[float]) -> str:
            if not values:
                return "none"
            return (
                f"{statistics.median(values):6.1f} / {percentile(values, 0.95):6.1f} / "
                f"{max(values):7.1f} ms (n={len(values)})"
            )

        failed = ", ".join(f"{k}×{v}" for k, v in sorted(self.failures.items())) or "none"
        return (
            f"  bystander GET  {spread(self.gets)}\n  bystander move {spread(self.moves)}\n"
            f"  bystander failures: {failed}"
        )


def counted(statuses: Counter) -> str:
    return ", ".join(f"{k}×{v}" for k, v in sorted(statuses.items(), key=str))


async def burst(
    make: Callable[[int], Awaitable[httpx.Response]], count: int, parallel: int
) -> Counter:
    """``count`` calls, ``parallel`` at a time, until ATTACK_SECONDS pass."""
    statuses: Counter = Counter()
    deadline = time.monotonic() + ATTACK_SECONDS
    queue = iter(range(count))

    async def worker() -> None:
        for i in queue:
            if time.monotonic() > deadline:
                return
            try:
                statuses[(await make(i)).status_code] += 1
            except httpx.HTTPError as exc:
                statuses[type(exc).__name__] += 1

    await asyncio.gather(*(worker() for _ in range(parallel)))
    return statuses


class Attacks:
    def __init__(self, base: str, ws_base: str, bystander: Bystander):
        self.base, self.ws_base, self.bystander = base, ws_base, bystander
        limits = httpx.Limits(max_connections=300, max_keepalive_connections=300)
        self.http = httpx.AsyncClient(base_url=base, timeout=10, headers=ATTACKER, limits=limits)

    async def guest(self, name: str = "Mallory", address: dict | None = None) -> str:
        r = await self.http.post("/api/players", json={"name": name}, headers=address)
        return r.json()["token"]

    def game_url(self) -> str:
        return f"{self.ws_base}/ws/games/{self.bystander.game_id}"

    async def non_reading_sockets(self) -> str:
        """Sockets that ask for `sync` again and again and never read what comes back."""
        opened, refused = [], Counter()
        for _ in range(40):
            try:
                ws = await connect(
                    self.game_url(), additional_headers=ATTACKER, max_queue=1, max_size=None
                )
                opened.append(ws)
            except (InvalidStatus, OSError) as exc:
                refused[type(exc).__name__] += 1
        sent = 0
        deadline = time.monotonic() + ATTACK_SECONDS
        while time.monotonic() < deadline:
            for ws in opened:
                try:
                    await asyncio.wait_for(ws.send('{"type":"sync"}'), 0.05)
                    sent += 1
                except (TimeoutError, ConnectionClosed):
                    pass
            await asyncio.sleep(0.05)
        closed = sum(ws.close_code is not None for ws in opened)
        for ws in opened:
            ws.transport.abort()
        return f"{len(opened)} sockets opened, {sent} syncs sent, {closed} closed by the server"

    async def post_burst(self) -> str:
        """200 joins at once, 100 in flight (the pool-starvation pattern)."""
        tokens = [
            await self.guest(f"M{i}", {"X-Forwarded-For": f"203.0.113.{i}"}) for i in range(2)
        ]
        lobby = (
            await self.http.post(
                "/api/lobbies",
                json={"game": "hike", "seats": 5, "private": False},
                headers={"Authorization": f"Bearer {tokens[0]}"},
            )
        ).json()
        auth = {"Authorization": f"Bearer {tokens[1]}"}
        statuses = await burst(
            lambda i: self.http.post(f"/api/lobbies/{lobby['id']}/join", headers=auth), 200, 100
        )
        return counted(statuses)

    async def big_bodies(self, pid: int) -> str:
        """Twenty 5 MB bodies, no token."""
        before = rss_mb(pid)
        body = b"[" + b"1," * 2_500_000 + b"1]"
        statuses = await burst(
            lambda i: self.http.post(
                "/api/lobbies", content=body, headers={"content-type": "application/json"}
            ),
            20,
            4,
        )
        return f"{counted(statuses)}; server memory {before:.0f} → {rss_mb(pid):.0f} MB"

    async def big_frames(self, pid: int) -> str:
        """Ten 1 MB frames and a hundred 5 KB messages on sockets of the attacker's own."""
        before = rss_mb(pid)
        codes: Counter = Counter()
        for _ in range(10):
            async with connect(self.game_url(), additional_headers=ATTACKER, max_size=None) as ws:
                await ws.recv()
                try:
                    await ws.send("x" * 1_000_000)
                    while True:  # patches of the bystander's moves may come first
                        await asyncio.wait_for(ws.recv(), 5)
                except ConnectionClosed as exc:
                    codes[f"closed {exc.rcvd.code if exc.rcvd else None}"] += 1
        async with connect(self.game_url(), additional_headers=ATTACKER) as ws:
            await ws.recv()
            for _ in range(100):
                await ws.send(json.dumps({"type": "sync", "ref": "r" * 5000}))
            replies = Counter()
            while sum(replies.values()) < 100:
                reply = json.loads(await asyncio.wait_for(ws.recv(), 5))
                if reply["type"] == "error":
                    replies[reply["code"]] += 1
        return (
            f"1 MB frames: {counted(codes)}; 5 KB messages answered {counted(replies)}; "
            f"server memory {before:.0f} → {rss_mb(pid):.0f} MB"
        )

    async def flood_players(self) -> str:
        statuses = await burst(
            lambda i: self.http.post("/api/players", json={"name": f"P{i}"}), 3000, 20
        )
        return counted(statuses)

    async def flood_lobbies(self) -> str:
        token = await self.guest("Lobbyist", {"X-Forwarded-For": "203.0.113.90"})
        auth = {"Authorization": f"Bearer {token}"}
        statuses = await burst(
            lambda i: self.http.post(
                "/api/lobbies", json={"game": "hike", "private": False}, headers=auth
            ),
            2000,
            20,
        )
        listing = (await self.http.get("/api/lobbies")).json()
        return f"{counted(statuses)}; the public listing shows {len(listing)} of them"

    async def guess_invites(self) -> str:
        token = await self.guest("Guesser", {"X-Forwarded-For": "203.0.113.91"})
        auth = {"Authorization": f"Bearer {token}"}
        statuses = await burst(
            lambda i: self.http.post(
                "/api/lobbies/join", json={"invite_code": f"guess{i:05d}"}, headers=auth
            ),
            3000,
            20,
        )
        return counted(statuses)

    async def spectator_crowd(self) -> str:
        """300 spectators from 10 addresses on the bystander's game."""
        crowd, refused = [], Counter()
        for i in range(300):
            address = {"X-Forwarded-For": f"192.0.2.{i % 10}"}
            try:
                ws = await connect(self.game_url(), additional_headers=address)
                crowd.append(ws)
            except (InvalidStatus, OSError) as exc:
                refused[type(exc).__name__] += 1

        async def drain(ws) -> None:
            try:
                async for _ in ws:
                    pass
            except ConnectionClosed:
                pass

        readers = [asyncio.create_task(drain(ws)) for ws in crowd]
        await asyncio.sleep(ATTACK_SECONDS)
        admitted = sum(ws.close_code is None for ws in crowd)
        for ws in crowd:
            await ws.close()
        await asyncio.gather(*readers)
        return f"{admitted} spectators held open (closed by the server: {len(crowd) - admitted})"

    async def cross_site(self) -> str:
        token = await self.guest("Victim", {"X-Forwarded-For": "203.0.113.92"})
        lobby_owner = await self.guest("Host", {"X-Forwarded-For": "203.0.113.93"})
        lobby = (
            await self.http.post(
                "/api/lobbies",
                json={"game": "hike", "private": False},
                headers={"Authorization": f"Bearer {lobby_owner}"},
            )
        ).json()
        r = await self.http.post(
            f"/api/lobbies/{lobby['id']}/join",
            headers={"Origin": "https://evil.example", "Cookie": f"campground_token={token}"},
        )
        try:
            async with connect(
                self.game_url(),
                origin="https://evil.example",
                additional_headers={"Cookie": f"campground_token={token}"},
            ):
                socket = "opened"
        except InvalidStatus as exc:
            socket = f"refused {exc.response.status_code}"
        return f"cookie POST from another origin: {r.status_code}; socket from it: {socket}"

    async def forged_host(self) -> str:
        r = await self.http.get(
            f"/api/lobbies/{await self.any_lobby()}", headers={"Host": "evil.example"}
        )
        return f"lobby with Host: evil.example: {r.status_code}"

    async def any_lobby(self) -> str:
        listing = (await self.http.get("/api/lobbies")).json()
        return listing[0]["id"] if listing else "none"

    async def names(self) -> str:
        statuses = Counter()
        for name in ("\u200b", "Ana\u202e", "Ana\u0007"):
            r = await self.http.post(
                "/api/players", json={"name": name}, headers={"X-Forwarded-For": "203.0.113.94"}
            )
            statuses[r.status_code] += 1
        return f"invisible / bidi / control names: {counted(statuses)}"


class TableAttacks:
    """Bad input, seats, a classroom behind one address, replays, finished tables, and the
    database away (PostgreSQL only)."""

    CLASS = 40

    def __init__(self, attacks: Attacks, pid: int, database_url: str | None):
        self.attacks, self.http, self.pid = attacks, attacks.http, pid
        self.database_url = database_url

    async def player(self, name: str, address: str) -> httpx.AsyncClient:
        client = httpx.AsyncClient(
            base_url=self.attacks.base, timeout=30, headers={"X-Forwarded-For": address}
        )
        body = (await client.post("/api/players", json={"name": name})).json()
        client.headers["Authorization"] = f"Bearer {body['token']}"
        client.token = body["token"]
        return client

    async def game(self, host: httpx.AsyncClient, kind: str = "hike", bots: int = 1) -> str:
        lobby = (await host.post("/api/lobbies", json={"game": kind, "seats": 1 + bots})).json()
        for seat in range(1, 1 + bots):
            await host.post(
                f"/api/lobbies/{lobby['id']}/bots", json={"seat": seat, "level": "random"}
            )
        return (await host.post(f"/api/lobbies/{lobby['id']}/start")).json()["game_id"]

    async def my_turn(self, player: httpx.AsyncClient, game_id: str) -> dict:
        """The game's state once seat 0 (``player``) is to act: the bot may move first."""
        while True:
            state = (await player.get(f"/api/games/{game_id}/state")).json()
            if 0 in state["view"]["to_act"]:
                return state
            await asyncio.sleep(0.1)

    async def bad_moves(self) -> str:
        """600 legal moves of Summer Camp with one field made wrong, over HTTP and a socket."""
        mallory = await self.player("Fuzzer", "203.0.113.95")
        game_id = await self.game(mallory, "summer-camp")
        state = await self.my_turn(mallory, game_id)
        legal = [entry["move"] for entry in state["view"]["legal_moves"]]
        wrong = [None, "no-such-card", -1, 10**30, "x" * 3000, [], {}, True, 1.5]
        moves = (
            [{**move, field: value} for move in legal for field in move for value in wrong] * 300
        )[:300]
        statuses: Counter = Counter()
        for move in moves:
            r = await mallory.post(
                f"/api/games/{game_id}/moves",
                json={"move": move, "expect_version": state["version"]},
            )
            statuses[r.status_code] += 1
        answers: Counter = Counter()
        url = f"{self.attacks.ws_base}/ws/games/{game_id}?token={mallory.token}"
        async with connect(url, additional_headers={"X-Forwarded-For": "203.0.113.95"}) as ws:
            await ws.recv()
            for i, move in enumerate(moves):
                await ws.send(
                    json.dumps(
                        {"type": "move", "move": move, "ref": i, "expect_version": state["version"]}
                    )
                )
                while (reply := json.loads(await ws.recv()))["type"] != "error":
                    pass
                answers[reply["code"]] += 1
            await ws.send("null")
            null = json.loads(await ws.recv())["message"]
            alive = ws.close_code is None
        await mallory.aclose()
        return (
            f"HTTP {counted(statuses)}; socket {counted(answers)}, still open: {alive}; "
            f"a null message: {null!r}"
        )

    async def removed_rejoins(self) -> str:
        host = await self.player("Host", "203.0.113.96")
        removed = await self.player("Removed", "203.0.113.97")
        lobby = (await host.post("/api/lobbies", json={"game": "hike", "seats": 3})).json()
        code = {"invite_code": lobby["invite_code"]}
        await removed.post("/api/lobbies/join", json=code)
        await host.delete(f"/api/lobbies/{lobby['id']}/seats/1")
        again = (await removed.post("/api/lobbies/join", json=code)).status_code
        await host.post(f"/api/lobbies/{lobby['id']}/invite_code")
        old = (await removed.get(f"/api/lobbies/invite/{lobby['invite_code']}")).status_code
        await host.aclose()
        await removed.aclose()
        return f"rejoin with the same code: {again}; the old link after a new code: {old}"

    async def classroom(self) -> str:
        """40 players behind one address: arrive, open 20 tables and join them by invite
        link, hold a socket each, all drop and come back at once, then play a move every 2 s."""
        address = "198.51.100.40"
        refused: Counter = Counter()
        students = []
        for i in range(self.CLASS):
            r = await self.http.post(
                "/api/players", json={"name": f"Student {i}"}, headers={"X-Forwarded-For": address}
            )
            if r.status_code != 201:
                refused["arrive"] += 1
                continue
            client = httpx.AsyncClient(
                base_url=self.attacks.base,
                timeout=30,
                headers={
                    "X-Forwarded-For": address,
                    "Authorization": f"Bearer {r.json()['token']}",
                },
            )
            client.token = r.json()["token"]
            students.append(client)
        pairs = list(zip(students[::2], students[1::2]))
        games = []
        for host, joiner in pairs:
            r = await host.post("/api/lobbies", json={"game": "hike", "seats": 2})
            if r.status_code != 201:
                refused["create"] += 1
                continue
            code = r.json()["invite_code"]
            if (await joiner.get(f"/api/lobbies/invite/{code}")).status_code != 200:
                refused["invite page"] += 1
            if (
                await joiner.post("/api/lobbies/join", json={"invite_code": code})
            ).status_code != 200:
                refused["join"] += 1
                continue
            games.append(
                (
                    (await host.post(f"/api/lobbies/{r.json()['id']}/start")).json()["game_id"],
                    host,
                    joiner,
                )
            )

        async def sockets() -> list:
            opened = []
            for game_id, *pair in games:
                for student in pair:
                    url = f"{self.attacks.ws_base}/ws/games/{game_id}?token={student.token}"
                    ws = await connect(url, additional_headers={"X-Forwarded-For": address})
                    try:
                        await asyncio.wait_for(ws.recv(), 5)
                    except ConnectionClosed as exc:
                        refused[f"socket {exc.rcvd.code if exc.rcvd else None}"] += 1
                    opened.append(ws)
            return opened

        for ws in await sockets():
            await ws.close()
        held = await sockets()  # everyone at once, after a Wi-Fi blip
        deadline = time.monotonic() + ATTACK_SECONDS
        moves = 0
        while time.monotonic() < deadline:
            paced = asyncio.create_task(asyncio.sleep(2))
            for game_id, *pair in games:
                state = (await pair[0].get(f"/api/games/{game_id}/state")).json()
                if not state["view"]["to_act"]:
                    continue
                mover = pair[state["view"]["to_act"][0]]
                view = (await mover.get(f"/api/games/{game_id}/state")).json()["view"]
                r = await mover.post(
                    f"/api/games/{game_id}/moves",
                    json={
                        "move": view["legal_moves"][0]["move"],
                        "expect_version": state["version"],
                    },
                )
                moves += 1
                if r.status_code == 429:
                    refused["move"] += 1
            await paced
        for ws in held:
            await ws.close()
        for client in students:
            await client.aclose()
        return (
            f"{len(students)} arrived, {len(games)} tables, {2 * len(games)} sockets back "
            f"after a blip, {moves} moves at a human pace; refused: "
            f"{counted(refused) or 'none'}"
        )

    async def one_client_floods(self) -> str:
        """One player: socket messages as fast as answered, then 100 connections."""
        mallory = await self.player("Flooder", "203.0.113.98")
        game_id = await self.game(mallory)
        url = f"{self.attacks.ws_base}/ws/games/{game_id}?token={mallory.token}"
        answers: Counter = Counter()
        async with connect(url, additional_headers={"X-Forwarded-For": "203.0.113.98"}) as ws:
            await ws.recv()
            deadline = time.monotonic() + ATTACK_SECONDS / 2
            while time.monotonic() < deadline:
                await ws.send('{"type":"dance"}')
                while (reply := json.loads(await ws.recv()))["type"] != "error":
                    pass
                answers[reply["code"]] += 1
        closes: Counter = Counter()
        for _ in range(100):
            async with connect(url, additional_headers={"X-Forwarded-For": "203.0.113.98"}) as ws:
                try:
                    await asyncio.wait_for(ws.recv(), 5)
                    closes["opened"] += 1
                except ConnectionClosed as exc:
                    closes[f"closed {exc.rcvd.code if exc.rcvd else None}"] += 1
        await mallory.aclose()
        return f"messages answered {counted(answers)}; 100 connections: {counted(closes)}"

    async def replays(self) -> str:
        """8 clients replaying the steps of the bystander's game so far (which it concedes, and
        starts another) as fast as answered."""
        bystander = self.attacks.bystander
        game_id = bystander.game_id
        await bystander.http.post(f"/api/games/{game_id}/concede")
        await bystander.new_game()
        last = (await self.http.get(f"/api/games/{game_id}/state")).json()["version"]
        statuses = await burst(
            lambda i: self.http.get(
                f"/api/games/{game_id}/replay", params={"at": (i * 7) % (last + 1)}
            ),
            100_000,
            8,
        )
        return f"{counted(statuses)} (a game of {last} moves)"

    async def finished_tables(self) -> str:
        """100 games each watched by a socket that leaves: the server's memory after."""
        before = rss_mb(self.pid)
        for batch in range(5):
            owner = await self.player(f"Owner {batch}", f"203.0.113.{100 + batch}")
            for _ in range(20):
                game_id = await self.game(owner)
                url = f"{self.attacks.ws_base}/ws/games/{game_id}?token={owner.token}"
                async with connect(
                    url, additional_headers={"X-Forwarded-For": f"203.0.113.{100 + batch}"}
                ) as ws:
                    await ws.recv()
                await owner.post(f"/api/games/{game_id}/concede")
            await owner.aclose()
        return f"server memory {before:.0f} → {rss_mb(self.pid):.0f} MB"

    async def database_away(self) -> str:
        """PostgreSQL refuses the server for 5 s and its backends are terminated; a player's
        socket sends a move every 0.25 s meanwhile."""
        if self.database_url is None:
            return "skipped: SQLite (run with --postgres)"
        mallory = await self.player("Patient", "203.0.113.105")
        game_id = await self.game(mallory)
        url = f"{self.attacks.ws_base}/ws/games/{game_id}?token={mallory.token}"
        answers: Counter = Counter()
        name = make_url(self.database_url).database
        server = (
            make_url(self.database_url)
            .set(database="postgres")
            .render_as_string(hide_password=False)
        )
        await self.my_turn(mallory, game_id)
        async with connect(url, additional_headers={"X-Forwarded-For": "203.0.113.105"}) as ws:
            await ws.recv()

            async def move() -> str:
                await ws.send('{"type":"sync"}')
                while (state := json.loads(await ws.recv()))["type"] != "state":
                    pass
                if 0 not in state["view"]["to_act"]:
                    return "waiting"
                await ws.send(
                    json.dumps(
                        {
                            "type": "move",
                            "ref": 1,
                            "expect_version": state["version"],
                            "move": state["view"]["legal_moves"][0]["move"],
                        }
                    )
                )
                while (reply := json.loads(await ws.recv()))["type"] not in ("ack", "error"):
                    pass
                return reply["type"] if reply["type"] == "ack" else reply["code"]

            await _admin(server, f'ALTER DATABASE "{name}" ALLOW_CONNECTIONS false')
            await _admin(
                server,
                f"SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = '{name}'",
            )
            away = time.monotonic() + 5
            while time.monotonic() < away:
                answers[await move()] += 1
                await asyncio.sleep(0.25)
            await _admin(server, f'ALTER DATABASE "{name}" ALLOW_CONNECTIONS true')
            back = time.monotonic()
            while (answer := await move()) != "ack" and time.monotonic() - back < 30:
                await asyncio.sleep(0.05)
            first = time.monotonic() - back
            alive = ws.close_code is None
        await mallory.aclose()
        return (
            f"socket answers while away {counted(answers)}, still open: {alive}; first "
            f"move after it came back: {answer} in {first:.2f} s"
        )


async def recovery(http: httpx.AsyncClient, game_id: str, limit: float = 60) -> float:
    """Seconds until a GET of the state is answered within a second again."""
    started = time.monotonic()
    while time.monotonic() - started < limit:
        try:
            await http.get(f"/api/games/{game_id}/state", timeout=1)
            break
        except httpx.HTTPError:
            pass
    return time.monotonic() - started


def rss_mb(pid: int) -> float:
    status = Path(f"/proc/{pid}/status").read_text()
    return int(re.search(r"VmRSS:\s+(\d+)", status).group(1)) / 1024


async def run(
    base: str,
    ws_base: str,
    pid: int,
    other: Instance | None,
    redis: Redis | None,
    postgres_url: str | None,
    only: str | None,
) -> None:
    async with httpx.AsyncClient(base_url=base, timeout=30, headers=BYSTANDER) as http:
        bystander = Bystander(http)
        await bystander.setup()
        attacks = Attacks(base, ws_base, bystander)
        tables = TableAttacks(attacks, pid, postgres_url)
        plan: list[tuple[str, Callable[[], Awaitable[str]]]] = [
            ("none (baseline)", lambda: asyncio.sleep(ATTACK_SECONDS, "")),
            ("1. 40 sockets sending sync, never reading", attacks.non_reading_sockets),
            ("4. 5 MB bodies", lambda: attacks.big_bodies(pid)),
            ("4. 1 MB frames, 5 KB messages", lambda: attacks.big_frames(pid)),
            ("5. flood of new players", attacks.flood_players),
            ("5. flood of new lobbies", attacks.flood_lobbies),
            ("5. invite code guessing", attacks.guess_invites),
            ("6. 300 spectators on the bystander's game", attacks.spectator_crowd),
            ("7. cross-site POST and socket", attacks.cross_site),
            ("8. forged Host", attacks.forged_host),
            ("10. invisible names", attacks.names),
            (
                "31.7 600 Summer Camp moves with a wrong field; 31.9 a null message",
                tables.bad_moves,
            ),
            ("31.8 a removed player rejoins", tables.removed_rejoins),
            ("31.4–5 a classroom of 40 behind one address", tables.classroom),
            ("31.5 one client flooding messages and connections", tables.one_client_floods),
            ("31.1–2 the database away for 5 s", tables.database_away),
            ("31.6 8 clients replaying a game of the bystander's", tables.replays),
            ("31.3 100 tables watched, then left", tables.finished_tables),
            # Last: on a server whose pool can deadlock, it leaves it stuck for a while.
            ("1. 200 joins, 100 in flight at once", attacks.post_burst),
        ]
        if other is not None and redis is not None:
            cluster = Cluster(http, bystander, other, redis)
            plan += [
                ("3. Redis hung for 6 s (SIGSTOP)", cluster.redis_hung),
                ("2. kill -9 of the instance whose bot is about to move", cluster.kill_instance),
            ]
        for label, attack in plan:
            if only and not label.startswith(tuple(only.split(","))):
                continue
            done = asyncio.Event()
            playing = asyncio.create_task(bystander.play(done))
            started = time.perf_counter()
            try:
                outcome = await attack()
            except Exception as exc:  # noqa: BLE001 - an attack that breaks is itself a finding
                outcome = f"attack failed: {type(exc).__name__}: {exc}"
            took = time.perf_counter() - started
            if took < 1:
                await asyncio.sleep(1 - took)
            done.set()
            await playing
            stuck = await recovery(http, bystander.game_id)
            if stuck > 0.5:
                outcome += f"; the server answered again {stuck:.1f} s after the attack"
            print(
                f"{label}\n  attacker: {outcome} ({took:.1f} s)\n{bystander.summary()}", flush=True
            )
        await attacks.http.aclose()


class Instance:
    """One ``campground serve`` process."""

    def __init__(self, env: dict[str, str], log: Path):
        self.port = free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        self.ws_base = f"ws://127.0.0.1:{self.port}"
        self.log = log
        with open(log, "wb") as out:
            self.process = subprocess.Popen(
                [sys.executable, "-m", "app.cli", "serve", "--port", str(self.port)],
                cwd=ROOT,
                env=env,
                stdout=out,
                stderr=subprocess.STDOUT,
            )
        for _ in range(300):
            try:
                httpx.get(f"{self.base}/api/games", timeout=1)
                return
            except httpx.TransportError:
                time.sleep(0.05)
        raise RuntimeError(f"the server did not start; see {log}")

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.terminate()
            self.process.wait(10)


class Cluster:
    """The faults of two instances sharing a Redis: the bystander is on the first."""

    def __init__(
        self, http: httpx.AsyncClient, bystander: Bystander, other: Instance, redis: Redis
    ):
        self.http, self.bystander, self.other, self.redis = http, bystander, other, redis

    async def redis_hung(self) -> str:
        """Redis stopped (SIGSTOP) for 6 s; a spectator of the bystander's game sits on the
        other instance, which can hear of the moves only through Redis."""
        url = f"{self.other.ws_base}/ws/games/{self.bystander.game_id}"
        async with connect(url, additional_headers={"X-Forwarded-For": "192.0.2.200"}) as ws:
            version = json.loads(await ws.recv())["version"]
            os.kill(self.redis.process.pid, signal.SIGSTOP)
            try:
                await asyncio.sleep(ATTACK_SECONDS)
                during = await versions_seen(ws, 0.01)
            finally:
                os.kill(self.redis.process.pid, signal.SIGCONT)
            resumed = time.monotonic()
            target = (await self.http.get(f"/api/games/{self.bystander.game_id}/state")).json()
            seen = max([version, *during])
            while seen < target["version"] and time.monotonic() - resumed < 30:
                message = json.loads(await asyncio.wait_for(ws.recv(), 30))
                seen = max(seen, message.get("version", seen))
            caught_up = time.monotonic() - resumed
        return (
            f"the other instance's spectator saw {len(during)} changes during the hang and "
            f"was at version {target['version']} (the game's when Redis came back) "
            f"{caught_up:.1f} s after"
        )

    async def kill_instance(self) -> str:
        """A game against a bot driven by the other instance: kill -9 it while the bot waits,
        and time until a bot move shows up on the bystander's instance."""
        async with httpx.AsyncClient(
            base_url=self.other.base, timeout=10, headers={"X-Forwarded-For": "192.0.2.201"}
        ) as other:
            token = (await other.post("/api/players", json={"name": "Owner"})).json()["token"]
            other.headers["Authorization"] = f"Bearer {token}"
            # Public: the surviving instance's client below watches it without a seat.
            lobby = (
                await other.post("/api/lobbies", json={"game": "hike", "private": False})
            ).json()
            await other.post(
                f"/api/lobbies/{lobby['id']}/bots", json={"seat": 1, "level": "random"}
            )
            game_id = (await other.post(f"/api/lobbies/{lobby['id']}/start")).json()["game_id"]
            while True:
                state = (await other.get(f"/api/games/{game_id}/state")).json()
                if 0 not in state["view"]["to_act"]:
                    break
                move = state["view"]["legal_moves"][-1]["move"]
                await other.post(
                    f"/api/games/{game_id}/moves",
                    json={"move": move, "expect_version": state["version"]},
                )
        self.other.process.kill()
        killed = time.monotonic()
        while time.monotonic() - killed < 120:
            now = (await self.http.get(f"/api/games/{game_id}/state")).json()
            if now["version"] > state["version"]:
                return (
                    f"the bot moved {time.monotonic() - killed:.1f} s after the kill, "
                    "driven by the surviving instance"
                )
            await asyncio.sleep(0.2)
        return "the bot had not moved 120 s after the kill"


async def versions_seen(ws, wait: float) -> list[int]:
    """Versions of the messages already waiting on ``ws`` (and those within ``wait`` s)."""
    seen = []
    try:
        while True:
            message = json.loads(await asyncio.wait_for(ws.recv(), wait))
            if "version" in message:
                seen.append(message["version"])
    except TimeoutError:
        return seen


class Redis:
    """A redis-server of the bench's own on a free port, so that it can be stopped."""

    def __init__(self):
        self.port = free_port()
        self.process = subprocess.Popen(
            ["redis-server", "--port", str(self.port), "--save", "", "--appendonly", "no"],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        self.url = f"redis://127.0.0.1:{self.port}/0"
        time.sleep(0.3)

    def stop(self) -> None:
        os.kill(self.process.pid, signal.SIGCONT)
        self.process.terminate()
        self.process.wait(10)


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument(
        "--postgres", nargs="?", const=DEFAULT_POSTGRES, default=None, metavar="URL"
    )
    parser.add_argument(
        "--only",
        metavar="PREFIXES",
        help="run only the attacks whose label starts with one of these "
        "comma-separated prefixes, e.g. none,31.",
    )
    args = parser.parse_args()

    with tempfile.TemporaryDirectory() as tmp, database(args.postgres, tmp) as url:
        upgrade(url)
        env = os.environ | {
            "DATABASE_URL": url,
            "BOT_DELAY": "0.5",
            "ADMIN_TOKEN": "",
            "TRUSTED_PROXIES": "127.0.0.1",
        }
        redis = Redis() if shutil.which("redis-server") else None
        if redis is not None:
            env |= {"REDIS_URL": redis.url, "REDIS_PREFIX": f"abuse-{redis.port}:"}
        instances = []
        try:
            instances.append(Instance(env, Path(tmp) / "a.log"))
            if redis is not None:
                instances.append(Instance(env, Path(tmp) / "b.log"))
            backend = "PostgreSQL" if args.postgres else "SQLite"
            shape = "two instances and Redis" if redis else "one instance (no redis-server)"
            print(
                f"Abuse bench, {backend}, {shape}, default limits, BOT_DELAY 0.5, "
                "DEADLINE_POLL 1\n",
                flush=True,
            )
            asyncio.run(
                run_and_check_log(instances, redis, url if args.postgres else None, args.only)
            )
        finally:
            for instance in instances:
                instance.stop()
            if redis is not None:
                redis.stop()
    return 0


async def run_and_check_log(
    instances: list[Instance], redis: Redis | None, postgres_url: str | None, only: str | None
) -> None:
    first = instances[0]
    async with httpx.AsyncClient(base_url=first.base, timeout=30, headers=BYSTANDER) as http:
        body = (await http.post("/api/players", json={"name": "Script"})).json()
        async with connect(f"{first.ws_base}/ws/games/none?token={body['token']}") as ws:
            await ws.wait_closed()
    other = instances[1] if len(instances) > 1 else None
    await run(first.base, first.ws_base, first.process.pid, other, redis, postgres_url, only)
    log = first.log.read_text(errors="replace")
    print(
        f"9. a socket opened with ?token=: token in the server log: "
        f"{'yes' if body['token'] in log else 'no'}; "
        f"redacted lines: {log.count('token=[redacted]')}"
    )


if __name__ == "__main__":
    sys.exit(main())
