"""Notices off the site under load: N turn-based tables making moves through a real server on
PostgreSQL, first with notices off (no one has asked for any), then with them on (every player
has a push subscription to a local push service and a confirmed mail address on a local
``aiosmtpd`` server), in one run.

Starts the server itself (``uvicorn app.main:app`` on a throw-away database beside the given
PostgreSQL's, dropped after, with a small pool). Each table is a two-seat Let's Take a Hike at
the turn-based speed "1d", played over HTTP as fast as the server answers (a finished game is
replaced by a new one for the same two people). The push service is the tests' own
(``tests/app/notice_parts.py``): it checks each push's VAPID JWT and decrypts its payload.

Prints moves/s with notices on and off and their ratio (the target is on >= 0.9x off), the
server's CPU per move each way (with notices on, the sending's CPU is counted too; the push
service decrypts in this process, beside the players), each move's answer time, the delay from the move that passes the turn (sent) to its "your turn" push arriving, p50 and p99,
and the notices (pushes and mails) received per second while the tables with notices played.

    .venv/bin/python bench/notices.py                        # 1,000 tables, 30 s each way
    .venv/bin/python bench/notices.py --tables 100 --seconds 20
"""

from __future__ import annotations

import argparse
import asyncio
import os
import sys
import tempfile
import time
from collections import defaultdict, deque
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
    process_cpu,
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


class Timed(PushService):
    """The tests' push service, noting when each push arrived."""

    def __init__(self) -> None:
        super().__init__()
        self.arrived: list[tuple[float, str, dict]] = []

    def receive(self, path, headers, body) -> int:
        status = super().receive(path, headers, body)
        if status < 300:
            self.arrived.append((time.monotonic(), path, self.received[-1][1]))
        return status


class Run:
    def __init__(self, base: str, seconds: float, server: int):
        self.server = server  # the server's process id, for its CPU
        self.http = httpx.AsyncClient(
            base_url=base, timeout=60, limits=httpx.Limits(max_connections=100)
        )
        self.seconds = seconds
        self.moves = 0
        self.answers: list[float] = []  # seconds each move took to be answered
        self.errors: defaultdict[str, int] = defaultdict(int)
        # (push path, game id): when each move that passed that player the turn was sent.
        self.passes: defaultdict[tuple[str, str], deque[float]] = defaultdict(deque)

    async def guest(self, name: str) -> dict:
        r = await self.http.post("/api/players", json={"name": name})
        r.raise_for_status()
        body = r.json()
        return {"id": body["id"], "headers": {"Authorization": f"Bearer {body['token']}"}}

    async def table(self, a: dict, b: dict) -> str:
        r = await self.http.post(
            "/api/lobbies", json={"game": GAME, "speed": SPEED}, headers=a["headers"]
        )
        r.raise_for_status()
        lobby = r.json()
        r = await self.http.post(
            "/api/lobbies/join", json={"invite_code": lobby["invite_code"]}, headers=b["headers"]
        )
        r.raise_for_status()
        r = await self.http.post(f"/api/lobbies/{lobby['id']}/start", headers=a["headers"])
        r.raise_for_status()
        return r.json()["game_id"]

    async def play(self, pair: list[dict], until: float) -> None:
        """The two people of a table take their turns until ``until``."""
        game_id: str | None = pair[0]["game_id"]
        view: dict | None = None
        while time.monotonic() < until:
            try:
                if game_id is None:
                    game_id, view = await self.table(*pair), None
                if view is None or view["you"] not in view["to_act"]:
                    states = [
                        await self.http.get(f"/api/games/{game_id}/state", headers=p["headers"])
                        for p in pair
                    ]
                    state = next(
                        s.json()
                        for s in states
                        if s.json()["view"]["you"] in s.json()["view"]["to_act"]
                        or s.json()["view"]["outcome"]
                    )
                    view, version = state["view"], state["version"]
                if view["outcome"]:
                    game_id = None
                    continue
                mover = pair[view["you"]]
                move = next(m["move"] for m in view["legal_moves"] if m["move"]["type"] != "undo")
                sent = time.monotonic()
                r = await self.http.post(
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
                        self.passes[(other["push"], game_id)].append(sent)
            except httpx.HTTPError as exc:
                self.errors[type(exc).__name__] += 1
                view = None

    async def phase(self, pairs: list[list[dict]]) -> tuple[float, float, float]:
        """Every table plays for ``seconds``: (moves/s, the server's CPU ms per move, the
        window's start)."""
        self.moves = 0
        started, cpu = time.monotonic(), process_cpu(tree(self.server))
        await asyncio.gather(*(self.play(pair, started + self.seconds) for pair in pairs))
        cpu = process_cpu(tree(self.server)) - cpu
        return (self.moves / (time.monotonic() - started), 1000 * cpu / max(1, self.moves), started)


async def set_up(
    run: Run, tables: int, push: Timed | None, mail_url: str | None
) -> list[list[dict]]:
    gate = asyncio.Semaphore(20)

    async def person(i: int) -> dict:
        async with gate:
            p = await run.guest(f"P{i}")
            if push is not None:
                device = push.device()
                r = await run.http.put(
                    "/api/notices/push",
                    headers=p["headers"],
                    json=device.subscription(["turn", "ended"]),
                )
                r.raise_for_status()
                p["push"] = device.endpoint.removeprefix(push.origin)
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
            pair[0]["game_id"] = await run.table(*pair)

    await asyncio.gather(*(seat(pair) for pair in pairs))
    return pairs


async def measure(server, url: str, args, push: Timed, mail: MailServer) -> None:
    run = Run(server[1], args.seconds, server[0].pid)
    load = os.getloadavg()[0]
    try:
        quiet = await set_up(run, args.tables, None, None)
        told = await set_up(run, args.tables, push, url)
        off, off_cpu, _ = await run.phase(quiet)
        answers, run.answers = run.answers, []
        sent_before = len(push.arrived) + len(mail.inbox.mails)
        on, on_cpu, started = await run.phase(told)
        ended = time.monotonic()
        sent = len(push.arrived) + len(mail.inbox.mails) - sent_before
        await asyncio.sleep(3)  # the last moves' pushes
    finally:
        await run.http.aclose()
    delays = []
    for at, path, payload in push.arrived:
        if not payload["title"].startswith("Your turn"):
            continue
        queue = run.passes.get((path, payload["url"].removeprefix("/games/")))
        if queue:
            delays.append(at - queue.popleft())
    print(
        f"{args.tables} tables each way, {args.seconds:g} s each, {GAME} at {SPEED}, "
        f"PostgreSQL, 1 instance; load average {load:.1f} at the start, "
        f"{os.getloadavg()[0]:.1f} at the end"
    )
    print(f"moves/s notices off      {off:8.1f}")
    print(f"moves/s notices on       {on:8.1f}  ({on / off:.2f}x off; target >= 0.9x)")
    print(f"server CPU ms per move   {off_cpu:8.1f} off, {on_cpu:.1f} on (sending included)")
    print(
        f"move answered ms p50/p99 {percentile(answers, 0.5) * 1000:8.0f} / "
        f"{percentile(answers, 0.99) * 1000:.0f} off, {percentile(run.answers, 0.5) * 1000:.0f}"
        f" / {percentile(run.answers, 0.99) * 1000:.0f} on"
    )
    print(
        f"move to push ms p50/p99  {percentile(delays, 0.5) * 1000:8.0f} / "
        f"{percentile(delays, 0.99) * 1000:.0f}  ({len(delays)} 'your turn' pushes)"
    )
    mails = len(mail.inbox.mails)
    print(
        f"notices sent/s           {sent / (ended - started):8.1f}  (pushes "
        f"{len(push.arrived)}, mails {mails} in all; refused {len(push.refused)})"
    )
    print(f"errors                   {sum(run.errors.values()):8} {dict(run.errors)}")


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--tables", type=int, default=1000)
    parser.add_argument("--seconds", type=float, default=30, help="each way, on and off")
    parser.add_argument("--postgres", default=DEFAULT_POSTGRES, metavar="URL")
    args = parser.parse_args()
    push, mail = Timed(), MailServer()
    try:
        with tempfile.TemporaryDirectory() as tmp, database(args.postgres, tmp) as url:
            upgrade(url)
            settings = SETTINGS | {"SMTP_URL": mail.url}
            with servers(url, 1, 1, None, settings=settings) as up:
                asyncio.run(measure(up[0], url, args, push, mail))
    finally:
        push.close()
        mail.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
