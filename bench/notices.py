"""Notices off the site under load: N turn-based tables making moves through a real server on
PostgreSQL, first with notices off (no one has asked for any), then with them on (every player
has a push subscription to a local push service and a confirmed mail address on a local
``aiosmtpd`` server), in one run.

Starts the server itself (``uvicorn app.main:app`` on a throw-away database beside the given
PostgreSQL's, dropped after, with a small pool). Each table is a two-seat Let's Take a Hike at
the turn-based speed "1d", played over HTTP as fast as the server answers (a finished game is
replaced by a new one for the same two people). The push service is the tests' own
(``tests/app/notice_parts.py``): it checks each push's VAPID JWT and decrypts its payload.
It and the mail server run in a process of their own, the push service keeping connections
alive as real ones do; the players are spread over ``--processes`` processes, so neither the
receiving nor the playing shares a Python process with the other.

Prints moves/s with notices on and off and their ratio (the target is on >= 0.9x off), the
server's CPU per move each way (with notices on, the sending's CPU is counted too), the CPU
the players' and the receivers' processes used a second, each move's answer time, the delay
from the move that passes the turn (sent) to its "your turn" push arriving, p50 and p99, and
the notices (pushes and mails) received per second while the tables with notices played.

    .venv/bin/python bench/notices.py                        # 1,000 tables, 30 s each way
    .venv/bin/python bench/notices.py --tables 100 --seconds 20
    .venv/bin/python bench/notices.py --profile /tmp/notices   # py-spy: /tmp/notices.off, .on
"""

from __future__ import annotations

import argparse
import asyncio
import multiprocessing
import os
import ssl
import sys
import tempfile
import time
from collections import defaultdict
from concurrent.futures import ProcessPoolExecutor
from multiprocessing.connection import Connection
from pathlib import Path

import httpx
from sqlalchemy import text
from sqlalchemy.ext.asyncio import create_async_engine

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from app.migrate import upgrade  # noqa: E402
from bench.load import (  # noqa: E402
    DEFAULT_POSTGRES,
    database,
    percentile,
    postgres_cpu,
    process_cpu,
    py_spy,
    servers,
    tree,
)
from tests.app.notice_parts import MailServer, PushService  # noqa: E402

GAME, SPEED = "hike", "1d"
# A pool small enough for a PostgreSQL that other clients share (max_connections 100).
SETTINGS = {
    "DB_POOL_SIZE": "10",
    "PUSH_SERVICES": "127.0.0.1",
    "NOTICE_POLL": "0.2",
    "RATE_NOTICES": "off",
    "RATE_NOTICES_PER_ADDRESS": "off",
}
# Spawned, not forked: the players' processes start while the bench's own loop runs.
SPAWN = multiprocessing.get_context("spawn")


class Timed(PushService):
    """The tests' push service, noting when each push arrived (``time.monotonic`` is the
    machine's, so the players' processes can compare it with when they sent a move)."""

    def __init__(self) -> None:
        super().__init__(keep_alive=True)
        self.arrived: list[tuple[float, str, str, str]] = []  # (when, path, title, url)

    def receive(self, path, headers, body) -> int:
        status = super().receive(path, headers, body)
        if status < 300:
            payload = self.received[-1][1]
            self.arrived.append((time.monotonic(), path, payload["title"], payload["url"]))
        return status


def receivers(conn: Connection) -> None:
    """The push service and the mail server, in a process of their own, answering the
    bench's requests over ``conn`` until told to close."""
    push, mail = Timed(), MailServer()
    conn.send((push.origin, mail.url))
    try:
        while True:
            ask, *args = conn.recv()
            if ask == "devices":
                devices = [push.device() for _ in range(args[0])]
                conn.send(
                    [
                        (d.subscription(["turn", "ended"]), d.endpoint.removeprefix(push.origin))
                        for d in devices
                    ]
                )
            elif ask == "counts":
                conn.send((len(push.arrived), len(mail.inbox.mails)))
            elif ask == "report":
                conn.send((push.arrived, len(push.refused), len(mail.inbox.mails)))
            else:
                return
    finally:
        push.close()
        mail.close()


class Player:
    """One process's share of the tables, each table over a connection of its own: one
    ``httpx`` pool for them all scans its connections for every request, and with a hundred
    waiting that scan, not the server, was most of a move's time."""

    def __init__(self) -> None:
        self.moves = 0
        self.answers: list[float] = []  # seconds each move took to be answered
        self.errors: defaultdict[str, int] = defaultdict(int)
        # (push path, game id, sent): each move that passed that player the turn.
        self.passes: list[tuple[str, str, float]] = []

    async def play(self, http: httpx.AsyncClient, pair: list[dict], until: float) -> None:
        """The two people of a table take their turns until ``until``."""
        game_id: str | None = pair[0]["game_id"]
        view: dict | None = None
        while time.monotonic() < until:
            try:
                if game_id is None:
                    game_id, view = await table(http, *pair), None
                if view is None or view["you"] not in view["to_act"]:
                    # The other seat is most often the one to act next: asked first, and
                    # the mover's state only when it is not.
                    order = pair if view is None else [pair[1 - view["you"]], pair[view["you"]]]
                    for p in order:
                        r = await http.get(f"/api/games/{game_id}/state", headers=p["headers"])
                        if r.status_code != 200:
                            break
                        state = r.json()
                        if (
                            state["view"]["you"] in state["view"]["to_act"]
                            or state["view"]["outcome"]
                        ):
                            break
                    if r.status_code != 200:
                        self.errors[f"{r.status_code}"] += 1
                        view = None
                        continue
                    view, version = state["view"], state["version"]
                if view["outcome"]:
                    game_id = None
                    continue
                mover = pair[view["you"]]
                move = next(m["move"] for m in view["legal_moves"] if m["move"]["type"] != "undo")
                sent = time.monotonic()
                r = await http.post(
                    f"/api/games/{game_id}/moves",
                    headers=mover["headers"],
                    json={"move": move, "expect_version": version},
                )
                self.answers.append(time.monotonic() - sent)
                if r.status_code != 200:
                    self.errors[f"{r.status_code}"] += 1
                    view = None
                    continue
                self.moves += 1
                body = r.json()
                view, version = body["view"], body["version"]
                if view["you"] not in view["to_act"] and not view["outcome"]:
                    other = pair[1 - view["you"]]
                    if "push" in other:
                        self.passes.append((other["push"], game_id, sent))
            except httpx.HTTPError as exc:
                self.errors[type(exc).__name__] += 1
                view = None


def play_share(base: str, pairs: list[list[dict]], start: float, seconds: float) -> dict:
    """In a players' process: the share's tables play from ``start`` for ``seconds``."""

    async def run() -> dict:
        tls = ssl.create_default_context()  # one for all the clients: each would load its own
        clients = [
            httpx.AsyncClient(
                base_url=base, timeout=60, limits=httpx.Limits(max_connections=1), verify=tls
            )
            for _ in pairs
        ]
        cpu = time.process_time()
        player = Player()
        try:
            await asyncio.sleep(max(0.0, start - time.monotonic()))
            await asyncio.gather(
                *(player.play(http, pair, start + seconds) for http, pair in zip(clients, pairs))
            )
        finally:
            await asyncio.gather(*(http.aclose() for http in clients))
        return {
            "moves": player.moves,
            "answers": player.answers,
            "passes": player.passes,
            "errors": dict(player.errors),
            "cpu": time.process_time() - cpu,
        }

    return asyncio.run(run())


async def guest(http: httpx.AsyncClient, name: str) -> dict:
    r = await http.post("/api/players", json={"name": name})
    r.raise_for_status()
    body = r.json()
    return {"id": body["id"], "headers": {"Authorization": f"Bearer {body['token']}"}}


async def table(http: httpx.AsyncClient, a: dict, b: dict) -> str:
    r = await http.post("/api/lobbies", json={"game": GAME, "speed": SPEED}, headers=a["headers"])
    r.raise_for_status()
    lobby = r.json()
    r = await http.post(
        "/api/lobbies/join", json={"invite_code": lobby["invite_code"]}, headers=b["headers"]
    )
    r.raise_for_status()
    r = await http.post(f"/api/lobbies/{lobby['id']}/start", headers=a["headers"])
    r.raise_for_status()
    return r.json()["game_id"]


async def set_up(
    http: httpx.AsyncClient, tables: int, devices: list | None, mail_url: str | None
) -> list[list[dict]]:
    gate = asyncio.Semaphore(20)

    async def person(i: int) -> dict:
        async with gate:
            p = await guest(http, f"P{i}")
            if devices is not None:
                subscription, path = devices[i]
                r = await http.put("/api/notices/push", headers=p["headers"], json=subscription)
                r.raise_for_status()
                p["push"] = path
            return p

    people = await asyncio.gather(*(person(i) for i in range(2 * tables)))
    if mail_url is not None:
        # A confirmed address straight into the database: confirming by mail is not measured.
        engine = create_async_engine(mail_url)
        try:
            async with engine.begin() as conn:
                await conn.execute(
                    text(
                        "INSERT INTO mail_addresses (player_id, address, confirmed_at, digest) "
                        "VALUES (:p, :a, now(), false)"
                    ),
                    [{"p": p["id"], "a": f"{p['id']}@example.org"} for p in people],
                )
        finally:
            await engine.dispose()
    pairs = [people[i : i + 2] for i in range(0, len(people), 2)]

    async def seat(pair: list[dict]) -> None:
        async with gate:
            pair[0]["game_id"] = await table(http, *pair)

    await asyncio.gather(*(seat(pair) for pair in pairs))
    return pairs


class Phase:
    """One way (notices on or off): every table plays for ``seconds`` at once, the tables
    dealt out to the players' processes."""

    def __init__(
        self, pool: ProcessPoolExecutor, processes: int, base: str, server: int, profile: str
    ):
        self.pool, self.processes, self.base, self.server = pool, processes, base, server
        self.profile = profile

    async def run(self, pairs: list[list[dict]], seconds: float, way: str) -> dict:
        loop = asyncio.get_running_loop()
        start = time.monotonic() + 2  # every process ready before the clock starts
        shares = [pairs[k :: self.processes] for k in range(self.processes)]
        calls = [
            loop.run_in_executor(self.pool, play_share, self.base, share, start, seconds)
            for share in shares
        ]
        await asyncio.sleep(max(0.0, start - time.monotonic()))
        profiler = None
        if self.profile:
            # Collapsed stacks of the server and its sending process, one file each way.
            profiler = py_spy(self.server, f"{self.profile}.{way}", seconds)
        cpu = process_cpu(tree(self.server))
        own = process_cpu([self.server])
        database_before = postgres_cpu()
        results = await asyncio.gather(*calls)
        took = time.monotonic() - start
        cpu = process_cpu(tree(self.server)) - cpu
        own = process_cpu([self.server]) - own
        database = sum(t - database_before.get(pid, 0.0) for pid, t in postgres_cpu().items())
        if profiler is not None:
            profiler.wait(60)
        moves = sum(r["moves"] for r in results)
        errors: defaultdict[str, int] = defaultdict(int)
        for r in results:
            for k, v in r["errors"].items():
                errors[k] += v
        return {
            "rate": moves / took,
            "cpu_ms": 1000 * cpu / max(1, moves),
            "own_ms": 1000 * own / max(1, moves),
            "database_ms": 1000 * database / max(1, moves),
            "answers": [a for r in results for a in r["answers"]],
            "passes": [p for r in results for p in r["passes"]],
            "errors": dict(errors),
            "players_cpu": sum(r["cpu"] for r in results),
            "start": start,
            "took": took,
        }


async def measure(server, url: str, args, conn: Connection, receiving: int) -> None:
    base, server_pid = server[1], server[0].pid
    load = os.getloadavg()[0]
    http = httpx.AsyncClient(base_url=base, timeout=60, limits=httpx.Limits(max_connections=100))
    try:
        conn.send(("devices", 2 * args.tables))
        devices = conn.recv()
        quiet = await set_up(http, args.tables, None, None)
        told = await set_up(http, args.tables, devices, url)
    finally:
        await http.aclose()
    with ProcessPoolExecutor(args.processes, mp_context=SPAWN) as pool:
        # The processes start (and import) before either way is timed.
        list(pool.map(time.sleep, [0.5] * args.processes))
        phase = Phase(pool, args.processes, base, server_pid, args.profile)
        off = await phase.run(quiet, args.seconds, "off")
        conn.send(("counts",))
        before = sum(conn.recv())
        receiving_cpu = process_cpu([receiving])
        on = await phase.run(told, args.seconds, "on")
        receiving_cpu = process_cpu([receiving]) - receiving_cpu
        conn.send(("counts",))
        sent = sum(conn.recv()) - before
        await asyncio.sleep(3)  # the last moves' pushes
    conn.send(("report",))
    arrived, refused, mails = conn.recv()
    sent_at: defaultdict[tuple[str, str], list[float]] = defaultdict(list)
    for path, game_id, at in on["passes"]:
        sent_at[(path, game_id)].append(at)
    for queue in sent_at.values():
        queue.sort(reverse=True)
    delays = []
    for at, path, title, link in sorted(arrived):
        if not title.startswith("Your turn"):
            continue
        queue = sent_at.get((path, link.removeprefix("/games/")))
        if queue:
            delays.append(at - queue.pop())
    ratio = on["rate"] / off["rate"]
    print(
        f"{args.tables} tables each way, {args.seconds:g} s each, {GAME} at {SPEED}, "
        f"PostgreSQL, 1 instance, players in {args.processes} processes; load average "
        f"{load:.1f} at the start, {os.getloadavg()[0]:.1f} at the end"
    )
    print(f"moves/s notices off      {off['rate']:8.1f}")
    print(f"moves/s notices on       {on['rate']:8.1f}  ({ratio:.2f}x off; target >= 0.9x)")
    print(
        f"server CPU ms per move   {off['cpu_ms']:8.1f} off, {on['cpu_ms']:.1f} on "
        f"(of it the server's own process {off['own_ms']:.1f}, {on['own_ms']:.1f}; the rest "
        "its sending process)"
    )
    print(f"PostgreSQL CPU ms a move {off['database_ms']:8.1f} off, {on['database_ms']:.1f} on")
    players = (off["players_cpu"] + on["players_cpu"]) / (off["took"] + on["took"])
    print(
        f"bench CPU s a second     {players:8.2f} players, "
        f"{receiving_cpu / on['took']:.2f} push service and mail server (notices on)"
    )
    print(
        f"move answered ms p50/p99 {percentile(off['answers'], 0.5) * 1000:8.0f} / "
        f"{percentile(off['answers'], 0.99) * 1000:.0f} off, "
        f"{percentile(on['answers'], 0.5) * 1000:.0f} / "
        f"{percentile(on['answers'], 0.99) * 1000:.0f} on"
    )
    print(
        f"move to push ms p50/p99  {percentile(delays, 0.5) * 1000:8.0f} / "
        f"{percentile(delays, 0.99) * 1000:.0f}  ({len(delays)} 'your turn' pushes)"
    )
    print(
        f"notices sent/s           {sent / on['took']:8.1f}  (pushes "
        f"{len(arrived)}, mails {mails} in all; refused {refused})"
    )
    errors = {
        k: off["errors"].get(k, 0) + on["errors"].get(k, 0) for k in off["errors"] | on["errors"]
    }
    print(f"errors                   {sum(errors.values()):8} {errors}")


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--tables", type=int, default=1000)
    parser.add_argument("--seconds", type=float, default=30, help="each way, on and off")
    parser.add_argument(
        "--processes", type=int, default=2, help="processes the players are spread over"
    )
    parser.add_argument("--postgres", default=DEFAULT_POSTGRES, metavar="URL")
    parser.add_argument(
        "--profile",
        default="",
        metavar="FILE",
        help="py-spy the server (and its sending process) each way, into FILE.off and FILE.on",
    )
    args = parser.parse_args()
    conn, theirs = SPAWN.Pipe()
    receiving = SPAWN.Process(target=receivers, args=(theirs,), daemon=True)
    receiving.start()
    try:
        _, mail_url = conn.recv()
        with tempfile.TemporaryDirectory() as tmp, database(args.postgres, tmp) as url:
            upgrade(url)
            settings = SETTINGS | {"SMTP_URL": mail_url}
            with servers(url, 1, 1, None, settings=settings) as up:
                asyncio.run(measure(up[0], url, args, conn, receiving.pid))
    finally:
        conn.send(("close",))
        receiving.join(10)
    return 0


if __name__ == "__main__":
    sys.exit(main())
