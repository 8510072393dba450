"""Setup: a map that always has an inside blue card, the same map whatever the modules, the
first player drawn from the seed, and starting hands dealt in turn order from them."""

import itertools

import pytest

from engine.core import Rng
from engine.pinetop import GAME
from engine.pinetop.board import GRID, corners, on_edge
from engine.pinetop.cards import BLUE, MAP_CARDS
from engine.pinetop.setup import MAP_DECK, STARTING_HANDS, blue_swaps, deal_map

# The maps of 2,000 seeds at each player count (20,000 found nothing more); the two seeds that
# deal every blue card to a corner are cases of their own below too.
SEEDS = 2_000
CORNERED = (683, 1081)  # 2-3 players: every blue card dealt to a corner
COMBOS = [
    dict(zip(("friendship", "nature", "tower"), bits))
    for bits in itertools.product((False, True), repeat=3)
]


def blue_inside(grid: list[int], players: int) -> bool:
    cols, rows = GRID[players]
    return any(
        MAP_CARDS[c].colour == BLUE and not on_edge(cols, rows, p) for p, c in enumerate(grid)
    )


@pytest.mark.slow
def test_every_dealt_map_has_a_blue_card_inside():
    # The map is the first thing drawn from the seed, so the modules cannot change it (the
    # next test checks that): dealing the map alone covers every module combination.
    for players in range(2, 6):
        for seed in range(SEEDS):
            grid, _ = deal_map(Rng.from_seed(seed), players)
            assert blue_inside(grid, players), (players, seed)
            colours = [MAP_CARDS[c].colour for c in grid]
            assert tuple(colours.count(c) for c in ("green", "blue", "grey")) == MAP_DECK[players]


def test_setup_deals_that_map_with_every_module_combination():
    for players, options, seed in itertools.product(range(2, 6), COMBOS, (*CORNERED, *range(40))):
        s = GAME.setup(players, GAME.options(options), seed)
        assert s.grid == deal_map(Rng.from_seed(seed), players)[0]
        assert blue_inside(s.grid, players)


def test_blue_cards_all_in_corners_swap_with_the_inside_card_touching_a_corner():
    for seed in CORNERED:
        for players in (2, 3):
            rng = Rng.from_seed(seed)
            grid, swapped = deal_map(rng, players)
            b, n = swapped
            assert b in corners(3, 4) and n in (4, 7)  # the two inside cards of 3 x 4
            grid[b], grid[n] = grid[n], grid[b]
            blue = {p for p, c in enumerate(grid) if MAP_CARDS[c].colour == BLUE}
            assert blue == set(corners(3, 4))
            assert set(blue_swaps(grid, 3, 4)) == {(0, 4), (2, 4), (9, 7), (11, 7)}
            log = [e.text for e in GAME.setup(players, GAME.options({}), seed).log]
            assert any(t.startswith("Every blue card lay on the edge") for t in log)


def test_a_blue_card_beside_an_inside_card_swaps_with_one_beside_it():
    grid = [m.id for m in MAP_CARDS if m.colour != BLUE][:12]
    blues = [m.id for m in MAP_CARDS if m.colour == BLUE]
    for pos, card in zip((1, 3, 9, 11), blues):
        grid[pos] = card
    assert set(blue_swaps(grid, 3, 4)) == {(1, 4), (3, 4)}  # 9 and 11 are corners


def test_the_first_player_is_drawn_from_the_seed_and_hands_follow_turn_order():
    for players in range(2, 6):
        firsts = set()
        for seed in range(60):
            s = GAME.setup(players, GAME.options({}), seed)
            firsts.add(s.first)
            assert s.active == s.first and GAME.to_act(s) == [s.first]
            order = [(s.first + i) % players for i in range(players)]
            assert tuple(len(s.hands[x]) for x in order) == STARTING_HANDS[players]
            assert (
                f"{GAME.view(s, None)['seats'][s.first]['name']} is the first player"
                in s.log[-1].text
            )
        assert firsts == set(range(players))


def test_campers_are_placed_in_turn_order_then_the_first_player_begins():
    s = GAME.setup(3, GAME.options({}), 3)
    seen = []
    while s.turn == 0:
        seat = GAME.to_act(s)[0]
        if s.pending is None:
            seen.append(seat)
        move = next(
            m for m in GAME.legal_moves(s, seat) if m.type != "place" or not s.campers[m.to]
        )
        s = GAME.apply(s, seat, move)
    assert seen == [(s.first + i) % 3 for i in range(3)]
    assert s.active == s.first and s.turn == 1
