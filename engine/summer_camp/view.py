"""What one seat may see of a Summer Camp game.

Cards are named by their catalog id (``GET /api/games/summer-camp/catalog`` gives each id's
name, pack, cost, points and action text). ``view(state, seat)`` returns (``seat`` is ``None``
for a spectator)::

    {
      "packs": [pack id per path],  (path 0 first)
      "start_player": seat, "active": seat (whose turn it is),
      "turn": int (the round: every player's first turn is turn 1),
      "ending": bool (someone has all three activity badges: this is the last round),
      "energy": int (the active player's energy left this turn),
      "bird_feeder": bool (snack bar tokens are worth 2 energy this turn),
      "paths": [{
          "pack": pack id, "boards": [path board name, e.g. "T4"] * 3 (left to right),
          "bonuses": ["draw" | "snack" | "move" | None] * 19 (by position 0-18; 0 is the
              start off the board, 6/12/18 the bridges),
          "draw_pile": int (cards left in the activity pile),
          "display": [card id | None] * 2 (None: bought this turn or the pile ran out),
          "badges": [int] (activity badge points left, the next one taken first),
      }] * 3,
      "supply": [{"card": card id, "left": int}] (s'mores, scavenger hunt, free time),
      "participation": [int], "all_star": [int] (badge points left, next first),
      "snack_supply": int,
      "hand": [card id] | None (yours, in the order drawn; None for a spectator),
      "played": [{"card": card id, "use": "action" | "energy"}] (this turn, in order),
      "prompt": {  (the question being asked now; None when the active player moves freely)
          "kind": "path" | "bonus_move" | "scavenger_hunt" | "tie_dye" | "gods_eye" |
              "macaroni_sculpture" | "take_display" | "cave_exploration" |
              "plant_identification" | "bird_watching" | "give" | "dodgeball",
          "seats": [seat] (everyone who must answer; several for Dodgeball),
          "card": card id | None (the card asking; None for a bonus icon),
          "text": str, "left": int (repeats or cards still to choose), "done": int,
      } | None,
      "seats": [{
          "seat": s, "name": "Red" | "Blue" | "Green" | "Yellow",
          "pawns": [position 0-18 per path],
          "hand": int (cards in hand), "draw_pile": int, "discard_pile": int,
          "discard_top": card id | None,
          "discard": [card id] | None (the whole pile, bottom first: yours only),
          "snack_tokens": int,
          "badges": [{"kind": "participation" | "all_star" | pack id, "points": int}],
          "card_points": int (experience points of every card the player owns),
          "lake_points": int (what the pawns would score now from the lake board),
      }],
    }

Legal moves (``legal_moves`` in the full view, each with a ``label``):
``{"type": "play", "card": id, "use": "action" | "energy"}``, ``{"type": "buy", "card": id}``,
``{"type": "spend_snack"}``, ``{"type": "end_turn"}``, and the answers to a prompt:
``{"type": "choose_card", "card": id}``, ``{"type": "choose_path", "path": 0-2}``,
``{"type": "choose_pile", "path": 0-2}``, ``{"type": "choose_player", "seat": s}``,
``{"type": "done"}``.
"""

from __future__ import annotations

from typing import Any

from engine.summer_camp.board import LAKE_POINTS
from engine.summer_camp.cards import COPIES
from engine.summer_camp.rules import prompt_of
from engine.summer_camp.scoring import card_points
from engine.summer_camp.state import SEAT_NAMES, SummerCampState


def _key(c: int | None) -> str | None:
    return None if c is None else COPIES[c]


def view(s: SummerCampState, seat: int | None) -> dict[str, Any]:
    return {
        "packs": list(s.packs),
        "start_player": s.start_player,
        "active": s.active,
        "turn": s.turn,
        "ending": s.ending,
        "energy": s.energy,
        "bird_feeder": s.bird_feeder,
        "paths": [
            {
                "pack": p.pack,
                "boards": list(p.boards),
                "bonuses": list(p.bonuses),
                "draw_pile": len(s.piles[i]),
                "display": [_key(c) for c in s.display[i]],
                "badges": list(s.activity_badges[i]),
            }
            for i, p in enumerate(s.paths)
        ],
        "supply": [{"card": key, "left": len(pile)} for key, pile in s.supply.items()],
        "participation": list(s.participation),
        "all_star": list(s.all_star),
        "snack_supply": s.snack_supply,
        "hand": [COPIES[c] for c in s.hands[seat]] if seat is not None else None,
        "played": [{"card": COPIES[p.card], "use": p.use} for p in s.played],
        "prompt": prompt_of(s),
        "seats": [_seat(s, p, seat) for p in range(s.players)],
    }


def _seat(s: SummerCampState, p: int, viewer: int | None) -> dict[str, Any]:
    discard = s.discards[p]
    return {
        "seat": p,
        "name": SEAT_NAMES[p],
        "pawns": list(s.pawns[p]),
        "hand": len(s.hands[p]),
        "draw_pile": len(s.draws[p]),
        "discard_pile": len(discard),
        "discard_top": _key(discard[-1]) if discard else None,
        "discard": [COPIES[c] for c in discard] if p == viewer else None,
        "snack_tokens": s.snacks[p],
        "badges": [{"kind": b.kind, "points": b.points} for b in s.badges[p]],
        "card_points": card_points(s, p),
        "lake_points": sum(LAKE_POINTS.get(pos, 0) for pos in s.pawns[p]),
    }


def hidden(s: SummerCampState, seat: int | None) -> list[list[int]]:
    """The places ``seat`` cannot see into (``None``: a spectator), each a list of card copies
    (``engine.undo``): the activity piles, every draw pile (its owner's too), and the other
    campers' hands and discard piles under their top card."""
    places = [*s.piles, *s.draws]
    for p in range(s.players):
        if p != seat:
            places.append(s.hands[p])
            places.append(s.discards[p][:-1])
    return places
