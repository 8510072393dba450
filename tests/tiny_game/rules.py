"""The rules of Last Stick: pure functions of the state."""

from __future__ import annotations

from engine.core import IllegalMove, Outcome, Rng, copy_model
from tests.tiny_game.moves import Play
from tests.tiny_game.state import HAND, WORTH, LastStickState, Options


def setup(players: int, options: Options, seed: int) -> LastStickState:
    rng = Rng.from_seed(seed)
    deck = list(range(len(WORTH)))
    rng.shuffle(deck)
    state = LastStickState(
        players=players,
        rng=rng,
        sticks=options.sticks,
        turn=rng.below(players),
        hands=[sorted(deck[:HAND]), sorted(deck[HAND : 2 * HAND])],
        unused=deck[-1],
        taken=[0] * players,
    )
    state.say(f"{options.sticks} sticks in the pile.")
    return state


def to_act(s: LastStickState) -> list[int]:
    return [] if s.winner is not None else [s.turn]


def legal_moves(s: LastStickState, seat: int) -> list[Play]:
    """One card of each worth in the seat's hand: cards of the same worth are alike."""
    if seat not in to_act(s):
        return []
    first = {WORTH[card]: card for card in reversed(s.hands[seat])}
    return [Play(card=first[worth]) for worth in sorted(first)]


def apply(s: LastStickState, seat: int, move: Play) -> LastStickState:
    if move.card not in s.hands[seat]:
        raise IllegalMove("That card is not in your hand.")
    took = min(WORTH[move.card], s.sticks)
    hands = [list(hand) for hand in s.hands]
    hands[seat].remove(move.card)
    taken = list(s.taken)
    taken[seat] += took
    after = copy_model(
        s,
        {
            "hands": hands,
            "taken": taken,
            "sticks": s.sticks - took,
            "turn": 1 - seat,
            "log": list(s.log),
        },
    )
    after.say(f"Plays a {WORTH[move.card]} and takes {took} of {s.sticks} sticks.", seat)
    if after.sticks == 0:
        after.winner = seat
        after.say("Takes the last stick and wins.", seat)
    return after


def outcome(s: LastStickState) -> Outcome | None:
    if s.winner is None:
        return None
    return Outcome(
        scores=[int(p == s.winner) for p in range(s.players)],
        winners=[s.winner],
        details={"taken": list(s.taken)},
    )


def describe(s: LastStickState, seat: int, move: Play) -> str:
    worth = WORTH[move.card]
    took = min(worth, s.sticks)
    return f"Take {took} stick{'s' * (took > 1)}" + (f" (play a {worth})" if took < worth else "")
