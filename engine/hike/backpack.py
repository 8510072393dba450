"""Fitting item cards into the seven backpack spaces.

A player may rearrange their backpack at any time to fit everything, so whether a set of cards
fits is a bipartite matching of cards to the spaces their diagrams allow. A backpack is a dict
``space -> card id | None`` with all seven spaces as keys.
"""

from __future__ import annotations

from engine.hike.cards import ALLOWED_MASK, SPACE_BITS, SPACES

Backpack = dict[str, int | None]


def empty() -> Backpack:
    return dict.fromkeys(SPACES)


def is_empty(bp: Backpack) -> bool:
    """``not contents(bp)``, without making the list: rules ask it of every hiker."""
    return bp == _EMPTY


_EMPTY = empty()


def contents(bp: Backpack) -> list[int]:
    """The cards in the backpack, in space order."""
    return [c for c in bp.values() if c is not None]


def space_of(bp: Backpack, card_id: int) -> str | None:
    for s, c in bp.items():
        if c == card_id:
            return s
    return None


def _augment(card_id: int, occ: dict[str, int | None], locked: str | None, seen: set[str]) -> bool:
    """Kuhn's augmenting path: place card_id, moving others along the path only."""
    mask = ALLOWED_MASK[card_id]
    for s in SPACES:
        if s == locked or s in seen or not mask & SPACE_BITS[s]:
            continue
        seen.add(s)
        held = occ[s]
        if held is None or _augment(held, occ, locked, seen):
            occ[s] = card_id
            return True
    return False


def arrange(cards: list[int]) -> Backpack | None:
    """Some arrangement of all these cards, or None if they cannot all fit."""
    if len(cards) > len(SPACES):
        return None
    occ = empty()
    for c in cards:
        if not _augment(c, occ, None, set()):
            return None
    return occ


def fits(cards: list[int]) -> bool:
    return arrange(cards) is not None


def pack_at(bp: Backpack, card_id: int, space: str) -> Backpack | None:
    """The backpack with card_id in space, the others rearranged as little as needed."""
    if not ALLOWED_MASK[card_id] & SPACE_BITS[space]:
        return None
    occ = dict(bp)
    displaced = occ[space]
    occ[space] = card_id
    if displaced is None or _augment(displaced, occ, space, set()):
        return occ
    return None


def pack_spaces(bp: Backpack, card_id: int) -> list[str]:
    """Every space where card_id can go with everything already packed still fitting
    (where ``pack_at`` would not give None)."""
    mask = ALLOWED_MASK[card_id]
    spaces = []
    for s in SPACES:
        if mask & SPACE_BITS[s]:
            displaced = bp[s]
            if displaced is None or _augment(displaced, {**bp, s: card_id}, s, set()):
                spaces.append(s)
    return spaces


def add(bp: Backpack, card_id: int) -> Backpack | None:
    """The backpack with card_id added anywhere it fits (rearranging), or None."""
    occ = dict(bp)
    return occ if _augment(card_id, occ, None, set()) else None


def without(bp: Backpack, card_id: int) -> Backpack:
    """The backpack with card_id taken out (a new one: states share their backpacks)."""
    for s, c in bp.items():
        if c == card_id:
            return {**bp, s: None}
    raise KeyError(card_id)


def fit_discards(bp: Backpack, new_card: int) -> list[int]:
    """When bp plus new_card cannot all fit: each card (the new one included) whose
    removal leaves a set that fits."""
    held = contents(bp)
    everything = [*held, new_card]
    return [c for c in everything if fits([x for x in everything if x != c])]
