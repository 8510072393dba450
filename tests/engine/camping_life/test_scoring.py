"""The rulebook's scoring examples and every mission, on play areas built by hand."""

import pytest

from engine.camping_life.cards import MISSION_BY_KEY
from engine.camping_life.scoring import (
    MOST,
    breakdown,
    campfires,
    forests,
    mission_points,
    pool_pairs,
    pools,
    roads,
    tents,
)

EMPTY = ". . . .\n. . . .\n. . . ."


def test_roads_example_groups_of_four_one_and_two(grid):
    # The 4-road group runs through a forest with a road.
    area = grid("""
        R R R R
        H . W H
        R R . R
    """)
    assert roads(area) == 7


def test_road_without_a_house_scores_nothing(grid):
    assert roads(grid("R R R .\n. . . .\nH . . .")) == 0
    assert roads(grid("R R R .\nH . . .\n. . . .")) == 3


def test_forest_with_a_road_links_roads_but_a_plain_forest_does_not(grid):
    assert roads(grid("R W R H\n. . . .\n. . . .")) == 2
    assert roads(grid("R F R H\n. . . .\n. . . .")) == 1


def test_pools_example_a_pair_and_a_single(grid):
    area = grid("""
        P U . .
        . . . .
        . . . P
    """)
    assert pools(area) == 4


@pytest.mark.parametrize(
    ("text", "pairs", "points"),
    [
        ("P P P .\n. . . .\n. . . .", 1, 4),  # a pool is in at most one pair
        ("P P P P\n. . . .\n. . . .", 2, 6),  # pairing the middle two would waste two pools
        ("P P . .\nP P . .\n. . . .", 2, 6),
        ("P . P .\n. P . .\n. . . .", 0, 3),  # diagonal is not next to
        ("P . . .\nP P P .\n. . P .", 2, 7),
    ],
)
def test_pools_maximise_the_pairs(grid, text, pairs, points):
    assert pool_pairs(grid(text)) == pairs
    assert pools(grid(text)) == points


def test_tents_examples(grid):
    assert tents(grid("T T . .\nY T . .\n. . . .")) == 4
    assert tents(grid("T T Y T\n. . . .\n. . Y .")) == 5


def test_forests_examples_three_and_two_then_two(grid):
    area = grid("""
        H F H .
        . H . .
        H F . .
    """)
    assert forests(area) == 5
    assert forests(grid("H F H .\n. . . .\n. . . .")) == 2


def test_campfires_examples_two_two_one_then_two(grid):
    area = grid("""
        C F C .
        F . W .
        . . C .
    """)
    assert campfires(area) == 5
    assert campfires(grid("F C F .\n. . . .\n. . . .")) == 2


MOST_CASES = {
    "most_pools": ("P . . .\nP . . .\n. . . .", "P . . .\n. . . .\n. . . ."),
    "most_roads": ("R R . .\n. . . .\n. . . .", "R . . .\n. . . .\n. . . ."),
    "most_tents": ("T T T .\n. . . .\n. . . .", "T T . .\n. . . .\n. . . ."),
    "most_forests": ("F . . .\nF . . .\n. . . .", "F . . .\n. . . .\n. . . ."),
    "most_campfires": ("C C . .\n. . . .\n. . . .", "C . . .\n. . . .\n. . . ."),
    # Three forests, but on three rows, lose to two on one row.
    "most_forests_in_a_row": ("F F . .\n. . . .\n. . . .", "F . . .\nF . . .\nF . . ."),
    "most_tents_in_a_row": ("T T . .\n. . . .\n. . . .", "T . . .\nY . . .\nT . . ."),
    "most_umbrellas": ("U Y . .\n. . . .\n. . . .", "U P P .\n. . . .\n. . . ."),
    "most_umbrellas_in_a_row": ("U Y . .\n. . . .\n. . . .", "U . . .\nY . . .\nU . . ."),
    "most_houses_on_corners": ("H . . H\n. . . .\n. . . .", "H H H .\n. . . .\n. . . T"),
    "most_pools_on_corners": ("P . . .\n. . . .\n. . . P", "P P . .\nP . . .\n. . . T"),
}


def test_the_corners_are_those_of_the_area_however_far_it_grew(grid):
    corner = MISSION_BY_KEY["most_houses_on_corners"]
    # A 2 × 2 area's four cards are its four corners, wherever it lies in the frame.
    small = grid(". . . .\n. H H .\n. H H .")
    assert mission_points(corner, [small, grid(EMPTY)]) == [corner.points, 0]
    assert MOST["most_houses_on_corners"](small) == 4


@pytest.mark.parametrize("key", sorted(MOST_CASES))
def test_most_missions_score_for_the_leader_and_nobody_on_a_tie(grid, key):
    mission = MISSION_BY_KEY[key]
    better, worse = (grid(t) for t in MOST_CASES[key])
    assert mission_points(mission, [better, worse]) == [mission.points, 0]
    assert mission_points(mission, [worse, better]) == [0, mission.points]
    assert mission_points(mission, [better, better]) == [0, 0]
    assert mission_points(mission, [grid(EMPTY), grid(EMPTY)]) == [0, 0]


AT_LEAST_CASES = {
    # An L of three forests counts; three forests not all touching do not.
    "three_forests_together": ("F F . .\n. F . .\n. . . .", "F F . F\n. . . .\n. . . ."),
    "two_houses_together": ("H . . .\nH . . .\n. . . .", "H . H .\n. H . .\n. . . ."),
}


@pytest.mark.parametrize("key", sorted(AT_LEAST_CASES))
def test_at_least_missions_score_for_each_player_who_meets_them(grid, key):
    mission = MISSION_BY_KEY[key]
    meets, misses = (grid(t) for t in AT_LEAST_CASES[key])
    assert mission_points(mission, [meets, misses]) == [mission.points, 0]
    assert mission_points(mission, [meets, meets]) == [mission.points, mission.points]
    assert mission_points(mission, [misses, misses]) == [0, 0]


def test_all_thirteen_missions_are_covered():
    assert len(MOST_CASES) + len(AT_LEAST_CASES) == 13


def test_mission_examples_f_to_i(grid):
    # F most tents (2), G most forests on a row (2), H most campfires (3),
    # I most umbrellas on a row (3): the first player leads in all four.
    first = grid("""
        T T Y .
        F F C C
        U U . .
    """)
    second = grid("""
        T F . .
        C F . .
        U P T .
    """)
    missions = [
        MISSION_BY_KEY[k]
        for k in (
            "most_tents",
            "most_forests_in_a_row",
            "most_campfires",
            "most_umbrellas_in_a_row",
        )
    ]
    parts = breakdown([first, second], missions)
    assert parts[0]["missions"] == {
        "most_tents": 2,
        "most_forests_in_a_row": 2,
        "most_campfires": 3,
        "most_umbrellas_in_a_row": 3,
    }
    assert parts[1]["missions"] == dict.fromkeys(parts[0]["missions"], 0)


def test_breakdown_adds_terrain_and_missions(grid):
    area = grid("""
        R R H F
        P P T C
        . . . .
    """)
    mission = MISSION_BY_KEY["most_pools"]
    parts = breakdown([area, grid(EMPTY)], [mission])
    assert parts[0] == {
        "roads": 2,
        "pools": 3,
        "forests": 1,
        "tents": 1,
        "campfires": 1,
        "missions": {"most_pools": 2},
        "total": 10,
    }
    assert parts[1]["total"] == 0
