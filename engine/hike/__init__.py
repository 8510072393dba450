"""Let's Take a Hike: a push-your-luck backpack game for 2 to 5 players."""

from __future__ import annotations

from typing import ClassVar

from engine.core import Bot, Game, check_players, random_bot
from engine.search import SearchBot
from engine.hike import ending, labels, rules
from engine.hike import setup as hike_setup
from engine.hike.bot import heuristic_bot
from engine.hike.search import HikeSearcher
from engine.hike.cards import HAZARD_TABLE, HAZARD_TEXT, ITEM_TABLE, SPACE_TITLES
from engine.hike.moves import move_adapter
from engine.hike.setup import Options
from engine.hike.state import HikeState
from engine.hike.view import view as hike_view


class HikeGame(Game[HikeState, object]):
    id = "hike"
    title = "Let's Take a Hike"
    min_players = 2
    max_players = 5
    Options = Options
    State = HikeState
    move_adapter = move_adapter
    bots: ClassVar[dict[str, Bot]] = {
        "random": random_bot, "heuristic": heuristic_bot, "search": SearchBot(HikeSearcher()),
    }

    def setup(self, players: int, options: Options, seed: int) -> HikeState:
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

    def catalog(self) -> dict:
        return {
            "items": [
                {"key": name, "name": title, "copies": count, "miles": miles,
                 "spaces": [SPACE_TITLES[sp] for sp in spaces]}
                for name, title, count, miles, spaces in ITEM_TABLE
            ],
            "hazards": [
                {"key": name, "name": title, "copies": count, "text": HAZARD_TEXT[name]}
                for name, title, count in HAZARD_TABLE
            ],
        }


GAME = HikeGame()
