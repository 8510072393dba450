"""The mastery cards' conditions, and which spots a player may claim now."""

from __future__ import annotations

from collections.abc import Callable

from engine.pinetop.board import corners, on_edge
from engine.pinetop.cards import (
    BLUE,
    GREEN,
    GREY,
    MAP_CARDS,
    MASTERIES,
    PATCHES,
    RACCOON,
    SKUNK,
    WOODCHUCK,
)
from engine.pinetop.state import PinetopState


def _mine(s: PinetopState, seat: int) -> list[int]:
    """The position of each of ``seat``'s campers (a position once per camper)."""
    return [pos for pos, here in enumerate(s.campers) for x in here if x == seat]


def _count(s: PinetopState, seat: int, colour: str) -> int:
    return sum(1 for k in s.patches[seat] if PATCHES[k].colour == colour)


def _colour_cards(s: PinetopState, mine: list[int], colour: str) -> int:
    return len({p for p in mine if MAP_CARDS[s.grid[p]].colour == colour})


def _shared(s: PinetopState, seat: int) -> list[tuple[int, int]]:
    """Per card with ``seat``'s campers: (its campers, the other players' campers)."""
    out = []
    for here in s.campers:
        mine = here.count(seat)
        if mine:
            out.append((mine, len(here) - mine))
    return out


def _parade(s: PinetopState, p: int, mine: list[int]) -> bool:
    cols: dict[int, set[int]] = {}
    for pos in set(mine):
        cols.setdefault(pos % s.cols, set()).add(pos)
    return any(len(v) >= 3 for v in cols.values())


# Each test is given the state, the seat and the seat's campers (``_mine``), which most of
# them read: ``claimable`` works them out once for every card it checks.
_TESTS: dict[str, Callable[[PinetopState, int, list[int]], bool]] = {
    "basics": lambda s, p, m: _count(s, p, GREEN) >= 3,
    "bushwhacker": lambda s, p, m: sum(on_edge(s.cols, s.rows, x) for x in m) >= 3,
    "camping_cooperation": lambda s, p, m: any(n >= 2 and o == 1 for n, o in _shared(s, p)),
    "cookie_seller": lambda s, p, m: sum(1 for n, o in _shared(s, p) if o) >= 2,
    "frontier": lambda s, p, m: set(corners(s.cols, s.rows)) <= set(m),
    "ghost_story": lambda s, p, m: any(n >= 4 for n, _ in _shared(s, p)),
    "guiding": lambda s, p, m: _colour_cards(s, m, BLUE) >= 3,
    "intermediate": lambda s, p, m: _count(s, p, BLUE) >= 4,
    "lone_wolf": lambda s, p, m: s.rank[p] >= WOODCHUCK and len(m) == 1,
    "mentoring": lambda s, p, m: _colour_cards(s, m, GREY) >= 3,
    "parade": _parade,
    "pathfinding": lambda s, p, m: _colour_cards(s, m, GREEN) >= 3,
    "regroup": lambda s, p, m: any(n >= 3 for n, _ in _shared(s, p)),
    "smore_festival": lambda s, p, m: any(n >= 2 and o >= 2 for n, o in _shared(s, p)),
    "skill_diversity": lambda s, p, m: all(_count(s, p, c) for c in (GREEN, BLUE, GREY)),
    "specialist": lambda s, p, m: sum(s.patches[p].values()) >= 3,  # basic ones besides
    "strength_in_numbers": lambda s, p, m: s.rank[p] < SKUNK and len(m) >= 3,
    "survivalist": lambda s, p, m: s.rank[p] >= RACCOON and len(m) == 1,
    "technical": lambda s, p, m: _count(s, p, GREY) >= 3,
}
assert set(_TESTS) == set(MASTERIES)


def _condition(
    test: Callable[[PinetopState, int, list[int]], bool],
) -> Callable[[PinetopState, int], bool]:
    return lambda s, seat: test(s, seat, _mine(s, seat))


CONDITIONS: dict[str, Callable[[PinetopState, int], bool]] = {
    key: _condition(test) for key, test in _TESTS.items()
}


def claimable(s: PinetopState, seat: int) -> list[tuple[str, int]]:
    """The (mastery card, spot) pairs ``seat`` may claim now: a completed card it has no disc
    on yet, a free spot, and a patch it does not already hold advanced."""
    out = []
    held = s.patches[seat]
    mine = None
    for i, key in enumerate(s.masteries):
        spots = s.claims[i]
        if seat in spots or None not in spots:
            continue
        free = [
            spot
            for spot, patch in enumerate(MASTERIES[key].patches)
            if spots[spot] is None and not held.get(patch, False)
        ]
        if not free:
            continue  # the condition last: it costs most, and matters only with a spot to take
        if mine is None:
            mine = _mine(s, seat)
        if _TESTS[key](s, seat, mine):
            out += [(key, spot) for spot in free]
    return out
