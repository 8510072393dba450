"""The heuristic Camp Pinetop bot: it sees only its view (and the printed components).

It values a patch by how much closer it brings the bot to every rank still ahead (the
columns' missing patches plus the missing advanced ones), takes the best patch move it can
afford, otherwise places campers (where the patches one space away are worth most) while it
has fewer than three out, otherwise draws; after one card it moves a camper instead of
drawing again when that brings it much nearer valuable patches. Its first camper goes where
the patches one space away are worth most and no gifts are due (many cards tie: it picks
among the best at random, so no seat follows another onto the same card). It refreshes three
matching face-up cards when no wild or double is among them, spends its Friendship token on
cards (Forager, Campfire) when its hand runs low, and makes Trailblazer's free move when it
brings a camper nearer valuable patches. It pays and gives away the cards it needs least:
plain cards before doubles, wilds last.
"""

from __future__ import annotations

import random
from functools import lru_cache
from typing import Any

from engine.pinetop.board import entry_edge, neighbours, tower_step
from engine.pinetop.cards import COLOURS, MAP_CARDS, PATCHES, RANKS, MapCard
from engine.pinetop.moves import Move

CAMPERS_WANTED = 3

Json = dict[str, Any]
"""A part of the view, or a legal move, as the bot reads it."""


def _tally(held: dict[str, bool]) -> tuple[tuple[int, ...], int]:
    """The held patches per colour (in ``COLOURS``' order), and how many are advanced."""
    counts = dict.fromkeys(COLOURS, 0)
    for k in held:
        counts[PATCHES[k].colour] += 1
    return tuple(counts.values()), sum(held.values())


@lru_cache(maxsize=None)
def _progress(counts: tuple[int, ...], advanced: int, rank: int) -> int:
    """Patches still missing for every rank ahead, the next one counted twice (a few hundred
    cases in all)."""
    return sum(
        _distance(dict(zip(COLOURS, counts)), advanced, r) * (2 if r == rank + 1 else 1)
        for r in range(rank + 1, 5)
    )


def _distance(counts: dict[str, int], advanced: int, rank: int) -> int:
    """Patches still missing for ``rank``: the nearest column, plus advanced patches."""
    r = RANKS[rank]
    column = min(
        (sum(max(0, n - counts[c]) for c, n in col.items()) for col in r.columns), default=0
    )
    return column + max(0, r.advanced - advanced)


def patch_value(held: dict[str, bool], rank: int, patch: str) -> float:
    """How much nearer gaining ``patch`` (or advancing it, when held) brings every rank."""
    counts, advanced = _tally(held)
    if patch in held:
        after = counts, advanced - held[patch] + 1
    else:
        c = _COLOUR_INDEX[PATCHES[patch].colour]
        after = (*counts[:c], counts[c] + 1, *counts[c + 1 :]), advanced
    gain = _progress(counts, advanced, rank) - _progress(*after, rank)
    return gain + (0.5 if PATCHES[patch].once else 0.0)  # a power to use at once


_COLOUR_INDEX = {c: i for i, c in enumerate(COLOURS)}


def _card_worth(card: Json) -> float:
    return 3.0 if card["wild"] else 1.0 + len(card["suits"]) - 1


def heuristic_bot(view: Json, legal: list[Move], rng: random.Random) -> Move:
    me = view["seats"][view["you"]]
    phase = view["phase"]
    moves = [m["move"] for m in view["legal_moves"]]
    pick = _CHOOSE.get(phase, _first)(view, me, moves, rng)
    return legal[moves.index(pick)] if pick in moves else legal[rng.randrange(len(legal))]


def _first(view: Json, me: Json, moves: list[Json], rng: random.Random) -> Json:
    return moves[0]


def _setup(view: Json, me: Json, moves: list[Json], rng: random.Random) -> Json:
    places = [m for m in moves if m["type"] == "place"]
    if not places:
        return _cheapest(view, me, moves, rng)
    score = {m["to"]: _prospects(view, me, m["to"]) - 2 * _gifts(view, m["to"]) for m in places}
    top = max(score.values())
    return rng.choice([m for m in places if score[m["to"]] >= top - 0.25])


def _held(me: Json) -> dict[str, bool]:
    return {p["patch"]: p["advanced"] for p in me["patches"]}


def _crossed(view: Json, move: Json) -> str:
    cols = view["grid"]["cols"]
    start: int = move["start"]
    before = tower_step(cols, start, view["tower"]) if move["tower"] else start
    card: MapCard = MAP_CARDS[view["map"][move["to"]]["card"]]
    return card.edges[entry_edge(cols, before, move["to"])]


def _gifts(view: Json, pos: int) -> int:
    return len(set(view["map"][pos]["campers"]) - {view["you"]})


def _action(view: Json, me: Json, moves: list[Json], rng: random.Random) -> Json:
    extra = _friend(view, me, moves) or _step(view, me, moves)
    if extra is not None:
        return extra
    held = _held(me)
    best, best_score = None, 0.0
    for m in moves:
        if m["type"] == "move" and m["patch"]:
            card = MAP_CARDS[view["map"][m["to"]]["card"]]
            score = (
                patch_value(held, me["rank"], _crossed(view, m))
                - 0.3 * _gifts(view, m["to"])
                - 0.1 * len(card.cost)
            )
            if score > best_score:
                best, best_score = m, score
    if best is not None:
        return best
    out = sum(1 for c in view["map"] for x in c["campers"] if x == view["you"])
    places = [m for m in moves if m["type"] == "place"]
    if places and out < CAMPERS_WANTED:
        return max(places, key=lambda m: _prospects(view, me, m["to"]) - _gifts(view, m["to"]))
    refresh = next((m for m in moves if m["type"] == "refresh"), None)
    if refresh is not None and not any(
        c and (c["wild"] or c["double"]) for c in view["supply"]["face_up"]
    ):
        return refresh
    return _draw(view, me, moves)


def _friend(view: Json, me: Json, moves: list[Json]) -> Json | None:
    """Spend the Friendship token on cards when the hand runs low: Forager, else Campfire."""
    if me["hand_count"] > 3:
        return None
    uses = [m for m in moves if m["type"] == "friendship" and m["patch"] in ("forager", "campfire")]
    return max(uses, key=lambda m: (m["patch"] == "forager", _level(view, m)), default=None)


def _level(view: Json, move: Json) -> bool:
    owner = view["seats"][move["owner"]]
    advanced: bool = next(p["advanced"] for p in owner["patches"] if p["patch"] == move["patch"])
    return advanced


def _step(view: Json, me: Json, moves: list[Json]) -> Json | None:
    """Trailblazer's free move, when it brings a camper nearer valuable patches."""
    best, gain = None, 0.5
    for m in moves:
        if m["type"] == "step":
            better = _prospects(view, me, m["to"]) - _prospects(view, me, m["start"])
            if better > gain:
                best, gain = m, better
    return best


def _after(view: Json, me: Json, moves: list[Json], rng: random.Random) -> Json:
    return (
        _friend(view, me, moves)
        or _step(view, me, moves)
        or next(m for m in moves if m["type"] == "done")
    )


def _prospects(view: Json, me: Json, pos: int) -> float:
    """What the patches one space from ``pos`` are worth to the bot."""
    cols, rows = view["grid"]["cols"], view["grid"]["rows"]
    held = _held(me)
    total = 0.0
    for to in neighbours(cols, rows, pos):
        card = MAP_CARDS[view["map"][to]["card"]]
        total += max(0.0, patch_value(held, me["rank"], card.edges[entry_edge(cols, pos, to)]))
    return total


def _draw(view: Json, me: Json, moves: list[Json]) -> Json:
    """A face-up wild first, then a face-up double, else the deck."""
    face_up = view["supply"]["face_up"]
    takes = [m for m in moves if m["type"] == "take"]
    for m in takes:
        if face_up[m["slot"]]["wild"] and not view["turn_state"]["drawn"]:
            return m
    for m in takes:
        if face_up[m["slot"]]["double"]:
            return m
    for m in moves:
        if m["type"] == "draw_deck":
            return m
    return takes[0] if takes else next((m for m in moves if m["type"] == "stop"), moves[0])


def _cheapest(view: Json, me: Json, moves: list[Json], rng: random.Random | None = None) -> Json:
    """Pay, give or discard the card worth least, the one held most often first (the
    Friendship token, offered beside a gift or payment, is kept)."""
    moves = [m for m in moves if "card" in m]
    hand = {c["id"]: c for c in me["hand"]}
    held: dict[str, int] = {}
    for c in me["hand"]:
        for s in c["suits"]:
            held[s] = held.get(s, 0) + 1
    return min(
        moves,
        key=lambda m: (
            _card_worth(hand[m["card"]]),
            -max((held[s] for s in hand[m["card"]]["suits"]), default=0),
        ),
    )


def _claim(view: Json, me: Json, moves: list[Json], rng: random.Random | None = None) -> Json:
    held = _held(me)
    patches = {m["key"]: [s["patch"] for s in m["spots"]] for m in view["masteries"]}
    return max(moves, key=lambda m: patch_value(held, me["rank"], patches[m["mastery"]][m["spot"]]))


def _power(view: Json, me: Json, moves: list[Json], rng: random.Random) -> Json:
    claims = [m for m in moves if m["type"] == "claim"]
    if claims:  # claimed first, the card cannot be lost to the power's moves
        return _claim(view, me, claims)
    real = [m for m in moves if m["type"] in ("take", "place")]
    if not real:
        return moves[0]
    if real[0]["type"] == "take":
        return _draw(view, me, real)
    return min(real, key=lambda m: _gifts(view, m["to"]))


def _second(view: Json, me: Json, moves: list[Json], rng: random.Random) -> Json:
    """Draw & move when a camper can reach a much better spot; else a second card."""
    extra = _friend(view, me, moves) or _step(view, me, moves)
    if extra is not None:
        return extra
    best, gain = None, 1.0
    for m in moves:
        if m["type"] == "move":
            better = (
                _prospects(view, me, m["to"])
                - _prospects(view, me, m["start"])
                - _gifts(view, m["to"])
            )
            if better > gain:
                best, gain = m, better
    return best or _draw(view, me, [m for m in moves if m["type"] in ("draw_deck", "take", "stop")])


_CHOOSE = {
    "setup": _setup,
    "after": _after,
    "action": _action,
    "draw": _second,
    "gift": _cheapest,
    "pay": _cheapest,
    "discard": _cheapest,
    "mastery": _claim,
    "power": _power,
}
