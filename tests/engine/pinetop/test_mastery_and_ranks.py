"""Every mastery card's condition, claims first come first served, and every rank step."""

import pytest

from engine.pinetop import GAME
from engine.pinetop.cards import MAP_CARDS
from engine.pinetop.mastery import CONDITIONS, claimable
from engine.pinetop.patches import meets

from .conftest import BLUE, RED, YELLOW, arrange, do, legal

G3 = {"buddy_system": False, "forager": False, "campfire": False}
B4 = {"pack_mule": False, "good_neighbor": False, "shelter_builder": False, "supply_runner": False}
Y3 = {"woodsman": False, "water_bearer": False, "camp_cook": False}


def colour_spots(s, colour, n):
    return [p for p, c in enumerate(s.grid) if MAP_CARDS[c].colour == colour][:n]


# key: (what makes it true, what falls just short); each a function of a fresh 3-player table
# returning campers, patches and rank for Red.
CASES = {
    "basics": (
        {"patches": G3},
        {"patches": {"trailblazer": False, "forager": True, "pack_mule": True}},
    ),
    "bushwhacker": (
        {"campers": {0: [RED], 2: [RED], 11: [RED]}},
        {"campers": {0: [RED], 4: [RED], 11: [RED]}},
    ),
    "camping_cooperation": (
        {"campers": {4: [RED, RED, BLUE]}},
        {"campers": {4: [RED, RED, BLUE, YELLOW]}},
    ),
    "cookie_seller": (
        {"campers": {4: [RED, BLUE], 6: [YELLOW, RED]}},
        {"campers": {4: [RED, BLUE], 6: [RED]}},
    ),
    "frontier": (
        {"campers": {0: [RED], 2: [RED], 9: [RED], 11: [RED]}},
        {"campers": {0: [RED], 2: [RED], 9: [RED], 10: [RED]}},
    ),
    "ghost_story": (
        {"campers": {4: [RED, RED, RED, RED]}},
        {"campers": {4: [RED, RED, RED, BLUE, YELLOW]}},
    ),
    "guiding": ("blue", 3),
    "intermediate": ({"patches": B4}, {"patches": dict(list(B4.items())[:3])}),
    "lone_wolf": ({"campers": {4: [RED]}, "rank": 2}, {"campers": {4: [RED], 5: [RED]}, "rank": 2}),
    "mentoring": ("grey", 3),
    "parade": (
        {"campers": {1: [RED], 4: [RED], 10: [RED]}},
        {"campers": {1: [RED], 4: [RED], 5: [RED]}},
    ),
    "pathfinding": ("green", 3),
    "regroup": ({"campers": {4: [RED, RED, RED]}}, {"campers": {4: [RED, RED], 5: [RED]}}),
    "smore_festival": (
        {"campers": {4: [RED, RED, BLUE, YELLOW]}},
        {"campers": {4: [RED, RED, BLUE]}},
    ),
    "skill_diversity": (
        {"patches": {"forager": False, "pack_mule": False, "woodsman": False}},
        {"patches": {"forager": False, "pack_mule": False}},
    ),
    "specialist": (
        {"patches": {"forager": True, "pack_mule": True, "woodsman": True}},
        {"patches": {"forager": True, "pack_mule": True, "woodsman": False}},
    ),
    "strength_in_numbers": (
        {"campers": {0: [RED], 4: [RED], 5: [RED]}},
        {"campers": {0: [RED], 4: [RED], 5: [RED]}, "rank": 1},
    ),
    "survivalist": ({"campers": {4: [RED]}, "rank": 3}, {"campers": {4: [RED]}, "rank": 2}),
    "technical": ({"patches": Y3}, {"patches": dict(list(Y3.items())[:2])}),
}


def table(case):
    s = arrange(players=3, campers=case.get("campers", {}), patches={RED: case.get("patches", {})})
    s.rank[RED] = case.get("rank", 0)
    return s


@pytest.mark.parametrize("key", sorted(CASES))
def test_each_mastery_condition(key):
    case = CASES[key]
    if isinstance(case[0], str):  # campers on n different cards of a colour
        colour, n = case
        s = arrange(players=3)
        spots = colour_spots(s, colour, n)
        for p in spots:
            s.campers[p] = [RED]
        assert CONDITIONS[key](s, RED)
        s.campers[spots[0]] = [BLUE]
        assert not CONDITIONS[key](s, RED)
        return
    yes, no = case
    assert CONDITIONS[key](table(yes), RED)
    assert not CONDITIONS[key](table(no), RED)


def test_cards_with_the_same_words_count_the_same_campers():
    # "Have 3 campers on a single map card" (Regroup) and "Have at least 4 campers on a single
    # map card" (Ghost Story Night): both count the player's own campers.
    assert not CONDITIONS["ghost_story"](table({"campers": {4: [RED, BLUE, BLUE, YELLOW]}}), RED)
    assert not CONDITIONS["regroup"](table({"campers": {4: [RED, BLUE, YELLOW]}}), RED)
    assert CONDITIONS["ghost_story"](table({"campers": {4: [RED] * 4 + [BLUE]}}), RED)


def test_specialist_is_three_advanced_patches_whatever_else_is_held():
    # "Specialist - Have 3 skill patches, all advanced (no basic)", read as Bushwhacker's
    # "Have 3 campers on edge map cards" is: three of them, each advanced; a fourth patch,
    # basic, does not undo it.
    held = {"forager": True, "pack_mule": True, "woodsman": True, "campfire": False}
    assert CONDITIONS["specialist"](table({"patches": held}), RED)
    assert CONDITIONS["bushwhacker"](
        table({"campers": {0: [RED], 2: [RED], 11: [RED], 4: [RED]}}), RED
    )
    assert not CONDITIONS["specialist"](table({"patches": {**held, "woodsman": False}}), RED)


def test_all_nineteen_cards_have_a_condition():
    assert len(CASES) == len(CONDITIONS) == 19


def test_first_come_first_served_once_per_player_and_chained():
    s = arrange(players=3, campers={4: [RED, RED, RED]}, patches={RED: {}})
    s.masteries = ["regroup", "basics", "specialist", "technical"]
    s.claims[0] = [BLUE, None, None, None]  # Buddy System is taken
    assert claimable(s, RED) == [("regroup", 1), ("regroup", 2), ("regroup", 3)]
    s = do(s, {"type": "draw_deck"})
    assert s.phase == "mastery"
    # Regroup's Shelter Builder, a patch Red never held, comes in new (basic) ...
    s = do(s, {"type": "claim", "mastery": "regroup", "spot": 1})
    assert s.patches[RED] == {"shelter_builder": False} and s.claims[0][1] == RED
    assert all(m["type"] != "claim" or m["mastery"] != "regroup" for m in legal(s))
    assert s.phase == "draw"


def test_a_claimed_patch_already_held_turns_advanced():
    s = arrange(players=3, campers={4: [RED, RED, RED]}, patches={RED: {"camp_cook": False}})
    s.masteries[0] = "regroup"
    s = do(s, {"type": "draw_deck"})
    s = do(s, {"type": "claim", "mastery": "regroup", "spot": 2})
    assert s.patches[RED] == {"camp_cook": True}
    assert "Red's Camp Cook turns advanced." in [e.text for e in s.log]


def test_a_chain_of_mastery_cards_in_one_turn():
    s = arrange(
        players=3,
        campers={4: [RED, RED, RED]},
        patches={RED: {"forager": True, "woodsman": True, "shelter_builder": False}},
    )
    s.masteries = ["regroup", "specialist", "technical", "basics"]
    s = do(s, {"type": "draw_deck"})
    s = do(s, {"type": "claim", "mastery": "regroup", "spot": 1})
    # Three advanced patches now: Specialist follows at once.
    assert s.phase == "mastery" and ("specialist", 0) in claimable(s, RED)
    s = do(s, {"type": "claim", "mastery": "specialist", "spot": 0})
    assert s.patches[RED]["pack_mule"] is False


def test_a_card_completed_by_another_players_move_is_claimed_before_you_act():
    # Yellow's camper joins Red's: Red now shares two cards (Cookie Seller).
    s = arrange(
        players=3,
        campers={4: [RED], 6: [RED, BLUE], 5: [YELLOW]},
        active=YELLOW,
        hands={YELLOW: ["wood", "water"], RED: ["food"]},
    )
    s.masteries[0] = "cookie_seller"
    s = do(s, {"type": "draw_deck"})
    s = do(s, {"type": "move", "start": 5, "to": 4, "patch": False, "tower": False})
    s = do(s, legal(s)[0])  # Yellow's gift to Red
    assert s.active == RED and s.phase == "mastery"
    assert {"type": "claim", "mastery": "cookie_seller", "spot": 0} in legal(s)
    s = do(s, {"type": "claim", "mastery": "cookie_seller", "spot": 0})
    assert s.patches[RED] == {"supply_runner": False} and s.phase == "action"


def test_a_claim_made_before_a_green_power_leaves_the_power_waiting():
    s = arrange(
        players=2,
        grid={0: "Penelope's Landing", 1: "Fern Hollow"},
        campers={0: [BLUE]},
        active=BLUE,
        hands={BLUE: ["wood", "food"]},
        patches={BLUE: {"forager": False, "campfire": False}},
    )
    s.masteries[0] = "basics"
    s = do(s, {"type": "move", "start": 0, "to": 1, "patch": True, "tower": False})
    for card in list(s.hands[BLUE]):
        s = do(s, {"type": "pay", "card": card})
    assert s.phase == "power" and s.power.patch == "buddy_system"
    s = do(s, {"type": "claim", "mastery": "basics", "spot": 2})
    # Campfire, held, turns advanced: its two face-up cards come first now; Buddy System's
    # placement waits its turn.
    assert s.power.patch == "campfire" and s.power.left == 2
    assert [w.patch for w in s.waiting] == ["buddy_system"]
    s = do(s, {"type": "skip"})
    assert s.phase == "power" and s.power.patch == "buddy_system" and s.waiting == []
    s = do(s, {"type": "skip"})
    assert s.power is None and s.phase in ("discard", "action")


RANK_STEPS = [
    (1, {"forager": False, "campfire": False}, {"forager": False, "pack_mule": False}),
    (
        2,
        {"forager": True, "campfire": False, "pack_mule": False},
        {"forager": False, "campfire": False, "pack_mule": False},
    ),
    (
        3,
        {
            "forager": True,
            "campfire": True,
            "buddy_system": False,
            "pack_mule": False,
            "good_neighbor": False,
        },
        {
            "forager": True,
            "campfire": False,
            "buddy_system": False,
            "pack_mule": False,
            "good_neighbor": False,
        },
    ),
    (
        4,
        {
            "woodsman": True,
            "water_bearer": True,
            "camp_cook": True,
            "forager": False,
            "campfire": False,
            "pack_mule": False,
            "good_neighbor": False,
        },
        {
            "woodsman": True,
            "water_bearer": True,
            "camp_cook": True,
            "forager": False,
            "pack_mule": False,
            "good_neighbor": False,
            "supply_runner": False,
        },
    ),
]


@pytest.mark.parametrize("rank,enough,short", RANK_STEPS)
def test_each_rank_step(rank, enough, short):
    s = arrange()
    s.patches[RED] = enough
    assert meets(s, RED, rank)
    s.patches[RED] = short
    assert not meets(s, RED, rank)


def test_reaching_badger_ends_the_game_at_once():
    s = arrange(
        grid={1: "Penelope's Landing"},
        campers={0: [RED]},
        hands={RED: ["wood", "water"]},
        patches={
            RED: {
                "knot_tyer": True,
                "camp_cook": True,
                "woodsman": False,
                "forager": True,
                "pack_mule": False,
                "good_neighbor": False,
            }
        },
    )
    s.rank[RED] = 3
    s = do(s, {"type": "move", "start": 0, "to": 1, "patch": True, "tower": False})
    wood, water = s.hands[RED]
    s = do(do(s, {"type": "pay", "card": wood}), {"type": "pay", "card": water})
    # Trailblazer, a second green patch: Badger, and the game is over at once.
    assert s.rank[RED] == 4 and s.winner == RED and s.phase == "over"
    assert GAME.legal_moves(s, RED) == []


def test_a_card_completed_and_broken_within_another_players_turn_is_not_claimed():
    # "During a player's turn, if the requirements on the mastery card(s) are satisfied, the
    # player immediately places a mastery disc": the player whose turn it is. Blue's camper
    # joins Red's two (Camping Cooperation for Red), then Blue's free Trailblazer move takes it
    # away again in the same turn: the card was never complete during a turn of Red's.
    def blue_joins(step_away):
        s = arrange(
            campers={4: [RED, RED], 5: [BLUE]},
            active=BLUE,
            hands={BLUE: ["wood"]},
            patches={BLUE: {"trailblazer": False}},
        )
        s.masteries[0] = "camping_cooperation"
        s = do(s, {"type": "draw_deck"})
        s = do(s, {"type": "move", "start": 5, "to": 4, "patch": False, "tower": False})
        s = do(s, legal(s)[0])  # Blue's gift to Red
        assert CONDITIONS["camping_cooperation"](s, RED) and s.phase == "after"
        if step_away:
            s = do(s, {"type": "step", "start": 4, "to": 5})
        else:
            s = do(s, {"type": "done"})
        while s.active == BLUE:
            s = do(s, legal(s)[0])
        return s

    s = blue_joins(step_away=True)
    assert s.active == RED and s.phase == "action" and claimable(s, RED) == []
    s = blue_joins(step_away=False)  # still complete as Red's turn begins: claimed first
    assert s.active == RED and s.phase == "mastery"
