import pytest

from engine.core import IllegalMove, play
from engine.hike import GAME
from engine.hike.cards import CARDS
from engine.hike.moves import Continue, Discard, Draw, Join, StayBehind, TakeHike

from .positions import Pool, build, names


def draw_turn(backpacks, hazard, players=2):
    p = Pool()
    packs = {seat: p.many(*cards) for seat, cards in backpacks.items()}
    h = p.take(hazard)
    s = build(p, players, backpacks=packs, draw_top=[h])
    return GAME.apply(s, 0, Draw()), packs, h


def test_raccoon_takes_one_card_of_the_players_choice():
    s, packs, raccoon = draw_turn({0: ["tent", "compass", "granola_bar"]}, "raccoon")
    assert s.phase == "resolve" and GAME.to_act(s) == [0]
    assert sorted(m.card for m in GAME.legal_moves(s, 0)) == sorted(packs[0])
    s = GAME.apply(s, 0, Discard(card=packs[0][1]))
    assert names(s.backpacks[0]) == ["granola_bar", "tent"]
    assert s.discard_pile[-2:] == [raccoon, packs[0][1]]
    assert s.phase == "turn" and s.turn == 1


def test_raccoon_takes_the_only_card_at_once():
    s, packs, raccoon = draw_turn({0: ["tent"]}, "raccoon")
    assert names(s.backpacks[0]) == []
    assert s.phase == "turn" and s.turn == 1
    assert set(s.discard_pile[-2:]) == {raccoon, packs[0][0]}


def test_raccoon_choice_between_identical_cards_is_made_for_the_player():
    s, _, _ = draw_turn({0: ["granola_bar", "granola_bar"]}, "raccoon")
    assert names(s.backpacks[0]) == ["granola_bar"]
    assert s.turn == 1


@pytest.mark.parametrize("hazard", ["raccoon", "skunk", "blister"])
def test_an_empty_backpack_ignores_the_hazard(hazard):
    s, _, h = draw_turn({1: ["tent"]}, hazard)
    assert s.phase == "turn" and s.turn == 1
    assert s.discard_pile[-1] == h
    assert names(s.backpacks[1]) == ["tent"]


def test_skunk_takes_two_cards_one_choice_at_a_time():
    s, packs, _ = draw_turn({0: ["tent", "compass", "camera"]}, "skunk")
    tent, compass, camera = packs[0]
    s = GAME.apply(s, 0, Discard(card=camera))
    assert s.phase == "resolve" and s.debts[0].count == 1
    assert sorted(m.card for m in GAME.legal_moves(s, 0)) == sorted([tent, compass])
    with pytest.raises(IllegalMove, match="not in your backpack"):
        GAME.apply(s, 0, Discard(card=camera))
    s = GAME.apply(s, 0, Discard(card=tent))
    assert names(s.backpacks[0]) == ["compass"]
    assert s.phase == "turn" and s.turn == 1


@pytest.mark.parametrize("held", [["tent"], ["tent", "compass"]])
def test_skunk_with_two_cards_or_fewer_takes_them_all(held):
    s, _, _ = draw_turn({0: held}, "skunk")
    assert names(s.backpacks[0]) == []
    assert s.turn == 1


def test_blister_takes_the_highest_miles_card():
    s, packs, _ = draw_turn({0: ["camera", "compass", "granola_bar"]}, "blister")
    assert names(s.backpacks[0]) == ["compass", "granola_bar"]
    assert packs[0][0] in s.discard_pile
    assert s.turn == 1


def test_blister_lets_the_player_choose_among_tied_cards():
    s, packs, _ = draw_turn({0: ["tent", "sleeping_bag", "compass"]}, "blister")
    tent, bag, compass = packs[0]
    assert sorted(m.card for m in GAME.legal_moves(s, 0)) == sorted([tent, bag])
    with pytest.raises(IllegalMove, match="most miles"):
        GAME.apply(s, 0, Discard(card=compass))
    s = GAME.apply(s, 0, Discard(card=bag))
    assert names(s.backpacks[0]) == ["compass", "tent"]


def test_socks_stop_a_blister_and_stay():
    s, _, blister = draw_turn({0: ["tent", "socks"]}, "blister")
    assert names(s.backpacks[0]) == ["socks", "tent"]
    assert s.discard_pile[-1] == blister
    assert s.turn == 1


def test_bear_eats_everyones_granola_bars_but_not_behind_bear_spray():
    s, _, bear = draw_turn(
        {
            0: ["granola_bar", "tent"],
            1: ["granola_bar", "granola_bar", "compass"],
            2: ["granola_bar", "bear_spray"],
        },
        "bear",
        players=3,
    )
    assert names(s.backpacks[0]) == ["tent"]
    assert names(s.backpacks[1]) == ["compass"]
    assert names(s.backpacks[2]) == ["bear_spray", "granola_bar"]
    assert s.discard_pile[-1] == bear or bear in s.discard_pile
    assert s.turn == 1 and s.phase == "turn"


def start_hike(backpacks, top, players=3, joiners=(1,)):
    """Seat 0 takes a hike; ``joiners`` join, the others stay; ``top`` is turned up."""
    p = Pool()
    packs = {seat: p.many(*cards) for seat, cards in backpacks.items()}
    top_ids = [p.take(n) for n in top]
    s = build(p, players, backpacks=packs, draw_top=top_ids)
    s = play(GAME, s, 0, TakeHike())
    while s.phase == "join":
        seat = GAME.to_act(s)[0]
        s = play(GAME, s, seat, Join() if seat in joiners else StayBehind())
    return s, packs, top_ids


def test_a_hazard_on_a_hike_hits_every_hiker_at_once_and_no_one_else():
    s, packs, _ = start_hike(
        {0: ["tent", "compass"], 1: ["camera", "map"], 2: ["socks", "pans"]}, ["raccoon"]
    )
    assert s.phase == "resolve"
    assert GAME.to_act(s) == [0, 1]
    assert s.debts[2] is None
    s = play(GAME, s, 1, Discard(card=packs[1][0]))
    assert GAME.to_act(s) == [0]
    s = play(GAME, s, 0, Discard(card=packs[0][1]))
    assert names(s.backpacks[0]) == ["tent"]
    assert names(s.backpacks[1]) == ["map"]
    assert names(s.backpacks[2]) == ["pans", "socks"]
    assert s.phase == "decide" and GAME.to_act(s) == [0]
    raccoon = s.hike.pile[-1]
    assert CARDS[raccoon].name == "raccoon"


def test_the_bear_on_a_hike_eats_only_the_hikers_granola_bars():
    s, _, _ = start_hike(
        {
            0: ["granola_bar", "tent"],
            1: ["granola_bar", "bear_spray"],
            2: ["granola_bar", "granola_bar"],
        },
        ["bear"],
    )
    assert names(s.backpacks[0]) == ["tent"]
    assert names(s.backpacks[1]) == ["bear_spray", "granola_bar"]
    assert names(s.backpacks[2]) == ["granola_bar", "granola_bar"]
    assert s.phase == "decide"


def test_blister_on_a_hike_spares_the_hiker_with_socks():
    s, _, _ = start_hike({0: ["tent", "socks"], 1: ["camera", "compass"]}, ["blister"])
    assert names(s.backpacks[0]) == ["socks", "tent"]
    assert names(s.backpacks[1]) == ["compass"]
    assert s.phase == "decide"


def test_a_hiker_left_empty_by_a_hazard_drops_out_without_scoring():
    s, packs, _ = start_hike(
        {0: ["tent", "compass", "camera", "flashlight", "pans"], 1: ["map", "socks"]},
        ["granola_bar", "skunk"],
        players=2,
    )
    # neither holds a Granola Bar: it costs each of them 1 mile
    while s.phase == "resolve":
        seat = GAME.to_act(s)[0]
        s = play(GAME, s, seat, GAME.legal_moves(s, seat)[0])
    s = play(GAME, s, 0, Continue())
    s = play(GAME, s, 1, Continue())
    # the Skunk takes seat 1's last card at once; seat 0 chooses two
    assert names(s.backpacks[1]) == []
    assert GAME.to_act(s) == [0]
    for _ in range(2):
        s = play(GAME, s, 0, GAME.legal_moves(s, 0)[0])
    assert s.hike.hikers == [0] and s.hike.joined == [0, 1]
    assert s.scoring[1] == []
    assert s.phase == "decide" and GAME.to_act(s) == [0]
    assert "Player 2's backpack is empty: out of the hike without scoring." in [
        e.text for e in s.log
    ]
