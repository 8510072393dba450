"""A seat that concedes: the line the game's log gains, in the game's words.

Conceding is no move (the app decides what becomes of the seat), but its line is numbered
like a move's: the state counts it in ``logged``, so the lines of the moves after it keep
their numbers, and it is the latest decision until the next one.
"""

from __future__ import annotations

from typing import Any, TypeVar

from engine.core import BaseState, Event, Game

S = TypeVar("S", bound=BaseState)


def line(game: Game[Any, Any], seat: int, *, played_on: bool) -> Event:
    """What the log says: ``played_on``, a bot plays the seat to the end; otherwise the
    concession ends the game."""
    name = game.seat_name(seat)
    text = (
        f"{name} concedes: a bot plays the seat to the end."
        if played_on
        else f"{name} concedes the game."
    )
    return Event(text=text, seat=seat)


def conceded(game: Game[S, Any], state: S, seat: int, *, played_on: bool) -> S:
    """``state`` with ``seat``'s concession as its log (for the caller to keep, as a move's)."""
    after = state.model_copy(
        update={
            "log": [line(game, seat, played_on=played_on)],
            "logged": state.logged + len(state.log),
        }
    )
    after.last_decision = after.logged
    return after
