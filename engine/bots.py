"""Asking a bot for its move: the one place any bot is asked (``decide``), what it is shown
(``bot_view``), and the random bot every game offers. The bots' contract (``Bot``,
``StateBot``) is part of ``Game``'s, in ``engine.core``."""

from __future__ import annotations

import random
from typing import Any

from engine.core import Bot, Game, M, S, StateBot, full_view


def random_bot(view: dict[str, Any], legal: list[Any], rng: random.Random) -> Any:
    """Picks uniformly among the legal moves: works for every game."""
    return legal[rng.randrange(len(legal))]


def decide(
    game: Game[S, M],
    bot: Bot,
    state: S,
    seat: int,
    legal: list[M],
    rng: random.Random,
    budget: int | None = None,
) -> Any:
    """The move ``bot`` makes for ``seat``, the one place any bot is asked: a ``StateBot``
    searches from the state within ``budget`` (its own default when ``None``), any other bot
    chooses from the seat's view."""
    if isinstance(bot, StateBot):
        return bot.decide(game, state, seat, legal, rng, budget)
    return bot(bot_view(game, bot, state, seat, legal), legal, rng)


def bot_view(game: Game[S, M], bot: Bot, state: S, seat: int, legal: list[M]) -> dict[str, Any]:
    """What ``bot`` is given to choose from: the seat's full view, except for the random bot,
    which reads only the legal moves (building a view it never read was most of the cost of
    a step of a random playout)."""
    if bot is random_bot:
        return {}
    return full_view(game, state, seat, legal)
