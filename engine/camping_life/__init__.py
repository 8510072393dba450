"""Camping Life: two players bid hidden coins for terrain cards and build a 4 × 3 camping."""

from __future__ import annotations

from typing import Any, ClassVar

from engine.bots import random_bot
from engine.camping_life import labels, rules, schema
from engine.camping_life.bot import heuristic_bot
from engine.camping_life.cards import MISSIONS, NAMES, TERRAIN, TERRAIN_TEXT
from engine.camping_life.moves import Move, move_adapter
from engine.camping_life.search import CampingLifeSearcher
from engine.camping_life.state import SEAT_NAMES, CampingLifeState
from engine.camping_life.state import Options as CampingLifeOptions
from engine.camping_life.view import hidden as camping_hidden
from engine.camping_life.view import view as camping_view
from engine.core import Bot, Game, check_players
from engine.search import SearchBot
from engine.undo import takes_back


@takes_back
class CampingLifeGame(Game[CampingLifeState, Move]):
    id = "camping-life"
    title = "Camping Life"
    min_players = 2
    max_players = 2
    Options = CampingLifeOptions
    State = CampingLifeState
    Move = Move
    move_adapter = move_adapter
    View = schema.View
    Details = schema.Details
    bots: ClassVar[dict[str, Bot]] = {
        "random": random_bot,
        "heuristic": heuristic_bot,
        "search": SearchBot(CampingLifeSearcher()),
    }

    def setup(self, players: int, options: CampingLifeOptions, seed: int) -> CampingLifeState:
        check_players(self, players)
        return rules.setup(players, seed)

    # The rules themselves, not methods that call them: a playout calls these on every step.
    to_act = staticmethod(rules.to_act)
    legal_moves = staticmethod(rules.legal_moves)
    apply = staticmethod(rules.apply)
    view = staticmethod(camping_view)
    hidden = staticmethod(camping_hidden)
    outcome = staticmethod(rules.outcome)
    describe = staticmethod(labels.describe)
    labelled = staticmethod(labels.labelled)

    def seat_name(self, seat: int) -> str:
        return SEAT_NAMES[seat]

    def catalog(self) -> dict[str, Any]:
        return {
            "terrain": [
                {
                    "key": kind,
                    "name": NAMES[kind],
                    "copies": plain + umbrella + road,
                    "umbrellas": umbrella,
                    "roads": road,
                    "text": TERRAIN_TEXT[kind],
                }
                for kind, plain, umbrella, road in TERRAIN
            ],
            "missions": [
                {"key": key, "name": text, "points": points} for key, points, text in MISSIONS
            ],
        }


GAME = CampingLifeGame()
