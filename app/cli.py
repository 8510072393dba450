"""The ``campground`` command: serve, migrate, simulate, verify."""

from __future__ import annotations

import argparse
import sys
import time
from collections import Counter


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="campground", description=__doc__)
    sub = parser.add_subparsers(dest="command", required=True)

    serve = sub.add_parser("serve", help="run the web server")
    serve.add_argument("--host", default="127.0.0.1")
    serve.add_argument("--port", type=int, default=8000)
    serve.add_argument(
        "--workers", type=int, default=1, help="worker processes (more than one needs REDIS_URL)"
    )

    sub.add_parser("migrate", help="bring the database schema up to date")

    simulate = sub.add_parser("simulate", help="play bot-only games and print figures")
    simulate.add_argument("game", help="game id, e.g. hike")
    simulate.add_argument("--games", type=int, default=100)
    simulate.add_argument("--players", type=int, default=None, help="default: the fewest allowed")
    simulate.add_argument(
        "--bots", nargs="+", default=["random"], help="bot level per seat (the last one repeats)"
    )
    simulate.add_argument("--seed", type=int, default=1, help="seed of the first game")
    simulate.add_argument(
        "--options", default="{}", help='table options as JSON, e.g. \'{"nature": true}\''
    )

    verify = sub.add_parser(
        "verify", help="check an exported game: seed, every move, the outcome"
    )
    verify.add_argument("file", help="a game record from GET /api/games/{id}/export")

    args = parser.parse_args(argv)
    if args.command == "serve":
        return serve_app(args.host, args.port, args.workers)
    elif args.command == "verify":
        return verify_record(args.file)
    elif args.command == "migrate":
        from app.migrate import upgrade

        upgrade()
    else:
        return simulate_games(
            args.game, args.games, args.players, args.bots, args.seed, args.options
        )
    return 0


def serve_app(host: str, port: int, workers: int) -> int:
    import os
    import shutil
    import tempfile
    from pathlib import Path

    from app.config import Settings

    settings = Settings()
    made = None
    if workers > 1:
        if not settings.REDIS_URL:
            print("Several workers share changes through Redis: set REDIS_URL.", file=sys.stderr)
            return 2
        # Each worker writes its metrics here and a scrape adds them up. It must be set before
        # the metrics are first imported, and hold nothing from an earlier run.
        given = os.environ.get("PROMETHEUS_MULTIPROC_DIR")
        if given:
            for old in Path(given).glob("*.db"):
                old.unlink()
        else:
            made = os.environ["PROMETHEUS_MULTIPROC_DIR"] = tempfile.mkdtemp(prefix="campground-")

    import uvicorn

    from app import logs
    from app.guard import server_options

    # No per-message deflate: patches are small, and compressing every frame for every
    # socket would cost CPU and memory per socket for little.
    options = server_options(settings) | {
        "ws_per_message_deflate": False,
        "log_config": logs.config(settings),
        # JSON logs have their own access lines, with the request's ids.
        "access_log": settings.LOG_FORMAT != "json",
        "workers": workers,
        # A worker still importing the app on a busy machine is not hung.
        "timeout_worker_healthcheck": 60,
    }
    try:
        uvicorn.run("app.main:app", host=host, port=port, **options)
    finally:
        if made:
            shutil.rmtree(made, ignore_errors=True)
    return 0


def verify_record(path: str) -> int:
    """Print the verdict on a game record; 0 when it holds, 1 when it does not."""
    import json

    from app.services.records import verify

    try:
        with open(path, encoding="utf-8") as f:
            record = json.load(f)
    except (OSError, ValueError) as exc:
        print(f"Cannot read {path}: {exc}", file=sys.stderr)
        return 1
    verdict = verify(record) if isinstance(record, dict) else None
    if verdict is None or not verdict.ok:
        print(f"NOT VERIFIED: {verdict.message if verdict else 'not a game record'}")
        return 1
    print(f"VERIFIED: {verdict.message}")
    return 0


def simulate_games(
    game_id: str, games: int, players: int | None, bots: list[str], seed: int, options: str = "{}"
) -> int:
    import json

    from engine.core import IllegalMove
    from engine.playout import play_out
    from engine.registry import GAMES

    game = GAMES.get(game_id)
    if game is None:
        print(f"Unknown game {game_id!r}; known: {', '.join(GAMES)}", file=sys.stderr)
        return 2
    players = players or game.min_players
    if not game.min_players <= players <= game.max_players:
        print(f"{game.title} is for {game.min_players}-{game.max_players} players", file=sys.stderr)
        return 2
    levels = [bots[min(i, len(bots) - 1)] for i in range(players)]
    unknown = sorted(set(levels) - set(game.bots))
    if unknown:
        print(f"Unknown bot level {unknown[0]!r}; known: {', '.join(game.bots)}", file=sys.stderr)
        return 2
    if games < 1:
        print("--games must be at least 1", file=sys.stderr)
        return 2
    try:
        table = json.loads(options)
        game.options(table)
    except (ValueError, IllegalMove) as exc:
        print(f"--options: {getattr(exc, 'reason', exc)}", file=sys.stderr)
        return 2

    wins: Counter[int] = Counter()
    shared = 0
    steps = 0
    progress = Progress(games)
    started = time.perf_counter()
    for i in range(games):
        result = play_out(game, players, seed + i, levels, table)
        winners = game.outcome(result.state).winners
        wins.update(winners)
        shared += len(winners) > 1
        steps += result.steps
        progress.update(i + 1)
    elapsed = time.perf_counter() - started
    progress.close()

    print(f"{game.title}: {games} games, {players} players, bots {' '.join(levels)}"
          + (f", options {options}" if table else ""))
    print(f"games/s        {games / elapsed:,.1f}")
    print(f"steps/s        {steps / elapsed:,.0f}")
    print(f"average length {steps / games:,.1f} moves")
    for seat in range(players):
        print(f"seat {seat} ({levels[seat]:>9}) wins {wins[seat] / games:6.1%}")
    print(f"shared wins    {shared / games:6.1%}")
    return 0


class Progress:
    """A one-line progress bar on stderr for runs long enough to want one."""

    WIDTH = 30

    def __init__(self, total: int):
        self.total = total
        self.shown = total >= 50 and sys.stderr.isatty()
        self.last = -1

    def update(self, done: int) -> None:
        percent = done * 100 // self.total
        if not self.shown or percent == self.last:
            return
        self.last = percent
        filled = self.WIDTH * done // self.total
        bar = "#" * filled + "." * (self.WIDTH - filled)
        print(f"\r[{bar}] {done}/{self.total}", end="", file=sys.stderr, flush=True)

    def close(self) -> None:
        if self.shown:
            print(file=sys.stderr)


if __name__ == "__main__":
    sys.exit(main())
