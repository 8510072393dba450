"""Where a won card may go: the play area must fit in 4 columns by 3 rows, but it may grow in
any direction while it does.

An area is stored as 12 cells, row by row, in a 3 × 4 grid. A card may also be placed just
outside that grid (row -1 or 3, column -1 or 4) when the whole area then still fits in 3 rows
of 4; the area is then moved back into the grid, keeping its shape.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache

from engine.camping_life.scoring import CELLS, COLS, ROWS

Cell = tuple[int, int]
STEPS = ((-1, 0), (1, 0), (0, -1), (0, 1))


def occupied(area: Sequence[object | None]) -> list[Cell]:
    return [divmod(i, COLS) for i in range(CELLS) if area[i] is not None]


def _fits(cells: list[Cell]) -> bool:
    rows = [r for r, _ in cells]
    cols = [c for _, c in cells]
    return max(rows) - min(rows) < ROWS and max(cols) - min(cols) < COLS


def targets(area: Sequence[object | None]) -> list[Cell]:
    """Every cell a card may go to: any cell of the grid at first, then a cell beside a card
    of the area such that the whole area still fits in 3 rows of 4."""
    # A tuple of a list: about a third cheaper than of a generator.
    return list(_targets(tuple([c is not None for c in area])))


@lru_cache(maxsize=4096)
def _targets(filled: tuple[bool, ...]) -> tuple[Cell, ...]:
    """``targets`` by which cells are filled, all that it depends on."""
    taken = [divmod(i, COLS) for i in range(CELLS) if filled[i]]
    if not taken:
        return tuple(divmod(i, COLS) for i in range(CELLS))
    here = set(taken)
    beside = {(r + dr, c + dc) for r, c in taken for dr, dc in STEPS} - here
    return tuple(sorted(cell for cell in beside if _fits([*taken, cell])))


def place(area: Sequence[int | None], row: int, col: int, card: int) -> list[int | None]:
    """The area with ``card`` at (row, col), moved back into the grid if it stood outside."""
    if 0 <= row < ROWS and 0 <= col < COLS:
        placed = list(area)
        placed[row * COLS + col] = card
        return placed
    cells = {cell: area[cell[0] * COLS + cell[1]] for cell in occupied(area)}
    cells[row, col] = card
    down = max(0, -min(r for r, _ in cells)) - max(0, max(r for r, _ in cells) - (ROWS - 1))
    right = max(0, -min(c for _, c in cells)) - max(0, max(c for _, c in cells) - (COLS - 1))
    moved: list[int | None] = [None] * CELLS
    for (r, c), value in cells.items():
        moved[(r + down) * COLS + c + right] = value
    return moved


@lru_cache(maxsize=None)
def where(row: int, col: int) -> str:
    """A cell in words; rows and columns just outside the grid are named by their neighbour."""
    if row == -1:
        return f"above row 1, column {col + 1}"
    if row == ROWS:
        return f"below row {ROWS}, column {col + 1}"
    if col == -1:
        return f"left of column 1, row {row + 1}"
    if col == COLS:
        return f"right of column {COLS}, row {row + 1}"
    return f"at row {row + 1}, column {col + 1}"
