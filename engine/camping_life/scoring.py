"""End-of-game scoring: the five terrain kinds and the 13 missions, on 4 × 3 play areas.

An area is a sequence of 12 cells, row by row (index ``row * 4 + col``), each a ``Card`` or
``None``. Every function here is pure, so tests can score areas built by hand.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import lru_cache
from typing import Any

from engine.camping_life.cards import CARDS, Card

ROWS, COLS = 3, 4
CELLS = ROWS * COLS

Area = Sequence[Card | None]


def _neighbours(i: int) -> list[int]:
    r, c = divmod(i, COLS)
    out = []
    if r > 0:
        out.append(i - COLS)
    if r < ROWS - 1:
        out.append(i + COLS)
    if c > 0:
        out.append(i - 1)
    if c < COLS - 1:
        out.append(i + 1)
    return out


NEIGHBOURS: list[list[int]] = [_neighbours(i) for i in range(CELLS)]


def area_of(ids: Sequence[int | None]) -> list[Card | None]:
    """The cards of a play area stored as card ids."""
    return [None if i is None else CARDS[i] for i in ids]


def _is(card: Card | None, kind: str) -> bool:
    return card is not None and card.kind == kind


def count(area: Area, kind: str) -> int:
    return sum(1 for c in area if _is(c, kind))


def _groups(area: Area, member: Callable[[Card | None], bool]) -> list[list[int]]:
    """Orthogonally connected groups of the cells where ``member`` holds."""
    seen: set[int] = set()
    groups = []
    for start in range(CELLS):
        if start in seen or not member(area[start]):
            continue
        seen.add(start)
        group, stack = [], [start]
        while stack:
            i = stack.pop()
            group.append(i)
            for j in NEIGHBOURS[i]:
                if j not in seen and member(area[j]):
                    seen.add(j)
                    stack.append(j)
        groups.append(group)
    return groups


Masks = dict[str, int]
"""An area as one bit mask of cells per kind (bit ``i`` for cell ``i``), and under "links" the
cells a road runs through: terrain scoring is done on masks, a few integer operations."""

_FULL = (1 << CELLS) - 1
_FIRST_COLUMN = sum(1 << (r * COLS) for r in range(ROWS))
_LAST_COLUMN = _FIRST_COLUMN << (COLS - 1)


_NO_MASKS: Masks = {
    "road": 0,
    "pool": 0,
    "forest": 0,
    "tent": 0,
    "campfire": 0,
    "house": 0,
    "mission": 0,
    "links": 0,
}


def masks(area: Area) -> Masks:
    return id_masks([None if c is None else c.id for c in area])


_KIND_OF = [c.kind for c in CARDS]
_LINKING = frozenset(c.id for c in CARDS if c.road)


def id_masks(ids: Sequence[int | None]) -> Masks:
    """``masks(area_of(ids))``, without looking the cards up."""
    m = _NO_MASKS.copy()
    for i, c in enumerate(ids):
        if c is not None:
            m[_KIND_OF[c]] |= 1 << i
            if c in _LINKING:
                m["links"] |= 1 << i
    m["links"] |= m["road"]
    return m


def _beside(mask: int) -> int:
    """The cells next to those of ``mask``, side by side."""
    return (
        ((mask << 1) & ~_FIRST_COLUMN)
        | ((mask >> 1) & ~_LAST_COLUMN)
        | (mask << COLS)
        | (mask >> COLS)
    ) & _FULL


def _touching(a: int, b: int) -> int:
    """How many pairs of side-by-side cells have one cell in ``a`` and the other in ``b``."""
    return (
        (a << 1 & ~_FIRST_COLUMN & b).bit_count()
        + (a >> 1 & ~_LAST_COLUMN & b).bit_count()
        + (a << COLS & b).bit_count()
        + (a >> COLS & b).bit_count()
    )


@lru_cache(maxsize=None)
def _linked(links: int) -> tuple[tuple[int, int], ...]:
    """The connected groups of the cells of ``links``, each with the cells beside it: one
    entry per set of cells (4096 at most), as roads are scored for every new area."""
    groups = []
    while links:
        group = links & -links
        while (grown := group | (_beside(group) & links)) != group:
            group = grown
        links &= ~group
        groups.append((group, _beside(group)))
    return tuple(groups)


def _roads(m: Masks) -> int:
    road, house = m["road"], m["house"]
    return sum((group & road).bit_count() for group, near in _linked(m["links"]) if near & house)


def roads(area: Area) -> int:
    """1 point per road card whose connected road touches a house.

    A forest with a road links the roads on either side but is not a road card itself."""
    return _roads(masks(area))


@lru_cache(maxsize=4096)
def _pool_pairs(pools: int) -> int:
    """The most disjoint pairs of adjacent cells of ``pools``; the lowest cell is either left
    out or paired with its right or lower neighbour (earlier cells were decided already)."""
    if not pools:
        return 0
    low = pools & -pools
    rest = pools & ~low
    i = low.bit_length() - 1
    result = _pool_pairs(rest)
    for j in (i + 1, i + COLS):
        if j < CELLS and rest >> j & 1 and j in NEIGHBOURS[i]:
            result = max(result, 1 + _pool_pairs(rest & ~(1 << j)))
    return result


def pool_pairs(area: Area) -> int:
    """The most disjoint pairs of orthogonally adjacent pools (a pool is in at most one pair)."""
    return _pool_pairs(masks(area)["pool"])


def _pools(m: Masks) -> int:
    return m["pool"].bit_count() + _pool_pairs(m["pool"])


def pools(area: Area) -> int:
    """1 point per pool; a pair of adjacent pools is worth 3, so each pair adds 1."""
    return _pools(masks(area))


def _forests(m: Masks) -> int:
    return _touching(m["forest"], m["house"])


def forests(area: Area) -> int:
    """1 point per house next to each forest."""
    return _forests(masks(area))


def _tents(m: Masks) -> int:
    return m["tent"].bit_count()


def tents(area: Area) -> int:
    return _tents(masks(area))


def _campfires(m: Masks) -> int:
    return _touching(m["campfire"], m["forest"])


def campfires(area: Area) -> int:
    """1 point per forest next to each campfire."""
    return _campfires(masks(area))


TERRAIN_SCORES: dict[str, Callable[[Area], int]] = {
    "roads": roads,
    "pools": pools,
    "forests": forests,
    "tents": tents,
    "campfires": campfires,
}


_TERRAIN_BY_MASKS: dict[str, Callable[[Masks], int]] = {
    "roads": _roads,
    "pools": _pools,
    "forests": _forests,
    "tents": _tents,
    "campfires": _campfires,
}
"""``TERRAIN_SCORES`` on an area's masks, to work them out once for all five."""


def terrain_points(area: Area) -> int:
    """The sum of ``TERRAIN_SCORES``, working out the area's masks once."""
    return _terrain(masks(area))


def id_terrain_points(ids: Sequence[int | None]) -> int:
    """``terrain_points(area_of(ids))``."""
    return _terrain(id_masks(ids))


def _terrain(m: Masks) -> int:
    return _roads(m) + _pools(m) + _forests(m) + _tents(m) + _campfires(m)


def _umbrellas(cells: Sequence[Card | None]) -> int:
    return sum(1 for c in cells if c is not None and c.umbrella)


def _best_row(area: Area, measure: Callable[[Sequence[Card | None]], int]) -> int:
    return max(measure(area[r * COLS : (r + 1) * COLS]) for r in range(ROWS))


def corners(area: Area) -> set[int]:
    """The cells at the four corners of the area: of the smallest rectangle around its cards,
    which is the whole 4 × 3 frame once the area is complete."""
    taken = [i for i in range(CELLS) if area[i] is not None]
    if not taken:
        return set()
    rows = [i // COLS for i in taken]
    cols = [i % COLS for i in taken]
    return {r * COLS + c for r in (min(rows), max(rows)) for c in (min(cols), max(cols))}


def _largest_group(area: Area, kind: str) -> int:
    return max((len(g) for g in _groups(area, lambda c: _is(c, kind))), default=0)


def _adjacent_pair(area: Area, kind: str) -> bool:
    return any(
        _is(area[i], kind) and _is(area[j], kind) for i in range(CELLS) for j in NEIGHBOURS[i]
    )


# "Most" missions: the measure each player is compared on.
MOST: dict[str, Callable[[Area], int]] = {
    "most_pools": lambda a: count(a, "pool"),
    "most_roads": lambda a: count(a, "road"),
    "most_tents": lambda a: count(a, "tent"),
    "most_forests": lambda a: count(a, "forest"),
    "most_campfires": lambda a: count(a, "campfire"),
    "most_forests_in_a_row": lambda a: _best_row(a, lambda cells: count(cells, "forest")),
    "most_tents_in_a_row": lambda a: _best_row(a, lambda cells: count(cells, "tent")),
    "most_umbrellas": _umbrellas,
    "most_umbrellas_in_a_row": lambda a: _best_row(a, _umbrellas),
    "most_houses_on_corners": lambda a: sum(1 for i in corners(a) if _is(a[i], "house")),
    "most_pools_on_corners": lambda a: sum(1 for i in corners(a) if _is(a[i], "pool")),
}

# "At least" missions: each player who meets them scores.
AT_LEAST: dict[str, Callable[[Area], bool]] = {
    "three_forests_together": lambda a: _largest_group(a, "forest") >= 3,
    "two_houses_together": lambda a: _adjacent_pair(a, "house"),
}


def mission_points(mission: Card, areas: Sequence[Area]) -> list[int]:
    """The points ``mission`` gives each player; a tie for "most" gives nobody anything."""
    if mission.key in AT_LEAST:
        return [mission.points if AT_LEAST[mission.key](a) else 0 for a in areas]
    measures = [MOST[mission.key](a) for a in areas]
    top = max(measures)
    if measures.count(top) > 1:
        return [0] * len(areas)
    return [mission.points if m == top else 0 for m in measures]


def breakdown(areas: Sequence[Area], missions: Sequence[Card]) -> list[dict[str, Any]]:
    """Each player's points by terrain kind and by mission, with the total."""
    per_area = [masks(a) for a in areas]
    result: list[dict[str, Any]] = [
        {name: score(m) for name, score in _TERRAIN_BY_MASKS.items()} for m in per_area
    ]
    for seat in range(len(areas)):
        result[seat]["missions"] = {}
    for mission in missions:
        for seat, pts in enumerate(mission_points(mission, areas)):
            result[seat]["missions"][mission.key] = pts
    for entry in result:
        entry["total"] = sum(entry[name] for name in TERRAIN_SCORES) + sum(
            entry["missions"].values()
        )
    return result
