"""Camping Life: two players bid hidden coins for terrain cards and build a 4 × 3 camping."""

from __future__ import annotations

from typing import ClassVar

from engine.camping_life import labels, rules
from engine.camping_life.bot import heuristic_bot
from engine.camping_life.cards import MISSIONS, NAMES, TERRAIN, TERRAIN_TEXT
from engine.camping_life.moves import Move, move_adapter
from engine.camping_life.search import CampingLifeSearcher
from engine.camping_life.state import CampingLifeState, Options
from engine.camping_life.view import view as camping_view
from engine.core import Bot, Game, check_players, random_bot
from engine.search import SearchBot
from engine.undo import takes_back


@takes_back
class CampingLifeGame(Game[CampingLifeState, Move]):
    id = "camping-life"
    title = "Camping Life"
    min_players = 2
    max_players = 2
    Options = Options
    State = CampingLifeState
    move_adapter = move_adapter
    bots: ClassVar[dict[str, Bot]] = {
        "random": random_bot, "heuristic": heuristic_bot,
        "search": SearchBot(CampingLifeSearcher()),
    }

    def setup(self, players: int, options: Options, seed: int) -> CampingLifeState:
        check_players(self, players)
        return rules.setup(players, seed)

    def undo_guard(self, state: CampingLifeState) -> tuple:
        """A step can be taken back while no card is drawn, no mission turned up and no coin
        turned over: placing the cards one has won, say."""
        return (state.round, len(state.draw), len(state.mission_pile), state.revealed)

    # The rules themselves, not methods that call them: a playout calls these on every step.
    to_act = staticmethod(rules.to_act)
    legal_moves = staticmethod(rules.legal_moves)
    apply = staticmethod(rules.apply)
    view = staticmethod(camping_view)
    outcome = staticmethod(rules.outcome)
    describe = staticmethod(labels.describe)
    labelled = staticmethod(labels.labelled)

    def catalog(self) -> dict:
        return {
            "terrain": [
                {"key": kind, "name": NAMES[kind], "copies": plain + umbrella + road,
                 "umbrellas": umbrella, "roads": road, "text": TERRAIN_TEXT[kind]}
                for kind, plain, umbrella, road in TERRAIN
            ],
            "missions": [
                {"key": key, "name": text, "points": points} for key, points, text in MISSIONS
            ],
        }


GAME = CampingLifeGame()
