"""Summer Camp: a deck-building race along three activity paths to the merit badges."""

from __future__ import annotations

from typing import ClassVar

from engine.core import Bot, Game, Outcome, check_players, random_bot
from engine.summer_camp import rules, scoring, turn
from engine.summer_camp.board import catalog_board
from engine.summer_camp.bot import heuristic_bot
from engine.summer_camp.cards import CARD_LIST, PACKS
from engine.summer_camp.moves import Move, move_adapter
from engine.summer_camp.search import SummerCampSearchBot, SummerCampSearcher
from engine.summer_camp.state import Options, SummerCampState
from engine.summer_camp.view import view
from engine.undo import takes_back


@takes_back
class SummerCampGame(Game[SummerCampState, Move]):
    id = "summer-camp"
    title = "Summer Camp"
    min_players = 2
    max_players = 4
    Options = Options
    State = SummerCampState
    move_adapter = move_adapter
    bots: ClassVar[dict[str, Bot]] = {
        "random": random_bot, "heuristic": heuristic_bot,
        "search": SummerCampSearchBot(SummerCampSearcher())}

    def setup(self, players: int, options: Options, seed: int) -> SummerCampState:
        check_players(self, players)
        return turn.setup(players, options.packs, seed)

    def undo_guard(self, state: SummerCampState) -> tuple:
        """A step can be taken back while every pile stays the size it was (no card drawn,
        no activity card turned up) and no other camper's cards changed (a gift)."""
        others = tuple((len(state.hands[s]), len(state.discards[s])) for s in range(state.players)
                       if s != state.active)
        return (state.active, state.turn, tuple(len(p) for p in state.piles),
                tuple(len(d) for d in state.draws), others)

    def to_act(self, state: SummerCampState) -> list[int]:
        return rules.to_act(state)

    def legal_moves(self, state: SummerCampState, seat: int) -> list[Move]:
        return rules.legal_moves(state, seat)

    def apply(self, state: SummerCampState, seat: int, move: Move) -> SummerCampState:
        return rules.apply(state, seat, move)

    def view(self, state: SummerCampState, seat: int | None) -> dict:
        return view(state, seat)

    def outcome(self, state: SummerCampState) -> Outcome | None:
        return scoring.outcome(state)

    def describe(self, state: SummerCampState, seat: int, move: Move) -> str:
        return rules.describe(state, seat, move)

    def catalog(self) -> dict:
        return {
            "cards": {c.key: c.to_json() for c in CARD_LIST},
            "packs": {key: {"id": key, "name": title} for key, title in
                      {"base": "Base", **PACKS}.items()},
            "board": catalog_board(),
        }


GAME = SummerCampGame()
