"""Bots on the server: what a bot plays for a seat. When it plays is up to ``app.deadlines``."""

from __future__ import annotations

import logging
import random
from typing import Any

from app.services.games import Snapshot, stand_in_level
from engine.core import bot_view, random_bot

log = logging.getLogger(__name__)


def bot_move(snap: Snapshot, seat: int) -> Any:
    """The move of ``seat``'s bot (the stand-in when a person sits there) at this version."""
    game = snap.game
    level = snap.bot_level(seat) or stand_in_level(game)
    legal = game.legal_moves(snap.state, seat)
    # Seeded per (game, version, seat): a replayed bot decision is the same decision.
    rng = random.Random(f"{snap.seed}/{snap.version}/{seat}")
    try:
        bot = game.bots[level]
        return bot(bot_view(game, bot, snap.state, seat, legal), legal, rng)
    except Exception:
        # A broken bot must not stall the table: fall back to a uniform legal choice.
        log.exception("%s bot failed in game %s; playing a random legal move", level, snap.id)
        return random_bot({}, legal, rng)
