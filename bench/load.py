"""Load: N concurrent two-seat games, two scripted people per game over the game WebSocket.

Starts the server itself (``uvicorn app.main:app``, one or several instances; SQLite in a
temporary file, or with ``--postgres`` a throw-away database beside the given server's, dropped
after; several instances share a Redis), creates the games over HTTP, then every seat plays:
as fast as the server answers, or with ``--think T`` at a human pace (each seat thinks T
seconds before each move). A finished game is replaced by a new one.

Prints committed moves/s, ack and opponent-patch p50/p99 (from sending a move to its ack, and
to the patch that shows it on the other seat's socket), median patch and view bytes, errors,
the server's CPU seconds per 1,000 moves and its memory, and, from the server's own
``/metrics`` read every second, the longest event-loop stall and garbage collection of the
window (each the longest of 10 s, so the 10 s before the window count too: ``--warmup 10``)
with the collections of each generation and those over 50 ms. With ``--baselines`` it also runs, in
the same run, ``pgbench -N`` against the same PostgreSQL and a bare ``websockets`` echo server
with as many connections as the games have sockets, and prints the ratios.

    .venv/bin/python bench/load.py --games 100 --seconds 30 --postgres --baselines
    .venv/bin/python bench/load.py --games 500 --think 2 --seconds 60 --postgres
    .venv/bin/python bench/load.py --games 50 --game camping-life --instances 2 --postgres
    .venv/bin/python bench/load.py --games 100 --game summer-camp --seconds 15 --warm 90 --postgres

``--bot-tables N --bot-level LEVEL`` adds N tables that bots play alone, thinking through
the server's bot workers (``BOT_WORKERS``, ``--bot-workers``) while the measured games run:
each a three-seat table of ``--bot-game`` (the measured game where it seats three, else Hike)
whose host concedes at once, so that bots of LEVEL play all three seats (the host's seat by
the stand-in at that level), and a new one when it ends. It prints the bots' moves/s beside
the measured games' figures.

    .venv/bin/python bench/load.py --games 100 --think 2 --postgres --bot-tables 20 --bot-level search

``--warm SECONDS`` measures twice in one run: at the start of the games, then after that
much more play, late in them, and prints the ratio of their moves/s.

``--sign-in-flood RATE`` measures twice in one run: quietly, then while wrong sign-ins arrive
at RATE a second (each on its own, as from many addresses: the address limits are off, and no
sender waits for an answer), and prints the opponents' patch p99 of both side by side, with
how the sign-ins were answered (401 checked, 503 refused by the full hashing pool).

    .venv/bin/python bench/load.py --games 300 --think 2 --postgres --sign-in-flood 40

``--python`` runs the servers (and the echo baseline) on another interpreter, say a venv made
from a CPython built with PGO and LTO, as the ``python:3.11-slim`` image's is; the first line
printed names the interpreter the figures are of.
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import os
import random
import re
import socket
import subprocess
import sys
import tempfile
import time
import uuid
from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import aiohttp
import httpx
import orjson
import uvloop
from sqlalchemy import make_url, text
from sqlalchemy.ext.asyncio import create_async_engine
from websockets.asyncio.client import connect
from websockets.asyncio.server import serve
from prometheus_client.parser import text_string_to_metric_families

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from app.config import Settings  # noqa: E402
from app.guard import server_options  # noqa: E402
from app.limits import UNLIMITED  # noqa: E402
from app.migrate import upgrade  # noqa: E402
from app.services.game_log import SHOWN  # noqa: E402
from engine.registry import get_game  # noqa: E402

DEFAULT_POSTGRES = os.environ.get(
    "TEST_POSTGRES_URL", "postgresql+asyncpg://postgres@127.0.0.1:5432/test"
)
DEFAULT_REDIS = os.environ.get("TEST_REDIS_URL", "redis://127.0.0.1:6379/0")
CLK_TCK = os.sysconf("SC_CLK_TCK")


# --- the view kept up to date from patches (in place: the client must stay cheap) ---------


def _parent(doc, path: str):
    parts = [p.replace("~1", "/").replace("~0", "~") for p in path.split("/")[1:]]
    for part in parts[:-1]:
        doc = doc[int(part)] if isinstance(doc, list) else doc[part]
    return doc, parts[-1]


def apply_ops(doc: dict, ops: list[dict]) -> dict:
    for op in ops:
        if op["path"] == "":
            doc = op["value"]
            continue
        parent, key = _parent(doc, op["path"])
        if isinstance(parent, list):
            index = len(parent) if key == "-" else int(key)
            if op["op"] == "add":
                parent.insert(index, op["value"])
            elif op["op"] == "remove":
                del parent[index]
            else:
                parent[index] = op["value"]
        elif op["op"] == "remove":
            del parent[key]
        else:
            parent[key] = op["value"]
    return doc


# --- measurements ----------------------------------------------------------------------


class Stats:
    def __init__(self) -> None:
        self.measuring = False
        self.moves = 0
        self.acks: list[float] = []
        self.patches: list[float] = []
        self.patch_bytes: list[int] = []
        self.view_bytes: list[int] = []
        self.errors: Counter = Counter()
        self.total_moves = 0
        self.games = 0
        self.bot_moves = 0
        # How the flood's sign-ins were answered, by status.
        self.sign_ins: Counter = Counter()

    def measured(self) -> Stats:
        """What this window measured, handed over; the counts start again for the next."""
        done = Stats()
        done.moves, done.acks, done.patches = self.moves, self.acks, self.patches
        done.patch_bytes, done.view_bytes, done.errors = (
            self.patch_bytes,
            self.view_bytes,
            self.errors,
        )
        done.bot_moves, done.sign_ins = self.bot_moves, self.sign_ins
        self.sign_ins = Counter()
        self.moves, self.acks, self.patches, self.patch_bytes, self.view_bytes = 0, [], [], [], []
        self.errors = Counter()
        self.bot_moves = 0
        return done


class Seat:
    def __init__(self, slot: Slot, token: str):
        self.slot = slot
        self.token = token
        self.ws = None
        self.version = -1
        self.view: dict = {}
        self.changed = asyncio.Event()
        self.acks: dict[int, asyncio.Future] = {}
        # version -> when the move that made it was sent, for the opponent's patch
        self.sent_at: dict[int, float] = {}

    async def open(self, sockets: aiohttp.ClientSession, url: str) -> None:
        self.ws = await sockets.ws_connect(
            url, params={"token": self.token}, max_msg_size=0, compress=0, autoclose=True
        )
        self.reader = asyncio.create_task(self._read())

    async def _read(self) -> None:
        stats = self.slot.stats
        async for frame in self.ws:
            if frame.type is not aiohttp.WSMsgType.TEXT:
                continue
            now = time.perf_counter()
            raw = frame.data
            message = orjson.loads(raw)
            kind = message["type"]
            if kind == "patch":
                if message["from"] != self.version:
                    await self.ws.send_str('{"type":"sync"}')
                    continue
                self.view = apply_ops(self.view, message["ops"])
                # Patches append the log's new entries: keep the latest, as a sync sends them.
                if "log" in self.view:
                    del self.view["log"][:-SHOWN]
                self.version = message["version"]
                if stats.measuring:
                    stats.patch_bytes.append(len(raw))
                    sent = self.slot.other(self).sent_at.pop(self.version, None)
                    if sent is not None:
                        stats.patches.append((now - sent) * 1000)
                    if self.version % 10 == 0:
                        stats.view_bytes.append(len(orjson.dumps(self.view)))
                self.changed.set()
            elif kind == "state":
                self.view, self.version = message["view"], message["version"]
                if stats.measuring:
                    stats.view_bytes.append(len(orjson.dumps(self.view)))
                self.changed.set()
            else:
                future = self.acks.pop(message.get("ref"), None)
                if future is not None and not future.done():
                    future.set_result((now, message))

    async def play(self, think: float, rng: random.Random) -> None:
        stats = self.slot.stats
        ref = 0
        while True:
            while not (self.view and self.view["you"] in self.view["to_act"]):
                if self.view and self.view.get("outcome") is not None:
                    return
                self.changed.clear()
                await self.changed.wait()
            if think:
                await asyncio.sleep(think * rng.uniform(0.8, 1.2))
            if self.view.get("outcome") is not None:
                return
            legal = self.view["legal_moves"]
            if not legal:
                self.changed.clear()
                await self.changed.wait()
                continue
            ref += 1
            future = asyncio.get_running_loop().create_future()
            self.acks[ref] = future
            version = self.version
            move = rng.choice(legal)["move"]
            sent = time.perf_counter()
            self.sent_at[version + 1] = sent
            message = {"type": "move", "move": move, "expect_version": version, "ref": ref}
            await self.ws.send_frame(orjson.dumps(message), aiohttp.WSMsgType.TEXT)
            at, answer = await asyncio.wait_for(future, 60)
            if answer["type"] == "ack":
                stats.total_moves += 1
                if stats.measuring:
                    stats.moves += 1
                    stats.acks.append((at - sent) * 1000)
                # Wait for this seat's own patch before choosing again.
                while self.version < answer["version"]:
                    self.changed.clear()
                    await self.changed.wait()
            else:
                self.sent_at.pop(version + 1, None)
                if stats.measuring:
                    stats.errors[answer.get("code", answer["type"])] += 1
                while self.version <= version:
                    self.changed.clear()
                    await self.changed.wait()

    async def close(self) -> None:
        self.reader.cancel()
        await self.ws.close()


SETTING_UP = asyncio.Semaphore(4)


class Slot:
    """One table kept busy: a game, replaced by a new one when it ends."""

    def __init__(
        self,
        index: int,
        stats: Stats,
        bases: list[str],
        game: str,
        sticky: bool,
        sockets: aiohttp.ClientSession,
    ):
        self.index = index
        self.sockets = sockets
        self.sticky = sticky
        self.stats = stats
        self.bases = bases
        self.game = game
        self.seats: list[Seat] = []

    def other(self, seat: Seat) -> Seat:
        return self.seats[1] if seat is self.seats[0] else self.seats[0]

    async def new_game(self, http: list[httpx.AsyncClient]) -> tuple[str, list[Seat]]:
        # A few games are set up at a time: the load measured is play, not lobby bursts.
        async with SETTING_UP:
            return await self._new_game(http)

    async def _new_game(self, http: list[httpx.AsyncClient]) -> tuple[str, list[Seat]]:
        client = http[self.index % len(http)]
        tokens = []
        for name in ("Ana", "Ben"):
            r = await client.post("/api/players", json={"name": name})
            tokens.append(r.json()["token"])
        auth = [{"Authorization": f"Bearer {t}"} for t in tokens]
        client.cookies.clear()
        r = await client.post("/api/lobbies", json={"game": self.game, "seats": 2}, headers=auth[0])
        lobby = r.json()
        await client.post(
            "/api/lobbies/join", json={"invite_code": lobby["invite_code"]}, headers=auth[1]
        )
        r = await client.post(f"/api/lobbies/{lobby['id']}/start", headers=auth[0])
        return r.json()["game_id"], [Seat(self, t) for t in tokens]

    async def run(self, http: list[httpx.AsyncClient], think: float, ready: asyncio.Event) -> None:
        rng = random.Random(self.index)
        first = True
        upcoming = asyncio.create_task(self.new_game(http))
        try:
            while True:
                game_id, self.seats = await upcoming
                if not think:
                    # As fast as answered, the table's next game is set up while this one is
                    # played: N games are in play throughout, rather than fewer while
                    # finished ones wait to be replaced. (At a human pace no game ends within
                    # a run, and setting up another meanwhile would only add to the load.)
                    upcoming = asyncio.create_task(self.new_game(http))
                await self._play(game_id, think, rng, first, ready)
                first = False
                if think:
                    upcoming = asyncio.create_task(self.new_game(http))
        finally:
            upcoming.cancel()

    async def _play(
        self, game_id: str, think: float, rng: random.Random, first: bool, ready: asyncio.Event
    ) -> None:
        for i, seat in enumerate(self.seats):
            base = self.bases[(self.index + (0 if self.sticky else i)) % len(self.bases)]
            await seat.open(self.sockets, f"{base}/ws/games/{game_id}")
        if first:
            await ready.wait()
            if think:
                # Spread the first moves over one thinking time.
                await asyncio.sleep(rng.uniform(0, think))
        try:
            await asyncio.gather(*(s.play(think, rng) for s in self.seats))
        finally:
            for seat in self.seats:
                await seat.close()
        self.stats.games += 1


class BotTable:
    """A table bots play alone, replaced by a new one when it ends; it counts their moves."""

    POLL = 5.0  # seconds between looks at the table: four requests a second for 20 tables

    def __init__(self, index: int, stats: Stats, game: str, level: str):
        self.index, self.stats, self.game, self.level = index, stats, game, level

    async def _new_game(self, client: httpx.AsyncClient) -> tuple[str, dict]:
        r = await client.post("/api/players", json={"name": f"Host {self.index}"})
        auth = {"Authorization": f"Bearer {r.json()['token']}"}
        client.cookies.clear()
        body = {"game": self.game, "seats": 3, "stand_in_level": self.level}
        r = await client.post("/api/lobbies", json=body, headers=auth)
        r.raise_for_status()
        lobby = r.json()
        for seat in (1, 2):
            r = await client.post(
                f"/api/lobbies/{lobby['id']}/bots",
                json={"seat": seat, "level": self.level},
                headers=auth,
            )
            r.raise_for_status()
        r = await client.post(f"/api/lobbies/{lobby['id']}/start", headers=auth)
        game_id = r.json()["game_id"]
        (await client.post(f"/api/games/{game_id}/concede", headers=auth)).raise_for_status()
        return game_id, auth

    async def run(self, http: list[httpx.AsyncClient], ready: asyncio.Event) -> None:
        client = http[self.index % len(http)]
        await ready.wait()
        while True:
            async with SETTING_UP:
                game_id, auth = await self._new_game(client)
            seen = 0
            while True:
                await asyncio.sleep(self.POLL)
                state = (await client.get(f"/api/games/{game_id}/state", headers=auth)).json()
                if self.stats.measuring:
                    self.stats.bot_moves += state["version"] - seen
                seen = state["version"]
                if state["view"]["outcome"] is not None:
                    break


# --- the server ------------------------------------------------------------------------


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def process_cpu(pids: list[int]) -> float:
    """CPU seconds (user + system) of these processes and their waited-for children."""
    total = 0.0
    for pid in pids:
        with open(f"/proc/{pid}/stat") as f:
            fields = f.read().rsplit(")", 1)[1].split()
        total += sum(int(x) for x in fields[11:15]) / CLK_TCK
    return total


def postgres_cpu() -> dict[int, float]:
    """CPU seconds of each PostgreSQL process on this machine (its backends serve the server;
    other clients of the same PostgreSQL are counted too)."""
    found = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                if (entry / "comm").read_text().strip() == "postgres":
                    found[int(entry.name)] = process_cpu([int(entry.name)])
            except OSError:
                continue
    return found


def process_rss(pids: list[int]) -> int:
    total = 0
    for pid in pids:
        with open(f"/proc/{pid}/status") as f:
            for line in f:
                if line.startswith("VmRSS:"):
                    total += int(line.split()[1]) * 1024
    return total


def tree(pid: int) -> list[int]:
    """``pid`` and its children (uvicorn ``--workers`` forks worker processes)."""
    found = [pid]
    try:
        children = Path(f"/proc/{pid}/task/{pid}/children").read_text().split()
    except OSError:
        return found
    for child in children:
        found += tree(int(child))
    return found


async def _admin(url: str, statement: str) -> None:
    engine = create_async_engine(url, isolation_level="AUTOCOMMIT")
    try:
        async with engine.connect() as conn:
            await conn.execute(text(statement))
    finally:
        await engine.dispose()


@contextmanager
def database(postgres: str | None, tmp: str) -> Iterator[str]:
    if postgres is None:
        yield f"sqlite+aiosqlite:///{tmp}/bench.db"
        return
    name = f"campground_bench_{uuid.uuid4().hex[:12]}"
    asyncio.run(_admin(postgres, f'CREATE DATABASE "{name}"'))
    try:
        yield make_url(postgres).set(database=name).render_as_string(hide_password=False)
    finally:
        asyncio.run(_admin(postgres, f'DROP DATABASE "{name}" WITH (FORCE)'))


@contextmanager
def servers(
    url: str,
    instances: int,
    workers: int,
    redis: str | None,
    python: str = sys.executable,
    bot_workers: int | None = None,
    settings: dict[str, str] | None = None,
) -> Iterator[list]:
    env = os.environ | UNLIMITED | {"DATABASE_URL": url, "BOT_DELAY": "0", "ADMIN_TOKEN": ""}
    env |= settings or {}
    if bot_workers is not None:
        env |= {"BOT_WORKERS": str(bot_workers)}
    if redis:
        env |= {"REDIS_URL": redis, "REDIS_PREFIX": f"campground-bench-{uuid.uuid4().hex[:8]}:"}
    started = []
    try:
        for _ in range(instances):
            port = free_port()
            command = [python, "-m", "uvicorn", "app.main:app", "--port", str(port)]
            command += ["--log-level", "warning", "--ws-per-message-deflate", "false"]
            # As `campground serve` runs it: forwarded headers left to the app, frames bounded.
            options = server_options(Settings())
            command += ["--ws-max-size", str(options["ws_max_size"])]
            command += [] if options["proxy_headers"] else ["--no-proxy-headers"]
            if workers > 1:
                command += ["--workers", str(workers)]
            process = subprocess.Popen(command, cwd=ROOT, env=env)
            started.append((process, f"http://127.0.0.1:{port}"))
        for _, base in started:
            for _ in range(400):
                try:
                    httpx.get(f"{base}/api/games", timeout=1)
                    break
                except httpx.TransportError:
                    time.sleep(0.05)
        yield started
    finally:
        for process, _ in started:
            process.terminate()
        for process, _ in started:
            try:
                process.wait(15)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait(15)


async def load(args, bases: list[str], pids_of) -> dict:
    stats = Stats()
    ws_bases = [b.replace("http", "ws", 1) for b in bases]
    limits = httpx.Limits(max_connections=50)
    http = [httpx.AsyncClient(base_url=b, timeout=60, limits=limits) for b in bases]
    ready = asyncio.Event()
    # aiohttp's client parses frames in C: the client's share of the cores stays small.
    sockets = aiohttp.ClientSession(connector=aiohttp.TCPConnector(limit=0))
    slots = [Slot(i, stats, ws_bases, args.game, args.sticky, sockets) for i in range(args.games)]
    tasks = [asyncio.create_task(s.run(http, args.think, ready)) for s in slots]
    tasks += [
        asyncio.create_task(BotTable(i, stats, args.bot_game, args.bot_level).run(http, ready))
        for i in range(args.bot_tables)
    ]

    def progress(phase: str, started: float) -> None:
        elapsed = time.perf_counter() - started
        rate = stats.moves / elapsed if stats.measuring and elapsed else 0
        errors = sum(stats.errors.values())
        sys.stderr.write(
            f"\r{phase:<9} {elapsed:5.0f} s  moves {stats.total_moves:>8,}  "
            f"measured {stats.moves:>8,}  {rate:8,.0f}/s  games done {stats.games:>5}  "
            f"errors {errors}   "
        )
        sys.stderr.flush()

    async def until(seconds: float, phase: str, condition=lambda: False) -> None:
        started = time.perf_counter()
        while time.perf_counter() - started < seconds and not condition():
            for task in tasks:
                if task.done() and task.exception():
                    raise task.exception()
            progress(phase, started)
            await asyncio.sleep(1)

    try:
        await until(600, "setting up", lambda: all(len(s.seats) == 2 for s in slots))
        # The client's own collections would stall its reading and add their pauses to the
        # server's latencies: none from the warm-up to the end of measuring (what it
        # allocates meanwhile is dropped by reference counting; the few cycles wait).
        gc.collect()
        gc.disable()
        ready.set()
        await until(args.warmup, "warm-up")
        windows = [await measure(args, stats, until, pids_of, "measuring")]
        if args.sign_in_flood:
            flooding = asyncio.create_task(flood(bases, args.sign_in_flood, stats))
            await until(2, "flooding")
            windows.append(await measure(args, stats, until, pids_of, "flood"))
            flooding.cancel()
            await asyncio.gather(flooding, return_exceptions=True)
        if args.warm:
            # The same games played on, then measured again: late in games (those that ended
            # meanwhile start again, so the window mixes late games with a few new ones).
            gc.enable()
            await until(args.warm, "playing")
            gc.collect()
            gc.disable()
            windows.append(await measure(args, stats, until, pids_of, "late"))
        gc.enable()
    finally:
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        for client in http:
            await client.aclose()
        await sockets.close()
    return windows


async def flood(bases: list[str], rate: float, stats: Stats) -> None:
    """Wrong sign-ins, ``rate`` a second, each sent without waiting for the one before."""
    clients = [
        httpx.AsyncClient(base_url=b, timeout=60, limits=httpx.Limits(max_connections=200))
        for b in bases
    ]
    pending: set[asyncio.Task] = set()

    async def one(client: httpx.AsyncClient) -> None:
        body = {"handle": f"nobody{uuid.uuid4().hex[:12]}", "password": "a wrong guess"}
        try:
            stats.sign_ins[(await client.post("/api/sessions", json=body)).status_code] += 1
        except httpx.HTTPError as exc:
            stats.sign_ins[type(exc).__name__] += 1

    try:
        sent = 0
        started = time.perf_counter()
        while True:
            sent += 1
            task = asyncio.create_task(one(clients[sent % len(clients)]))
            pending.add(task)
            task.add_done_callback(pending.discard)
            await asyncio.sleep(max(0.0, started + sent / rate - time.perf_counter()))
    finally:
        for task in list(pending):
            task.cancel()
        await asyncio.gather(*pending, return_exceptions=True)
        for client in clients:
            await client.aclose()


def py_spy(pid: int, output: str, seconds: float) -> subprocess.Popen:
    """py-spy recording the collapsed stacks of ``pid`` and its children into ``output`` for
    ``seconds``, without pausing them."""
    return subprocess.Popen(
        [
            str(Path(sys.executable).parent / "py-spy"),
            "record",
            "--nonblocking",
            "--format",
            "raw",
            "--subprocesses",
            "-o",
            output,
            "-d",
            str(int(seconds)),
            "-p",
            str(pid),
        ],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )


async def measure(args, stats: Stats, until, pids_of, phase: str) -> dict:
    """One measured window of ``args.seconds``: its figures, and the server's."""
    pids = pids_of()
    profiler = None
    if args.profile:
        # Collapsed stacks of every server process over the window (with --warm, the late
        # window's in FILE.late).
        output = args.profile if phase == "measuring" else f"{args.profile}.{phase}"
        profiler = py_spy(pids[0], output, args.seconds)
    watching = asyncio.create_task(Stalls.watch(args.bases))
    cpu_before = process_cpu(pids)
    client_before = process_cpu([os.getpid()])
    postgres_before = postgres_cpu()
    stats.measuring = True
    started = time.perf_counter()
    await until(args.seconds, phase)
    stats.measuring = False
    elapsed = time.perf_counter() - started
    watching.cancel()
    stalls = await watching
    cpu = process_cpu(pids) - cpu_before
    client_cpu = process_cpu([os.getpid()]) - client_before
    postgres_after = postgres_cpu()
    database_cpu = sum(t - postgres_before.get(pid, 0.0) for pid, t in postgres_after.items())
    rss = process_rss(pids)
    sys.stderr.write("\n")
    if profiler is not None:
        profiler.wait(60)
    return {
        "stats": stats.measured(),
        "elapsed": elapsed,
        "cpu": cpu,
        "client_cpu": client_cpu,
        "rss": rss,
        "database_cpu": database_cpu,
        "pids": len(pids),
        "load": os.getloadavg()[0],
        "total_moves": stats.total_moves,
        "stalls": stalls,
    }


class Stalls:
    """The servers' own account of their pauses while measured, read from /metrics every
    second: the longest event-loop lag and collector pause (each a maximum over the last
    10 s), and the collections by generation, with those over 50 ms."""

    def __init__(self) -> None:
        self.lag = self.gc = 0.0
        self.first: dict | None = None
        self.last: dict = {}

    @classmethod
    async def watch(cls, bases: list[str]) -> Stalls:
        found = cls()
        async with httpx.AsyncClient(timeout=5) as client:
            try:
                while True:
                    figures: dict = {}
                    for base in bases:
                        text = (await client.get(f"{base}/metrics")).text
                        for family in text_string_to_metric_families(text):
                            for sample in family.samples:
                                key = (
                                    sample.name,
                                    sample.labels.get("generation"),
                                    sample.labels.get("le"),
                                )
                                figures[key] = figures.get(key, 0.0) + sample.value
                                if sample.name == "campground_event_loop_lag_max_seconds":
                                    found.lag = max(found.lag, sample.value)
                                if sample.name == "campground_gc_pause_max_seconds":
                                    found.gc = max(found.gc, sample.value)
                    found.first = found.first or figures
                    found.last = figures
                    await asyncio.sleep(1)
            except asyncio.CancelledError:
                return found

    def collections(self, generation: int, over: str | None = None) -> float:
        """Collections of ``generation`` between the first and last reading (``over`` 0.05:
        those longer than 50 ms)."""

        def count(figures: dict) -> float:
            every = figures.get(("campground_gc_pause_seconds_count", str(generation), None), 0)
            if over is None:
                return every
            within = figures.get(("campground_gc_pause_seconds_bucket", str(generation), over), 0)
            return every - within

        return count(self.last) - count(self.first or {})


# --- baselines ---------------------------------------------------------------------------


def pgbench(url: str, clients: int, seconds: int) -> float:
    """Transactions/s of ``pgbench -N`` (simple updates, no branch contention)."""
    u = make_url(url)
    conn = ["-h", u.host or "127.0.0.1", "-p", str(u.port or 5432), "-U", u.username or "postgres"]
    env = os.environ | ({"PGPASSWORD": u.password} if u.password else {})
    subprocess.run(
        ["pgbench", "-i", "-q", "-s", "1", *conn, u.database],
        env=env,
        check=True,
        capture_output=True,
    )
    out = subprocess.run(
        ["pgbench", "-N", "-c", str(clients), "-j", "2", "-T", str(seconds), *conn, u.database],
        env=env,
        check=True,
        capture_output=True,
        text=True,
    ).stdout
    return float(re.search(r"tps = ([\d.]+)", out).group(1))


async def echo_round_trips(connections: int, seconds: float) -> float:
    """Round trips/s of a bare ``websockets`` echo server, ``connections`` clients at once."""

    async def echo(ws) -> None:
        async for message in ws:
            await ws.send(message)

    port = free_port()
    count = 0
    async with serve(echo, "127.0.0.1", port, compression=None):
        clients = [
            await connect(f"ws://127.0.0.1:{port}", compression=None) for _ in range(connections)
        ]
        deadline = time.perf_counter() + seconds

        async def ping(ws) -> None:
            nonlocal count
            payload = '{"type":"move","move":{"type":"draw"},"expect_version":1,"ref":1}'
            while time.perf_counter() < deadline:
                await ws.send(payload)
                await ws.recv()
                count += 1

        started = time.perf_counter()
        await asyncio.gather(*(ping(ws) for ws in clients))
        elapsed = time.perf_counter() - started
        for ws in clients:
            await ws.close()
    return count / elapsed


def interpreter(python: str) -> str:
    """What ``python`` is, for the figures' heading: the build matters as much as the version."""
    code = (
        "import platform, sys; print(platform.python_implementation(), "
        "platform.python_version(), platform.python_compiler(), sys.executable, sep='|')"
    )
    out = subprocess.run([python, "-c", code], check=True, capture_output=True, text=True)
    implementation, version, compiler, path = out.stdout.strip().split("|")
    return f"{implementation} {version} ({compiler}, {path})"


def echo_server_subprocess(connections: int, seconds: float, python: str) -> float:
    """The echo baseline in a process of its own, like the server it stands for."""
    code = (
        f"import asyncio, sys; sys.path.insert(0, {str(ROOT)!r}); "
        "from bench.load import echo_round_trips; "
        f"print(asyncio.run(echo_round_trips({connections:d}, {seconds:f})))"
    )
    out = subprocess.run([python, "-c", code], check=True, capture_output=True, text=True)
    return float(out.stdout.strip())


# --- main --------------------------------------------------------------------------------


def percentile(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def report(args, result: dict, label: str) -> float:
    """Prints one measured window; returns its moves/s."""
    stats: Stats = result["stats"]
    rate = stats.moves / result["elapsed"]
    print(f"{label}: measured {result['elapsed']:.0f} s")
    print(f"committed moves/s        {rate:10,.0f}")
    print(
        f"ack ms p50 / p99         {percentile(stats.acks, 0.5):10.1f} / "
        f"{percentile(stats.acks, 0.99):.1f}"
    )
    print(
        f"opponent patch ms p50/99 {percentile(stats.patches, 0.5):10.1f} / "
        f"{percentile(stats.patches, 0.99):.1f}"
    )
    stalls: Stalls = result["stalls"]
    print(
        f"longest event-loop stall {stalls.lag * 1000:10.1f} ms; longest collection "
        f"{stalls.gc * 1000:.1f} ms"
    )
    made = [
        f"{stalls.collections(g):.0f} ({stalls.collections(g, '0.05'):.0f} over 50 ms)"
        for g in range(3)
    ]
    print(f"collections by generation {' / '.join(made)}")
    patch_b, view_b = percentile(stats.patch_bytes, 0.5), percentile(stats.view_bytes, 0.5)
    print(f"median patch / view B    {patch_b:10,.0f} / {view_b:,.0f} ({patch_b / view_b:.0%})")
    print(f"errors                   {sum(stats.errors.values()):10} {dict(stats.errors)}")
    moves = max(stats.moves, 1)
    print(f"server CPU s / 1000 moves{result['cpu'] / moves * 1000:10.2f}")
    print(f"server memory (RSS)      {result['rss'] / 2**20:10.0f} MiB")
    if args.bot_tables:
        print(f"bot moves/s (bot tables) {stats.bot_moves / result['elapsed']:10.1f}")
    client = result["client_cpu"] / result["elapsed"]
    print(f"load client CPU          {client:10.0%} of a core; machine load {result['load']:.1f}")
    if args.postgres:
        print(
            f"PostgreSQL CPU s / 1000 moves{result['database_cpu'] / moves * 1000:6.2f} "
            "(every PostgreSQL process on this machine)"
        )
    return rate


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--games", type=int, default=10, help="concurrent two-seat games")
    parser.add_argument("--game", default="hike", help="game id (default hike)")
    parser.add_argument("--think", type=float, default=0, help="seconds each seat thinks")
    parser.add_argument("--seconds", type=float, default=20, help="measured seconds")
    parser.add_argument("--warmup", type=float, default=5, help="seconds before measuring")
    parser.add_argument(
        "--warm",
        type=float,
        default=0,
        metavar="SECONDS",
        help="after the first window, play on this long and measure again (late in games)",
    )
    parser.add_argument(
        "--postgres", nargs="?", const=DEFAULT_POSTGRES, default=None, metavar="URL"
    )
    parser.add_argument("--instances", type=int, default=1, help="app instances (Redis if >1)")
    parser.add_argument(
        "--sticky",
        action="store_true",
        help="both seats of a game on the same instance (a proxy routing by the game's path); "
        "otherwise each seat of a game on a different instance",
    )
    parser.add_argument("--workers", type=int, default=1, help="uvicorn worker processes each")
    parser.add_argument("--redis", default=DEFAULT_REDIS, help="Redis for several instances")
    parser.add_argument("--baselines", action="store_true", help="pgbench -N and a ws echo")
    parser.add_argument("--pgbench-clients", type=int, default=8)
    parser.add_argument(
        "--python",
        default=sys.executable,
        metavar="PATH",
        help="interpreter that runs the servers and the echo baseline (default: this one); "
        "it needs the project and its dev extras installed",
    )
    parser.add_argument(
        "--profile",
        metavar="FILE",
        help="py-spy collapsed stacks of the server while measured (with --warm, also FILE.late)",
    )
    parser.add_argument("--bot-tables", type=int, default=0, help="extra tables of bots only")
    parser.add_argument("--bot-level", default="search", help="their bots' level")
    parser.add_argument(
        "--bot-game",
        default=None,
        help="their game (default: --game where it seats three, else hike)",
    )
    parser.add_argument(
        "--bot-workers",
        type=int,
        default=None,
        help="the server's BOT_WORKERS (default: its own setting)",
    )
    parser.add_argument(
        "--sign-in-flood",
        type=float,
        default=0,
        metavar="RATE",
        help="measure again under RATE wrong sign-ins a second",
    )
    args = parser.parse_args()
    args.bases = []
    if args.bot_game is None:
        args.bot_game = args.game if get_game(args.game).max_players >= 3 else "hike"
    if args.baselines and not args.postgres:
        parser.error("--baselines needs --postgres")

    several = args.instances > 1 or args.workers > 1
    with tempfile.TemporaryDirectory() as tmp, database(args.postgres, tmp) as url:
        upgrade(url)
        redis = args.redis if several else None
        with servers(url, args.instances, args.workers, redis, args.python, args.bot_workers) as up:

            def pids_of() -> list[int]:
                return [pid for process, _ in up for pid in tree(process.pid)]

            # The client shares the machine's cores with the server: uvloop and orjson as the
            # server uses them, and young collections seldom (none while measuring: ``load``).
            gc.set_threshold(50_000, 50, 50)
            args.bases = [base for _, base in up]
            windows = uvloop.run(load(args, args.bases, pids_of))
        baselines = {}
        if args.baselines:
            sys.stderr.write("baselines: pgbench -N ...\n")
            baselines["pgbench"] = pgbench(url, args.pgbench_clients, int(args.seconds))
            sys.stderr.write("baselines: websockets echo ...\n")
            baselines["echo"] = echo_server_subprocess(2 * args.games, args.seconds, args.python)

    backend = "PostgreSQL" if args.postgres else "SQLite"
    pace = f"thinking {args.think:g} s" if args.think else "as fast as answered"
    first = windows[0]
    setup = f"{args.instances} instance(s) x {args.workers} worker(s), {first['pids']} processes"
    print(f"server on {interpreter(args.python)}")
    print(f"{args.games} games of {args.game}, {pace}, {backend}, {setup}")
    if args.bot_tables:
        workers = args.bot_workers if args.bot_workers is not None else Settings().BOT_WORKERS
        print(
            f"and {args.bot_tables} tables of {args.bot_game} played by {args.bot_level} bots "
            f"alone (3 seats each, BOT_WORKERS {workers}, BOT_DELAY 0)"
        )
    rates = []
    labels = (
        ("quiet", "under the sign-in flood")
        if args.sign_in_flood
        else ("at the start of games", "late in games")
    )
    for label, result in zip(labels, windows):
        rate = report(args, result, label)
        rates.append(rate)
    if args.sign_in_flood:
        quiet, flooded = (percentile(w["stats"].patches, 0.99) for w in windows)
        answers = dict(sorted(windows[1]["stats"].sign_ins.items(), key=str))
        print(
            f"opponent patch p99 ms    {quiet:10.1f} quiet / {flooded:.1f} under "
            f"{args.sign_in_flood:g} wrong sign-ins/s ({flooded / quiet:.2f}x)"
        )
        print(f"flood answers            {answers}")
    elif len(rates) == 2:
        late = windows[1]
        print(
            f"late / start moves/s     {rates[1] / rates[0]:10.2f} (late window after "
            f"{late['total_moves'] / args.games:.0f} moves per game on average)"
        )
    if baselines:
        rate = rates[0]
        tps, echo = baselines["pgbench"], baselines["echo"]
        print(f"pgbench -N tps           {tps:10,.0f}   moves/s ratio {rate / tps:.3f}")
        print(f"ws echo round trips/s    {echo:10,.0f}   moves/s ratio {rate / echo:.3f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
