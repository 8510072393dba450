"""Idle game sockets: the server's memory per open socket.

Starts ``uvicorn app.main:app`` (SQLite in a temporary file), starts one Hike game, opens
``--sockets`` spectator sockets on it (spread over ``--games`` games) that receive their first
state and then stay idle, and prints the server's resident memory before and after, per socket.
Then one move on each game is made, so each socket gets a patch, and the memory is printed
again.

    .venv/bin/python bench/idle_sockets.py --sockets 5000 --games 50
"""

from __future__ import annotations

import argparse
import asyncio
import os
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import httpx
from websockets.asyncio.client import connect

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from app.limits import UNLIMITED  # noqa: E402
from app.migrate import upgrade  # noqa: E402
from bench.load import free_port, process_rss  # noqa: E402


async def game(http: httpx.AsyncClient) -> tuple[str, list[str]]:
    tokens = []
    for name in ("Ana", "Ben"):
        tokens.append((await http.post("/api/players", json={"name": name})).json()["token"])
    auth = [{"Authorization": f"Bearer {t}"} for t in tokens]
    http.cookies.clear()
    # Public: the sockets below are spectators'.
    lobby = (
        await http.post("/api/lobbies", json={"game": "hike", "private": False}, headers=auth[0])
    ).json()
    await http.post(
        "/api/lobbies/join", json={"invite_code": lobby["invite_code"]}, headers=auth[1]
    )
    started = await http.post(f"/api/lobbies/{lobby['id']}/start", headers=auth[0])
    return started.json()["game_id"], tokens


async def run(base: str, pid: int, sockets: int, games: int) -> None:
    ws_base = base.replace("http", "ws", 1)
    async with httpx.AsyncClient(base_url=base, timeout=60) as http:
        tables = [await game(http) for _ in range(games)]
        await asyncio.sleep(1)
        before = process_rss([pid])
        opened = []
        gate = asyncio.Semaphore(100)

        async def open_one(i: int) -> None:
            async with gate:
                ws = await connect(
                    f"{ws_base}/ws/games/{tables[i % games][0]}", compression=None, max_size=None
                )
                await ws.recv()
                opened.append(ws)

        started = time.perf_counter()
        await asyncio.gather(*(open_one(i) for i in range(sockets)))
        took = time.perf_counter() - started
        await asyncio.sleep(2)
        after = process_rss([pid])
        per = (after - before) / sockets
        print(f"{sockets} idle sockets on {games} games, opened in {took:.1f} s")
        print(f"server RSS before {before / 2**20:.0f} MiB, after {after / 2**20:.0f} MiB")
        print(f"per socket        {per / 1024:.1f} KiB")
        for game_id, tokens in tables:
            view = (
                await http.get(
                    f"/api/games/{game_id}/state", headers={"Authorization": f"Bearer {tokens[0]}"}
                )
            ).json()
            mover = tokens[0] if 0 in view["view"]["to_act"] else tokens[1]
            if mover != tokens[0]:
                view = (
                    await http.get(
                        f"/api/games/{game_id}/state", headers={"Authorization": f"Bearer {mover}"}
                    )
                ).json()
            await http.post(
                f"/api/games/{game_id}/moves",
                json={"move": view["view"]["legal_moves"][0]["move"], "expect_version": 0},
                headers={"Authorization": f"Bearer {mover}"},
            )
        await asyncio.gather(*(ws.recv() for ws in opened))
        moved = process_rss([pid])
        print(
            f"after one patch to every socket: {moved / 2**20:.0f} MiB "
            f"({(moved - before) / sockets / 1024:.1f} KiB per socket)"
        )
        for ws in opened:
            await ws.close()


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--sockets", type=int, default=5000)
    parser.add_argument("--games", type=int, default=50)
    args = parser.parse_args()
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (min(hard, max(soft, 2 * args.sockets + 100)), hard))
    with tempfile.TemporaryDirectory() as tmp:
        url = f"sqlite+aiosqlite:///{tmp}/bench.db"
        upgrade(url)
        port = free_port()
        env = (
            os.environ
            | UNLIMITED
            | {
                "DATABASE_URL": url,
                "BOT_DELAY": "0",
                "ADMIN_TOKEN": "",
                "WS_MAX_PER_GAME": str(args.sockets),
            }
        )
        server = subprocess.Popen(
            [sys.executable, "-m", "uvicorn", "app.main:app", "--port", str(port)]
            + ["--log-level", "warning", "--ws-per-message-deflate", "false"]
            + ["--backlog", "4096"],
            cwd=ROOT,
            env=env,
        )
        try:
            base = f"http://127.0.0.1:{port}"
            for _ in range(400):
                try:
                    httpx.get(f"{base}/api/games", timeout=1)
                    break
                except httpx.TransportError:
                    time.sleep(0.05)
            asyncio.run(run(base, server.pid, args.sockets, args.games))
        finally:
            server.terminate()
            server.wait(15)
    return 0


if __name__ == "__main__":
    sys.exit(main())
