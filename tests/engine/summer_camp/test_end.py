"""Merit badges, the end of the game, the score and the tie-break."""

from engine.summer_camp import GAME

from .conftest import END_TURN, act, arrange, no_bonuses, run


def test_the_participation_badge_at_the_first_bridge_after_the_turn():
    s = no_bonuses(arrange(players=3, hands={0: ["kitchen_chores"]}, pawns={0: [5, 6, 9]}))
    s = run(s, (0, act("kitchen_chores")))
    assert s.badges[0] == []  # checked at the end of the turn only
    s = run(s, (0, END_TURN))
    assert [(b.kind, b.points) for b in s.badges[0]] == [("participation", 6)]
    assert s.participation == [4, 2]
    s.pawns[1] = [7, 7, 7]
    s = run(s, (1, END_TURN))
    assert [(b.kind, b.points) for b in s.badges[1]] == [("participation", 4)]
    s = run(s, (2, END_TURN), (0, END_TURN))
    assert len(s.badges[0]) == 1  # at most one of each kind


def test_the_all_star_badge_at_the_second_bridge_and_missing_out():
    s = arrange(players=2, pawns={0: [12, 12, 13], 1: [12, 14, 12]})
    s.all_star = [4]
    s = run(s, (0, END_TURN))
    assert sorted((b.kind, b.points) for b in s.badges[0]) == [
        ("all_star", 4),
        ("participation", 6),
    ]
    s = run(s, (1, END_TURN))
    assert [(b.kind, b.points) for b in s.badges[1]] == [("participation", 2)]


def test_the_activity_badge_at_the_end_of_its_path():
    s = arrange(players=3, pawns={0: [18, 3, 3], 1: [18, 2, 2], 2: [17, 18, 2]})
    s = run(s, (0, END_TURN), (1, END_TURN), (2, END_TURN))
    assert [(b.kind, b.points) for b in s.badges[0]] == [("cooking", 10)]
    assert [(b.kind, b.points) for b in s.badges[1]] == [("cooking", 8)]
    assert [(b.kind, b.points) for b in s.badges[2]] == [("outdoors", 10)]
    assert s.activity_badges == [[6], [8, 6], [10, 8, 6]]


def test_the_game_ends_when_every_player_has_had_the_same_number_of_turns():
    s = arrange(players=3, pawns={1: [18, 18, 18]})
    s = run(s, (0, END_TURN), (1, END_TURN))
    assert s.ending and not s.over and GAME.to_act(s) == [2]
    assert any("Blue has all three activity badges" in e.text for e in s.log)
    s = run(s, (2, END_TURN))
    assert s.over and GAME.to_act(s) == [] and GAME.outcome(s) is not None
    assert s.log[-1].text == "Everyone has had the same number of turns: the game is over."


def test_the_start_player_finishing_lets_everyone_else_play_once_more():
    s = arrange(players=3, pawns={0: [18, 18, 18], 2: [18, 18, 18]})
    s = run(s, (0, END_TURN))
    assert s.ending and not s.over
    s = run(s, (1, END_TURN))
    assert not s.over
    s = run(s, (2, END_TURN))
    assert s.over and [len(b) for b in s.badges] == [5, 0, 5]


def finished(pawns, snacks, cards):
    """A 2-player game just over: seat 0 finishes, seat 1 has the given pawns."""
    s = arrange(
        players=2,
        pawns={0: [18, 18, 18], 1: pawns},
        snacks=snacks,
        hands={0: [], 1: []},
        draws={0: [], 1: []},
        discards={0: cards[0], 1: cards[1]},
    )
    return run(s, (0, END_TURN), (1, END_TURN))


def test_the_score_adds_badges_cards_and_lake_points():
    s = finished([13, 17, 4], {0: 1, 1: 2}, [["stew", "lights_out"], ["pizza_making", "hiking"]])
    out = GAME.outcome(s)
    red, blue = out.details["breakdown"]
    assert red == {
        "seat": 0,
        "badges": [
            {"kind": "participation", "points": 6},
            {"kind": "all_star", "points": 8},
            {"kind": "cooking", "points": 10},
            {"kind": "outdoors", "points": 10},
            {"kind": "water_sports", "points": 10},
        ],
        "badge_points": 44,
        "card_points": 2,
        "lake_points": 0,
        "snack_tokens": 1,
        "total": 46,
    }
    assert (blue["badge_points"], blue["card_points"], blue["lake_points"]) == (0, 3, 6)
    assert out.scores == [46, 9] and out.winners == [0]


def test_a_tie_goes_to_the_most_snack_bar_tokens_then_is_shared():
    # Red scores 44 from badges; Blue 44 from cards: 17 cards worth 2 and 10 worth 1.
    twos = (
        ["bacon_and_eggs"] * 4
        + ["stew"] * 3
        + ["marshmallows"] * 3
        + ["hot_cocoa"] * 2
        + ["pizza_making"] * 5
    )
    cards = [["lights_out"], twos + ["hiking"] * 7 + ["fire_making"] * 3]
    s = finished([0, 0, 0], {0: 1, 1: 2}, cards)
    out = GAME.outcome(s)
    assert out.scores == [44, 44] and out.winners == [1]
    s = finished([0, 0, 0], {0: 2, 1: 2}, cards)
    assert GAME.outcome(s).winners == [0, 1]
