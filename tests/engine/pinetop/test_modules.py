"""The modules: Friendship tokens, the Nature expansion, the Observation Tower."""

from engine.pinetop import GAME
from engine.pinetop.cards import (
    BEAR,
    BEAVER,
    CONDITIONS,
    EAGLE,
    ELK,
    MAP_CARDS,
    OTTER,
    RAIN,
    SUNNY,
    SUPPLY,
    TROUT,
    WIND,
)
from engine.pinetop.costs import hand_limit, patch_cost, tent_cost
from engine.pinetop.state import Nature
from engine.pinetop.view import view

from .conftest import BLUE, RED, arrange, do, labels, legal

DECK = {"type": "draw_deck"}


def move(start, to, patch=False, tower=False):
    return {"type": "move", "start": start, "to": to, "patch": patch, "tower": tower}


# ---------------------------------------------------------------- Friendship tokens


def test_a_friendship_token_is_earned_once_by_moving_onto_another_player():
    s = arrange(options={"friendship": True}, campers={4: [RED], 5: [BLUE]}, hands={RED: ["wood"]})
    assert view(s, RED)["seats"][RED]["friendship"] == "none"
    s = do(do(s, DECK), move(4, 5))
    said = [e.text for e in s.log]
    s = do(s, {"type": "give", "card": s.hands[RED][0], "to": BLUE})
    assert s.friendship == ["held", "none"]
    assert "Red earns a Friendship token." in said + [e.text for e in s.log]


def test_no_token_without_the_module():
    s = arrange(campers={4: [RED], 5: [BLUE]}, hands={RED: ["wood"]})
    s = do(do(s, DECK), move(4, 5))
    assert s.friendship == ["none", "none"] and view(s, RED)["seats"][RED]["friendship"] is None


def test_friendship_uses_a_green_power_once():
    s = arrange(options={"friendship": True}, hands={RED: []}, patches={BLUE: {"forager": True}})
    s.friendship[RED] = "held"
    use = {"type": "friendship", "owner": BLUE, "patch": "forager"}
    assert use in legal(s) and "Friendship: use Blue's Forager (advanced)" in labels(s)
    s = do(s, use)
    assert len(s.hands[RED]) == 3 and s.friendship[RED] == "used"
    assert all(m["type"] != "friendship" for m in legal(s)) and s.phase == "action"


def test_friendship_lends_an_ongoing_power_for_the_turn():
    s = arrange(options={"friendship": True}, hands={RED: []}, patches={BLUE: {"pack_mule": True}})
    s.friendship[RED] = "held"
    s = do(s, {"type": "friendship", "owner": BLUE, "patch": "pack_mule"})
    assert hand_limit(s, RED) == 10
    s = do(do(s, DECK), DECK)
    assert hand_limit(s, RED) == 8 and s.borrowed is None


def test_friendship_lends_trailblazer_for_the_turn_a_green_patch_whose_power_lasts():
    s = arrange(
        options={"friendship": True}, campers={4: [RED]}, patches={BLUE: {"trailblazer": False}}
    )
    s.friendship[RED] = "held"
    s = do(s, {"type": "friendship", "owner": BLUE, "patch": "trailblazer"})
    assert s.power is None and s.borrowed.patch == "trailblazer"
    assert {"type": "step", "start": 4, "to": 5} in legal(s)


def test_friendship_offers_any_other_players_patch_whatever_your_own():
    s = arrange(
        options={"friendship": True},
        patches={RED: {"forager": True}, BLUE: {"forager": True, "campfire": False}},
    )
    s.friendship[RED] = "held"
    assert [m for m in legal(s) if m["type"] == "friendship"] == [
        {"type": "friendship", "owner": BLUE, "patch": "forager"},
        {"type": "friendship", "owner": BLUE, "patch": "campfire"},
    ]


def test_a_token_is_spent_after_the_action_even_on_the_turn_it_was_earned():
    s = arrange(
        options={"friendship": True},
        campers={4: [RED], 5: [BLUE]},
        hands={RED: ["wood"]},
        patches={BLUE: {"forager": False}},
    )
    s = do(do(s, DECK), move(4, 5))
    s = do(s, {"type": "give", "card": s.hands[RED][0], "to": BLUE})
    use = {"type": "friendship", "owner": BLUE, "patch": "forager"}
    assert s.phase == "after" and use in legal(s) and {"type": "done"} in legal(s)
    s = do(s, use)
    assert len(s.hands[RED]) == 3 and s.friendship[RED] == "used" and s.active == BLUE


def test_a_token_earned_on_a_move_pays_for_that_move():
    # "After you have it, for a free action on your turn, you can spend that": the token
    # earned by moving onto Blue's card is Red's during that move's gifts and payment. Blue's
    # advanced Woodsman takes a wood off Penelope's Landing's cost (wood, water).
    s = arrange(
        options={"friendship": True},
        grid={4: "Penelope's Landing"},
        campers={3: [RED], 4: [BLUE]},
        hands={RED: ["wood", "water", "food"]},
        patches={BLUE: {"woodsman": True}},
    )
    wood, water, food = s.hands[RED]
    s = do(s, move(3, 4, patch=True))
    assert s.friendship[RED] == "held" and s.phase == "gift"
    use = {"type": "friendship", "owner": BLUE, "patch": "woodsman"}
    assert use in legal(s)
    s = do(s, {"type": "give", "card": food, "to": BLUE})
    assert s.phase == "pay" and use in legal(s)
    s = do(s, use)
    assert s.pending.cost == ("water",) and s.friendship[RED] == "used"
    s = do(s, {"type": "pay", "card": water})
    assert s.hands[RED] == [wood] and s.patches[RED] == {"trailblazer": False}


def test_a_token_spent_during_the_gifts_and_during_a_green_power():
    # Blue's advanced Good Neighbor, borrowed while the gift to Blue is due: no gift.
    s = arrange(
        options={"friendship": True},
        campers={4: [RED], 5: [BLUE]},
        hands={RED: ["wood"]},
        patches={BLUE: {"good_neighbor": True}},
    )
    s = do(s, move(4, 5))
    assert s.phase == "gift"
    s = do(s, {"type": "friendship", "owner": BLUE, "patch": "good_neighbor"})
    assert s.pending is None and len(s.hands[RED]) == 1 and s.phase == "draw"
    # Blue's Forager while Red's Buddy System waits for its placement.
    s = arrange(
        options={"friendship": True},
        grid={4: "Penelope's Landing"},
        campers={7: [RED]},
        hands={RED: ["wood", "water"]},
        patches={BLUE: {"forager": False}},
    )
    s.friendship[RED] = "held"
    s = do(s, move(7, 4, patch=True))
    for card in list(s.hands[RED]):
        s = do(s, {"type": "pay", "card": card})
    use = {"type": "friendship", "owner": BLUE, "patch": "forager"}
    assert s.phase == "power" and use in legal(s)
    s = do(s, use)
    assert len(s.hands[RED]) == 2 and s.phase == "power" and s.power.patch == "buddy_system"


def test_a_token_is_not_offered_where_it_would_leave_the_payment_short():
    # A wood already paid toward Penelope's Landing: Blue's advanced Woodsman would leave that
    # card paying for nothing, so it is not offered then.
    s = arrange(
        options={"friendship": True},
        grid={4: "Penelope's Landing"},
        campers={3: [RED]},
        hands={RED: ["wood", "water"]},
        patches={BLUE: {"woodsman": True, "forager": False}},
    )
    s.friendship[RED] = "held"
    s = do(s, move(3, 4, patch=True))
    s = do(s, {"type": "pay", "card": s.hands[RED][0]})
    uses = [m["patch"] for m in legal(s) if m["type"] == "friendship"]
    assert uses == ["forager"]


def test_a_trailblazer_move_and_the_towers_free_step_earn_the_token_too():
    s = arrange(
        options={"friendship": True},
        campers={4: [RED], 5: [BLUE]},
        patches={RED: {"trailblazer": False}},
    )
    s = do(s, {"type": "step", "start": 4, "to": 5})
    assert s.friendship[RED] == "held"
    s = arrange(
        options={"friendship": True, "tower": True}, campers={3: [RED], 4: [BLUE]}, hands={RED: []}
    )
    s.tower = 5
    s = do(do(s, DECK), move(3, 7, tower=True))  # through Blue's card toward the tower
    assert s.friendship[RED] == "held" and s.campers[4] == [BLUE]


# ---------------------------------------------------------------- Nature


def nature_table(**kw):
    return arrange(options={"nature": True}, **kw)


def test_nature_sets_out_weather_and_three_animals():
    s = GAME.setup(3, GAME.options({"nature": True}), 4)
    n = s.nature
    assert n.weather == CONDITIONS[n.forecast].weather and n.weather_pos == 0
    assert set(n.animals) >= {BEAR, EAGLE} and len(n.animals) == 3
    assert len(n.deck) == 11
    shown = view(s, None)["nature"]
    assert shown["weather_line"] == {"axis": "col", "index": 0}
    assert "deck" not in shown


def test_a_tower_card_shifts_nature_once_a_turn():
    s = nature_table()
    s.nature = Nature(weather=RAIN, animals={BEAR: 4, EAGLE: 4, ELK: 4}, forecast=0, deck=(2, 1))
    towers = [c for c in s.deck if SUPPLY[c].tower][:2]
    s.deck = [c for c in s.deck if c not in towers] + towers  # a tower on each top back
    s = do(s, DECK)
    old, new = CONDITIONS[0], CONDITIONS[1]
    n = s.nature
    assert n.forecast == 1 and n.discard == (0,) and n.shifts == 1
    assert n.weather == old.weather and n.weather_pos == new.weather_steps
    # Card 0 points the Bear up, the Eagle left 2 and the Elk right; card 1 gives the steps.
    assert old.animals[BEAR][0] == "U" and n.animals[BEAR] == 4 - 3 * new.animals[BEAR][1]
    assert n.animals[EAGLE] == 3 and n.animals[ELK] == 5
    s = do(s, DECK)
    assert s.nature.shifts == 1


def test_weather_moves_clockwise_round_the_map():
    s = nature_table()
    lines = []
    for ring in range(14):
        s.nature = s.nature.model_copy(update={"weather_pos": ring})
        lines.append(tuple(view(s, None)["nature"]["weather_line"].values()))
    assert lines[:3] == [("col", 0), ("col", 1), ("col", 2)]
    assert lines[3:7] == [("row", 0), ("row", 1), ("row", 2), ("row", 3)]
    assert lines[7:10] == [("col", 2), ("col", 1), ("col", 0)]
    assert lines[10:] == [("row", 3), ("row", 2), ("row", 1), ("row", 0)]


def weather(s, kind, ring):
    s.nature = s.nature.model_copy(
        update={"weather": kind, "weather_pos": ring, "animals": {BEAR: 11, EAGLE: 11}}
    )


def test_sunshine_draws_a_card_after_a_patch():
    s = nature_table(
        grid={1: "Penelope's Landing"}, campers={0: [RED]}, hands={RED: ["wood", "water"]}
    )
    weather(s, SUNNY, 1)  # above the middle column
    s = do(s, move(0, 1, patch=True))
    s = do(s, {"type": "pay", "card": s.hands[RED][0]})
    s = do(s, {"type": "pay", "card": s.hands[RED][0]})
    assert len(s.hands[RED]) == 1 and any("Sunshine" in e.text for e in s.log)


def test_rain_costs_one_more_card():
    s = nature_table(grid={1: "Penelope's Landing"})
    weather(s, RAIN, 1)
    assert patch_cost(s, RED, 1) == ("wood", "water", "any")
    assert patch_cost(s, RED, 3) == MAP_CARDS[s.grid[3]].cost  # not in the rain's column


def test_wind_stops_placements_in_its_line():
    s = nature_table(
        grid={1: "Blue Jug Lodge"}, campers={0: [RED]}, hands={RED: ["wood/green", "food/green"]}
    )
    weather(s, WIND, 3)  # beside the top row
    assert {"type": "place", "to": 1} not in legal(s)
    weather(s, WIND, 0)
    assert {"type": "place", "to": 1} in legal(s)


def animal(s, kind, pos):
    s.nature = s.nature.model_copy(
        update={"weather": SUNNY, "weather_pos": 3, "animals": {BEAR: 11, EAGLE: 10, kind: pos}}
    )


def test_the_bear_blocks_its_card():
    s = nature_table(campers={4: [RED]}, hands={RED: ["wild", "wild", "wild", "wild"]})
    animal(s, BEAR, 5)
    s = do(s, DECK)
    assert move(4, 5) not in legal(s) and move(4, 3) in legal(s)


def test_the_eagle_gives_a_card_to_who_moves_there():
    s = nature_table(campers={4: [RED]}, hands={RED: []})
    animal(s, EAGLE, 5)
    s = do(do(s, DECK), move(4, 5))
    assert len(s.hands[RED]) == 2


def test_the_elk_takes_the_last_supply_off():
    s = nature_table(grid={7: "Frog Pond"})
    animal(s, ELK, 7)
    assert patch_cost(s, RED, 7) == ("wood", "water")


def test_the_trout_feeds_who_ends_the_action_beside_it():
    s = nature_table(campers={4: [RED]}, hands={RED: []})
    animal(s, TROUT, 4)
    s = do(do(s, DECK), {"type": "stop"})
    assert len(s.hands[RED]) == 2


def test_the_beaver_builds_with_one_tent():
    s = nature_table(grid={7: "Blue Jug Lodge"})
    animal(s, BEAVER, 7)
    assert tent_cost(s, RED, 7) == ("tent:green",)


def test_the_otter_waives_the_gifts():
    s = nature_table(campers={4: [RED], 5: [BLUE]}, hands={RED: []})
    animal(s, OTTER, 5)
    s = do(do(s, DECK), move(4, 5))
    assert s.campers[5] == [BLUE, RED] and s.active == BLUE


def test_the_otter_waives_the_gifts_of_the_first_placements_too():
    s = GAME.setup(2, GAME.options({"nature": True}), 1)
    animal(s, OTTER, 5)
    first, second = s.first, 1 - s.first
    s = do(s, {"type": "place", "to": 5}, first)
    hands = [list(h) for h in s.hands]
    s = do(s, {"type": "place", "to": 5}, second)
    assert s.campers[5] == [first, second] and s.hands == hands and s.turn == 1


def test_the_third_animal_is_the_tables_choice_or_random():
    for chosen in ("elk", "trout", "beaver", "otter"):
        s = GAME.setup(3, GAME.options({"nature": True, "animal": chosen}), 5)
        assert set(s.nature.animals) == {BEAR, EAGLE, chosen}
    drawn = {
        next(
            iter(
                set(GAME.setup(2, GAME.options({"nature": True}), seed).nature.animals)
                - {BEAR, EAGLE}
            )
        )
        for seed in range(40)
    }
    assert drawn == {"elk", "trout", "beaver", "otter"}
    schema = GAME.Options.model_json_schema()["properties"]["animal"]
    assert schema["enum"] == ["random", "elk", "trout", "beaver", "otter"]
    assert schema["default"] == "random"


# ---------------------------------------------------------------- Observation Tower


def test_the_tower_adds_ten_double_cards():
    s = GAME.setup(2, GAME.options({"tower": True}), 2)
    assert len(s.deck) + sum(map(len, s.hands)) + 4 == 78
    assert s.tower is not None and all(not SUPPLY[c].double for h in s.hands for c in h)


def test_a_free_step_toward_the_tower():
    s = arrange(
        options={"tower": True},
        grid={4: "Penelope's Landing"},
        campers={0: [RED]},
        hands={RED: ["wood", "water"]},
    )
    s.tower = 2  # same row as the camper
    # A free step to 1, then down onto 4 across its north edge: Forager.
    assert move(0, 4, patch=True, tower=True) in legal(s)
    assert any("free tower step via" in label and "gain Forager" in label for label in labels(s))
    s = do(s, move(0, 4, patch=True, tower=True))
    assert s.campers[4] == [RED] and s.pending.patch == "forager"
    s.tower = 10
    assert all(not m.get("tower") for m in legal(s))


def test_no_free_step_off_the_towers_lines():
    s = arrange(options={"tower": True}, campers={0: [RED]}, hands={RED: ["wild"] * 3})
    s.tower = 4
    s = do(s, DECK)
    assert all(not m.get("tower") for m in legal(s) if m["type"] == "move")


def test_a_double_wild_counts_as_its_supply_and_a_wild():
    s = arrange(
        options={"tower": True},
        grid={1: "Penelope's Landing"},
        campers={0: [RED]},
        hands={RED: ["wood+wild"]},
    )
    s = do(s, move(0, 1, patch=True))
    s = do(s, {"type": "pay", "card": s.hands[RED][0]})
    assert s.patches[RED] == {"trailblazer": False}


def test_after_a_trailblazer_move_the_tower_step_is_judged_where_the_camper_starts_moving():
    # "If a player's camper starts in the same row or column as the observation tower and has
    # elected to move a camper": where the camper stands as its move begins. A camper that a
    # free Trailblazer move brought into the tower's row takes the free step on its move.
    s = arrange(
        options={"tower": True},
        grid={4: "Penelope's Landing"},
        campers={3: [RED]},
        hands={RED: ["wood", "water"]},
        patches={RED: {"trailblazer": False}},
    )
    s.tower = 2  # row 0; the camper starts on row 1
    assert all(not m["tower"] for m in legal(s) if m["type"] == "move")
    s = do(s, {"type": "step", "start": 3, "to": 0})
    assert move(0, 4, patch=True, tower=True) in legal(s)
    # Trailblazer's free move is no elected action (the rulebook's actions are drawing, moving,
    # placing): it moves one space, with no free step toward the tower.
    s = arrange(options={"tower": True}, campers={0: [RED]}, patches={RED: {"trailblazer": True}})
    s.tower = 2
    assert {m["to"] for m in legal(s) if m["type"] == "step"} == {1, 3}
