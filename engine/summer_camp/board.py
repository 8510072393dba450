"""The board: three paths of 18 positions built from the nine path boards, and the lake."""

from __future__ import annotations

from typing import Any, Literal

Bonus = Literal["draw", "snack", "move"]

PATH_LENGTH = 18
BRIDGES = (6, 12, 18)
FIRST_BRIDGE, SECOND_BRIDGE, FINAL_BRIDGE = BRIDGES
BOARD_SPACES = 5  # ordinary spaces on a path board, then its bridge

# Bonus icons of the nine path boards, by position 1-5 within the board.
PATH_BOARDS: dict[str, dict[int, Bonus]] = {
    "T1": {2: "draw", 4: "draw", 1: "snack"},
    "T2": {1: "draw", 4: "move"},
    "T3": {2: "snack", 4: "move"},
    "T4": {2: "snack", 4: "snack", 5: "snack"},
    "T5": {5: "snack", 3: "move"},
    "T6": {4: "draw", 2: "move"},
    "T7": {1: "draw", 2: "draw", 5: "draw"},
    "T8": {2: "move", 5: "move"},
    "T9": {1: "draw", 3: "snack", 5: "snack"},
}

# Lake points for a pawn that did not reach the final bridge, by position.
LAKE_POINTS: dict[int, int] = {13: 1, 14: 2, 15: 3, 16: 4, 17: 5}

START_POSITION = {2: 0, 3: 1, 4: 3}
STARTING_HAND = [3, 4, 5, 6]  # the start player first, then clockwise
HAND_SIZE = 5
STARTING_SNACKS = 1
SNACK_LIMIT = 6
SNACK_SUPPLY = 24
DISPLAY_SLOTS = 2


def build_path(boards: list[str]) -> list[Bonus | None]:
    """The bonus icon at each position 0-18 of a path laid from three boards, left to right."""
    bonuses: list[Bonus | None] = [None] * (PATH_LENGTH + 1)
    for b, name in enumerate(boards):
        for pos, bonus in PATH_BOARDS[name].items():
            bonuses[b * (BOARD_SPACES + 1) + pos] = bonus
    return bonuses


def catalog_board() -> dict[str, Any]:
    return {
        "length": PATH_LENGTH,
        "bridges": list(BRIDGES),
        "lake_points": {str(p): v for p, v in LAKE_POINTS.items()},
        "path_boards": {
            name: {str(p): b for p, b in sorted(icons.items())}
            for name, icons in PATH_BOARDS.items()
        },
        "snack_limit": SNACK_LIMIT,
    }
