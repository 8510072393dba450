"""Setting out a Camp Pinetop table: the map, the mastery cards, the first player, the supply
cards and the modules' pieces, all drawn from the seed."""

from __future__ import annotations

from engine.core import Rng
from engine.pinetop import nature
from engine.pinetop.board import GRID, diagonals, neighbours, on_edge
from engine.pinetop.cards import (
    BASE_SUPPLY,
    BLUE,
    COLOURS,
    DOUBLE_SUPPLY,
    MAP_CARDS,
    MAP_IDS_OF,
    MASTERIES,
    MASTERIES_IN_PLAY,
)
from engine.pinetop.state import SEAT_NAMES, Options, PinetopState

CAMPERS = 4
STARTING_HANDS = {2: (5, 6), 3: (5, 6, 7), 4: (5, 6, 6, 7), 5: (5, 6, 6, 6, 7)}
MAP_DECK = {2: (4, 4, 4), 3: (4, 4, 4), 4: (6, 5, 5), 5: (6, 5, 5)}  # green, blue, grey


def setup(players: int, options: Options, seed: int) -> PinetopState:
    rng = Rng.from_seed(seed)
    cols, rows = GRID[players]
    s = PinetopState(players=players, rng=rng, options=options, cols=cols, rows=rows)
    s.grid, swapped = deal_map(rng, players)
    s.campers = [[] for _ in s.grid]
    keys = list(MASTERIES)
    rng.shuffle(keys)
    s.masteries = keys[:MASTERIES_IN_PLAY]
    s.claims = [[None] * 4 for _ in s.masteries]
    s.first = s.active = rng.below(players)
    s.deck = list(BASE_SUPPLY)
    rng.shuffle(s.deck)
    sizes = STARTING_HANDS[players]
    s.hands = [[] for _ in range(players)]
    for i, n in enumerate(sizes):  # dealt from the first player on, in turn order
        s.hands[(s.first + i) % players] = [s.deck.pop() for _ in range(n)]
    s.face_up = [s.deck.pop() for _ in range(4)]
    if options.tower:
        s.deck += DOUBLE_SUPPLY
        rng.shuffle(s.deck)
        s.tower = rng.below(len(s.grid))
    s.campers_left = [CAMPERS] * players
    s.patches = [{} for _ in range(players)]
    s.rank = [0] * players
    s.friendship = ["none"] * players
    if options.nature:
        s.nature = nature.set_out(rng, len(s.grid), options.animal)
    s.say(
        f"The map is dealt, {cols} cards across and {rows} high. Mastery cards: "
        + ", ".join(MASTERIES[k].name for k in s.masteries)
        + "."
    )
    if swapped is not None:
        b, n = swapped
        s.say(
            f"Every blue card lay on the edge: {MAP_CARDS[s.grid[n]].name} swaps with "
            f"{MAP_CARDS[s.grid[b]].name}."
        )
    if s.tower is not None:
        s.say(f"The Observation Tower stands on {MAP_CARDS[s.grid[s.tower]].name}.")
    s.say(f"{SEAT_NAMES[s.first]} is the first player (drawn at random) and places a camper first.")
    return s


def deal_map(rng: Rng, players: int) -> tuple[list[int], tuple[int, int] | None]:
    """The map cards, row by row, and the (edge, inside) positions swapped if every blue card
    lay on the outer edge; the first thing drawn from the seed."""
    grid: list[int] = []
    for colour, count in zip(COLOURS, MAP_DECK[players]):
        pile = list(MAP_IDS_OF[colour])
        rng.shuffle(pile)
        grid += pile[:count]
    rng.shuffle(grid)
    cols, rows = GRID[players]
    swaps = blue_swaps(grid, cols, rows)
    if not swaps:
        return grid, None
    b, n = swaps[rng.below(len(swaps))]
    grid[b], grid[n] = grid[n], grid[b]
    return grid, (b, n)


def blue_swaps(grid: list[int], cols: int, rows: int) -> list[tuple[int, int]]:
    """The (blue edge card, inside card) swaps open when every blue card lies on the outer
    edge, none otherwise: an inside card next to a blue card; when every blue card is a
    corner, which no inside card touches on a side, the inside card touching it at its
    corner."""
    blue = [p for p, c in enumerate(grid) if MAP_CARDS[c].colour == BLUE]
    if any(not on_edge(cols, rows, p) for p in blue):
        return []
    beside = [(b, n) for b in blue for n in neighbours(cols, rows, b) if not on_edge(cols, rows, n)]
    return beside or [
        (b, n) for b in blue for n in diagonals(cols, rows, b) if not on_edge(cols, rows, n)
    ]
