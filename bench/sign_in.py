"""What a sign-in costs, and what a token look-up costs now that devices have tokens too.

(The tables beside a flood of wrong sign-ins: `bench/load.py --sign-in-flood`.)

Prints the time of a sign-in with a wrong password and with an unknown handle (they should be
the same: both verify one argon2id hash), and of ``players.by_token`` for a guest's token and
for a signed-in device's token, beside the guest-only statement it replaced. Runs on a fresh
SQLite database, or with ``--postgres`` on a throw-away database beside the given server's.

    .venv/bin/python bench/sign_in.py [--postgres [URL]] [--sign-ins 20] [--lookups 3000]
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import sys
import tempfile
import time
import uuid
from pathlib import Path

from sqlalchemy import bindparam, make_url, select, text
from sqlalchemy.ext.asyncio import create_async_engine

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from app.db import Database, for_asyncpg  # noqa: E402
from app.migrate import upgrade  # noqa: E402
from app.models import Player  # noqa: E402
from app.services import accounts, players  # noqa: E402
from app.services.errors import Problem  # noqa: E402

DEFAULT_POSTGRES = "postgresql+asyncpg://postgres@127.0.0.1:5432/test"
BENCH = accounts.describe("bench")
# The look-up before devices had tokens: the guest's token on the player row only.
OLD = select(Player.id, Player.name, Player.token_hash, Player.created_at).where(
    Player.token_hash == bindparam("token_hash")
)
OLD_SQL = for_asyncpg(OLD).string


async def old_by_token(db: Database, token: str):
    digest = players.token_hash(token)
    if db.postgres:
        async with db.driver() as conn:
            return await conn.fetchrow(OLD_SQL, digest)
    async with db.session() as session:
        return (await session.execute(OLD, {"token_hash": digest})).first()


async def timed(call, count: int) -> list[float]:
    times = []
    for _ in range(count):
        start = time.perf_counter()
        await call()
        times.append(time.perf_counter() - start)
    return times


async def refused(db: Database, handle: str) -> None:
    try:
        await accounts.sign_in(db, handle, "not the password", BENCH)
    except Problem as exc:
        assert exc.status == 401


async def run(url: str, sign_ins: int, lookups: int) -> None:
    db = Database(url)
    try:
        ana, guest_token = await players.create(db, "Ana")
        handle = f"ana{uuid.uuid4().hex[:8]}"
        await accounts.claim(db, ana, handle, "correct horse battery", BENCH)
        device = await accounts.new_session(db, ana, "sign-in", BENCH)
        ben, ben_token = await players.create(db, "Ben")
        await accounts.verify_password(None, "warm up")  # the dummy hash is made once
        wrong = await timed(lambda: refused(db, handle), sign_ins)
        unknown = await timed(lambda: refused(db, f"nobody{uuid.uuid4().hex[:8]}"), sign_ins)
        for name, figures in (("wrong password", wrong), ("unknown handle", unknown)):
            print(
                f"sign-in, {name:15} median {statistics.median(figures) * 1000:7.1f} ms"
                f"  p90 {sorted(figures)[int(len(figures) * 0.9)] * 1000:7.1f} ms"
            )
        calls = {
            "by_token, a guest": lambda: players.by_token(db, ben_token),
            "by_token, a device": lambda: players.by_token(db, device.token),
            "guest-only statement (before)": lambda: old_by_token(db, ben_token),
        }
        # Taken in turns, so that a busy stretch of the machine weighs on each alike.
        figures: dict[str, list[float]] = {name: [] for name in calls}
        for round_ in range(lookups + 200):
            for name, call in calls.items():
                took = await timed(call, 1)
                if round_ >= 200:
                    figures[name] += took
        for name, took in figures.items():
            print(f"{name:31} median {statistics.median(took) * 1e6:6.0f} µs")
    finally:
        await db.dispose()


async def execute(url: str, statement: str) -> None:
    engine = create_async_engine(url, isolation_level="AUTOCOMMIT")
    try:
        async with engine.connect() as conn:
            await conn.execute(text(statement))
    finally:
        await engine.dispose()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--postgres", nargs="?", const=DEFAULT_POSTGRES, default=None)
    parser.add_argument("--sign-ins", type=int, default=20)
    parser.add_argument("--lookups", type=int, default=3000)
    args = parser.parse_args()
    if args.postgres:
        name = f"campground_bench_{uuid.uuid4().hex[:8]}"
        asyncio.run(execute(args.postgres, f'CREATE DATABASE "{name}"'))
        url = make_url(args.postgres).set(database=name).render_as_string(hide_password=False)
        try:
            upgrade(url)
            print(f"PostgreSQL ({make_url(args.postgres).host})")
            asyncio.run(run(url, args.sign_ins, args.lookups))
        finally:
            asyncio.run(execute(args.postgres, f'DROP DATABASE "{name}" WITH (FORCE)'))
        return
    with tempfile.TemporaryDirectory() as work:
        url = f"sqlite+aiosqlite:///{work}/bench.db"
        upgrade(url)
        print("SQLite")
        asyncio.run(run(url, args.sign_ins, args.lookups))


if __name__ == "__main__":
    main()
