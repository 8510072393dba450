import random
from collections import Counter

from engine.core import full_view
from engine.playout import play_out
from engine.summer_camp import GAME
from engine.summer_camp.bot import heuristic_bot
from engine.summer_camp.cards import CARDS, PACKS

from .conftest import act, arrange, no_bonuses, put_in_display, run


def decide(s, seat=0):
    return heuristic_bot(full_view(GAME, s, seat), GAME.legal_moves(s, seat), random.Random(0))


def test_heuristic_bot_beats_random():
    wins = 0
    for seed in range(20):
        seats = ["heuristic", "random"] if seed % 2 == 0 else ["random", "heuristic"]
        outcome = GAME.outcome(play_out(GAME, 2, seed, seats).state)
        wins += outcome.winners == [seats.index("heuristic")]
    assert wins >= 19


def test_heuristic_bots_finish_games_with_every_pack():
    prompts = Counter()
    for seed in range(14):
        rng = random.Random(seed)
        players = 2 + seed % 3
        packs = rng.sample(list(PACKS), 3)

        def count(s):
            if s.prompts:
                prompts[s.prompts[0].kind] += 1

        result = play_out(
            GAME, players, seed, ["heuristic"] * players, {"packs": packs}, on_step=count
        )
        assert GAME.outcome(result.state) is not None
    assert set(prompts) >= {"path", "bonus_move", "take_display", "tie_dye", "dodgeball"}


def test_bot_plays_drawing_cards_first_then_buys_the_best_card_it_can_pay_for():
    s = no_bonuses(
        arrange(
            hands={0: ["stew", "flashlight", "lights_out"]},
            snacks={0: 0},
            draws={0: []},
            discards={0: []},
        )
    )
    s.supply["free_time"] = []
    put_in_display(s, 0, ["pizza_making", "fire_making"])
    moves = []
    while not moves or moves[-1]["type"] not in ("buy", "end_turn"):
        moves.append(decide(s).model_dump())
        s = run(s, (0, moves[-1]))
    assert moves[:3] == [
        act("flashlight"),
        act("stew"),
        {"type": "play", "card": "lights_out", "use": "energy"},
    ]
    # 5 energy: a card that moves 2 spaces, rather than Pizza making's 3 at 8.
    assert moves[3]["type"] == "buy" and CARDS[moves[3]["card"]].amount == 2
    assert CARDS[moves[3]["card"]].action == "move"


def test_bot_moves_the_pawn_that_takes_a_badge():
    s = no_bonuses(arrange(hands={0: ["free_time"]}, pawns={0: [2, 17, 5]}))
    s = run(s, (0, act("free_time")))
    assert decide(s).model_dump() == {"type": "choose_path", "path": 1}
