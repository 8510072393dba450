"""The rulebook's worked examples."""

from engine.pinetop.cards import PATCHES, PATCHES_OF, SUPPLY
from engine.pinetop.mastery import claimable
from engine.pinetop.costs import hand_limit
from engine.pinetop.patches import meets

from .conftest import BLUE, GREEN, RED, YELLOW, arrange, do, labels, legal


def test_red_moves_from_blue_jug_lodge_onto_penelopes_landing_and_earns_trailblazer():
    s = arrange(
        players=3,
        grid={0: "Blue Jug Lodge", 1: "Penelope's Landing"},
        campers={0: [RED], 1: [YELLOW, BLUE]},
        hands={RED: ["wood", "water", "food", "rope"], BLUE: [], YELLOW: []},
    )
    wood, water, food, rope = s.hands[RED]
    move = {"type": "move", "start": 0, "to": 1, "patch": True, "tower": False}
    assert move in legal(s)
    assert (
        "Move Blue Jug Lodge → Penelope's Landing: gain Trailblazer, pay wood, water; "
        "2 gifts to Blue, Yellow"
    ) in labels(s)
    s = do(s, move)
    # First a card to each of the two players there; never one the cost still needs.
    assert s.phase == "gift"
    assert {m["card"] for m in legal(s)} == {food, rope}
    s = do(s, {"type": "give", "card": food, "to": YELLOW})
    assert legal(s) == [{"type": "give", "card": rope, "to": BLUE}]
    s = do(s, {"type": "give", "card": rope, "to": BLUE})
    assert food in s.hands[YELLOW] and rope in s.hands[BLUE]
    # Then the cost at the bottom of the card.
    assert s.phase == "pay"
    s = do(s, {"type": "pay", "card": wood})
    s = do(s, {"type": "pay", "card": water})
    assert s.hands[RED] == [] and s.discard[-2:] == [wood, water]
    assert s.patches[RED] == {"trailblazer": False}
    assert s.campers[1] == [YELLOW, BLUE, RED] and s.campers[0] == []
    assert "Red gains Trailblazer." in [e.text for e in s.log]
    # "The player now has the power listed on the 'Trailblazer' patch for the rest of the
    # game": a free move now, after the action, and one on every turn to come.
    assert s.phase == "after" and {"type": "step", "start": 1, "to": 0} in legal(s)
    s = do(s, {"type": "done"})
    assert s.active == BLUE
    s = do(do(s, {"type": "draw_deck"}, BLUE), {"type": "stop"}, BLUE)
    s = do(do(s, {"type": "draw_deck"}, YELLOW), {"type": "stop"}, YELLOW)
    assert s.active == RED and {"type": "step", "start": 1, "to": 0} in legal(s)


def test_blue_places_a_second_camper_with_two_green_tents_or_a_wild():
    for pair in (["wood/green", "food/green"], ["wood/green", "wild"]):
        s = arrange(
            players=2,
            grid={4: "Blue Jug Lodge"},
            campers={0: [BLUE], 2: [RED]},
            hands={BLUE: [*pair, "rope/grey"]},
            active=BLUE,
        )
        assert {"type": "place", "to": 4} in legal(s)
        s = do(s, {"type": "place", "to": 4})
        assert s.phase == "pay" and s.pending.cost == ("tent:green", "tent:green")
        for card in list(s.hands[BLUE][:2]):
            s = do(s, {"type": "pay", "card": card})
        assert s.campers[4] == [BLUE] and s.campers_left[BLUE] == 2
        assert [SUPPLY[c].tent for c in s.hands[BLUE]] == ["grey"]


def test_green_rises_from_possum_to_skunk_and_keeps_seven_cards():
    s = arrange(
        players=4,
        grid={0: "Penelope's Landing", 1: "Fern Hollow"},
        campers={0: [GREEN]},
        patches={GREEN: {"forager": False}},
        active=GREEN,
        hands={
            GREEN: [
                "wood",
                "food",
                "wood",
                "wood",
                "wood",
                "water",
                "water",
                "water",
                "rope",
                "rope",
            ]
        },
    )
    assert hand_limit(s, GREEN) == 8
    # Fern Hollow's west edge: Buddy System; it costs wood and food.
    s = do(s, {"type": "move", "start": 0, "to": 1, "patch": True, "tower": False})
    for card in s.hands[GREEN][:2]:
        s = do(s, {"type": "pay", "card": card})
    assert s.rank[GREEN] == 1 and "Green rises to Skunk." in [e.text for e in s.log]
    assert hand_limit(s, GREEN) == 7
    s = do(s, {"type": "skip"})  # Buddy System's placement
    assert s.phase == "discard" and len(s.hands[GREEN]) == 8
    s = do(s, legal(s)[0])
    assert len(s.hands[GREEN]) == 7 and s.active == 0 and s.phase == "action"


def test_master_of_the_basics():
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
    # Buddy System's placement and the claim come due together: the player chooses.
    assert s.phase == "power" and {"type": "claim", "mastery": "basics", "spot": 0} in legal(s)
    s = do(s, {"type": "skip"})
    # Three green patches: a disc on Master of the Basics earns Trailblazer, a new patch,
    # so basic.
    assert s.phase == "mastery"
    assert {"type": "claim", "mastery": "basics", "spot": 0} in legal(s)
    assert "Claim Trailblazer on Master of the Basics" in labels(s)
    s = do(s, {"type": "claim", "mastery": "basics", "spot": 0})
    assert s.claims[0] == [BLUE, None, None, None]
    assert s.patches[BLUE]["trailblazer"] is False
    assert [PATCHES[k].colour for k in s.patches[BLUE]] == ["green"] * 4
    # Trailblazer's ongoing power: a free move now; the other three spots stay open.
    assert s.phase == "after" and any(m["type"] == "step" for m in legal(s))
    s = do(s, {"type": "done"})
    assert claimable(s, BLUE) == [] and len(claimable(s, RED)) == 0
    s.patches[RED] = {"forager": False, "campfire": False, "buddy_system": False}
    assert claimable(s, RED) == [("basics", 1), ("basics", 2), ("basics", 3)]


def test_you_could_win_with_four_green_four_blue_four_grey_and_three_advanced():
    # "You need to match or exceed the requirements ... you could win with 4 green, 4 blue,
    # 4 Grey, and 3 advanced even though that would be over the requirement."
    s = arrange()
    held = {k: False for colour in ("green", "blue", "grey") for k in PATCHES_OF[colour]}
    assert len(held) == 12
    held.update(forager=True, pack_mule=True, woodsman=True)
    s.patches[RED] = held
    counts = {c: sum(PATCHES[k].colour == c for k in held) for c in ("green", "blue", "grey")}
    assert counts == {"green": 4, "blue": 4, "grey": 4}
    assert meets(s, RED, 4)
