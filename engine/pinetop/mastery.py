"""The mastery cards' conditions, and which spots a player may claim now."""

from __future__ import annotations

from collections.abc import Callable

from engine.pinetop.board import corners, on_edge
from engine.pinetop.cards import (BLUE, GREEN, GREY, MAP_CARDS, MASTERIES, PATCHES, RACCOON,
                                  SKUNK, WOODCHUCK)
from engine.pinetop.state import PinetopState


def _mine(s: PinetopState, seat: int) -> list[int]:
    """The position of each of ``seat``'s campers (a position once per camper)."""
    return [pos for pos, here in enumerate(s.campers) for x in here if x == seat]


def _count(s: PinetopState, seat: int, colour: str) -> int:
    return sum(1 for k in s.patches[seat] if PATCHES[k].colour == colour)


def _colour_cards(s: PinetopState, seat: int, colour: str) -> int:
    return len({p for p in _mine(s, seat) if MAP_CARDS[s.grid[p]].colour == colour})


def _shared(s: PinetopState, seat: int) -> list[tuple[int, int]]:
    """Per card with ``seat``'s campers: (its campers, the other players' campers)."""
    out = []
    for here in s.campers:
        mine = here.count(seat)
        if mine:
            out.append((mine, len(here) - mine))
    return out


def _parade(s: PinetopState, seat: int) -> bool:
    cols = {}
    for p in set(_mine(s, seat)):
        cols.setdefault(p % s.cols, set()).add(p)
    return any(len(v) >= 3 for v in cols.values())


CONDITIONS: dict[str, Callable[[PinetopState, int], bool]] = {
    "basics": lambda s, p: _count(s, p, GREEN) >= 3,
    "bushwhacker": lambda s, p: sum(on_edge(s.cols, s.rows, x) for x in _mine(s, p)) >= 3,
    "camping_cooperation": lambda s, p: any(m >= 2 and o == 1 for m, o in _shared(s, p)),
    "cookie_seller": lambda s, p: sum(1 for m, o in _shared(s, p) if o) >= 2,
    "frontier": lambda s, p: set(corners(s.cols, s.rows)) <= set(_mine(s, p)),
    "ghost_story": lambda s, p: any(m >= 4 for m, _ in _shared(s, p)),
    "guiding": lambda s, p: _colour_cards(s, p, BLUE) >= 3,
    "intermediate": lambda s, p: _count(s, p, BLUE) >= 4,
    "lone_wolf": lambda s, p: s.rank[p] >= WOODCHUCK and len(_mine(s, p)) == 1,
    "mentoring": lambda s, p: _colour_cards(s, p, GREY) >= 3,
    "parade": _parade,
    "pathfinding": lambda s, p: _colour_cards(s, p, GREEN) >= 3,
    "regroup": lambda s, p: any(m >= 3 for m, _ in _shared(s, p)),
    "smore_festival": lambda s, p: any(m >= 2 and o >= 2 for m, o in _shared(s, p)),
    "skill_diversity": lambda s, p: all(_count(s, p, c) for c in (GREEN, BLUE, GREY)),
    "specialist": lambda s, p: len(s.patches[p]) >= 3 and all(s.patches[p].values()),
    "strength_in_numbers": lambda s, p: s.rank[p] < SKUNK and len(_mine(s, p)) >= 3,
    "survivalist": lambda s, p: s.rank[p] >= RACCOON and len(_mine(s, p)) == 1,
    "technical": lambda s, p: _count(s, p, GREY) >= 3,
}
assert set(CONDITIONS) == set(MASTERIES)


def claimable(s: PinetopState, seat: int) -> list[tuple[str, int]]:
    """The (mastery card, spot) pairs ``seat`` may claim now: a completed card it has no disc
    on yet, a free spot, and a patch it does not already hold advanced."""
    out = []
    held = s.patches[seat]
    for i, key in enumerate(s.masteries):
        spots = s.claims[i]
        if seat in spots or None not in spots:
            continue
        free = [spot for spot, patch in enumerate(MASTERIES[key].patches)
                if spots[spot] is None and not held.get(patch, False)]
        # The condition last: it costs most, and matters only with a spot to take.
        if free and CONDITIONS[key](s, seat):
            out += [(key, spot) for spot in free]
    return out
