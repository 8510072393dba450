"""Taking back steps of one's own turn, as long as they revealed nothing to anyone.

A game decorated with ``takes_back`` says, with ``hidden(state, seat)``, what ``seat`` cannot
see (``None``: a spectator): the places where things lie out of its sight, each a list of the
things there, every thing named by an identity that stays the same wherever it lies hidden (a
card's copy, a coin's owner and value). The rule is then the engine's, the same for every
game: a step can be taken back when its seat was the only one to act before it and still is
after it, the seeded RNG did not move (no shuffle, no random draw), the game is not over, and
nothing any seat or a spectator could not see before it is in its sight after it (``revealed``:
a card drawn, turned up, played from a hand or given, a coin turned over). A thing may go from
one hidden place to another (a coin put face down, a card into a hand the others do not see).
Each such step leaves an undo point in the state (its move; the turn's first point also the
state before it, the later states being that one with the moves since played again); any
other step clears them, so nothing can be taken back once another seat has had to decide
anything, nor anything that showed someone what they did not know.

Taking back is a move like any other, ``{"type": "undo"}``, recorded in the move log: the
game's record keeps the step and its undoing, and replaying the record (``campground
verify``) undoes it again. The state returns to the one before the step, except the log,
which only grows: the lines the step wrote stay, and one more says it was undone, which every
seat reads.

A turn takes back at most ``UNDOS_PER_TURN`` steps, counted until a step that cannot be taken
back: stepping and taking back in a loop would otherwise write log lines without end. Taking
back gives no time back either: the server's clock keeps the turn's deadline through the
moves ``keeps_turn`` names.
"""

from __future__ import annotations

from collections import Counter
from typing import Any, Literal, TypeVar

from pydantic import BaseModel, ConfigDict

from engine.core import BaseState, Game, IllegalMove, UndoPoint, copy_model, move_json
from engine.shapes import with_move

# Undo points kept per turn: enough for any turn (a point is a move, the turn's first also
# a state).
KEPT = 40
# Steps one turn may take back: room for changing one's mind many times over, and a bound on
# the log lines (a step's and its undoing's) a seat can write without playing on.
UNDOS_PER_TURN = 10


class Undo(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")

    type: Literal["undo"] = "undo"


UNDO = Undo()

G = TypeVar("G", bound=Game[Any, Any])


def takes_back(cls: type[G]) -> type[G]:
    """The game ``cls`` with undo within a turn; ``cls`` defines ``hidden(state, seat)``."""

    # A base known only at run time, which no type can name: what ``super()`` gives is Any.
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
            rng, logged = state.rng.state, len(state.log)
            alone = self.to_act(state) == [seat]
            after: BaseState = super().apply(state, seat, move)
            # The cheap conditions first: most steps that fail one fail there.
            if (
                alone
                and self.to_act(after) == [seat]
                and after.rng.state == rng
                and self.outcome(after) is None
                and not revealed(self, state, after)
            ):
                step = after.log[logged].text if len(after.log) > logged else None
                mine = state.undo if state.undo and state.undo[-1].seat == seat else []
                # The state is kept at the turn's first point (and after a point stored before
                # points kept moves); a later one is that state and the moves since.
                saved = None if mine and mine[-1].move is not None else _kept(state)
                points = [*mine, UndoPoint(seat=seat, state=saved, move=move_json(move), step=step)]
                after.undo = points if len(points) <= KEPT else _rebased(self, points)
                after.taken_back = state.taken_back
            else:
                after.undo, after.taken_back = [], 0
            return after

        def advance(self, state: BaseState, seat: int, move: Any) -> BaseState:
            # The game's own ``advance`` if it has one, else its ``apply``; no undo point.
            after: BaseState = (
                super().apply(state, seat, move)
                if cls.advance is Game.advance
                else super().advance(state, seat, move)
            )
            return after

        def take_back_moves(self, state: BaseState, seat: int) -> list[dict[str, Any]]:
            point = state.undo[-1] if state.undo else None
            if point is None or point.seat != seat or state.taken_back >= UNDOS_PER_TURN:
                return []
            label = f"Undo: {point.step}" if point.step else "Undo your last step"
            return [{"move": {"type": "undo"}, "label": label}]

    # The moves a person may send, taking back one of them.
    TakingBack.Move = with_move(cls.Move, Undo)
    TakingBack.__name__ = cls.__name__
    TakingBack.__qualname__ = cls.__qualname__
    TakingBack.__doc__ = cls.__doc__
    TakingBack.__module__ = cls.__module__
    return TakingBack


def revealed(game: Any, before: BaseState, after: BaseState) -> bool:
    """Whether the step from ``before`` to ``after`` put in some seat's sight (or a
    spectator's) a thing it could not see before: one of ``game.hidden(before, seat)`` that
    ``game.hidden(after, seat)`` no longer holds, counting things alike (coins) one by one.
    A game's ``hidden`` gives the same places in the same order for every state, so only the
    places that changed are compared: the things of the others are the same on each side.

    A spectator's places hold every seat's (a seat cannot see into a place a spectator can),
    so the spectator is asked first, and where none of its places changed nobody is asked
    more: most steps that may be taken back move nothing hidden."""
    spectator = _changed(game.hidden(before, None), game.hidden(after, None))
    if not spectator:
        return False
    if _shown(spectator):
        return True
    return any(
        _shown(_changed(game.hidden(before, seat), game.hidden(after, seat)))
        for seat in range(before.players)
    )


def _changed(was: list[Any], now: list[Any]) -> list[tuple[Any, Any]]:
    return [(a, b) for a, b in zip(was, now, strict=True) if a != b]


def _shown(changed: list[tuple[Any, Any]]) -> bool:
    """Whether a thing left the changed places for somewhere in sight."""
    gone = [thing for was, _ in changed for thing in was]
    still = [thing for _, now in changed for thing in now]
    if not set(still).issuperset(gone):
        return True
    # More things alike (coins of one value) went than came.
    return len(set(gone)) < len(gone) and bool(Counter(gone) - Counter(still))


def take_back(game: Any, state: BaseState, seat: int) -> BaseState:
    """The state before ``seat``'s latest step of this turn, with a log line saying so."""
    point = state.undo[-1] if state.undo else None
    if point is None or point.seat != seat:
        raise IllegalMove("There is no step of your turn to take back.")
    if state.taken_back >= UNDOS_PER_TURN:
        raise IllegalMove(f"You have taken back {UNDOS_PER_TURN} steps this turn: play on.")
    restored = _before(game, state.undo, len(state.undo) - 1)
    # The log is never rewritten: the step's lines stay, counted as they were.
    restored.log = list(state.log)
    restored.logged = state.logged
    restored.say(f"Undone: {point.step}" if point.step else "A step was undone.", seat)
    restored.undo = state.undo[:-1]
    restored.taken_back = state.taken_back + 1
    restored.last_decision = state.logged + len(restored.log) - 1
    return restored


def keeps_turn(move: Any, after: BaseState, seat: int) -> bool:
    """Whether ``seat``'s move (parsed), which led to ``after``, left its turn open: a step it
    may take back, or a step taken back. The server's clock keeps the turn's deadline through
    such moves, so taking back gives no time back."""
    return isinstance(move, Undo) or bool(after.undo) and after.undo[-1].seat == seat


def _kept(state: BaseState) -> BaseState:
    """``state`` as an undo point holds it, written as JSON only when stored: without its log
    (counted, as storing it counts it) and its own undo points, which would otherwise chain
    every state of the game to the next."""
    return copy_model(state, {"log": [], "logged": state.logged + len(state.log), "undo": []})


def _saved(state: BaseState) -> str:
    return state.model_dump_json(exclude={"log", "undo"})


def _before(game: Any, points: list[UndoPoint], k: int) -> BaseState:
    """The state before the step of ``points[k]``: the latest state kept at or before it,
    and the moves of the steps between played again. They drew nothing and moved no RNG,
    so they play out as they did."""
    first = k
    while points[first].state is None:
        first -= 1
    kept = points[first].state
    # A state kept as it was is copied: the caller changes what it is given back.
    state = (
        copy_model(kept, {})
        if isinstance(kept, BaseState)
        else game.State.model_validate_json(kept)
    )
    for point in points[first:k]:
        state = game.advance(state, point.seat, game.parse_move(point.move))
    return state


def _rebased(game: Any, points: list[UndoPoint]) -> list[UndoPoint]:
    """``points`` without the oldest, the next one given the state it starts from."""
    second = points[1]
    if second.state is None:
        second = second.model_copy(update={"state": _saved(_before(game, points, 1))})
    return [second, *points[2:]]
