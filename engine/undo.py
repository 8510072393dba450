"""Taking back steps of one's own turn, as long as nothing new became known.

A game decorated with ``takes_back`` says, with ``undo_guard(state)``, what a step must leave
unchanged to be taken back: the sizes of the piles nobody has seen into (a card drawn or
turned up changes one), the hands of the other seats (a gift), the turn. The rule is then
the engine's, the same for every game: a step can be taken back when its seat was the only
one to act before it and still is after it, the seeded RNG did not move (no shuffle, no random
draw), the guard is unchanged and the game is not over. Each such step leaves an undo point in
the state (its move; the turn's first point also the state before it, the later states being
that one with the moves since played again); any other step clears them, so nothing can be
taken back once another seat has had to decide anything.

Taking back is a move like any other, ``{"type": "undo"}``, recorded in the move log: the
game's record keeps the step and its undoing, and replaying the record (``campground
verify``) undoes it again. The state returns to the one before the step, except the log,
which only grows: the lines the step wrote stay, and one more says it was undone, which every
seat reads.
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict

from engine.core import BaseState, Game, IllegalMove, UndoPoint, move_json

# Undo points kept per turn: enough for any turn (a point is a move, the turn's first also
# a state).
KEPT = 40


class Undo(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")

    type: Literal["undo"] = "undo"


UNDO = Undo()


def takes_back(cls: type) -> type:
    """The game ``cls`` with undo within a turn; ``cls`` defines ``undo_guard(state)``."""

    class TakingBack(cls):  # type: ignore[misc, valid-type]
        def parse_move(self, data: Any) -> Any:
            if isinstance(data, dict) and data.get("type") == "undo":
                if set(data) != {"type"}:
                    raise IllegalMove("Not a valid move: an undo takes nothing else.")
                return UNDO
            return super().parse_move(data)

        def apply(self, state: BaseState, seat: int, move: Any) -> BaseState:
            if isinstance(move, Undo):
                return take_back(self, state, seat)
            guard, rng, logged = self.undo_guard(state), state.rng.state, len(state.log)
            alone = self.to_act(state) == [seat]
            after = super().apply(state, seat, move)
            if (alone and self.to_act(after) == [seat] and after.rng.state == rng
                    and self.undo_guard(after) == guard and self.outcome(after) is None):
                step = after.log[logged].text if len(after.log) > logged else None
                mine = state.undo if state.undo and state.undo[-1].seat == seat else []
                # The state is kept at the turn's first point (and after a point stored before
                # points kept moves); a later one is that state and the moves since.
                saved = None if mine and mine[-1].move is not None else _saved(state)
                points = [*mine, UndoPoint(seat=seat, state=saved, move=move_json(move), step=step)]
                after.undo = points if len(points) <= KEPT else _rebased(self, points)
            else:
                after.undo = []
            return after

        def advance(self, state: BaseState, seat: int, move: Any) -> BaseState:
            # The game's own ``advance`` if it has one, else its ``apply``; no undo point.
            if cls.advance is Game.advance:
                return super().apply(state, seat, move)
            return super().advance(state, seat, move)

        def take_back_moves(self, state: BaseState, seat: int) -> list[dict]:
            point = state.undo[-1] if state.undo else None
            if point is None or point.seat != seat:
                return []
            label = f"Undo: {point.step}" if point.step else "Undo your last step"
            return [{"move": {"type": "undo"}, "label": label}]

    TakingBack.__name__ = cls.__name__
    TakingBack.__qualname__ = cls.__qualname__
    TakingBack.__doc__ = cls.__doc__
    TakingBack.__module__ = cls.__module__
    return TakingBack


def take_back(game: Any, state: BaseState, seat: int) -> BaseState:
    """The state before ``seat``'s latest step of this turn, with a log line saying so."""
    point = state.undo[-1] if state.undo else None
    if point is None or point.seat != seat:
        raise IllegalMove("There is no step of your turn to take back.")
    restored = _before(game, state.undo, len(state.undo) - 1)
    # The log is never rewritten: the step's lines stay, counted as they were.
    restored.log = list(state.log)
    restored.logged = state.logged
    restored.say(f"Undone: {point.step}" if point.step else "A step was undone.", seat)
    restored.undo = state.undo[:-1]
    restored.last_decision = state.logged + len(restored.log) - 1
    return restored


def _saved(state: BaseState) -> str:
    return state.model_dump_json(exclude={"log", "undo"})


def _before(game: Any, points: list[UndoPoint], k: int) -> BaseState:
    """The state before the step of ``points[k]``: the latest state kept at or before it,
    and the moves of the steps between played again. They drew nothing and moved no RNG,
    so they play out as they did."""
    first = k
    while points[first].state is None:
        first -= 1
    state = game.State.model_validate_json(points[first].state)
    for point in points[first:k]:
        state = game.advance(state, point.seat, game.parse_move(point.move))
    return state


def _rebased(game: Any, points: list[UndoPoint]) -> list[UndoPoint]:
    """``points`` without the oldest, the next one given the state it starts from."""
    second = points[1]
    if second.state is None:
        second = second.model_copy(update={"state": _saved(_before(game, points, 1))})
    return [second, *points[2:]]
