"""Every card's action, played from a table arranged for it (no bonus icons unless said)."""

import pytest

from engine.core import IllegalMove, play
from engine.summer_camp import GAME
from engine.summer_camp.cards import CARD_LIST, CARDS

from .conftest import (
    DONE,
    act,
    arrange,
    choose,
    energy,
    keys,
    labels,
    no_bonuses,
    put_in_display,
    run,
    to_path,
)

ALL = ("adventure", "arts_crafts", "friendship")
OTHER = ("games", "outdoors", "water_sports")


def table(packs=("cooking", "outdoors", "water_sports"), players=2, **kw):
    return no_bonuses(arrange(players=players, packs=packs, **kw))


@pytest.mark.parametrize("key, gain", [("smores", 2), ("bacon_and_eggs", 3), ("stew", 4)])
def test_energy_cards(key, gain):
    s = run(table(hands={0: [key]}), (0, act(key)))
    assert s.energy == gain


@pytest.mark.parametrize("key, gain", [("marshmallows", 2), ("hot_cocoa", 3)])
def test_snack_cards(key, gain):
    s = run(table(hands={0: [key]}), (0, act(key)))
    assert s.snacks[0] == 1 + gain


@pytest.mark.parametrize("key, n", [("flashlight", 2), ("pocket_knife", 3)])
def test_draw_cards(key, n):
    s = run(table(hands={0: [key]}), (0, act(key)))
    assert len(s.hands[0]) == n


@pytest.mark.parametrize("card", [c for c in CARD_LIST if c.action == "move"], ids=lambda c: c.key)
def test_move_cards_walk_their_packs_path(card):
    packs = [card.pack] + [p for p in ("cooking", "games", "outdoors") if p != card.pack][:2]
    s = run(table(packs=packs, hands={0: [card.key]}), (0, act(card.key)))
    assert s.pawns[0] == [card.amount, 0, 0]


def test_free_time_moves_one_space_on_the_path_chosen():
    s = run(table(hands={0: ["free_time"]}, pawns={0: [18, 2, 4]}), (0, act("free_time")))
    assert GAME.to_act(s) == [0]
    assert labels(s, 0) == {
        "Move 1 on the Outdoors path (from 2)": to_path(1),
        "Move 1 on the Water Sports path (from 4)": to_path(2),
    }
    with pytest.raises(IllegalMove, match="move 1 space on any path"):
        play(GAME, s, 0, to_path(0))
    with pytest.raises(IllegalMove, match="move 1 space on any path"):
        play(GAME, s, 0, {"type": "end_turn"})
    s = run(s, (0, to_path(2)))
    assert s.pawns[0] == [18, 2, 5] and s.prompts == []


def test_a_path_choice_with_one_pawn_free_to_move_is_made_at_once():
    s = run(table(hands={0: ["free_time"]}, pawns={0: [18, 18, 4]}), (0, act("free_time")))
    assert s.pawns[0] == [18, 18, 5] and s.prompts == []


def test_water_blob_moves_two_spaces_on_one_path():
    s = run(table(hands={0: ["water_blob"]}), (0, act("water_blob")), (0, to_path(1)))
    assert s.pawns[0] == [0, 2, 0]


def test_scavenger_hunt_discards_one_to_three_then_draws_as_many():
    s = table(
        hands={0: ["scavenger_hunt", "lights_out", "stew", "hiking", "hiking"]},
        draws={0: ["fishing"] * 5},
    )
    s = run(s, (0, act("scavenger_hunt")))
    assert DONE not in labels(s, 0).values()  # at least one card
    s = run(s, (0, choose("stew")))
    assert labels(s, 0)["Stop and draw 1 card"] == DONE
    s = run(s, (0, choose("hiking")), (0, DONE))
    assert keys(s.discards[0]) == ["stew", "hiking"]
    assert sorted(keys(s.hands[0])) == ["fishing", "fishing", "hiking", "lights_out"]
    assert s.prompts == []
    # Three cards discarded: the drawing follows at once.
    s = table(
        hands={0: ["scavenger_hunt", "stew", "stew", "stew", "hiking"]}, draws={0: ["fishing"] * 5}
    )
    s = run(s, (0, act("scavenger_hunt")), *[(0, choose("stew"))] * 3)
    assert sorted(keys(s.hands[0])) == ["fishing"] * 3 + ["hiking"] and s.prompts == []


def test_scavenger_hunt_needs_a_card_to_discard():
    s = table(hands={0: ["scavenger_hunt"]})
    assert act("scavenger_hunt") not in labels(s, 0).values()


@pytest.mark.parametrize(
    "key, limit, where",
    [("zip_lining", 4, "hand"), ("ropes_course", 5, "draw"), ("climbing_wall", 6, "discard")],
)
def test_taking_from_the_display_without_paying(key, limit, where):
    s = table(packs=ALL, hands={0: [key]})
    put_in_display(s, 0, ["archery", "mountain_biking"])  # costs 5 and 8
    put_in_display(s, 1, ["gods_eye", "tie_dye"])  # costs 4 and 6
    put_in_display(s, 2, ["pen_pals", "pen_pals"])  # costs 8
    s = run(s, (0, act(key)))
    offered = {m["card"] for m in labels(s, 0).values()}
    expected = {
        k
        for k in (
            "archery",
            "mountain_biking",
            "gods_eye",
            "tie_dye",
            "smores",
            "scavenger_hunt",
            "free_time",
        )
        if CARDS[k].cost <= limit
    }
    assert offered == expected
    label = {
        "hand": "into your hand",
        "draw": "onto your draw pile",
        "discard": "onto your discard pile",
    }[where]
    assert f"Take Free time (4 energy) {label}" in labels(s, 0)
    s = run(s, (0, choose("free_time")))
    pile = {"hand": s.hands[0], "draw": s.draws[0][-1:], "discard": s.discards[0]}[where]
    assert keys(pile) == ["free_time"] and s.energy == 0


def test_zip_lining_card_can_be_played_at_once():
    s = table(packs=ALL, hands={0: ["zip_lining"]})
    put_in_display(s, 2, ["candy_stash", "pen_pals"])
    s = run(s, (0, act("zip_lining")), (0, choose("candy_stash")), (0, act("candy_stash")))
    assert s.snacks == [4, 2]
    assert s.display[2][0] is None  # refilled at the end of the turn


def test_a_taken_display_card_leaves_a_gap_until_the_end_of_the_turn():
    s = table(packs=ALL, hands={0: ["climbing_wall"]})
    put_in_display(s, 0, ["archery", "archery"])
    s = run(s, (0, act("climbing_wall")), (0, choose("archery")))
    assert s.display[0].count(None) == 1
    s = run(s, (0, {"type": "end_turn"}))
    assert None not in s.display[0]


def test_cave_exploration_takes_the_top_of_an_activity_pile():
    s = table(packs=ALL, hands={0: ["cave_exploration"]})
    s.piles[2] = []
    top = s.piles[1][-1]
    s = run(s, (0, act("cave_exploration")))
    assert set(labels(s, 0)) == {
        "Take the top card of the Adventure pile",
        "Take the top card of the Arts & Crafts pile",
    }
    s = run(s, (0, {"type": "choose_pile", "path": 1}))
    assert s.discards[0] == [top]


def test_tie_dye_discards_then_moves_up_to_twice():
    s = table(packs=ALL, hands={0: ["tie_dye", "lights_out", "smores", "smores"]})
    s = run(s, (0, act("tie_dye")))
    assert DONE not in labels(s, 0).values()
    assert "Discard Lights out!, then move 1 space" in labels(s, 0)
    s = run(s, (0, choose("lights_out")), (0, to_path(1)))
    assert s.pawns[0] == [0, 1, 0] and labels(s, 0)["Stop (Tie dye)"] == DONE
    s = run(s, (0, choose("smores")), (0, to_path(1)))
    assert s.pawns[0] == [0, 2, 0] and s.prompts == []
    assert keys(s.discards[0]) == ["lights_out", "smores"] and keys(s.hands[0]) == ["smores"]


def test_tie_dye_may_stop_after_once():
    s = table(packs=ALL, hands={0: ["tie_dye", "lights_out", "smores"]})
    s = run(s, (0, act("tie_dye")), (0, choose("lights_out")), (0, to_path(0)), (0, DONE))
    assert s.prompts == [] and keys(s.hands[0]) == ["smores"]


def test_gods_eye_pays_two_tokens_a_space_up_to_three_times():
    s = table(packs=ALL, hands={0: ["gods_eye"]}, snacks={0: 6})
    s = run(s, (0, act("gods_eye")))
    assert "Return 2 snack bar tokens and move 1 space on the Adventure path (from 0)" in (
        labels(s, 0)
    )
    s = run(s, (0, to_path(0)), (0, to_path(0)), (0, to_path(2)))
    assert s.pawns[0] == [2, 0, 1] and s.snacks[0] == 0 and s.prompts == []
    # With 3 tokens it can only be done once.
    s = table(packs=ALL, hands={0: ["gods_eye"]}, snacks={0: 3})
    s = run(s, (0, act("gods_eye")), (0, to_path(0)))
    assert s.snacks[0] == 1 and s.prompts == []
    s = table(packs=ALL, hands={0: ["gods_eye"]}, snacks={0: 1})
    assert act("gods_eye") not in labels(s, 0).values()


def test_macaroni_sculpture_discards_for_three_tokens_up_to_twice():
    s = table(packs=ALL, hands={0: ["macaroni_sculpture", "lights_out", "smores"]})
    s = run(s, (0, act("macaroni_sculpture")), (0, choose("lights_out")))
    assert s.snacks[0] == 4
    assert "Discard S'mores for 3 snack bar tokens" in labels(s, 0)
    s = run(s, (0, choose("smores")))
    assert s.snacks[0] == 6 and s.prompts == [] and s.hands[0] == []


def test_bird_feeder_doubles_the_tokens_spent_after_it():
    s = table(packs=ALL, hands={0: ["bird_feeder", "bird_feeder"]}, snacks={0: 3})
    s = run(s, (0, {"type": "spend_snack"}))
    assert s.energy == 1
    s = run(s, (0, act("bird_feeder")))
    assert "Spend a snack bar token for 2 energy" in labels(s, 0)
    s = run(s, (0, {"type": "spend_snack"}), (0, act("bird_feeder")), (0, {"type": "spend_snack"}))
    assert s.energy == 5
    s = run(s, (0, {"type": "end_turn"}), (1, {"type": "end_turn"}))
    assert not s.bird_feeder


@pytest.mark.parametrize("key", ["secret_admirer", "friendship_bracelet"])
def test_a_gift_card_goes_to_the_opponent_chosen(key):
    s = table(packs=ALL, players=3, hands={0: [key]}, draws={0: ["smores"] * 4})
    s = run(s, (0, act(key)))
    assert labels(s, 0) == {
        f"Give {CARDS[key].name} to Blue": {"type": "choose_player", "seat": 1},
        f"Give {CARDS[key].name} to Green": {"type": "choose_player", "seat": 2},
    }
    s = run(s, (0, {"type": "choose_player", "seat": 2}))
    assert keys(s.discards[2]) == [key] and s.played == []
    if key == "secret_admirer":
        assert s.energy == 5
    else:
        assert len(s.hands[0]) == 3
    s = run(s, (0, {"type": "end_turn"}))
    assert key not in keys(s.discards[0] + s.hands[0] + s.draws[0])


def test_a_gift_with_one_opponent_goes_to_them():
    s = run(table(packs=ALL, hands={0: ["secret_admirer"]}), (0, act("secret_admirer")))
    assert keys(s.discards[1]) == ["secret_admirer"] and s.prompts == []


def test_a_gift_card_played_for_energy_stays():
    s = run(table(packs=ALL, hands={0: ["secret_admirer"]}), (0, energy("secret_admirer")))
    s = run(s, (0, {"type": "end_turn"}))
    assert "secret_admirer" in keys(s.discards[0] + s.hands[0])


def test_candy_stash_gives_everyone_tokens():
    s = table(packs=ALL, players=4, hands={0: ["candy_stash"]}, snacks={0: 4, 2: 6})
    s = run(s, (0, act("candy_stash")))
    assert s.snacks == [6, 2, 6, 2] and s.snack_supply + sum(s.snacks) == 24


def test_sing_along_draws_for_everyone():
    s = table(packs=ALL, players=3, hands={0: ["sing_along"], 1: [], 2: ["smores"]})
    s = run(s, (0, act("sing_along")))
    assert [len(h) for h in s.hands] == [2, 1, 2]


def test_dodgeball_asks_every_opponent_at_once():
    s = table(
        packs=OTHER,
        players=4,
        hands={0: ["dodgeball"], 1: ["smores", "hiking"], 2: [], 3: ["lights_out"]},
    )
    s = run(s, (0, act("dodgeball")))
    assert len(s.hands[0]) == 2
    assert GAME.to_act(s) == [1, 3]
    assert GAME.legal_moves(s, 0) == [] and GAME.legal_moves(s, 2) == []
    assert labels(s, 1) == {"Discard S'mores": choose("smores"), "Discard Hiking": choose("hiking")}
    with pytest.raises(IllegalMove, match="not your turn"):
        play(GAME, s, 0, {"type": "end_turn"})
    s = run(s, (3, choose("lights_out")))
    assert GAME.to_act(s) == [1]
    with pytest.raises(IllegalMove, match="not your turn"):
        play(GAME, s, 3, choose("lights_out"))
    s = run(s, (1, choose("hiking")))
    assert GAME.to_act(s) == [0] and s.prompts == []
    assert keys(s.discards[1]) == ["hiking"] and keys(s.discards[3]) == ["lights_out"]
    assert keys(s.hands[1]) == ["smores"]


def test_dodgeball_with_no_opponent_holding_a_card_asks_nobody():
    s = table(packs=OTHER, hands={0: ["dodgeball"], 1: []})
    s = run(s, (0, act("dodgeball")))
    assert GAME.to_act(s) == [0] and s.prompts == []


def test_tug_o_war_takes_a_token_from_each_opponent_who_has_one():
    s = table(packs=OTHER, players=3, hands={0: ["tug_o_war"]}, snacks={1: 0, 2: 3})
    s = run(s, (0, act("tug_o_war")))
    assert s.snacks == [3, 0, 2]


@pytest.mark.parametrize("key", ["tag", "capture_the_flag"])
def test_landing_on_the_pawn_of_the_opponent_to_the_right(key):
    # Seat 0's right is the last seat (it plays just before); seat 1 sits to the left.
    s = table(
        packs=OTHER,
        players=3,
        hands={0: [key]},
        draws={0: ["smores"] * 3},
        pawns={0: [3, 3, 3], 1: [4, 1, 1], 2: [1, 4, 1]},
    )
    mine = run(s, (0, act(key)), (0, to_path(1)))
    other = run(s, (0, act(key)), (0, to_path(0)))
    if key == "tag":
        assert (len(mine.hands[0]), len(other.hands[0])) == (1, 0)
    else:
        assert (mine.snacks[0], other.snacks[0]) == (3, 1)


def test_fishing_draws_on_a_bridge():
    s = table(hands={0: ["fishing"]}, draws={0: ["smores"] * 3}, pawns={0: [5, 6, 11]})
    on_bridge = run(s, (0, act("fishing")), (0, to_path(0)))
    assert on_bridge.pawns[0] == [6, 6, 11] and len(on_bridge.hands[0]) == 1
    on_final = run(s, (0, act("fishing")), (0, to_path(2)))
    assert on_final.pawns[0][2] == 12 and len(on_final.hands[0]) == 1
    off = run(s, (0, act("fishing")), (0, to_path(1)))
    assert off.pawns[0] == [5, 7, 11] and off.hands[0] == []
    s = table(hands={0: ["fishing"]}, draws={0: ["smores"]}, pawns={0: [17, 0, 0]})
    assert len(run(s, (0, act("fishing")), (0, to_path(0))).hands[0]) == 1


def test_swim_practice_moves_the_pawn_furthest_back():
    s = table(hands={0: ["swim_practice"]}, pawns={0: [4, 2, 9]})
    s = run(s, (0, act("swim_practice")))
    assert s.pawns[0] == [4, 3, 9] and s.prompts == []
    s = table(hands={0: ["swim_practice"]}, pawns={0: [2, 5, 2]})
    s = run(s, (0, act("swim_practice")))
    assert set(labels(s, 0)) == {
        "Move 1 on the Cooking path (from 2)",
        "Move 1 on the Water Sports path (from 2)",
    }
    with pytest.raises(IllegalMove):
        play(GAME, s, 0, to_path(1))
    assert run(s, (0, to_path(2))).pawns[0] == [2, 5, 3]


def test_water_skiing_moves_the_pawn_furthest_forward_unless_it_is_on_the_final_bridge():
    s = run(table(hands={0: ["water_skiing"]}, pawns={0: [4, 7, 2]}), (0, act("water_skiing")))
    assert s.pawns[0] == [4, 8, 2]
    s = run(table(hands={0: ["water_skiing"]}, pawns={0: [7, 7, 2]}), (0, act("water_skiing")))
    assert set(labels(s, 0)) == {
        "Move 1 on the Cooking path (from 7)",
        "Move 1 on the Outdoors path (from 7)",
    }
    s = table(hands={0: ["water_skiing"]}, pawns={0: [18, 7, 2]})
    assert act("water_skiing") not in labels(s, 0).values()


def test_plant_identification_takes_a_card_back_from_the_discard_pile():
    s = table(hands={0: ["plant_identification"]}, discards={0: ["stew", "lights_out"]})
    s = run(s, (0, act("plant_identification")))
    assert set(labels(s, 0)) == {
        "Take Stew from your discard pile",
        "Take Lights out! from your discard pile",
    }
    s = run(s, (0, choose("stew")), (0, act("stew")))
    assert keys(s.discards[0]) == ["lights_out"] and s.energy == 4
    assert (
        act("plant_identification")
        not in labels(table(hands={0: ["plant_identification"]}), 0).values()
    )


def test_bird_watching_draws_three_then_discards_three():
    s = table(hands={0: ["bird_watching", "stew"]}, draws={0: ["hiking", "smores", "fishing"]})
    s = run(s, (0, act("bird_watching")))
    assert len(s.hands[0]) == 4 and DONE not in labels(s, 0).values()
    s = run(s, (0, choose("hiking")), (0, choose("stew")), (0, choose("fishing")))
    assert keys(s.hands[0]) == ["smores"] and s.prompts == []
    # With fewer than 3 cards in hand, all of them are discarded.
    s = table(hands={0: ["bird_watching"]}, draws={0: ["hiking"]}, discards={0: []})
    s = run(s, (0, act("bird_watching")), (0, choose("hiking")))
    assert s.hands[0] == [] and s.prompts == []


def test_every_card_is_covered():
    tested = {
        "smores",
        "bacon_and_eggs",
        "stew",
        "marshmallows",
        "hot_cocoa",
        "flashlight",
        "pocket_knife",
        "free_time",
        "water_blob",
        "scavenger_hunt",
        "zip_lining",
        "ropes_course",
        "climbing_wall",
        "cave_exploration",
        "tie_dye",
        "gods_eye",
        "macaroni_sculpture",
        "bird_feeder",
        "secret_admirer",
        "friendship_bracelet",
        "candy_stash",
        "sing_along",
        "dodgeball",
        "tug_o_war",
        "tag",
        "capture_the_flag",
        "fishing",
        "swim_practice",
        "water_skiing",
        "plant_identification",
        "bird_watching",
        "lights_out",
    }
    assert tested | {c.key for c in CARD_LIST if c.action == "move"} == set(CARDS)
