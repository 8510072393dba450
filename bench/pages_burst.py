"""A burst of replay and log pages from one address, and what a bystander's moves feel.

Starts one server (SQLite in a temporary file, limits off, ``BOT_DELAY`` 0), has bots play a
whole Summer Camp game (its host concedes at once: the stand-in and a random bot play it
out), then times a bystander: two people at a Hike table over sockets, each moving
``--think`` seconds after its turn comes, from sending a move to its ack. First alone for
``--seconds``, then while ``--pages`` GETs of the ended game's replay steps and log pages
(alternately, ``--parallel`` at a time, from one client) are answered. Prints the acks'
p50 / p99 in both windows, how long the burst took, and the longest event-loop stall and
collector pause the server reported (``bench/load.py``'s ``Stalls``).

    .venv/bin/python bench/pages_burst.py
    .venv/bin/python bench/pages_burst.py --pages 1200 --parallel 8
"""

from __future__ import annotations

import argparse
import asyncio
import random
import sys
import tempfile
import time
from pathlib import Path

import httpx
import orjson
from websockets.asyncio.client import connect

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from app.migrate import upgrade  # noqa: E402
from bench.load import Stalls, percentile, servers  # noqa: E402


async def guest(http: httpx.AsyncClient, name: str) -> dict[str, str]:
    token = (await http.post("/api/players", json={"name": name})).json()["token"]
    http.cookies.clear()
    return {"Authorization": f"Bearer {token}"}


async def ended_game(http: httpx.AsyncClient) -> tuple[str, int]:
    """A whole three-seat Summer Camp game played by bots (its host concedes at once, and
    the stand-in plays its seat): its id and number of moves."""
    host = await guest(http, "Host")
    body = {"game": "summer-camp", "seats": 3, "private": False}
    lobby = (await http.post("/api/lobbies", json=body, headers=host)).json()
    for seat in (1, 2):
        await http.post(
            f"/api/lobbies/{lobby['id']}/bots", json={"seat": seat, "level": "random"}, headers=host
        )
    game_id = (await http.post(f"/api/lobbies/{lobby['id']}/start", headers=host)).json()["game_id"]
    await http.post(f"/api/games/{game_id}/concede", headers=host)
    while True:
        state = (await http.get(f"/api/games/{game_id}/state")).json()
        if state["view"]["outcome"] is not None:
            return game_id, state["version"]
        await asyncio.sleep(0.5)


async def bystander(
    http: httpx.AsyncClient, ws_base: str, think: float, acks: list[float], until: asyncio.Event
) -> None:
    """Two seats of a Hike table taking turns; each ack's time goes to ``acks``."""
    tokens = [await guest(http, name) for name in ("Ana", "Ben")]
    lobby = (
        await http.post("/api/lobbies", json={"game": "hike", "seats": 2}, headers=tokens[0])
    ).json()
    await http.post(
        "/api/lobbies/join", json={"invite_code": lobby["invite_code"]}, headers=tokens[1]
    )
    game_id = (await http.post(f"/api/lobbies/{lobby['id']}/start", headers=tokens[0])).json()[
        "game_id"
    ]
    rng = random.Random(1)
    sockets = [await connect(f"{ws_base}/ws/games/{game_id}", additional_headers=t) for t in tokens]
    views = [orjson.loads(await ws.recv())["view"] for ws in sockets]
    try:
        while not until.is_set():
            seat = views[0]["to_act"][0] if views[0]["outcome"] is None else None
            if seat is None:
                return
            await asyncio.sleep(think)
            ws = sockets[seat]
            state = (await http.get(f"/api/games/{game_id}/state", headers=tokens[seat])).json()
            move = rng.choice(state["view"]["legal_moves"])["move"]
            sent = time.perf_counter()
            await ws.send(
                orjson.dumps(
                    {"type": "move", "move": move, "ref": 1, "expect_version": state["version"]}
                ).decode()
            )
            while (message := orjson.loads(await ws.recv()))["type"] not in ("ack", "error"):
                pass
            if message["type"] == "ack":
                acks.append((time.perf_counter() - sent) * 1000)
            views[0] = (await http.get(f"/api/games/{game_id}/state", headers=tokens[0])).json()[
                "view"
            ]
    finally:
        for ws in sockets:
            await ws.close()


async def burst(
    http: httpx.AsyncClient, game_id: str, moves: int, pages: int, parallel: int
) -> float:
    rng = random.Random(2)
    asks = iter(range(pages))

    async def one() -> None:
        for i in asks:
            if i % 2:
                await http.get(
                    f"/api/games/{game_id}/log",
                    params={"before": rng.randrange(1, moves), "limit": 200},
                )
            else:
                await http.get(
                    f"/api/games/{game_id}/replay", params={"at": rng.randrange(moves + 1)}
                )

    started = time.perf_counter()
    await asyncio.gather(*(one() for _ in range(parallel)))
    return time.perf_counter() - started


async def run(args, base: str) -> None:
    ws_base = base.replace("http", "ws", 1)
    async with (
        httpx.AsyncClient(base_url=base, timeout=60) as http,
        httpx.AsyncClient(base_url=base, timeout=60) as pages,
    ):
        game_id, moves = await ended_game(http)
        for label, attack in (("alone", False), ("during the burst", True)):
            acks: list[float] = []
            until = asyncio.Event()
            watching = asyncio.create_task(Stalls.watch([base]))
            playing = asyncio.create_task(bystander(http, ws_base, args.think, acks, until))
            took = ""
            if attack:
                seconds = await burst(pages, game_id, moves, args.pages, args.parallel)
                took = f"; {args.pages} pages in {seconds:.1f} s"
            else:
                await asyncio.sleep(args.seconds)
            until.set()
            await playing
            watching.cancel()
            stalls = await watching
            print(
                f"{label}: bystander's ack p50 / p99 {percentile(acks, 0.5):.1f} / "
                f"{percentile(acks, 0.99):.1f} ms (n={len(acks)}){took}; longest event-loop "
                f"stall {stalls.lag * 1000:.0f} ms, longest collection {stalls.gc * 1000:.0f} ms"
            )
        print(f"(the ended game: Summer Camp, three seats, {moves} moves)")


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--pages", type=int, default=1200)
    parser.add_argument("--parallel", type=int, default=8)
    parser.add_argument("--think", type=float, default=0.1, help="seconds before each move")
    parser.add_argument("--seconds", type=float, default=10, help="the window alone")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        url = f"sqlite+aiosqlite:///{tmp}/bench.db"
        upgrade(url)
        with servers(url, 1, 1, None) as up:
            asyncio.run(run(args, up[0][1]))
    return 0


if __name__ == "__main__":
    sys.exit(main())
