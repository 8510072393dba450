"""Every patch power, basic and advanced."""

from engine.pinetop.board import neighbours
from engine.pinetop.cards import MAP_CARDS, SUPPLY
from engine.pinetop.costs import hand_limit, patch_cost, tent_cost
from engine.pinetop.rules import card_name

from .conftest import BLUE, RED, YELLOW, arrange, do, labels, legal, set_face_up

# Penelope's Landing at the centre (4) of the 3 × 4 map: the edge crossed from each side.
FROM = {"forager": 1, "campfire": 5, "buddy_system": 7, "trailblazer": 3}
DECK = {"type": "draw_deck"}


def move(start, to, patch=False, tower=False):
    return {"type": "move", "start": start, "to": to, "patch": patch, "tower": tower}


def earn(patch, advanced=False, extra=(), **kw):
    """Red moves onto Penelope's Landing across ``patch`` and pays; its power is next."""
    start = FROM[patch]
    kw.setdefault("campers", {start: [RED]})
    s = arrange(
        grid={4: "Penelope's Landing"},
        hands={RED: ["wood", "water", *extra]},
        patches={RED: {patch: False}} if advanced else None,
        **kw,
    )
    s = do(s, move(start, 4, patch=True))
    wood, water = s.hands[RED][:2]
    return do(do(s, {"type": "pay", "card": wood}), {"type": "pay", "card": water})


def test_trailblazer_basic_one_free_move_a_turn_even_onto_others():
    s = earn("trailblazer", campers={3: [RED], 5: [BLUE]})
    blue_hand = list(s.hands[BLUE])
    assert s.phase == "after"  # after the action; next turn before it too
    assert {"type": "step", "start": 4, "to": 5} in legal(s)
    assert "Trailblazer: move Penelope's Landing → " + card_name(s, 5) + " for free" in labels(s)
    s = do(s, {"type": "step", "start": 4, "to": 5})
    assert s.campers[5] == [BLUE, RED] and s.hands[BLUE] == blue_hand
    assert s.active == BLUE  # one step a turn, no gifts


def test_trailblazer_moves_before_the_action_and_advanced_twice():
    s = arrange(campers={4: [RED]}, patches={RED: {"trailblazer": True}})
    s = do(s, {"type": "step", "start": 4, "to": 5})
    assert s.phase == "action" and s.steps == 1
    s = do(s, DECK)
    s = do(s, {"type": "step", "start": 5, "to": 8})  # between the two draws
    assert s.phase == "draw" and not any(m["type"] == "step" for m in legal(s))
    s = do(s, DECK)
    assert s.campers[8] == [RED] and s.active == BLUE


def test_forager_draws_two_or_three():
    s = earn("forager")
    assert len(s.hands[RED]) == 2 and s.active == BLUE
    s = earn("forager", advanced=True)
    assert len(s.hands[RED]) == 3


def test_campfire_takes_face_up_cards_a_wild_too():
    s = arrange(grid={4: "Penelope's Landing"})
    s = earn("campfire")
    set_face_up(s, "wild", "water", "food", "rope")
    wild = s.face_up[0]
    assert s.phase == "power" and {"type": "take", "slot": 0} in legal(s)
    s = do(s, {"type": "take", "slot": 0})
    assert s.hands[RED] == [wild] and s.active == BLUE
    s = earn("campfire", advanced=True)
    s = do(s, {"type": "take", "slot": 1})
    s = do(s, {"type": "take", "slot": 2})
    assert len(s.hands[RED]) == 2


def test_buddy_system_places_a_camper_next_to_yours_or_anywhere():
    s = earn("buddy_system")
    spots = {m["to"] for m in legal(s) if m["type"] == "place"}
    assert spots == set(neighbours(3, 4, 4)) == {1, 3, 5, 7}
    s = do(s, {"type": "place", "to": 1})
    assert s.campers[1] == [RED] and s.campers_left[RED] == 2 and s.active == BLUE
    s = earn("buddy_system", advanced=True)
    assert {m["to"] for m in legal(s) if m["type"] == "place"} == set(range(12))


def test_a_camper_placed_by_buddy_system_on_an_occupied_card_gives_the_gifts():
    s = earn("buddy_system", campers={7: [RED], 3: [BLUE]}, extra=("food",))
    s = do(s, {"type": "place", "to": 3})
    assert s.phase == "gift" and legal(s) == [{"type": "give", "card": s.hands[RED][0], "to": BLUE}]
    s = do(s, legal(s)[0])
    assert s.campers[3] == [BLUE, RED] and s.hands[RED] == [] and s.active == BLUE
    # Without a card to give, that card is not offered.
    s = earn("buddy_system", campers={7: [RED], 3: [BLUE]})
    assert {"type": "place", "to": 3} not in legal(s)


def test_pack_mule_raises_the_hand_limit():
    s = arrange()
    assert hand_limit(s, RED) == 8
    s.patches[RED] = {"pack_mule": False}
    assert hand_limit(s, RED) == 9
    s.patches[RED] = {"pack_mule": True}
    assert hand_limit(s, RED) == 10


def test_good_neighbor_one_gift_in_all_or_none():
    base = dict(
        players=3,
        grid={1: "Penelope's Landing"},
        campers={0: [RED], 1: [BLUE, YELLOW]},
        hands={RED: ["wood", "water", "food", "rope"]},
    )
    s = arrange(**base, patches={RED: {"good_neighbor": False}})
    s = do(s, move(0, 1, patch=True))
    assert s.pending.gifts == 1 and {m["to"] for m in legal(s)} == {BLUE, YELLOW}
    s = do(s, {"type": "give", "card": s.hands[RED][2], "to": YELLOW})
    assert s.phase == "pay"
    s = arrange(**base, patches={RED: {"good_neighbor": True}})
    s = do(s, move(0, 1, patch=True))
    assert s.phase == "pay" and s.pending.gifts == 0


def test_shelter_builder_cheaper_placements():
    s = arrange(
        grid={4: "Blue Jug Lodge"},
        campers={0: [RED]},
        hands={RED: ["wood/green", "food/blue"]},
        patches={RED: {"shelter_builder": False}},
    )
    assert tent_cost(s, RED, 4) == ("tent:green", "any")
    assert {"type": "place", "to": 4} in legal(s)
    s.patches[RED] = {"shelter_builder": True}
    assert tent_cost(s, RED, 4) == ("tent:green",)
    s = do(s, {"type": "place", "to": 4})
    s = do(s, {"type": "pay", "card": s.hands[RED][0]})
    assert s.campers[4] == [RED] and len(s.hands[RED]) == 1


def test_supply_runner_draws_more_after_draw_two_only():
    for advanced, extra in ((False, 1), (True, 2)):
        s = arrange(hands={RED: []}, campers={4: [RED]}, patches={RED: {"supply_runner": advanced}})
        s = do(do(s, DECK), DECK)
        assert len(s.hands[RED]) == 2 + extra
    s = arrange(hands={RED: []}, campers={4: [RED]}, patches={RED: {"supply_runner": True}})
    s = do(do(s, DECK), move(4, 5))
    assert len(s.hands[RED]) == 1
    s = arrange(hands={RED: []}, campers={4: [RED]}, patches={RED: {"supply_runner": True}})
    s = do(do(s, move(4, 5)), DECK)
    assert len(s.hands[RED]) == 1 and s.active == BLUE


def test_grey_basic_any_card_counts_as_its_supply():
    s = arrange(grid={1: "Penelope's Landing"}, campers={0: [RED]}, hands={RED: ["food", "water"]})
    assert move(0, 1, patch=True) not in legal(s)  # wood, water
    s.patches[RED] = {"woodsman": False}
    assert move(0, 1, patch=True) in legal(s)
    s = do(s, move(0, 1, patch=True))
    food, water = s.hands[RED]
    s = do(do(s, {"type": "pay", "card": food}), {"type": "pay", "card": water})
    assert s.patches[RED]["trailblazer"] is False


def test_grey_advanced_pays_one_of_its_supply_less():
    s = arrange(
        grid={1: "Firefly Field"},
        campers={0: [RED]},
        hands={RED: ["wood"]},
        patches={RED: {"woodsman": True}},
    )
    assert patch_cost(s, RED, 1) == ("wood",)
    for key, suit in (("water_bearer", "water"), ("camp_cook", "food"), ("knot_tyer", "rope")):
        s.patches[RED] = {key: True}
        cost = list(patch_cost(s, RED, 2))
        full = list(MAP_CARDS[s.grid[2]].cost)
        if suit in full:
            full.remove(suit)
        assert cost == full


def test_double_cards_meet_two_supplies():
    s = arrange(
        options={"tower": True},
        grid={1: "Penelope's Landing"},
        campers={0: [RED]},
        hands={RED: ["wood+water"]},
    )
    assert move(0, 1, patch=True) in legal(s)
    s = do(s, move(0, 1, patch=True))
    s = do(s, {"type": "pay", "card": s.hands[RED][0]})
    assert s.patches[RED] == {"trailblazer": False} and SUPPLY[s.discard[-1]].double


def test_no_second_gift_to_the_same_player_in_a_turn():
    # "No more than one card per player should be given in this manner in a single turn":
    # Red moves onto Blue's card (a gift to Blue) for Buddy System, whose camper then joins
    # Blue and Yellow on the next card: Yellow is due a gift, Blue not a second one.
    s = arrange(
        players=3,
        grid={4: "Penelope's Landing"},
        campers={7: [RED], 4: [BLUE], 3: [BLUE, YELLOW]},
        hands={RED: ["wood", "water", "food", "rope", "wood"]},
    )
    blue = len(s.hands[BLUE])
    s = do(s, move(7, 4, patch=True))
    assert s.pending.owed == (BLUE,)
    s = do(s, {"type": "give", "card": s.hands[RED][2], "to": BLUE})
    for _ in range(2):
        s = do(s, {"type": "pay", "card": s.hands[RED][0]})
    assert s.power.patch == "buddy_system"
    s = do(s, {"type": "place", "to": 3})
    assert s.phase == "gift" and {m["to"] for m in legal(s)} == {YELLOW}
    s = do(s, legal(s)[0])
    assert s.campers[3] == [BLUE, YELLOW, RED] and len(s.hands[BLUE]) == blue + 1
