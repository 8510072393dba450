"""Shared helpers: tables arranged for a scenario, and every card of a state by place."""

from __future__ import annotations

from itertools import chain

from engine.core import play
from engine.summer_camp import GAME
from engine.summer_camp.board import build_path
from engine.summer_camp.cards import COPIES
from engine.summer_camp.state import SummerCampState


def places(s: SummerCampState) -> dict[str, list[int]]:
    """Every pile of the table by name: together they hold each card in play once."""
    out: dict[str, list[int]] = {}
    for i in range(len(s.paths)):
        out[f"path {i} draw"] = s.piles[i]
        out[f"path {i} display"] = [c for c in s.display[i] if c is not None]
    for key, pile in s.supply.items():
        out[f"supply {key}"] = pile
    for seat in range(s.players):
        out[f"hand {seat}"] = s.hands[seat]
        out[f"draw {seat}"] = s.draws[seat]
        out[f"discard {seat}"] = s.discards[seat]
    out["played"] = [p.card for p in s.played]
    return out


def all_cards(s: SummerCampState) -> list[int]:
    return sorted(chain.from_iterable(places(s).values()))


def fetch(s: SummerCampState, key: str) -> int:
    """A copy of ``key``: one still in the box if any, else taken out of a pile."""
    used = set(all_cards(s))
    for i, k in enumerate(COPIES):
        if k == key and i not in used:
            return i
    for pile in places(s).values():
        for c in pile:
            if COPIES[c] == key:
                _remove(s, c)
                return c
    raise LookupError(key)


def _remove(s: SummerCampState, card: int) -> None:
    for display, pile in zip(s.display, s.piles):
        if card in display:
            display[display.index(card)] = None
            return
        if card in pile:
            pile.remove(card)
            return
    for pile in [*s.supply.values(), *s.hands, *s.draws, *s.discards]:
        if card in pile:
            pile.remove(card)
            return
    raise LookupError(card)


def arrange(
    players: int = 2,
    packs=("cooking", "outdoors", "water_sports"),
    seed: int = 0,
    hands: dict[int, list[str]] | None = None,
    draws: dict[int, list[str]] | None = None,
    discards: dict[int, list[str]] | None = None,
    pawns: dict[int, list[int]] | None = None,
    boards: dict[int, list[str]] | None = None,
    snacks: dict[int, int] | None = None,
) -> SummerCampState:
    """A fresh table where seat 0 starts and is to play, with the given piles (draw piles
    bottom first), pawns, path boards and snack bar tokens. Cards replaced go back to the box.
    """
    s = GAME.setup(players, GAME.options({"packs": list(packs)}), seed)
    s.start_player = s.active = 0
    for seat, keys in (hands or {}).items():
        s.hands[seat] = []
        for k in keys:
            s.hands[seat].append(fetch(s, k))
    for seat, keys in (draws or {}).items():
        s.draws[seat] = []
        for k in keys:
            s.draws[seat].append(fetch(s, k))
    for seat, keys in (discards or {}).items():
        s.discards[seat] = []
        for k in keys:
            s.discards[seat].append(fetch(s, k))
    for seat, where in (pawns or {}).items():
        s.pawns[seat] = list(where)
    for path, laid in (boards or {}).items():
        s.paths[path] = s.paths[path].model_copy(
            update={"boards": list(laid), "bonuses": build_path(laid)}
        )
    for seat, n in (snacks or {}).items():
        s.snack_supply += s.snacks[seat] - n
        s.snacks[seat] = n
    return s


def no_bonuses(s: SummerCampState) -> SummerCampState:
    """The same table with no bonus icon anywhere."""
    s.paths = [p.model_copy(update={"bonuses": [None] * len(p.bonuses)}) for p in s.paths]
    return s


def put_in_display(s: SummerCampState, path: int, keys: list[str]) -> None:
    s.display[path] = [None] * len(keys)
    for i, k in enumerate(keys):
        s.display[path][i] = fetch(s, k)


def run(s: SummerCampState, *moves: tuple[int, dict]) -> SummerCampState:
    for seat, move in moves:
        s = play(GAME, s, seat, move)
    return s


def keys(cards: list[int]) -> list[str]:
    return [COPIES[c] for c in cards]


def labels(s: SummerCampState, seat: int) -> dict[str, dict]:
    """The legal moves of ``seat`` by their button label."""
    return {GAME.describe(s, seat, m): m.model_dump() for m in GAME.legal_moves(s, seat)}


def act(key: str) -> dict:
    return {"type": "play", "card": key, "use": "action"}


def energy(key: str) -> dict:
    return {"type": "play", "card": key, "use": "energy"}


def choose(key: str) -> dict:
    return {"type": "choose_card", "card": key}


def to_path(path: int) -> dict:
    return {"type": "choose_path", "path": path}


DONE = {"type": "done"}
END_TURN = {"type": "end_turn"}
