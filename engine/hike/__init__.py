"""Let's Take a Hike: a push-your-luck backpack game for 2 to 5 players."""

from __future__ import annotations

from typing import Any, ClassVar

from engine.bots import random_bot
from engine.core import Bot, Game, check_players
from engine.search import SearchBot
from engine.hike import ending, labels, rules, schema
from engine.hike import setup as hike_setup
from engine.hike.bot import heuristic_bot
from engine.hike.search import HikeSearcher
from engine.hike.cards import HAZARD_TABLE, HAZARD_TEXT, ITEM_TABLE, SPACE_TITLES
from engine.hike.deck import PLAYERS
from engine.hike.moves import Move, move_adapter
from engine.hike.setup import Options
from engine.hike.state import HikeState
from engine.hike.view import view as hike_view


class HikeGame(Game[HikeState, Move]):
    id = "hike"
    title = "Let's Take a Hike"
    min_players = 2
    max_players = 5
    Options = Options
    State = HikeState
    Move = Move
    move_adapter = move_adapter
    View = schema.View
    Details = schema.Details
    bots: ClassVar[dict[str, Bot]] = {
        "random": random_bot,
        "heuristic": heuristic_bot,
        "search": SearchBot(HikeSearcher()),
    }

    def setup(self, players: int, options: hike_setup.Options, seed: int) -> HikeState:
        check_players(self, players)
        return hike_setup.setup(players, options, seed)

    # The rules themselves, not methods that call them: a playout calls these on every step.
    to_act = staticmethod(rules.to_act)
    legal_moves = staticmethod(rules.legal_moves)
    apply = staticmethod(rules.apply)
    view = staticmethod(hike_view)
    outcome = staticmethod(ending.outcome)
    describe = staticmethod(labels.describe)
    labelled = staticmethod(labels.labelled)

    def seat_name(self, seat: int) -> str:
        return PLAYERS[seat]

    def catalog(self) -> dict[str, Any]:
        return {
            "items": [
                {
                    "key": name,
                    "name": title,
                    "copies": count,
                    "miles": miles,
                    "spaces": [SPACE_TITLES[sp] for sp in spaces],
                }
                for name, title, count, miles, spaces in ITEM_TABLE
            ],
            "hazards": [
                {"key": name, "name": title, "copies": count, "text": HAZARD_TEXT[name]}
                for name, title, count in HAZARD_TABLE
            ],
        }


GAME = HikeGame()
