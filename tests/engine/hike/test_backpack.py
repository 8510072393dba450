import pytest

from engine.core import IllegalMove
from engine.hike import GAME
from engine.hike import setup as hike_setup
from engine.hike import backpack as bpk
from engine.hike.cards import CARDS, DECK_SIZE, SPACES
from engine.hike.moves import Discard, Draw, Pack

from .positions import Pool, build, names


def test_two_tents_do_not_fit():
    p = Pool()
    assert not bpk.fits(p.many("tent", "tent"))


def test_two_maps_and_a_frying_pan_do_not_fit():
    p = Pool()
    assert bpk.fits(p.many("map", "map"))
    assert not bpk.fits(p.many("map", "map", "pans"))


def test_a_backpack_full_of_granola_bars():
    p = Pool()
    bars = p.many(*["granola_bar"] * 7)
    arranged = bpk.arrange(bars)
    assert arranged is not None and sorted(bpk.contents(arranged)) == sorted(bars)
    assert not bpk.fits([*bars, p.take("granola_bar")])


def test_two_walking_sticks_fit_in_both_hands_but_not_three():
    p = Pool()
    sticks = p.many("walking_stick", "walking_stick")
    arranged = bpk.arrange(sticks)
    assert {s for s, c in arranged.items() if c is not None} == {"left_hand", "right_hand"}
    assert not bpk.fits([*sticks, p.take("walking_stick")])


def test_an_arrangement_respects_every_cards_diagram():
    p = Pool()
    cards = p.many(
        "tent", "compass", "compass", "camera", "walking_stick", "sleeping_bag", "flashlight"
    )
    arranged = bpk.arrange(cards)
    assert arranged is not None
    for space, c in arranged.items():
        assert c is None or CARDS[c].fits(space)


def test_packing_rearranges_only_what_it_must():
    p = Pool()
    compass, bar, tent = p.many("compass", "granola_bar", "tent")
    bp = bpk.empty()
    bp["top"], bp["left_hand"] = compass, bar
    packed = bpk.pack_at(bp, tent, "top")
    assert packed["top"] == tent
    assert packed["left_hand"] == bar
    assert packed["left_pocket"] == compass or packed["right_pocket"] == compass
    assert bp["top"] == compass  # the original is untouched


def test_pack_spaces_lists_every_space_where_everything_still_fits():
    p = Pool()
    pans, compass, cam1, cam2 = p.many("pans", "compass", "camera", "camera")
    arranged = bpk.arrange([pans, cam1, cam2])
    # Pans top or middle, two cameras in middle/pockets: the Compass goes top or a pocket,
    # but only where the three others can still be rearranged around it.
    spaces = bpk.pack_spaces(arranged, compass)
    assert set(spaces) <= {"top", "left_pocket", "right_pocket"}
    for sp in spaces:
        assert bpk.pack_at(arranged, compass, sp)[sp] == compass
    assert spaces  # Pans middle, Compass top, Cameras in pockets works


def test_fit_discards_lists_the_cards_whose_removal_makes_room():
    p = Pool()
    map1, map2, pans, bar = p.many("map", "map", "pans", "granola_bar")
    bp = bpk.arrange([map1, map2, bar])
    assert set(bpk.fit_discards(bp, pans)) == {map1, map2, pans}


def test_drawing_an_item_that_fits_offers_its_spaces_only():
    p = Pool()
    compass, tent = p.many("compass", "tent")
    s = build(p, 2, backpacks={0: [compass]}, draw_top=[tent])
    s = GAME.apply(s, 0, Draw())
    assert s.phase == "pack" and s.pending == tent
    assert GAME.legal_moves(s, 0) == [Pack(space="top")]
    with pytest.raises(IllegalMove, match="The Tent fits only in the top of the backpack."):
        GAME.apply(s, 0, Pack(space="middle"))
    with pytest.raises(IllegalMove, match="fits: pack it"):
        GAME.apply(s, 0, Discard(card=compass))
    s = GAME.apply(s, 0, Pack(space="top"))
    assert s.backpacks[0]["top"] == tent
    assert s.backpacks[0]["left_pocket"] == compass or s.backpacks[0]["right_pocket"] == compass
    assert s.pending is None and s.turn == 1 and s.phase == "turn"


def test_a_second_tent_means_discarding_a_tent():
    p = Pool()
    tent, bar, tent2 = p.many("tent", "granola_bar", "tent")
    s = build(p, 2, backpacks={0: [tent, bar]}, draw_top=[tent2])
    s = GAME.apply(s, 0, Draw())
    assert GAME.legal_moves(s, 0) == [Discard(card=tent2)]
    assert GAME.describe(s, 0, Discard(card=tent2)) == "Discard the new Tent"
    with pytest.raises(IllegalMove, match="discard a card"):
        GAME.apply(s, 0, Pack(space="top"))
    with pytest.raises(IllegalMove, match="would not make everything fit"):
        GAME.apply(s, 0, Discard(card=bar))
    # the Tent already packed is interchangeable with the new one: either may go
    after = GAME.apply(s, 0, Discard(card=tent))
    assert after.backpacks[0]["top"] == tent2 and tent in after.discard_pile


def test_discarding_a_map_makes_room_for_the_pans():
    p = Pool()
    map1, map2, pans = p.many("map", "map", "pans")
    s = build(p, 2, backpacks={0: [map1, map2]}, draw_top=[pans])
    s = GAME.apply(s, 0, Draw())
    legal = GAME.legal_moves(s, 0)
    # the new card first, then one Map (the two are interchangeable)
    assert legal[0] == Discard(card=pans)
    assert len(legal) == 2 and legal[1].card in (map1, map2)
    s = GAME.apply(s, 0, Discard(card=map2))
    assert names(s.backpacks[0]) == ["map", "pans"]
    assert s.discard_pile[-1] == map2


def test_deal_discards_hazards_and_redraws_items():
    p = Pool()
    raccoon, skunk = p.take("raccoon"), p.take("skunk")
    t1, t2, bar, cam, sock = p.many("tent", "tent", "granola_bar", "camera", "socks")
    extra1, extra2 = p.many("compass", "flashlight")
    seat1 = p.many("map", "map", "pans", "water_bottle", "bear_spray")
    # dealt one at a time: seat 0 gets t1, raccoon, bar, skunk, t2; seat 1 its five
    top = [t1, seat1[0], raccoon, seat1[1], bar, seat1[2], skunk, seat1[3], t2, seat1[4]]
    below = [cam, sock, extra1, extra2]  # the two redraws come from here, in this order
    draw = [*reversed(below), *reversed(top)]
    dealt, discard = hike_setup.deal(draw, 2)
    assert dealt[0] == [t1, bar, t2, cam, sock]
    assert dealt[1] == seat1
    assert sorted(discard) == sorted([raccoon, skunk])
    assert draw == [extra2, extra1]


def test_a_hand_that_does_not_fit_offers_every_card_some_fitting_choice_leaves_out():
    p = Pool()
    map1, map2, tent = p.many("map", "map", "tent")
    # Two Maps fill the top and the middle; the Tent only goes on top. Keeping the Tent and
    # one Map is as good a backpack as keeping both Maps: the player chooses.
    assert sorted(hike_setup.setup_discards([map1, map2, tent])) == sorted([map1, map2, tent])
    assert hike_setup.setup_discards([map1, tent]) == []


def test_setup_discards_never_leave_out_a_card_that_would_still_fit():
    p = Pool()
    t1, t2, bar = p.many("tent", "tent", "granola_bar")
    # One Tent must go; the Granola Bar fits whichever Tent stays.
    assert sorted(hike_setup.setup_discards([t1, t2, bar])) == sorted([t1, t2])


def _dealt_state(hands: dict[int, list[int]], players: int = 2, turn: int = 0):
    """A state in the setup phase with ``hands`` dealt and every other card in the draw pile."""
    s = GAME.setup(players, GAME.options({}), 1)
    used = {c for hand in hands.values() for c in hand}
    return s.model_copy(
        update={
            "phase": "setup",
            "turn": turn,
            "draw_pile": [c for c in range(DECK_SIZE) if c not in used],
            "discard_pile": [],
            "backpacks": [bpk.empty() for _ in range(players)],
            "dealt": [list(hands.get(seat, [])) for seat in range(players)],
        }
    )


def test_the_player_chooses_which_dealt_item_to_leave_out():
    p = Pool()
    map1, map2, tent = p.many("map", "map", "tent")
    s = _dealt_state({0: [map1, map2, tent]})
    assert GAME.to_act(s) == [0]
    # One choice per item: the two Maps are interchangeable.
    assert GAME.legal_moves(s, 0) == [Discard(card=map1), Discard(card=tent)]
    assert GAME.describe(s, 0, Discard(card=tent)) == "Leave out the Tent (4 mi)"
    after = GAME.apply(s, 0, Discard(card=map1))
    assert names(after.backpacks[0]) == ["map", "tent"]
    assert after.phase == "turn"
    assert after.dealt == [[], []]
    # The discarded Map went back into the reshuffled draw pile.
    assert after.discard_pile == []
    assert sorted(after.draw_pile) == sorted([*s.draw_pile, map1])
    texts = [e.text for e in after.log]
    assert "Player 1 has no room for the Map (3 mi) and discards it." in texts
    assert "Each player packed a backpack. Player 1 starts (drawn at random)." in texts


def test_several_seats_with_too_many_items_decide_at_once():
    p = Pool()
    a = p.many("map", "map", "tent")
    b = p.many("pans", "pans", "tent")
    s = _dealt_state({0: a, 1: b}, players=3, turn=1)
    assert GAME.to_act(s) == [1, 0]
    s = GAME.apply(s, 0, Discard(card=a[2]))
    assert GAME.to_act(s) == [1] and s.phase == "setup"
    assert names(s.backpacks[0]) == ["map", "map"]
    with pytest.raises(IllegalMove):
        GAME.apply(s, 0, Discard(card=a[0]))
    s = GAME.apply(s, 1, Discard(card=b[0]))
    assert s.phase == "turn" and s.turn == 1


def test_a_discard_nobody_could_choose_differently_is_made_at_setup():
    p = Pool()
    t1, t2, bar = p.many("tent", "tent", "granola_bar")
    s = _dealt_state({0: [t1, t2, bar]})
    hike_setup.pack_dealt(s, 0)
    assert names(s.backpacks[0]) == ["granola_bar", "tent"]
    assert s.dealt[0] == []


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_setup_packs_only_items_and_shuffles_the_discards_back(players):
    starters = set()
    for seed in range(40):
        s = GAME.setup(players, GAME.options({}), seed)
        while s.phase == "setup":
            seat = GAME.to_act(s)[0]
            s = GAME.apply(s, seat, GAME.legal_moves(s, seat)[0])
        starters.add(s.turn)
        packed = [c for bp in s.backpacks for c in bpk.contents(bp)]
        assert all(CARDS[c].is_item for c in packed)
        assert all(1 <= len(bpk.contents(bp)) <= 5 for bp in s.backpacks)
        assert s.discard_pile == []
        assert sorted(packed + s.draw_pile) == list(range(DECK_SIZE))
        for bp in s.backpacks:
            assert set(bp) == set(SPACES)
            assert all(c is None or CARDS[c].fits(sp) for sp, c in bp.items())
    # The first player is drawn at random, not always the host's seat.
    assert starters == set(range(players))
