"""WebSocket round trip: two players alternate moves in Let's Take a Hike over WebSocket.

Starts ``uvicorn app.main:app`` in a subprocess (SQLite in a temporary file by default; with
``--postgres`` a throw-away database created beside the given server's and dropped after),
then for every move measures send → ack on the mover's socket and send → the opponent's
patch on the other socket. New games are started as needed.

    .venv/bin/python bench/ws_roundtrip.py --moves 500
    .venv/bin/python bench/ws_roundtrip.py --moves 500 --postgres [URL]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import httpx
import jsonpatch
from sqlalchemy import make_url, text
from sqlalchemy.ext.asyncio import create_async_engine
from websockets.asyncio.client import connect

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from app.limits import UNLIMITED  # noqa: E402
from app.migrate import upgrade  # noqa: E402

DEFAULT_POSTGRES = os.environ.get(
    "TEST_POSTGRES_URL", "postgresql+asyncpg://postgres@127.0.0.1:5432/test"
)


class Player:
    def __init__(self, name: str, token: str):
        self.name, self.token = name, token
        self.ws = None
        self.inbox: asyncio.Queue = asyncio.Queue()
        self.version = 0
        self.view: dict = {}

    async def open(self, ws_base: str, game_id: str) -> None:
        self.ws = await connect(f"{ws_base}/ws/games/{game_id}?token={self.token}", max_size=None)
        first = json.loads(await self.ws.recv())
        self.version, self.view = first["version"], first["view"]
        self.reader = asyncio.create_task(self._read())

    async def _read(self) -> None:
        async for raw in self.ws:
            self.inbox.put_nowait((time.perf_counter(), json.loads(raw)))

    async def until(self, predicate) -> tuple[float, dict]:
        """Apply patches until a message satisfies ``predicate``; its arrival time and itself."""
        while True:
            try:
                at, message = await asyncio.wait_for(self.inbox.get(), 30)
            except TimeoutError:
                waiting = f"{self.name}: nothing for 30 s at version {self.version}"
                raise RuntimeError(waiting) from None
            if message["type"] == "patch":
                assert message["from"] == self.version, (message["from"], self.version)
                self.view = jsonpatch.apply_patch(self.view, message["ops"])
                self.version = message["version"]
            if predicate(message):
                return at, message

    async def close(self) -> None:
        self.reader.cancel()
        await self.ws.close()


async def new_game(http: httpx.AsyncClient, ws_base: str) -> list[Player]:
    players = []
    for name in ("Ana", "Ben"):
        body = (await http.post("/api/players", json={"name": name})).json()
        players.append(Player(name, body["token"]))
    auth = [{"Authorization": f"Bearer {p.token}"} for p in players]
    http.cookies.clear()
    lobby = (await http.post("/api/lobbies", json={"game": "hike"}, headers=auth[0])).json()
    code = {"invite_code": lobby["invite_code"]}
    await http.post("/api/lobbies/join", json=code, headers=auth[1])
    started = await http.post(f"/api/lobbies/{lobby['id']}/start", headers=auth[0])
    game_id = started.json()["game_id"]
    for p in players:
        await p.open(ws_base, game_id)
    return players


async def run(base: str, ws_base: str, moves: int, warmup: int) -> tuple[list[float], list[float]]:
    rng = random.Random(1)
    acks: list[float] = []
    patches: list[float] = []
    async with httpx.AsyncClient(base_url=base, timeout=30) as http:
        players = await new_game(http, ws_base)
        done = 0
        while done < moves + warmup:
            if players[0].view["outcome"] is not None:
                for p in players:
                    await p.close()
                players = await new_game(http, ws_base)
            mover = next(p for p in players if p.view["you"] in p.view["to_act"])
            other = next(p for p in players if p is not mover)
            move = rng.choice(mover.view["legal_moves"])["move"]
            ref = done
            sent = time.perf_counter()
            message = {"type": "move", "move": move, "expect_version": mover.version, "ref": ref}
            await mover.ws.send(json.dumps(message))
            acked, ack = await mover.until(lambda m, ref=ref: m.get("ref") == ref)
            assert ack["type"] == "ack", ack

            def shows_move(m: dict, version: int = ack["version"]) -> bool:
                return m["type"] == "patch" and m["version"] == version

            seen, _ = await other.until(shows_move)
            if mover.version < ack["version"]:
                await mover.until(shows_move)
            if done >= warmup:
                acks.append((acked - sent) * 1000)
                patches.append((seen - sent) * 1000)
            done += 1
        for p in players:
            await p.close()
    return acks, patches


async def _admin(url: str, statement: str) -> None:
    engine = create_async_engine(url, isolation_level="AUTOCOMMIT")
    try:
        async with engine.connect() as conn:
            await conn.execute(text(statement))
    finally:
        await engine.dispose()


@contextmanager
def database(postgres: str | None, tmp: str) -> Iterator[str]:
    """SQLite in ``tmp``, or a throw-away database beside ``postgres`` (shared test
    databases get truncated by test runs)."""
    if postgres is None:
        yield f"sqlite+aiosqlite:///{tmp}/bench.db"
        return
    name = f"campground_bench_{uuid.uuid4().hex[:12]}"
    asyncio.run(_admin(postgres, f'CREATE DATABASE "{name}"'))
    try:
        yield make_url(postgres).set(database=name).render_as_string(hide_password=False)
    finally:
        asyncio.run(_admin(postgres, f'DROP DATABASE "{name}" WITH (FORCE)'))


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--moves", type=int, default=500)
    parser.add_argument("--warmup", type=int, default=20)
    parser.add_argument(
        "--postgres", nargs="?", const=DEFAULT_POSTGRES, default=None, metavar="URL"
    )
    args = parser.parse_args()

    with tempfile.TemporaryDirectory() as tmp, database(args.postgres, tmp) as url:
        upgrade(url)
        port = free_port()
        env = os.environ | UNLIMITED | {"DATABASE_URL": url, "BOT_DELAY": "0", "ADMIN_TOKEN": ""}
        server = subprocess.Popen(
            [sys.executable, "-m", "uvicorn", "app.main:app", "--port", str(port)]
            + ["--log-level", "warning"],
            cwd=ROOT,
            env=env,
        )
        try:
            base = f"http://127.0.0.1:{port}"
            for _ in range(200):
                try:
                    httpx.get(f"{base}/api/games", timeout=1)
                    break
                except httpx.TransportError:
                    time.sleep(0.05)
            started = time.perf_counter()
            ws_base = f"ws://127.0.0.1:{port}"
            acks, patches = asyncio.run(run(base, ws_base, args.moves, args.warmup))
            elapsed = time.perf_counter() - started
        finally:
            server.terminate()
            server.wait(10)

    backend = "PostgreSQL" if args.postgres else "SQLite"
    print(f"WebSocket round trip, {backend}, {len(acks)} moves after {args.warmup} warm-up")
    for label, values in (("send -> ack", acks), ("send -> opponent patch", patches)):
        median, p95 = statistics.median(values), percentile(values, 0.95)
        print(f"{label:<23} median {median:6.2f} ms   p95 {p95:6.2f} ms")
    print(f"moves/s (sequential)    {(len(acks) + args.warmup) / elapsed:,.0f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
