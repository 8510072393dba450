"""A turn: playing, buying, snack bar tokens, the end of the turn; the rulebook's example."""

import pytest

from engine.core import IllegalMove, Rng, play
from engine.summer_camp import GAME
from engine.summer_camp.board import BRIDGES

from .conftest import arrange, keys, labels, no_bonuses, put_in_display, run

PLAY_ACTION = lambda key: {"type": "play", "card": key, "use": "action"}  # noqa: E731
PLAY_ENERGY = lambda key: {"type": "play", "card": key, "use": "energy"}  # noqa: E731


def audrey_table():
    """Audrey (Red) at the start of her turn in the rulebook's example. Her cooking path
    starts with board T7 (a draw-a-card icon on its first space); her draw pile is 5 cards
    (bottom first), her discard pile empty; hiking is in the display. The RNG is set so the
    reshuffle at the end puts hiking on top, as in the rulebook."""
    s = arrange(
        hands={0: ["lights_out", "lights_out", "marshmallows", "kitchen_chores", "nature_walk"]},
        draws={0: ["lights_out", "water_safety", "lights_out", "lights_out", "lights_out"]},
        discards={0: []},
        boards={0: ["T7", "T1", "T4"]},
    )
    put_in_display(s, 1, ["hiking", "flashlight"])
    s.rng = Rng(state=15)
    return s


def test_the_rulebooks_turn_example():
    s = audrey_table()
    assert s.pawns[0] == [0, 0, 0] and s.snacks[0] == 1

    # Kitchen chores: 1 space on the cooking path, onto a draw-a-card icon: another lights out!
    s = run(s, (0, PLAY_ACTION("kitchen_chores")))
    assert s.pawns[0] == [1, 0, 0]
    assert sorted(keys(s.hands[0])) == ["lights_out"] * 3 + ["marshmallows", "nature_walk"]
    assert len(s.draws[0]) == 4

    # Marshmallows: 2 snack bar tokens.
    s = run(s, (0, PLAY_ACTION("marshmallows")))
    assert s.snacks[0] == 3

    # Three lights out! and nature walk for energy, then a token: 5 energy, hiking bought.
    s = run(s, *[(0, PLAY_ENERGY("lights_out"))] * 3, (0, PLAY_ENERGY("nature_walk")))
    assert s.energy == 4
    s = run(s, (0, {"type": "spend_snack"}))
    assert (s.energy, s.snacks[0]) == (5, 2)
    assert "Buy Hiking (5 energy)" in labels(s, 0)
    s = run(s, (0, {"type": "buy", "card": "hiking"}))
    assert s.energy == 0 and keys(s.discards[0]) == ["hiking"]
    assert s.display[1][0] is None

    # End of turn: 4 cards from the draw pile, then the discard pile is reshuffled and the
    # 5th card is hiking.
    s = run(s, (0, {"type": "end_turn"}))
    assert len(s.hands[0]) == 5 and keys(s.hands[0])[-1] == "hiking"
    assert keys(s.hands[0])[:4] == ["lights_out", "lights_out", "water_safety", "lights_out"]
    assert len(s.draws[0]) == 6 and s.discards[0] == []
    # No badge (a pawn is not on the first bridge), the display is refilled, Blue plays.
    assert s.badges[0] == [] and s.display[1][0] is not None
    assert s.active == 1 and GAME.to_act(s) == [1]
    text = [e.text for e in s.log]
    assert "Red shuffles their discard pile into a new draw pile." in text
    assert text.index("Red ends their turn and discards 6 cards.") < text.index(
        "Red shuffles their discard pile into a new draw pile."
    )


def test_a_card_is_played_for_its_action_or_for_one_energy():
    s = arrange(hands={0: ["lights_out", "smores"]})
    assert labels(s, 0) == {
        "Play Lights out! for 1 energy": PLAY_ENERGY("lights_out"),
        "Play S'mores: gain 2 energy to spend this turn": PLAY_ACTION("smores"),
        "Play S'mores for 1 energy": PLAY_ENERGY("smores"),
        "Spend a snack bar token for 1 energy": {"type": "spend_snack"},
        "End your turn": {"type": "end_turn"},
    } | {k: v for k, v in labels(s, 0).items() if k.startswith("Buy")}
    with pytest.raises(IllegalMove, match="Lights out! has no action"):
        play(GAME, s, 0, PLAY_ACTION("lights_out"))
    with pytest.raises(IllegalMove, match="no Stew in your hand"):
        play(GAME, s, 0, PLAY_ENERGY("stew"))
    with pytest.raises(IllegalMove, match="not your turn"):
        play(GAME, s, 1, PLAY_ENERGY("smores"))
    s = run(s, (0, PLAY_ACTION("smores")), (0, PLAY_ENERGY("lights_out")))
    assert s.energy == 3 and [(keys([p.card])[0], p.use) for p in s.played] == [
        ("smores", "action"),
        ("lights_out", "energy"),
    ]


def test_buying_needs_the_energy_and_the_card_in_the_display():
    s = arrange(hands={0: ["smores", "lights_out"]})
    s.supply["free_time"] = []
    assert not [k for k in labels(s, 0) if k.startswith("Buy")]
    s = run(s, (0, PLAY_ACTION("smores")))
    assert "Buy S'mores (2 energy)" in labels(s, 0)
    assert "Buy Scavenger hunt (3 energy)" not in labels(s, 0)
    with pytest.raises(IllegalMove, match="costs 3 energy; you have 2"):
        play(GAME, s, 0, {"type": "buy", "card": "scavenger_hunt"})
    with pytest.raises(IllegalMove, match="pile is empty"):
        play(GAME, s, 0, {"type": "buy", "card": "free_time"})
    with pytest.raises(IllegalMove, match="never for sale"):
        play(GAME, s, 0, {"type": "buy", "card": "lights_out"})
    left = len(s.supply["smores"])
    s = run(s, (0, {"type": "buy", "card": "smores"}))
    assert len(s.supply["smores"]) == left - 1 and keys(s.discards[0])[-1] == "smores"
    assert s.energy == 0


def test_an_empty_base_pile_can_no_longer_be_bought():
    s = arrange(hands={0: ["smores", "smores"]})
    s.supply["smores"] = s.supply["smores"][:1]
    s = run(
        s,
        (0, PLAY_ACTION("smores")),
        (0, PLAY_ACTION("smores")),
        (0, {"type": "buy", "card": "smores"}),
    )
    assert s.supply["smores"] == []
    assert "Buy S'mores (2 energy)" not in labels(s, 0)


def test_unspent_energy_is_lost_at_the_end_of_the_turn():
    s = arrange(hands={0: ["smores"]})
    s = run(s, (0, PLAY_ACTION("smores")), (0, {"type": "end_turn"}))
    assert s.energy == 0


def test_snack_bar_tokens_are_kept_and_capped_at_six():
    s = arrange(hands={0: ["hot_cocoa", "marshmallows"]}, snacks={0: 2})
    s = run(s, (0, PLAY_ACTION("hot_cocoa")))
    assert s.snacks[0] == 5
    s = run(s, (0, PLAY_ACTION("marshmallows")))
    assert s.snacks[0] == 6
    assert "Red gains 1 snack bar token (the limit is 6)." in [e.text for e in s.log]
    assert s.snack_supply + sum(s.snacks) == 24
    s = run(s, (0, {"type": "end_turn"}))
    assert s.snacks[0] == 6


def test_without_a_token_none_can_be_spent():
    s = arrange(snacks={0: 0})
    assert {"type": "spend_snack"} not in labels(s, 0).values()
    with pytest.raises(IllegalMove, match="no snack bar token"):
        play(GAME, s, 0, {"type": "spend_snack"})


def test_the_display_is_refilled_at_the_end_of_the_turn_only_while_cards_last():
    s = arrange(hands={0: ["stew", "stew", "smores"]})
    put_in_display(s, 0, ["fire_making", "stew"])
    s.piles[0] = s.piles[0][-1:]
    s = run(
        s,
        (0, PLAY_ACTION("stew")),
        (0, PLAY_ACTION("stew")),
        (0, PLAY_ACTION("smores")),
        (0, {"type": "buy", "card": "fire_making"}),
        (0, {"type": "buy", "card": "stew"}),
    )
    assert s.display[0] == [None, None]
    s = run(s, (0, {"type": "end_turn"}))
    assert s.piles[0] == [] and s.display[0][0] is not None
    assert s.display[0][1] is None


def test_move_cards_walk_their_own_path_and_stop_at_the_final_bridge():
    s = no_bonuses(
        arrange(hands={0: ["pizza_making", "hiking", "kitchen_chores"]}, pawns={0: [16, 0, 0]})
    )
    s = run(s, (0, PLAY_ACTION("hiking")))
    assert s.pawns[0] == [16, 2, 0]
    s = run(s, (0, PLAY_ACTION("pizza_making")))
    assert s.pawns[0] == [18, 2, 0]
    # On the final bridge a pawn never moves: its cards are only worth energy.
    assert PLAY_ACTION("kitchen_chores") not in labels(s, 0).values()
    with pytest.raises(IllegalMove, match="would do nothing"):
        play(GAME, s, 0, PLAY_ACTION("kitchen_chores"))
    assert BRIDGES == (6, 12, 18)


def test_after_the_last_player_the_start_player_plays_again():
    s = arrange(players=3)
    for seat in (0, 1, 2):
        assert s.active == seat and s.turn == 1
        s = run(s, (seat, {"type": "end_turn"}))
    assert s.active == 0 and s.turn == 2
