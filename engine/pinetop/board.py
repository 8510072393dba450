"""The map grid: positions, neighbours, the edge a camper crosses, and the ring round it.

Positions count row by row from the top-left card (0). The ring round the map (where the
Nature expansion's weather travels) counts clockwise from the space above the top-left card.
"""

from __future__ import annotations

from functools import lru_cache

GRID = {2: (3, 4), 3: (3, 4), 4: (4, 4), 5: (4, 4)}  # players -> (columns, rows)


@lru_cache(maxsize=None)
def neighbours(cols: int, rows: int, pos: int) -> tuple[int, ...]:
    r, c = divmod(pos, cols)
    out = []
    for dr, dc in ((-1, 0), (0, 1), (1, 0), (0, -1)):
        if 0 <= r + dr < rows and 0 <= c + dc < cols:
            out.append((r + dr) * cols + c + dc)
    return tuple(out)


NEIGHBOURS = {
    (cols, rows): [neighbours(cols, rows, p) for p in range(cols * rows)]
    for cols, rows in set(GRID.values())
}
"""``neighbours`` of every position, by the grid's size: read on every step."""


@lru_cache(maxsize=None)
def diagonals(cols: int, rows: int, pos: int) -> tuple[int, ...]:
    """The cards touching ``pos`` only at a corner."""
    r, c = divmod(pos, cols)
    return tuple(
        (r + dr) * cols + c + dc
        for dr in (-1, 1)
        for dc in (-1, 1)
        if 0 <= r + dr < rows and 0 <= c + dc < cols
    )


def entry_edge(cols: int, start: int, to: int) -> int:
    """The edge of ``to`` (0 north, 1 east, 2 south, 3 west) a camper crosses from ``start``."""
    if to == start + 1:
        return 3
    if to == start - 1:
        return 1
    return 0 if to == start + cols else 2


def on_edge(cols: int, rows: int, pos: int) -> bool:
    r, c = divmod(pos, cols)
    return r in (0, rows - 1) or c in (0, cols - 1)


def corners(cols: int, rows: int) -> tuple[int, ...]:
    return (0, cols - 1, (rows - 1) * cols, rows * cols - 1)


def toward(cols: int, pos: int, target: int) -> int | None:
    """One space from ``pos`` toward ``target`` when they share a row or column, else None."""
    (r, c), (tr, tc) = divmod(pos, cols), divmod(target, cols)
    if pos == target or (r != tr and c != tc):
        return None
    if r == tr:
        return pos + (1 if tc > c else -1)
    return pos + (cols if tr > r else -cols)


def tower_step(cols: int, pos: int, tower: int | None) -> int:
    """The Observation Tower's free step from ``pos``, for a move that takes it: offered only
    when there is a tower in line with ``pos``."""
    step = None if tower is None else toward(cols, pos, tower)
    assert step is not None, "no free step toward the tower from here"
    return step


def ring_size(cols: int, rows: int) -> int:
    return 2 * (cols + rows)


def ring_line(cols: int, rows: int, ring: int) -> tuple[str, int]:
    """The row or column beside a ring space: ("col", i) or ("row", i)."""
    ring %= ring_size(cols, rows)
    if ring < cols:
        return "col", ring
    ring -= cols
    if ring < rows:
        return "row", ring
    ring -= rows
    if ring < cols:
        return "col", cols - 1 - ring
    return "row", rows - 1 - (ring - cols)


def in_line(cols: int, pos: int, line: tuple[str, int]) -> bool:
    r, c = divmod(pos, cols)
    return (c if line[0] == "col" else r) == line[1]


def slide(cols: int, rows: int, pos: int, dr: int, dc: int, steps: int) -> int:
    """Move ``steps`` spaces in a direction, stopping at the map's edge."""
    r, c = divmod(pos, cols)
    for _ in range(steps):
        if 0 <= r + dr < rows and 0 <= c + dc < cols:
            r, c = r + dr, c + dc
    return r * cols + c
