"""What a seat sees of Last Stick: the pile, each seat's count of cards and sticks, and its
own hand (``None``: a spectator, who sees no hand). Never the other hand, nor the unused card.
A view is built for every seat at every version: no validation here (``schema`` describes it)."""

from __future__ import annotations

from tests.tiny_game.state import WORTH, LastStickState


def view(s: LastStickState, seat: int | None) -> dict:
    return {
        "sticks": s.sticks,
        "turn": s.turn,
        "hand": None if seat is None else [{"id": c, "worth": WORTH[c]} for c in s.hands[seat]],
        "seats": [
            {"seat": p, "cards": len(s.hands[p]), "taken": s.taken[p]} for p in range(s.players)
        ],
        "winner": s.winner,
    }
