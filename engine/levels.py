"""The bot levels as players choose them: a name and one sentence each, the same in every game.
A game offers the levels it has bots for (``Game.bots``), weakest first."""

from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import Any

from engine.core import Game


@dataclass(frozen=True)
class Level:
    id: str
    name: str
    about: str


LEVELS = (
    Level(
        "random", "Beginner", "Plays any legal move at random: a gentle table to learn the rules."
    ),
    Level(
        "heuristic",
        "Casual",
        "Takes whatever looks best this turn, by a few rules of thumb, without looking ahead.",
    ),
    Level(
        "search",
        "Expert",
        "Thinks ahead: plays out many ways the game could go from what its seat can see, "
        "and picks the move that wins most often.",
    ),
)
_BY_ID = {level.id: level for level in LEVELS}


def level(level_id: str) -> Level:
    """The level ``level_id``, named after its id if it is not one of ``LEVELS``."""
    return _BY_ID.get(level_id) or Level(level_id, level_id.capitalize(), "")


def offered(game: Game[Any, Any]) -> list[dict[str, Any]]:
    """The levels ``game`` has bots for, weakest first, as JSON-ready data."""
    known = [lv.id for lv in LEVELS if lv.id in game.bots]
    others = [lv for lv in game.bots if lv not in _BY_ID]
    return [asdict(level(lv)) for lv in known + others]
