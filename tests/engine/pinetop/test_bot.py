import random

from engine.core import full_view
from engine.pinetop import GAME
from engine.pinetop.bot import heuristic_bot, patch_value
from engine.playout import play_out

from .conftest import BLUE, RED, arrange, set_face_up


def test_heuristic_bot_beats_random():
    wins = 0
    for seed in range(30):
        seats = ["heuristic", "random"] if seed % 2 == 0 else ["random", "heuristic"]
        outcome = GAME.outcome(play_out(GAME, 2, seed, seats).state)
        wins += outcome.winners == [seats.index("heuristic")]
    assert wins >= 20


def test_heuristic_bots_finish_games_with_every_module():
    modules = {"friendship": True, "nature": True, "tower": True}
    for seed in range(4):
        result = play_out(GAME, 2 + seed, seed, ["heuristic"] * 5, modules)
        assert GAME.outcome(result.state) is not None


def test_a_patch_is_worth_what_it_brings_toward_the_ranks_ahead():
    assert (
        patch_value({"forager": False}, 0, "campfire")
        > patch_value({"forager": False}, 0, "pack_mule")
        > 0
    )
    # Past Skunk an advanced patch is needed: the second Forager is worth more than a new one.
    held = {"forager": False, "campfire": False, "pack_mule": False}
    assert patch_value(held, 1, "forager") > patch_value(held, 1, "woodsman")


def test_the_bot_gains_a_patch_it_can_afford_rather_than_draw():
    s = arrange(
        grid={1: "Penelope's Landing"},
        campers={0: [RED]},
        hands={RED: ["wood", "water"]},
        patches={RED: {"forager": False}},
    )
    legal = GAME.legal_moves(s, RED)
    move = heuristic_bot(full_view(GAME, s, RED), legal, random.Random(0))
    assert move.type == "move" and move.patch and move.to == 1


def bot_move(s, seat=RED):
    legal = GAME.legal_moves(s, seat)
    return heuristic_bot(full_view(GAME, s, seat), legal, random.Random(0))


def test_first_campers_go_where_a_player_would_put_them():
    # Every seat once put its first camper on the top-left card; now the first two go to the
    # two inside cards of the 3 x 4 map (four patches one space away, not two or three), and
    # the third player, with no empty inside card left, joins the one worth more.
    for seed in range(12):
        s = GAME.setup(3, GAME.options({}), seed)
        rng = random.Random(seed)
        placed = []
        while s.turn == 0:
            seat = GAME.to_act(s)[0]
            move = heuristic_bot(full_view(GAME, s, seat), GAME.legal_moves(s, seat), rng)
            if move.type == "place":
                placed.append(move.to)
            s = GAME.apply(s, seat, move)
        assert sorted(placed[:2]) == [4, 7] and placed[2] in (4, 7), (seed, placed)


def test_the_bot_refreshes_three_plain_matching_cards():
    s = arrange(campers={4: [RED, RED, RED]}, hands={RED: []})
    set_face_up(s, "wood", "water", "wood", "wood")
    assert bot_move(s).type == "refresh"
    set_face_up(s, "wood", "wild", "wood", "wood")
    assert bot_move(s).type != "refresh"


def test_the_bot_spends_its_friendship_token_on_cards_when_its_hand_runs_low():
    s = arrange(
        options={"friendship": True},
        campers={4: [RED, RED, RED]},
        hands={RED: []},
        patches={BLUE: {"forager": False, "pack_mule": True}},
    )
    s.friendship[RED] = "held"
    move = bot_move(s)
    assert (move.type, move.owner, move.patch) == ("friendship", BLUE, "forager")
    s = arrange(
        options={"friendship": True},
        campers={4: [RED]},
        hands={RED: ["wood"] * 5},
        patches={BLUE: {"forager": False}},
    )
    s.friendship[RED] = "held"
    assert bot_move(s).type != "friendship"
