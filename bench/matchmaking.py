"""Play now under load: players arriving over a minute with spread ratings and mixed choices,
across several instances on PostgreSQL sharing a Redis.

Starts the instances itself (``uvicorn app.main:app`` on a throw-away database beside the given
PostgreSQL's, dropped after). The players are written straight into the database (half of them
with a sign-in and a rating in each game: mu ~ N(25, 4), sigma 1.5 to 8; the others guests, matched
as newcomers), then each arrives at its time: opens the home socket on one instance, presses
Play now on one instance (its choices drawn: the game, the players accepted, the speed, rated
or not, bots after 30 or 60 s or never), and waits for ``seated``; a few leave before that.

Prints the time from "Play now" to the table (p50, p99, worst; people-only tables and tables
with bots apart), the rating spread within tables of two or more people (points of the
matching rating: mean and p95), the share seated with bots, those never seated by the end,
and, from the database, how many were seated twice, at a table other than the one they were
told, or after their leave was answered 200 (each must be 0). And the CPU the instances and
PostgreSQL used.

    .venv/bin/python bench/matchmaking.py                 # 1,000 players over 60 s, 2 instances
    .venv/bin/python bench/matchmaking.py --players 200 --seconds 20
"""

from __future__ import annotations

import argparse
import asyncio
import random
import secrets
import sys
import tempfile
import time
import uuid
from collections import Counter, defaultdict
from datetime import UTC, datetime
from pathlib import Path

import httpx
import orjson
from sqlalchemy import text
from sqlalchemy.ext.asyncio import create_async_engine
from websockets.asyncio.client import connect

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from app.migrate import upgrade  # noqa: E402
from app.services import ratings  # noqa: E402
from app.services.players import token_hash  # noqa: E402
from bench.load import (  # noqa: E402
    DEFAULT_POSTGRES,
    DEFAULT_REDIS,
    database,
    percentile,
    postgres_cpu,
    process_cpu,
    servers,
    tree,
)
from engine.registry import GAMES  # noqa: E402

# The mix of choices: games, speeds (ids of app.services.speeds), bots.
GAME_SHARES = {"hike": 0.4, "summer-camp": 0.25, "camping-life": 0.2, "pinetop": 0.15}
SPEED_SHARES = {"3m": 0.6, "10m": 0.2, "1m": 0.1, "1d": 0.1}
BOT_SHARES = {30: 0.4, 60: 0.1, None: 0.5}
LEAVING = 0.05
# Bots at their usual pace; a pool per instance small enough for a PostgreSQL other clients
# share (its max_connections is 100).
SETTINGS = {"BOT_DELAY": "0.6", "DB_POOL_SIZE": "15"}


def pick(rng: random.Random, shares: dict):
    return rng.choices(list(shares), weights=list(shares.values()))[0]


class Player:
    def __init__(self, index: int, rng: random.Random, seconds: float):
        self.id = uuid.uuid4().hex
        self.token = secrets.token_urlsafe(24)
        self.name = f"P{index}"
        self.signed_in = rng.random() < 0.5
        self.arrives = rng.uniform(0, seconds)
        self.game = pick(rng, GAME_SHARES)
        game = GAMES[self.game]
        self.mu, self.sigma = rng.gauss(25, 4), rng.uniform(1.5, 8)
        self.rating = ratings.matching_points(
            *((self.mu, self.sigma) if self.signed_in else (None, None))
        )
        sizes = range(game.min_players, game.max_players + 1)
        fewest = rng.choice([game.min_players, game.min_players, *sizes])
        most = rng.choice([fewest, game.max_players, *[n for n in sizes if n >= fewest]])
        self.choices = {
            "game": self.game,
            "fewest": fewest,
            "most": most,
            "speed": pick(rng, SPEED_SHARES),
            "rated": self.signed_in and rng.random() < 0.7,
            "bots_after": pick(rng, BOT_SHARES),
            "bot_level": "heuristic",
        }
        self.leaves_after = rng.uniform(2, 20) if rng.random() < LEAVING else None
        self.instances = (rng.randrange(2), rng.randrange(2))  # socket's, request's
        self.answered: float | None = None  # seconds "Play now" took to be answered
        self.waited: float | None = None
        self.joined_at: datetime | None = None  # the server's, from the answer
        self.told_at: datetime | None = None  # when "seated" arrived (this machine's clock)
        self.game_id: str | None = None
        self.left: int | None = None  # the leave's status
        self.error: str | None = None


async def write_players(url: str, players: list[Player]) -> None:
    """Straight into the database: a sign-in and ratings need no password hashing here."""
    engine = create_async_engine(url)
    try:
        async with engine.begin() as conn:
            await conn.execute(
                text(
                    "INSERT INTO players (id, name, token_hash, created_at, handle, handle_key) "
                    "VALUES (:id, :name, :token_hash, now(), :handle, :handle)"
                ),
                [
                    {
                        "id": p.id,
                        "name": p.name,
                        "token_hash": token_hash(p.token),
                        "handle": f"p{p.id[:12]}" if p.signed_in else None,
                    }
                    for p in players
                ],
            )
            rows = [
                {
                    "game": kind,
                    "rater": p.id,
                    "mu": p.mu,
                    "sigma": p.sigma,
                    "ordinal": p.mu - 3 * p.sigma,
                }
                for p in players
                if p.signed_in
                for kind in GAMES
            ]
            await conn.execute(
                text(
                    "INSERT INTO ratings (game, rater, mu, sigma, ordinal, games, opponents, "
                    "updated_at) VALUES (:game, :rater, :mu, :sigma, :ordinal, 10, 3, now())"
                ),
                rows,
            )
    finally:
        await engine.dispose()


async def arrive(
    player: Player, bases: list[str], http: list[httpx.AsyncClient], started: float
) -> None:
    await asyncio.sleep(max(0.0, started + player.arrives - time.monotonic()))
    socket_base = bases[player.instances[0] % len(bases)].replace("http", "ws", 1)
    client = http[player.instances[1] % len(http)]
    headers = {"Authorization": f"Bearer {player.token}"}
    try:
        async with connect(
            f"{socket_base}/ws/home", additional_headers=headers, open_timeout=30, max_queue=None
        ) as ws:
            pressed = time.monotonic()
            r = await client.post("/api/queue", json=player.choices, headers=headers)
            player.answered = time.monotonic() - pressed
            if r.status_code != 201:
                player.error = f"{r.status_code} {r.text[:80]}"
                return
            player.joined_at = datetime.fromisoformat(r.json()["joined_at"])
            leave_at = pressed + player.leaves_after if player.leaves_after else None
            while True:
                timeout = None if leave_at is None else max(0.0, leave_at - time.monotonic())
                try:
                    message = orjson.loads(await asyncio.wait_for(ws.recv(), timeout))
                except TimeoutError:
                    left = await client.delete("/api/queue", headers=headers)
                    player.left, leave_at = left.status_code, None
                    if left.status_code == 200:
                        return
                    continue
                if message["type"] == "seated":
                    player.waited = time.monotonic() - pressed
                    player.told_at = datetime.now(UTC)
                    player.game_id = message["game_id"]
                    return
    except Exception as exc:  # noqa: BLE001 - counted and printed, the run goes on
        player.error = f"{type(exc).__name__}: {exc}"


async def run(players: list[Player], bases: list[str], drain: float) -> None:
    limits = httpx.Limits(max_connections=200)
    http = [httpx.AsyncClient(base_url=base, timeout=60, limits=limits) for base in bases]
    try:
        started = time.monotonic()
        tasks = [asyncio.create_task(arrive(p, bases, http, started)) for p in players]
        last = max(p.arrives for p in players)
        _, pending = await asyncio.wait(tasks, timeout=last + drain)
        for task in pending:
            task.cancel()
        await asyncio.gather(*pending, return_exceptions=True)
    finally:
        for client in http:
            await client.aclose()


async def database_checks(
    url: str, players: list[Player]
) -> tuple[dict[str, int], set[str], dict[str, datetime]]:
    """The checks that must be 0, the games with a bot seat, and when each game was made."""
    engine = create_async_engine(url)
    try:
        async with engine.connect() as conn:
            rows = (
                await conn.execute(
                    text(
                        "SELECT s.player_id, l.game_id FROM seats s JOIN lobbies l ON l.id = s.lobby_id "
                        "WHERE s.player_id IS NOT NULL"
                    )
                )
            ).all()
            with_bots = set(
                (
                    await conn.scalars(
                        text(
                            "SELECT DISTINCT l.game_id FROM seats s JOIN lobbies l ON l.id = s.lobby_id "
                            "WHERE s.bot_level IS NOT NULL"
                        )
                    )
                ).all()
            )
            made = dict((await conn.execute(text("SELECT id, created_at FROM games"))).all())
    finally:
        await engine.dispose()
    seats = Counter(player for player, _ in rows)
    table = dict(rows)
    by_id = {p.id: p for p in players}
    return (
        {
            "seated twice": sum(1 for count in seats.values() if count > 1),
            "at a table other than told": sum(
                1 for p in players if p.game_id is not None and table.get(p.id) != p.game_id
            ),
            "seated after leaving": sum(1 for pid in seats if by_id[pid].left == 200),
            "seated, never told": sum(1 for pid in seats if by_id[pid].game_id is None),
        },
        with_bots,
        made,
    )


def figures(
    players: list[Player],
    checks: dict[str, int],
    with_bots: set[str],
    made: dict[str, datetime],
    cpu: dict[str, float],
) -> None:
    seated = [p for p in players if p.game_id is not None]
    tables: dict[str, list[Player]] = defaultdict(list)
    for p in seated:
        tables[p.game_id].append(p)
    bots_seated = [p for p in seated if p.game_id in with_bots]
    people_only = [p for p in seated if p.game_id not in with_bots]
    spreads = [
        max(p.rating for p in people) - min(p.rating for p in people)
        for people in tables.values()
        if len(people) >= 2
    ]

    def times(group: list[Player]) -> str:
        waits = [p.waited for p in group]
        return (
            f"p50 {percentile(waits, 0.5):5.1f} s  p99 {percentile(waits, 0.99):5.1f} s  "
            f"worst {max(waits, default=float('nan')):5.1f} s  ({len(group)} players)"
        )

    left = Counter(p.left for p in players if p.left is not None)
    print(
        f"players {len(players)}: seated {len(seated)}, left {left.get(200, 0)} "
        f"(too late to leave: {left.get(409, 0)}), never seated by the end "
        f"{sum(1 for p in players if p.game_id is None and p.left != 200 and not p.error)}, "
        f"errors {sum(1 for p in players if p.error)}"
    )
    for p in players:
        if p.error:
            print(f"  error: {p.error}")
            break
    answered = [p.answered for p in players if p.answered is not None]
    print(
        f"Play now answered           p50 {percentile(answered, 0.5):5.2f} s  p99 "
        f"{percentile(answered, 0.99):5.2f} s"
    )
    formed = [(made[p.game_id] - p.joined_at).total_seconds() for p in seated]
    told = [(p.told_at - made[p.game_id]).total_seconds() for p in seated]
    print(
        f"joined to table formed      p50 {percentile(formed, 0.5):5.2f} s  p99 "
        f"{percentile(formed, 0.99):5.2f} s  (the server's clock)"
    )
    print(
        f"table formed to page told   p50 {percentile(told, 0.5):5.2f} s  p99 "
        f"{percentile(told, 0.99):5.2f} s"
    )
    print(f"time to table, all          {times(seated)}")
    print(f"time to table, people only  {times(people_only)}")
    print(f"time to table, with bots    {times(bots_seated)}")
    mean = sum(spreads) / len(spreads) if spreads else float("nan")
    print(
        f"rating spread in tables of 2+ people: mean {mean:.0f}  p95 "
        f"{percentile(spreads, 0.95):.0f} points ({len(spreads)} tables)"
    )
    print(
        f"tables {len(tables)}, with bots {len(with_bots & set(tables))}; share of seated players at a "
        f"table with bots {len(bots_seated) / max(1, len(seated)):.1%}"
    )
    for name, count in checks.items():
        print(f"{name}: {count}")
    print("cpu seconds: " + ", ".join(f"{name} {seconds:.1f}" for name, seconds in cpu.items()))


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--players", type=int, default=1000)
    parser.add_argument("--seconds", type=float, default=60, help="arrivals spread over this")
    parser.add_argument(
        "--drain",
        type=float,
        default=90,
        help="seconds after the last arrival before the run stops",
    )
    parser.add_argument("--instances", type=int, default=2)
    parser.add_argument("--postgres", default=DEFAULT_POSTGRES, metavar="URL")
    parser.add_argument("--redis", default=DEFAULT_REDIS)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    players = [Player(i, rng, args.seconds) for i in range(args.players)]
    with tempfile.TemporaryDirectory() as tmp, database(args.postgres, tmp) as url:
        upgrade(url)
        asyncio.run(write_players(url, players))
        with servers(url, args.instances, 1, args.redis, settings=SETTINGS) as up:
            pids = [pid for process, _ in up for pid in tree(process.pid)]
            before, pg_before = process_cpu(pids), postgres_cpu()
            asyncio.run(run(players, [base for _, base in up], args.drain))
            pg_after = postgres_cpu()
            cpu = {
                "instances": process_cpu(pids) - before,
                "postgres": sum(pg_after[pid] - pg_before.get(pid, 0.0) for pid in pg_after),
            }
        checks, with_bots, made = asyncio.run(database_checks(url, players))
    print(
        f"{args.players} players over {args.seconds:g} s, {args.instances} instances, "
        f"PostgreSQL, Redis; seed {args.seed}"
    )
    figures(players, checks, with_bots, made, cpu)
    return 0


if __name__ == "__main__":
    sys.exit(main())
