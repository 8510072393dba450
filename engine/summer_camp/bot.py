"""Summer Camp bots. They decide only from the view dict and the legal moves.

The heuristic bot plays every card it holds, actions first (drawing cards before anything
else, so that what it draws can be played too), then the rest for energy; it buys the card it
values most that its energy (and, for a better card, its snack bar tokens) can pay for, and
ends the turn. A card's worth is mostly how far it moves pawns, then what it draws or earns,
plus its experience points. Pawns move where it most helps: a pawn falling behind (the
participation and all-star badges need all three), a pawn about to take an activity badge,
and spaces with bonus icons.
"""

from __future__ import annotations

import random
from typing import Any

from engine.summer_camp.board import BRIDGES, FINAL_BRIDGE
from engine.summer_camp.cards import CARDS, PRICES
from engine.summer_camp.moves import (
    Buy,
    ChooseCard,
    ChoosePath,
    ChoosePile,
    ChoosePlayer,
    Done,
    EndTurn,
    Move,
    Play,
    SpendSnack,
)

# What an action is worth per unit of the card's amount (spaces, cards, energy, tokens...).
WORTH = {
    "none": 0.0,
    "energy": 0.55,
    "snacks": 0.4,
    "draw": 0.9,
    "move": 2.0,
    "move_any": 2.1,
    "scavenger_hunt": 0.3,
    "take_display": 0.45,
    "cave_exploration": 1.6,
    "tie_dye": 1.5,
    "gods_eye": 0.8,
    "macaroni_sculpture": 0.7,
    "bird_feeder": 0.5,
    "secret_admirer": 0.5,
    "friendship_bracelet": 0.7,
    "candy_stash": 0.5,
    "sing_along": 0.9,
    "tag": 2.4,
    "capture_the_flag": 2.4,
    "dodgeball": 1.2,
    "tug_o_war": 0.7,
    "plant_identification": 1.8,
    "bird_watching": 0.3,
    "fishing": 2.4,
    "swim_practice": 2.2,
    "water_skiing": 1.6,
}
# The order actions are played in: cards that bring more cards first.
FIRST = (
    "draw",
    "sing_along",
    "friendship_bracelet",
    "dodgeball",
    "plant_identification",
    "take_display",
    "scavenger_hunt",
    "bird_watching",
)
LAST = ("energy", "secret_admirer", "bird_feeder")


def card_worth(key: str, view: dict[str, Any], me: int) -> float:
    card = CARDS[key]
    worth = WORTH[card.action] * card.amount + card.points * 0.6
    if card.action == "move":
        path = view["packs"].index(card.pack)
        left = FINAL_BRIDGE - view["seats"][me]["pawns"][path]
        worth = WORTH["move"] * min(card.amount, left) + card.points * 0.6
    return worth


def _path_score(view: dict[str, Any], me: int, path: int, spaces: int) -> float:
    pawns = view["seats"][me]["pawns"]
    pos: int = pawns[path]
    land = min(pos + spaces, FINAL_BRIDGE)
    score = -0.15 * pos
    if pos == min(pawns):
        score += 2.0
    if land == FINAL_BRIDGE and view["paths"][path]["badges"]:
        score += 6.0
    if land in BRIDGES[:2] and all(p >= land or i == path for i, p in enumerate(pawns)):
        score += 3.0
    bonuses = view["paths"][path]["bonuses"]
    score += sum(1.5 for p in range(pos + 1, land + 1) if bonuses[p])
    return score


def _cheapest(keys: list[str], view: dict[str, Any], me: int) -> str:
    return min(keys, key=lambda k: (card_worth(k, view, me), k))


def _answer(view: dict[str, Any], legal: list[Move], me: int) -> Move:
    prompt = view["prompt"]
    kind = prompt["kind"]
    paths = [m for m in legal if isinstance(m, ChoosePath)]
    cards = [m.card for m in legal if isinstance(m, ChooseCard)]
    done = next((m for m in legal if isinstance(m, Done)), None)
    if paths:
        if kind == "gods_eye" and view["seats"][me]["snack_tokens"] < 2 and done is not None:
            return done
        spaces = 1 if kind in ("bonus_move", "gods_eye") else max(1, _spaces(prompt))
        return max(paths, key=lambda m: (_path_score(view, me, m.path, spaces), -m.path))
    if cards and kind in ("take_display", "plant_identification"):
        return ChooseCard(card=max(cards, key=lambda k: (card_worth(k, view, me), k)))
    if cards:
        worst = _cheapest(cards, view, me)
        keep = kind in ("scavenger_hunt", "tie_dye", "macaroni_sculpture")
        if keep and done is not None and card_worth(worst, view, me) > 1.0:
            return done
        return ChooseCard(card=worst)
    piles = [m for m in legal if isinstance(m, ChoosePile)]
    if piles:
        pawns = view["seats"][me]["pawns"]
        return min(piles, key=lambda m: (pawns[m.path], m.path))
    players = [m for m in legal if isinstance(m, ChoosePlayer)]
    if players:
        totals = {
            s["seat"]: s["card_points"] + sum(b["points"] for b in s["badges"])
            for s in view["seats"]
        }
        return min(players, key=lambda m: (totals[m.seat], m.seat))
    return done or legal[0]


def _spaces(prompt: dict[str, Any]) -> int:
    return CARDS[prompt["card"]].amount if prompt["card"] else 1


def heuristic_bot(view: dict[str, Any], legal: list[Move], rng: random.Random) -> Move:
    me = view["you"]
    if view["prompt"] is not None:
        return _answer(view, legal, me)
    actions = [m for m in legal if isinstance(m, Play) and m.use == "action"]
    if actions:

        def order(m: Play) -> tuple[int, str]:
            a = CARDS[m.card].action
            return (0 if a in FIRST else 2 if a in LAST else 1, m.card)

        return min(actions, key=order)
    for_energy = [m for m in legal if isinstance(m, Play)]
    if for_energy:
        return for_energy[0]
    energy = view["energy"]
    tokens = view["seats"][me]["snack_tokens"]
    per_token = 2 if view["bird_feeder"] else 1
    shop = [s["card"] for s in view["supply"] if s["left"]]
    shop += [c for p in view["paths"] for c in p["display"] if c is not None]

    def best(budget: int) -> str | None:
        fits = [k for k in shop if PRICES[k] <= budget and card_worth(k, view, me) > 1.0]
        return max(fits, key=lambda k: (card_worth(k, view, me), -PRICES[k], k), default=None)

    now = best(energy)
    later = best(energy + tokens * per_token)
    spend = next((m for m in legal if isinstance(m, SpendSnack)), None)
    if (
        later is not None
        and spend is not None
        and later != now
        and (now is None or card_worth(later, view, me) > card_worth(now, view, me) + 1.0)
    ):
        return spend
    if now is not None:
        return next(m for m in legal if isinstance(m, Buy) and m.card == now)
    return next(m for m in legal if isinstance(m, EndTurn))
