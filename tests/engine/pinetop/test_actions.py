"""Each action's restrictions, setup, and the hand limit."""

import random

import pytest

from engine.core import IllegalMove
from engine.pinetop import GAME
from engine.pinetop.cards import MAP_CARDS, SUPPLY
from engine.pinetop.setup import STARTING_HANDS

from .conftest import BLUE, RED, YELLOW, arrange, do, legal, set_face_up, take_cards

DECK = {"type": "draw_deck"}


def take(slot):
    return {"type": "take", "slot": slot}


def move(start, to, patch=False, tower=False):
    return {"type": "move", "start": start, "to": to, "patch": patch, "tower": tower}


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_setup_by_player_count(players):
    s = GAME.setup(players, GAME.options({}), 3)
    cols = 3 if players <= 3 else 4
    assert (s.cols, s.rows, len(s.grid)) == (cols, 4, cols * 4)
    colours = [MAP_CARDS[c].colour for c in s.grid]
    expected = (4, 4, 4) if players <= 3 else (6, 5, 5)
    assert tuple(colours.count(c) for c in ("green", "blue", "grey")) == expected
    order = [(s.first + i) % players for i in range(players)]
    assert [len(s.hands[x]) for x in order] == list(STARTING_HANDS[players])
    assert len(s.masteries) == 4 and all(x is not None for x in s.face_up)
    assert len(s.deck) + sum(map(len, s.hands)) + 4 == 68
    assert s.phase == "setup" and s.active == s.first


def test_setup_placements_in_turn_order_pay_the_occupants():
    s = GAME.setup(3, GAME.options({}), 4)
    assert s.first == RED  # seed 4 draws Red to start
    s = do(s, {"type": "place", "to": 4})
    assert s.active == BLUE and s.phase == "setup"
    s = do(s, {"type": "place", "to": 4})
    gifts = legal(s)
    assert gifts and all(m["type"] == "give" and m["to"] == RED for m in gifts)
    s = do(s, gifts[0])
    assert len(s.hands[RED]) == 6 and len(s.hands[BLUE]) == 5
    s = do(s, {"type": "place", "to": 0})
    assert s.turn == 1 and s.active == RED and s.phase == "action"
    assert s.campers_left == [3, 3, 3]


def test_draw_two_from_the_deck():
    s = arrange()
    n = len(s.hands[RED])
    s = do(do(s, DECK), DECK)
    assert len(s.hands[RED]) == n + 2 and s.active == BLUE


def test_never_both_sides_and_a_face_up_card_is_replaced():
    s = arrange()
    set_face_up(s, "wood", "water", "food", "rope")
    s = do(s, take(0))
    assert s.face_up[0] is not None and s.draw_side == "left"
    assert take(1) in legal(s) and take(2) not in legal(s) and take(3) not in legal(s)
    with pytest.raises(IllegalMove, match="both sides"):
        do(s, take(2))
    assert DECK in legal(s)


def test_deck_then_either_side():
    s = arrange()
    set_face_up(s, "wood", "water", "food", "rope")
    s = do(s, DECK)
    assert {take(i)["slot"] for i in range(4)} == {
        m["slot"] for m in legal(s) if m["type"] == "take"
    }


def test_a_face_up_wild_only_alone():
    s = arrange()
    set_face_up(s, "wild", "water", "food", "rope")
    after_one = do(s, take(1))
    assert take(0) not in legal(after_one)
    with pytest.raises(IllegalMove, match="only card"):
        do(after_one, take(0))
    s = do(s, take(0))
    assert s.active == BLUE  # the wild ended the draw


def test_stop_after_one_card():
    s = arrange()
    s = do(s, DECK)
    assert {"type": "stop"} in legal(s)
    s = do(s, {"type": "stop"})
    assert s.active == BLUE


REFRESH = {"type": "refresh", "keep": None}


def test_refresh_three_matching_face_up_cards_then_draw_two():
    s = arrange(campers={4: [RED]})
    set_face_up(s, "wood", "water", "wood", "wood")
    s.deck += take_cards(s, "rope", "food", "water")  # the next three: no match
    assert REFRESH in legal(s)
    old = list(s.face_up)
    s = do(s, REFRESH)
    assert s.face_up[1] == old[1] and all(s.face_up[i] != old[i] for i in (0, 2, 3))
    assert {old[i] for i in (0, 2, 3)} <= set(s.discard)
    assert {m["type"] for m in legal(s)} <= {"draw_deck", "take"}
    # The refresh is part of the Draw Two action: no Draw & Move after it.
    s = do(s, DECK)
    assert s.phase == "draw" and {m["type"] for m in legal(s)} <= {"draw_deck", "take", "stop"}


def test_with_four_matching_the_player_keeps_the_one_they_choose():
    s = arrange()
    set_face_up(s, "wood", "wood", "wood", "wood")
    s.deck += take_cards(s, "rope", "food", "water")
    assert [m for m in legal(s) if m["type"] == "refresh"] == [
        {"type": "refresh", "keep": i} for i in range(4)
    ]
    kept = s.face_up[2]
    s = do(s, {"type": "refresh", "keep": 2})
    assert s.face_up[2] == kept and kept not in s.discard


def test_the_player_chooses_whether_to_refresh_again():
    s = arrange()
    set_face_up(s, "wood", "water", "wood", "wood")
    s.deck += take_cards(s, "rope", "food", "water", "food", "food", "food")
    s = do(s, REFRESH)  # the three new ones are food: the player may go on, or draw
    assert REFRESH in legal(s) and DECK in legal(s)
    s = do(s, REFRESH)
    assert sorted(SUPPLY[s.face_up[i]].suits[0] for i in (0, 2, 3)) == ["food", "rope", "water"]
    assert REFRESH not in legal(s)


def test_three_matching_cards_are_judged_at_the_start_of_the_turn():
    # "If at least 3 of the face-up cards have the same supply symbol at the start of a
    # player's turn": a card turned up later in the turn (here by a borrowed Campfire before
    # the action) does not make three.
    s = arrange(options={"friendship": True}, patches={BLUE: {"campfire": False}})
    s.friendship[RED] = "held"
    set_face_up(s, "wood", "water", "wood", "food")
    s.deck += take_cards(s, "wood")  # turned up in place of the card taken
    assert REFRESH not in legal(s)
    s = do(s, {"type": "friendship", "owner": BLUE, "patch": "campfire"})
    s = do(s, take(1))
    assert [SUPPLY[c].suits for c in s.face_up].count(("wood",)) == 3
    assert s.phase == "action" and REFRESH not in legal(s)
    # Three matching at the start, one of them taken before the action: the three matching
    # cards are no longer there to discard, even when the card turned up matches too.
    s = arrange(options={"friendship": True}, patches={BLUE: {"campfire": False}})
    s.friendship[RED] = "held"
    set_face_up(s, "wood", "water", "wood", "wood")
    s.deck += take_cards(s, "wood")
    assert REFRESH in legal(s)
    s = do(s, {"type": "friendship", "owner": BLUE, "patch": "campfire"})
    s = do(s, take(0))
    assert [SUPPLY[c].suits for c in s.face_up].count(("wood",)) == 3
    assert REFRESH not in legal(s)


def test_a_free_move_before_the_action_keeps_the_refresh():
    s = arrange(campers={4: [RED]}, patches={RED: {"trailblazer": False}})
    set_face_up(s, "wood", "water", "wood", "wood")
    s = do(s, {"type": "step", "start": 4, "to": 5})
    assert s.phase == "action" and REFRESH in legal(s)


def test_no_refresh_without_three_matching():
    s = arrange()
    set_face_up(s, "wood", "water", "wood", "rope")
    assert REFRESH not in legal(s)


def test_draw_and_move_moves_without_a_patch():
    s = arrange(campers={4: [RED]}, hands={RED: []})
    s = do(s, DECK)
    assert move(4, 5) in legal(s) and move(4, 5, patch=True) not in legal(s)
    s = do(s, move(4, 5))
    assert s.campers[5] == [RED] and s.patches[RED] == {} and s.active == BLUE


def test_draw_and_move_in_either_order():
    # "Draw one supply card and move one camper to a new map location": the words set no
    # order. The move first, then one card: from the deck or a face-up card of either side,
    # never a wild ("Draw a single face up, non-wild, supply card"), and no second card.
    s = arrange(campers={4: [RED]}, hands={RED: []})
    set_face_up(s, "wild", "water", "food", "rope")
    assert move(4, 5) in legal(s)
    s = do(s, move(4, 5))
    assert s.campers[5] == [RED] and s.phase == "draw" and s.active == RED
    assert {m["type"] for m in legal(s)} == {"draw_deck", "take"}
    assert {m["slot"] for m in legal(s) if m["type"] == "take"} == {1, 2, 3}
    with pytest.raises(IllegalMove, match="moved"):
        do(s, move(5, 4))
    with pytest.raises(IllegalMove, match="wild"):
        do(s, take(0))
    water = s.face_up[1]
    s = do(s, take(1))
    assert s.hands[RED] == [water] and s.patches[RED] == {} and s.active == BLUE
    # Joining another player's camper first: the gift comes from the hand as it is.
    s = arrange(campers={4: [RED], 5: [BLUE]}, hands={RED: ["wood"]})
    s = do(s, move(4, 5))
    s = do(s, {"type": "give", "card": s.hands[RED][0], "to": BLUE})
    assert s.phase == "draw" and s.hands[RED] == []
    s = do(s, DECK)
    assert len(s.hands[RED]) == 1 and s.active == BLUE
    # Without a card to give, that move is not offered before the draw.
    s = arrange(campers={4: [RED], 5: [BLUE]}, hands={RED: []})
    assert move(4, 5) not in legal(s) and move(4, 3) in legal(s)


def test_moves_are_orthogonal_only():
    s = arrange(campers={4: [RED]}, hands={RED: ["wild"] * 4})
    s.hands[RED] = [c.id for c in SUPPLY if c.wild and not c.suits]
    destinations = {m["to"] for m in legal(s) if m["type"] == "move"}
    assert destinations <= {1, 3, 5, 7} and destinations
    with pytest.raises(IllegalMove):
        do(s, move(4, 0, patch=True))


def test_a_patch_move_needs_the_cost():
    s = arrange(grid={1: "Penelope's Landing"}, campers={0: [RED]}, hands={RED: ["wood", "food"]})
    assert move(0, 1, patch=True) not in legal(s)
    s = arrange(
        grid={1: "Penelope's Landing"}, campers={0: [RED]}, hands={RED: ["wood", "water", "food"]}
    )
    assert move(0, 1, patch=True) in legal(s)
    s = do(s, move(0, 1, patch=True))
    food = s.hands[RED][2]
    with pytest.raises(IllegalMove, match="does not help"):
        do(s, {"type": "pay", "card": food})


def test_one_gift_per_player_however_many_campers():
    s = arrange(
        players=3,
        grid={1: "Penelope's Landing"},
        campers={0: [RED], 1: [BLUE, BLUE, YELLOW]},
        hands={RED: ["wood", "water", "food", "rope"]},
    )
    s = do(s, move(0, 1, patch=True))
    assert s.pending.gifts == 2 and s.pending.owed == (BLUE, YELLOW)


def test_gifts_must_be_affordable():
    s = arrange(
        players=3,
        grid={1: "Penelope's Landing"},
        campers={0: [RED], 1: [BLUE, YELLOW]},
        hands={RED: ["wood", "water", "food"]},
    )
    assert move(0, 1, patch=True) not in legal(s)


def test_an_advanced_patch_cannot_be_gained_again():
    s = arrange(
        grid={1: "Penelope's Landing"},
        campers={0: [RED]},
        hands={RED: ["wood", "water"]},
        patches={RED: {"trailblazer": True}},
    )
    assert move(0, 1, patch=True) not in legal(s)
    s = arrange(
        grid={1: "Penelope's Landing"},
        campers={0: [RED]},
        hands={RED: ["wood", "water"]},
        patches={RED: {"trailblazer": False}},
    )
    s = do(s, move(0, 1, patch=True))
    for card in list(s.hands[RED]):
        s = do(s, {"type": "pay", "card": card})
    assert s.patches[RED] == {"trailblazer": True}
    assert "Red's Trailblazer turns advanced." in [e.text for e in s.log]


def test_placing_needs_a_matching_tent_pair_and_a_camper_left():
    s = arrange(
        grid={4: "Blue Jug Lodge"}, campers={0: [RED]}, hands={RED: ["wood/green", "food/blue"]}
    )
    assert {"type": "place", "to": 4} not in legal(s)
    s = arrange(
        grid={4: "Blue Jug Lodge"},
        campers={0: [RED, RED, RED, RED]},
        hands={RED: ["wood/green", "food/green"]},
    )
    assert s.campers_left[RED] == 0
    assert all(m["type"] != "place" for m in legal(s))


def test_hand_limit_at_the_end_of_the_turn():
    s = arrange(hands={RED: ["wood"] * 8})
    s = do(do(s, DECK), DECK)
    assert s.phase == "discard" and s.active == RED
    s = do(s, legal(s)[0])
    assert s.phase == "discard"
    s = do(s, legal(s)[0])
    assert len(s.hands[RED]) == 8 and s.active == BLUE


def test_illegal_moves_leave_the_state_alone():
    s = arrange()
    before = s.model_dump()
    with pytest.raises(IllegalMove, match="not your turn"):
        do(s, DECK, seat=BLUE)
    with pytest.raises(IllegalMove):
        do(s, {"type": "pay", "card": 3})
    assert s.model_dump() == before


def test_any_move_is_applied_or_refused_with_a_reason():
    """Moves with every field value the schema allows, at states of a whole game: each is
    either legal or an IllegalMove, never another error."""
    rng = random.Random(4)
    s = GAME.setup(2, GAME.options({"friendship": True, "nature": True, "tower": True}), 4)
    samples = [
        {"type": "take", "slot": 3},
        {"type": "refresh"},
        {"type": "stop"},
        {"type": "skip"},
        {"type": "pass"},
        {"type": "draw_deck"},
        {"type": "move", "start": 15, "to": 14, "patch": True, "tower": True},
        {"type": "move", "start": 0, "to": 15},
        {"type": "step", "start": 13, "to": 1},
        {"type": "place", "to": 15},
        {"type": "give", "card": 77, "to": 4},
        {"type": "pay", "card": 70},
        {"type": "discard", "card": 0},
        {"type": "claim", "mastery": "nope", "spot": 3},
        {"type": "friendship", "owner": 4, "patch": "forager"},
    ]
    steps = 0
    while GAME.outcome(s) is None and steps < 400:
        seat = GAME.to_act(s)[0]
        for move in samples:
            for who in (seat, 1 - seat):
                try:
                    do(s, move, seat=who)
                except IllegalMove as exc:
                    assert exc.reason
        s = GAME.apply(s, seat, rng.choice(GAME.legal_moves(s, seat)))
        steps += 1
