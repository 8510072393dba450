"""Every game kind Campground serves, by its public id."""

from typing import Any

from engine.camping_life import GAME as CAMPING_LIFE
from engine.core import Game
from engine.hike import GAME as HIKE
from engine.pinetop import GAME as PINETOP
from engine.summer_camp import GAME as SUMMER_CAMP

GAMES: dict[str, Game[Any, Any]] = {g.id: g for g in (HIKE, SUMMER_CAMP, CAMPING_LIFE, PINETOP)}


def get_game(game_id: str) -> Game[Any, Any]:
    try:
        return GAMES[game_id]
    except KeyError:
        raise KeyError(f"Unknown game {game_id!r}; known: {', '.join(GAMES)}") from None
