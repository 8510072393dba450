"""What a seat sees: its own hand and discard pile, counts of everything else hidden."""

import json

from engine.core import full_view
from engine.summer_camp import GAME
from engine.summer_camp.cards import CARDS

from .conftest import act, arrange, put_in_display, run


def test_a_seat_sees_its_hand_and_discard_pile_and_only_counts_of_the_others():
    s = arrange(
        players=3,
        hands={0: ["stew", "lights_out"], 1: ["hiking"] * 3},
        discards={0: ["smores", "fishing"], 1: ["sailing", "canoeing"]},
    )
    put_in_display(s, 0, ["fire_making", "pizza_making"])
    mine = GAME.view(s, 0)
    assert mine["hand"] == ["stew", "lights_out"]
    red, blue, green = mine["seats"]
    assert red["discard"] == ["smores", "fishing"] and red["discard_top"] == "fishing"
    assert blue["discard"] is None and blue["discard_top"] == "canoeing"
    assert (blue["hand"], blue["discard_pile"], blue["draw_pile"]) == (3, 2, len(s.draws[1]))
    assert GAME.view(s, 1)["hand"] == ["hiking"] * 3
    spectator = GAME.view(s, None)
    assert spectator["hand"] is None and all(p["discard"] is None for p in spectator["seats"])
    text = json.dumps(full_view(GAME, s, 1))
    assert '"stew"' not in text and str(s.rng.state) not in text


def test_the_view_has_the_documented_shape():
    s = arrange(
        players=3,
        hands={0: ["dodgeball"], 1: ["smores"], 2: ["stew"]},
        packs=("games", "outdoors", "water_sports"),
    )
    s = run(s, (0, act("dodgeball")))
    v = full_view(GAME, s, 1)
    assert set(v) == {
        "game",
        "players",
        "you",
        "to_act",
        "legal_moves",
        "last_decision",
        "outcome",
        "packs",
        "start_player",
        "active",
        "turn",
        "ending",
        "energy",
        "bird_feeder",
        "paths",
        "supply",
        "participation",
        "all_star",
        "snack_supply",
        "hand",
        "played",
        "prompt",
        "seats",
    }
    assert v["to_act"] == [1, 2] and v["active"] == 0
    assert v["prompt"] == {
        "kind": "dodgeball",
        "seats": [1, 2],
        "card": "dodgeball",
        "text": "Dodgeball: each opponent discards a card of their choice.",
        "left": 0,
        "done": 0,
    }
    assert v["legal_moves"] == [
        {"move": {"type": "choose_card", "card": "smores"}, "label": "Discard S'mores"}
    ]
    assert v["played"] == [{"card": "dodgeball", "use": "action"}]
    path = v["paths"][0]
    assert set(path) == {"pack", "boards", "bonuses", "draw_pile", "display", "badges"}
    assert len(path["bonuses"]) == 19 and all(c in CARDS for c in path["display"])
    assert [p["card"] for p in v["supply"]] == ["smores", "scavenger_hunt", "free_time"]
    assert v["supply"][2] == {"card": "free_time", "left": 8}
    assert set(v["seats"][0]) == {
        "seat",
        "name",
        "pawns",
        "hand",
        "draw_pile",
        "discard_pile",
        "discard_top",
        "discard",
        "snack_tokens",
        "badges",
        "card_points",
        "lake_points",
    }
    assert json.loads(json.dumps(v)) == v


def test_the_log_says_how_many_cards_were_drawn_never_which():
    s = arrange(hands={0: ["flashlight"]}, draws={0: ["stew", "sailing"]})
    s = run(s, (0, act("flashlight")))
    assert s.log[-1].text == "Red draws 2 cards."


def test_the_catalog_has_every_card():
    catalog = GAME.catalog()
    assert len(catalog["cards"]) == len(CARDS)
    assert catalog["cards"]["gods_eye"] == {
        "id": "gods_eye",
        "name": "God's eye",
        "pack": "arts_crafts",
        "copies": 3,
        "cost": 4,
        "points": 1,
        "action": "gods_eye",
        "amount": 3,
        "text": CARDS["gods_eye"].text,
    }
    assert catalog["packs"]["arts_crafts"]["name"] == "Arts & Crafts"
    assert catalog["board"]["bridges"] == [6, 12, 18]
    assert json.loads(json.dumps(catalog)) == catalog
