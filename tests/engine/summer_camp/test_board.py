"""Bonus icons: draw a card, a snack bar token, and moving a pawn (which chains)."""

from engine.summer_camp import GAME

from .conftest import act, arrange, choose, keys, labels, run, to_path


def test_a_draw_icon_draws_a_card():
    s = arrange(hands={0: ["kitchen_chores"]}, draws={0: ["stew"]}, boards={0: ["T7", "T1", "T4"]})
    s = run(s, (0, act("kitchen_chores")))
    assert keys(s.hands[0]) == ["stew"]
    assert "Red draws 1 card for a bonus icon." in [e.text for e in s.log]


def test_a_snack_icon_gives_a_token_up_to_the_limit():
    s = arrange(
        hands={0: ["kitchen_chores", "kitchen_chores"]},
        boards={0: ["T1", "T2", "T3"]},
        pawns={0: [0, 0, 0]},
        snacks={0: 5},
    )
    s = run(s, (0, act("kitchen_chores")))
    assert s.pawns[0][0] == 1 and s.snacks[0] == 6
    s.pawns[0][0] = 0
    s = run(s, (0, act("kitchen_chores")))
    assert s.snacks[0] == 6 and s.snack_supply + sum(s.snacks) == 24
    assert s.log[-1].text == "Red already has 6 snack bar tokens: the bonus icon gives none."


def test_every_icon_moved_through_is_gained():
    # T1: a snack bar token on 1, draw a card on 2 and 4. Pizza making moves 0 -> 3.
    s = arrange(
        hands={0: ["pizza_making"]}, draws={0: ["stew", "smores"]}, boards={0: ["T1", "T2", "T3"]}
    )
    s = run(s, (0, act("pizza_making")))
    assert s.pawns[0][0] == 3 and s.snacks[0] == 2 and keys(s.hands[0]) == ["smores"]


def test_a_move_icon_moves_any_pawn_and_chains():
    # Cooking: T2 (move on 4). Outdoors: T8 (move on 2). Water sports: T7 (draw on 1).
    s = arrange(
        hands={0: ["kitchen_chores"]},
        draws={0: ["stew"]},
        boards={0: ["T2", "T1", "T3"], 1: ["T8", "T4", "T5"], 2: ["T7", "T6", "T9"]},
        pawns={0: [3, 1, 0]},
    )
    s = run(s, (0, act("kitchen_chores")))
    assert s.pawns[0] == [4, 1, 0] and GAME.to_act(s) == [0]
    assert set(labels(s, 0)) == {
        "Bonus: move 1 on the Cooking path (from 4)",
        "Bonus: move 1 on the Outdoors path (from 1)",
        "Bonus: move 1 on the Water Sports path (from 0)",
    }
    assert s.prompts[0].kind == "bonus_move"
    s = run(s, (0, to_path(1)))  # onto the Outdoors move icon: again
    assert s.pawns[0] == [4, 2, 0] and s.prompts[0].kind == "bonus_move"
    s = run(s, (0, to_path(2)))  # onto the Water Sports draw icon
    assert s.pawns[0] == [4, 2, 1] and keys(s.hands[0]) == ["stew"] and s.prompts == []


def test_a_move_icon_with_one_pawn_free_to_move_moves_it():
    s = arrange(
        hands={0: ["kitchen_chores"]}, boards={0: ["T2", "T1", "T3"]}, pawns={0: [3, 18, 18]}
    )
    s = run(s, (0, act("kitchen_chores")))
    assert s.pawns[0] == [5, 18, 18] and s.prompts == []


def test_a_bonus_move_comes_before_the_rest_of_the_card():
    # Tie dye's first move lands on a move icon: the bonus is asked before the second go.
    s = arrange(
        packs=("arts_crafts", "cooking", "games"),
        hands={0: ["tie_dye", "lights_out", "lights_out"]},
        boards={0: ["T2", "T1", "T3"], 1: ["T4", "T1", "T3"], 2: ["T4", "T1", "T3"]},
        pawns={0: [3, 0, 0]},
    )
    s = run(s, (0, act("tie_dye")), (0, choose("lights_out")), (0, to_path(0)))
    assert [p.kind for p in s.prompts] == ["bonus_move", "tie_dye"]
    s = run(s, (0, to_path(0)))
    assert s.pawns[0][0] == 5 and [p.kind for p in s.prompts] == ["tie_dye"]


def test_a_pawn_stops_on_the_final_bridge():
    s = arrange(hands={0: ["pizza_making"]}, pawns={0: [17, 0, 0]})
    s = run(s, (0, act("pizza_making")))
    assert s.pawns[0][0] == 18
