import random

from engine.core import full_view
from engine.pinetop import GAME
from engine.pinetop.bot import heuristic_bot, patch_value
from engine.playout import play_out

from .conftest import RED, arrange


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
    assert patch_value({"forager": False}, 0, "campfire") > patch_value({"forager": False}, 0,
                                                                        "pack_mule") > 0
    # Past Skunk an advanced patch is needed: the second Forager is worth more than a new one.
    held = {"forager": False, "campfire": False, "pack_mule": False}
    assert patch_value(held, 1, "forager") > patch_value(held, 1, "woodsman")


def test_the_bot_gains_a_patch_it_can_afford_rather_than_draw():
    s = arrange(grid={1: "Penelope's Landing"}, campers={0: [RED]},
                hands={RED: ["wood", "water"]}, patches={RED: {"forager": False}})
    legal = GAME.legal_moves(s, RED)
    move = heuristic_bot(full_view(GAME, s, RED), legal, random.Random(0))
    assert move.type == "move" and move.patch and move.to == 1
