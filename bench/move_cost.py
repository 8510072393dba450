"""What a move costs early in a game and late in it: one long game of each kind, through the
server (a person's seat played by this script over HTTP, the others by the server's heuristic
bots), on SQLite or PostgreSQL.

For moves 1-50 and for the last 50 moves of each game it prints the server's CPU per move,
the bytes written to the database per move (PostgreSQL: WAL bytes, ``pg_current_wal_lsn()``
before and after; SQLite: the server process's ``write_bytes`` in ``/proc/<pid>/io``) and the
bytes sent per socket per move (the person's game socket), and the ratio late / early.

    .venv/bin/python bench/move_cost.py                 # SQLite
    .venv/bin/python bench/move_cost.py --postgres      # PostgreSQL (DEFAULT_POSTGRES)
    .venv/bin/python bench/move_cost.py --game summer-camp --players 3 --postgres
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import sys
import tempfile
from pathlib import Path

import asyncpg
import httpx
import jsonpatch
from sqlalchemy import make_url
from websockets.asyncio.client import connect

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from app.migrate import upgrade  # noqa: E402
from bench.load import DEFAULT_POSTGRES, database, process_cpu, servers, tree  # noqa: E402

KINDS = {"hike": 3, "camping-life": 2, "summer-camp": 3, "pinetop": 3}
WINDOW = 50


def written(pids: list[int]) -> int:
    total = 0
    for pid in pids:
        for line in Path(f"/proc/{pid}/io").read_text().splitlines():
            if line.startswith("write_bytes:"):
                total += int(line.split()[1])
    return total


async def play(
    base: str, url: str, kind: str, players: int, pids: list[int], seed: int, level: str
):
    """One game to its end; a sample (version, CPU s, bytes written, socket bytes) at each
    version the person's socket saw."""
    wal = None
    if url.startswith("postgresql"):
        wal = await asyncpg.connect(
            make_url(url).set(drivername="postgresql").render_as_string(hide_password=False)
        )
    rng = random.Random(seed)
    async with httpx.AsyncClient(base_url=base, timeout=60) as http:
        token = (await http.post("/api/players", json={"name": "Ana"})).json()["token"]
        http.headers["Authorization"] = f"Bearer {token}"
        lobby = (
            await http.post(
                "/api/lobbies",
                json={
                    "game": kind,
                    "seats": players,
                    "private": True,
                    "turn_seconds": None,
                },
            )
        ).json()
        for seat in range(1, players):
            r = await http.post(
                f"/api/lobbies/{lobby['id']}/bots", json={"seat": seat, "level": level}
            )
            assert r.status_code == 200, r.text
        game_id = (await http.post(f"/api/lobbies/{lobby['id']}/start")).json()["game_id"]

        async def wal_bytes() -> int:
            if wal is None:
                return written(pids)
            return int(await wal.fetchval("SELECT pg_current_wal_lsn() - '0/0'::pg_lsn"))

        samples, sent = [], 0
        ws_url = base.replace("http", "ws", 1) + f"/ws/games/{game_id}?token={token}"
        async with connect(ws_url, max_size=None) as ws:
            view, version = None, -1
            while True:
                text = await ws.recv()
                sent += len(text.encode())
                message = json.loads(text)
                if message["type"] == "state":
                    view, version = message["view"], message["version"]
                elif message["type"] == "patch":
                    view = jsonpatch.apply_patch(view, message["ops"])
                    version = message["version"]
                else:
                    continue
                samples.append((version, process_cpu(pids), await wal_bytes(), sent))
                if view["outcome"] is not None or view["table"]["status"] != "active":
                    break
                if 0 in view["to_act"] and view["legal_moves"]:
                    move = rng.choice(view["legal_moves"])["move"]
                    await http.post(
                        f"/api/games/{game_id}/moves",
                        json={"move": move, "expect_version": version},
                    )
    if wal is not None:
        await wal.close()
    return samples


def per_move(samples, first: int, last: int) -> tuple[float, float, float]:
    """CPU µs, bytes written and socket bytes per move between the samples nearest
    versions ``first`` and ``last``."""
    a = min(samples, key=lambda s: abs(s[0] - first))
    b = min(samples, key=lambda s: abs(s[0] - last))
    moves = max(b[0] - a[0], 1)
    return ((b[1] - a[1]) / moves * 1e6, (b[2] - a[2]) / moves, (b[3] - a[3]) / moves)


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--postgres", nargs="?", const=DEFAULT_POSTGRES, default=None)
    parser.add_argument("--game", choices=sorted(KINDS), action="append")
    parser.add_argument("--players", type=int)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--bots",
        default="heuristic",
        help="the server's bots' level (random plays the longest games)",
    )
    args = parser.parse_args()
    kinds = args.game or list(KINDS)
    backend = "PostgreSQL" if args.postgres else "SQLite"
    print(f"{backend}; per move, moves 1-{WINDOW} against the last {WINDOW}")
    print(f"{'game':<14}{'moves':>6}  {'CPU µs':>22}  {'DB bytes':>22}  {'socket bytes':>22}")
    with tempfile.TemporaryDirectory() as tmp, database(args.postgres, tmp) as url:
        upgrade(url)
        with servers(url, 1, 1, None) as up:
            process, base = up[0]
            pids = tree(process.pid)
            for kind in kinds:
                players = args.players or KINDS[kind]
                samples = asyncio.run(play(base, url, kind, players, pids, args.seed, args.bots))
                end = samples[-1][0]
                early = per_move(samples, 0, min(WINDOW, end))
                late = per_move(samples, max(end - WINDOW, 0), end)
                cells = "  ".join(
                    f"{e:>7,.0f} → {la:>7,.0f} {la / e if e else 0:4.2f}x"
                    for e, la in zip(early, late)
                )
                print(f"{kind:<14}{end:>6}  {cells}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
