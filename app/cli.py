"""The campground command: serve, migrate, simulate, verify, admin."""

from __future__ import annotations

import argparse
import sys
import textwrap
import time
from collections import Counter
from importlib.metadata import version
from typing import Any

DESCRIPTION = """\
Campground: camp-themed tabletop games, online. Set a server up with
"campground migrate", then "campground serve"; each command has its own --help."""

PLAYER = "a player's id, or the handle of a signed-in player"


def settings_help() -> str:
    """Every setting, its default and what it does, as plain text."""
    from app.config import Settings

    lines = ["settings, read from the environment (README.md has the same list):"]
    for name, field in Settings.model_fields.items():
        about = (field.description or "").replace("`", "")
        if field.default_factory is None:
            default = field.default
            shown = (
                "unset"
                if default is None
                else str(default).lower()
                if isinstance(default, bool)
                else str(default)
            )
            about += f" (default: {shown})"
        lines.append(f"  {name}")
        lines += textwrap.wrap(about, width=88, initial_indent=" " * 6, subsequent_indent=" " * 6)
    return "\n".join(lines)


def parser() -> argparse.ArgumentParser:
    main_parser = argparse.ArgumentParser(
        prog="campground",
        description=DESCRIPTION,
        epilog=settings_help(),
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    main_parser.add_argument(
        "--version", action="version", version=f"campground {version('campground')}"
    )
    sub = main_parser.add_subparsers(dest="command", required=True, metavar="COMMAND")

    serve = sub.add_parser("serve", help="run the web server")
    serve.add_argument("--host", default="127.0.0.1")
    serve.add_argument("--port", type=int, default=8000)
    serve.add_argument(
        "--workers", type=int, default=1, help="worker processes (more than one needs REDIS_URL)"
    )

    sub.add_parser(
        "migrate",
        help="bring the database schema up to date",
        description="Bring the database at DATABASE_URL up to the latest schema, "
        "and say which revisions were applied.",
    )

    simulate = sub.add_parser("simulate", help="play bot-only games and print figures")
    simulate.add_argument("game", help="game id, e.g. hike")
    simulate.add_argument("--games", type=int, default=100)
    simulate.add_argument("--players", type=int, default=None, help="default: the fewest allowed")
    simulate.add_argument(
        "--bots", nargs="+", default=["random"], help="bot level per seat (the last one repeats)"
    )
    simulate.add_argument("--seed", type=int, default=1, help="seed of the first game")
    simulate.add_argument(
        "--options", default="{}", help="table options as JSON, e.g. '{\"nature\": true}'"
    )

    verify = sub.add_parser("verify", help="check an exported game: seed, every move, the outcome")
    verify.add_argument("file", help="a game record from GET /api/games/{id}/export")
    add_admin(sub)
    return main_parser


def add_admin(sub: Any) -> None:
    admin = sub.add_parser(
        "admin",
        help="an admin's change: abort, mute, suspend, sign out, recompute ratings",
        description="An admin's change, made through the same services as the REST API and "
        "written to the audit log (actor: cli, or the name given with --as). Uses "
        "DATABASE_URL, and REDIS_URL to tell the sockets of running servers.",
    )
    admin.add_argument(
        "--as",
        dest="actor",
        default="cli",
        metavar="NAME",
        help="who acts, for the audit log (default: cli)",
    )
    tasks = admin.add_subparsers(dest="task", required=True, metavar="TASK")
    abort = tasks.add_parser("abort", help="abort an active game (its seed is revealed)")
    abort.add_argument("game_id", metavar="GAME", help="the game's id")
    mute = tasks.add_parser("mute", help="mute a player's chat; their tables are told")
    mute.add_argument("player", metavar="PLAYER", help=PLAYER)
    mute.add_argument("--minutes", type=int, required=True, help="1 to 525600")
    mute.add_argument("--reason", default=None, help="kept in the audit log")
    for name, text in (
        ("unmute", "lift a player's mute"),
        ("suspend", "suspend a player: the bot plays their seats at games under way to the end"),
        ("unsuspend", "lift a player's suspension"),
        ("sign-out", "sign out every device of a player"),
    ):
        task = tasks.add_parser(name, help=text)
        task.add_argument("player", metavar="PLAYER", help=PLAYER)
    recompute = tasks.add_parser(
        "recompute-ratings", help="compute a game's ratings again from its rated games"
    )
    recompute.add_argument("game", metavar="GAME", help="the game kind, e.g. hike")


def main(argv: list[str] | None = None) -> int:
    args = parser().parse_args(argv)
    if args.command == "serve":
        return serve_app(args.host, args.port, args.workers)
    elif args.command == "verify":
        return verify_record(args.file)
    elif args.command == "migrate":
        return migrate()
    elif args.command == "admin":
        from app.cli_admin import run

        return run(args)
    return simulate_games(args.game, args.games, args.players, args.bots, args.seed, args.options)


def migrate() -> int:
    from sqlalchemy import make_url

    from app.config import Settings
    from app.migrate import describe, upgrade

    url = Settings().DATABASE_URL
    print(f"Database: {make_url(url).render_as_string(hide_password=True)}")
    done = upgrade(url)
    if not done.applied:
        assert done.started_at is not None  # nothing to apply: the schema is at the latest
        print(
            f"Up to date at revision {done.started_at} ({describe(done.started_at)}); "
            "nothing to apply."
        )
        return 0
    start = f"revision {done.started_at}" if done.started_at else "an empty database"
    count = len(done.applied)
    print(
        f"Migrated from {start} to revision {done.applied[-1]}, applying "
        f"{count} revision{'s' if count != 1 else ''}:"
    )
    for revision in done.applied:
        print(f"  {revision}  {describe(revision)}")
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
        outcome = game.outcome(result.state)
        assert outcome is not None, "a played-out game has ended"
        winners = outcome.winners
        wins.update(winners)
        shared += len(winners) > 1
        steps += result.steps
        progress.update(i + 1)
    elapsed = time.perf_counter() - started
    progress.close()

    print(
        f"{game.title}: {games} games, {players} players, bots {' '.join(levels)}"
        + (f", options {options}" if table else "")
    )
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
