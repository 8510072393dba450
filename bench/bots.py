"""One bot level against another: win rate with its 95 % interval, margin, and CPU per move.

    .venv/bin/python bench/bots.py GAME --a LEVEL --b LEVEL --games N
        [--players P] [--budget B] [--options JSON] [--seed S] [--jobs J]

Plays N seeded games (seeds S, S+1, ...). With two players ``a`` and ``b`` alternate seats;
with more, one seat plays ``a`` (the seat moving round the table game by game) and every other
seat ``b``. Each decision is ``engine.bots.decide`` (through ``engine.playout``), timed with
``time.process_time``: the CPU one move took, whatever else the machine runs. ``--jobs``
plays that many games at once in separate processes; the figures are the same.

Printed: ``a``'s wins, its win share (a shared win counts as the share) with a Wilson 95 %
interval, beside the fair share 1/P; the shared wins; ``a``'s mean margin (its score less the
best other seat's); per level the moves that had a choice (a forced move is not timed), their
mean and p95 CPU; games/s and steps/s.
"""

from __future__ import annotations

import argparse
import json
import math
import multiprocessing
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engine.bots import decide  # noqa: E402
from engine.levels import level  # noqa: E402
from engine.playout import play_out  # noqa: E402
from engine.registry import GAMES  # noqa: E402

Z95 = 1.959964


def wilson(successes: float, n: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval of a proportion ``successes / n``."""
    if n == 0:
        return 0.0, 1.0
    p = successes / n
    middle = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return max(0.0, middle - half), min(1.0, middle + half)


def p95(values: list[float]) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, math.ceil(0.95 * len(ordered)) - 1)] if ordered else 0.0


def seats_for(game_index: int, players: int, a: str, b: str) -> tuple[list[str], int]:
    """Each seat's level in game ``game_index``, and the seat playing ``a``."""
    mine = game_index % players
    return [a if seat == mine else b for seat in range(players)], mine


def _one_game(job: tuple[argparse.Namespace, int]) -> tuple[dict, list[int], int, int, int]:
    """Game ``i`` of the run: each level's CPU per move with a choice, the winners, the seat
    playing ``a``, its margin and the steps."""
    args, i = job
    game = GAMES[args.game]
    players = args.players or game.min_players
    cpu: dict[str, list[float]] = {args.a: [], args.b: []}
    by_bot = {id(game.bots[lv]): lv for lv in (args.b, args.a)}

    def timed(game_, bot, state, seat, legal, rng, budget):
        started = time.process_time()
        move = decide(game_, bot, state, seat, legal, rng, budget)
        if len(legal) > 1:  # a forced move costs nothing to think out: it is not counted
            cpu[by_bot[id(bot)]].append(time.process_time() - started)
        return move

    seats, mine = seats_for(i, players, args.a, args.b)
    result = play_out(
        game, players, args.seed + i, seats, args.options, budget=args.budget, ask=timed
    )
    outcome = game.outcome(result.state)
    best_other = max(s for seat, s in enumerate(outcome.scores) if seat != mine)
    return cpu, list(outcome.winners), mine, outcome.scores[mine] - best_other, result.steps


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("game", choices=sorted(GAMES))
    parser.add_argument("--a", required=True, help="the level measured (e.g. search)")
    parser.add_argument("--b", required=True, help="the level it plays against")
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--players", type=int, default=None, help="default: the fewest")
    parser.add_argument(
        "--budget",
        type=int,
        default=None,
        help="a searching bot's engine steps per move (default: its own)",
    )
    parser.add_argument("--options", type=json.loads, default={}, help="e.g. '{\"nature\": true}'")
    parser.add_argument("--seed", type=int, default=1, help="seed of the first game")
    parser.add_argument(
        "--jobs", type=int, default=1, help="games played at once, in that many processes"
    )
    args = parser.parse_args()

    game = GAMES[args.game]
    players = args.players or game.min_players
    for lv in (args.a, args.b):
        if lv not in game.bots:
            parser.error(f"{game.title} has no {lv!r} bot; it has {', '.join(game.bots)}")
    if not game.min_players <= players <= game.max_players:
        parser.error(f"{game.title} is for {game.min_players} to {game.max_players} players")

    cpu: dict[str, list[float]] = {args.a: [], args.b: []}
    wins = shared = 0
    share = 0.0
    margins: list[int] = []
    steps = 0
    wall = time.perf_counter()
    games = [(args, i) for i in range(args.games)]
    pool = multiprocessing.get_context("spawn").Pool(args.jobs) if args.jobs > 1 else None
    results = pool.imap(_one_game, games) if pool else map(_one_game, games)
    for done, (game_cpu, winners, mine, margin, game_steps) in enumerate(results, 1):
        for lv, times in game_cpu.items():
            cpu[lv] += times
        steps += game_steps
        margins.append(margin)
        if mine in winners:
            wins += len(winners) == 1
            shared += len(winners) > 1
            share += 1 / len(winners)
        # Progress on stderr, so that a long run shows how far it is and the figures so far.
        print(
            f"{done}/{args.games} games, {args.a}'s win share so far {share / done:.1%}",
            file=sys.stderr,
            flush=True,
        )
    if pool:
        pool.close()
    wall = time.perf_counter() - wall

    n = args.games
    low, high = wilson(share, n)
    name = {lv: f"{lv} ({level(lv).name})" for lv in (args.a, args.b)}
    against = name[args.b] if players == 2 else f"{players - 1} × {name[args.b]}"
    options = f", options {json.dumps(args.options)}" if args.options else ""
    budget = f", budget {args.budget}" if args.budget is not None else ""
    print(
        f"{game.title}, {n} games, {players} players{options}{budget}: "
        f"{name[args.a]} against {against}"
    )
    print(
        f"  {args.a} wins {wins} of {n}, shares {shared}: win share {share / n:.1%} "
        f"(95 % interval {low:.1%} to {high:.1%}; fair share {1 / players:.0%})"
    )
    print(f"  mean margin {sum(margins) / n:+.2f} (its score less the best other seat's)")
    for lv in dict.fromkeys((args.a, args.b)):
        times = cpu[lv]
        if times:
            print(
                f"  {lv:<10} {len(times):>7} moves with a choice, CPU per move mean "
                f"{1000 * sum(times) / len(times):.2f} ms, p95 {1000 * p95(times):.2f} ms"
            )
    print(f"  {n / wall:.2f} games/s, {steps / wall:,.0f} steps/s, {steps / n:.1f} steps a game")


if __name__ == "__main__":
    main()
