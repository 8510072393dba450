import pytest

from engine.core import IllegalMove, play
from engine.hike import GAME
from engine.hike.cards import CARDS
from engine.hike.moves import Continue, Discard, Draw, DropOut, Join, Pack, StayBehind, TakeHike
from engine.hike.state import Hike

from .positions import Pool, all_cards, build, names


def miles(cards):
    return sum(CARDS[c].miles for c in cards)


def rulebook_example(lucky: bool):
    """Reteka (0) leads Madison (1) and Ken (2); seat 3 stayed at camp. The hiking pile holds
    a Granola Bar, a Water Bottle and a Sleeping Bag; Ken has only two cards left."""
    p = Pool()
    bar, water, bag = p.many("granola_bar", "water_bottle", "sleeping_bag")
    packs = {
        0: p.many("tent"),
        1: p.many("compass", "camera"),
        2: p.many("flashlight", "map"),
        3: p.many("pans", "socks"),
    }
    top = p.take("flashlight") if lucky else p.take("skunk")
    hike = Hike(
        lead=0,
        original_lead=0,
        joined=[0, 1, 2],
        hikers=[0, 1, 2],
        pile=[bar, water, bag],
        to_ask=[0, 1, 2],
    )
    s = build(p, 4, backpacks=packs, draw_top=[top], hike=hike, phase="decide")
    return s, packs, (bar, water, bag, top)


def test_rulebook_example_dropping_out_of_a_hike():
    s, packs, (bar, water, bag, skunk) = rulebook_example(lucky=False)
    assert GAME.to_act(s) == [0]
    legal = GAME.legal_moves(s, 0)
    assert legal == [
        Continue(),
        DropOut(score=bar),
        DropOut(score=water),
        DropOut(score=bag),
        DropOut(),
    ]
    assert GAME.describe(s, 0, DropOut(score=bag)) == "Drop out and score the Sleeping Bag (4 mi)"

    s = play(GAME, s, 0, DropOut(score=bag))  # Reteka: the Sleeping Bag, four miles
    said = [e.text for e in s.log]
    assert s.scoring[0] == [bag] and s.hike.pile == [bar, water]
    assert s.hike.lead == 1 and GAME.to_act(s) == [1]

    s = play(GAME, s, 1, DropOut(score=water))  # Madison: the Water Bottle, two miles
    said += [e.text for e in s.log]
    assert s.scoring[1] == [water]
    assert s.hike.lead == 2 and s.hike.hikers == [2]  # Ken is now the lead hiker

    assert GAME.legal_moves(s, 2) == [Continue(), DropOut()]
    assert GAME.describe(s, 2, DropOut()) == "Drop out and score all 1 card (1 mi)"
    s = play(GAME, s, 2, Continue())  # he turns up the Skunk, with only two cards
    said += [e.text for e in s.log]

    assert names(s.backpacks[2]) == []
    assert s.scoring[2] == []
    assert s.hike is None
    assert {bar, skunk, *packs[2]} <= set(s.discard_pile)  # the Granola Bar is discarded
    assert s.phase == "turn" and s.turn == 1  # the player to Reteka's left
    assert [miles(p) for p in s.scoring] == [4, 2, 0, 0]
    assert names(s.backpacks[3]) == ["pans", "socks"]
    assert sorted(all_cards(s)) == list(range(102))
    assert said == [
        "Player 1 drops out and scores the Sleeping Bag (4 mi).",
        "Player 2 is now the lead hiker.",
        "Player 2 drops out and scores the Water Bottle (2 mi).",
        "Player 3 is now the lead hiker.",
        "Player 3 continues.",
        "Player 3 turns up the Skunk!",
        "Player 3 discards the Map (3 mi) to the Skunk.",
        "Player 3 discards the Flashlight (2 mi) to the Skunk.",
        "Player 3's backpack is empty: out of the hike without scoring.",
        "The hike is over. Player 2's turn.",
    ]


def test_rulebook_example_if_ken_had_been_lucky():
    s, packs, (bar, water, bag, flashlight) = rulebook_example(lucky=True)
    s = play(GAME, s, 0, DropOut(score=bag))
    s = play(GAME, s, 1, DropOut(score=water))
    s = play(GAME, s, 2, Continue())
    assert names(s.backpacks[2]) == ["flashlight", "map"]  # he had a Flashlight: safe
    assert s.phase == "decide" and GAME.to_act(s) == [2]
    with pytest.raises(IllegalMove, match="last hiker"):
        play(GAME, s, 2, DropOut(score=bar))
    s = play(GAME, s, 2, DropOut())
    assert sorted(s.scoring[2]) == sorted([bar, flashlight])
    assert miles(s.scoring[2]) == 3
    assert s.hike is None and s.turn == 1


def test_hike_needs_a_card_in_the_backpack():
    p = Pool()
    s = build(p, 2, backpacks={1: p.many("tent")})
    assert GAME.legal_moves(s, 0) == [Draw()]
    with pytest.raises(IllegalMove, match="at least one card"):
        GAME.apply(s, 0, TakeHike())
    assert GAME.legal_moves(s, 1) == []


def test_joining_is_asked_clockwise_from_the_lead_and_skips_empty_backpacks():
    p = Pool()
    packs = {0: p.many("tent"), 1: p.many("map"), 2: p.many("camera"), 3: []}
    s = build(p, 4, backpacks=packs, turn=2)
    s = play(GAME, s, 2, TakeHike())
    assert s.phase == "join" and s.hike.to_ask == [0, 1]
    assert GAME.to_act(s) == [0] and GAME.legal_moves(s, 0) == [Join(), StayBehind()]
    with pytest.raises(IllegalMove, match="not your turn"):
        play(GAME, s, 1, Join())
    with pytest.raises(IllegalMove, match="join"):
        GAME.apply(s, 0, Draw())
    s = play(GAME, s, 0, Join())
    s = play(GAME, s, 1, StayBehind())
    assert s.hike.joined == [2, 0] and s.hike.hikers == [2, 0]
    assert len(s.hike.pile) == 1  # the lead hiker turned up the first card


def test_a_lone_hiker_is_lead_and_last_and_play_resumes_to_the_left():
    p = Pool()
    tent, cam, tent2, cam2 = p.many("tent", "camera", "tent", "camera")
    s = build(p, 3, backpacks={1: [tent, cam]}, draw_top=[tent2, cam2], turn=1)
    s = play(GAME, s, 1, TakeHike())  # nobody else has a card: no one is asked
    assert s.phase == "decide" and s.hike.pile == [tent2]
    s = play(GAME, s, 1, Continue())
    assert s.phase == "decide" and s.hike.pile == [tent2, cam2]
    s = play(GAME, s, 1, DropOut())
    assert sorted(s.scoring[1]) == sorted([tent2, cam2]) and miles(s.scoring[1]) == 7
    assert s.hike is None and s.turn == 2 and s.phase == "turn"


def test_a_forced_payment_is_made_by_the_engine():
    p = Pool()
    tent, bar = p.many("tent", "granola_bar")
    s = build(p, 3, backpacks={1: [tent]}, draw_top=[bar], turn=1)
    s = play(GAME, s, 1, TakeHike())
    # no Granola Bar: the Tent alone can pay the mile, leaving him empty and out
    assert s.hike is None and s.turn == 2 and s.scoring[1] == []
    assert tent in s.discard_pile and bar in s.discard_pile


def test_a_hiker_pays_an_unmatched_card_one_card_at_a_time_until_covered():
    p = Pool()
    packs = {0: p.many("camera", "compass", "granola_bar", "tent", "map")}
    bag = p.take("sleeping_bag")
    s = build(p, 2, backpacks=packs, draw_top=[bag])
    s = play(GAME, s, 0, TakeHike())
    assert s.phase == "resolve" and s.debts[0].rule == "miles" and s.debts[0].miles == 4
    camera, compass, bar, tent, map_ = packs[0]
    s = play(GAME, s, 0, Discard(card=bar))
    assert s.debts[0].miles == 3
    s = play(GAME, s, 0, Discard(card=compass))
    assert s.debts[0].miles == 1
    s = play(GAME, s, 0, Discard(card=map_))  # 3 miles: more than enough
    assert s.debts[0] is None
    assert names(s.backpacks[0]) == ["camera", "tent"]
    assert s.phase == "decide"


def test_a_hiker_with_the_matching_item_is_safe():
    p = Pool()
    packs = {0: p.many("camera", "tent"), 1: p.many("compass", "map", "map")}
    cam = p.take("camera")
    s = build(p, 2, backpacks=packs, draw_top=[cam])
    s = play(GAME, s, 0, TakeHike())
    s = play(GAME, s, 1, Join())
    assert names(s.backpacks[0]) == ["camera", "tent"]
    assert GAME.to_act(s) == [1] and s.debts[0] is None and s.debts[1].miles == 3
    # the two Maps are interchangeable: one choice per item
    assert len(GAME.legal_moves(s, 1)) == 2


def test_a_hiker_without_enough_miles_discards_everything_and_is_out():
    p = Pool()
    packs = {0: p.many("granola_bar", "socks"), 1: p.many("tent", "camera")}
    tent = p.take("tent")
    s = build(p, 2, backpacks=packs, draw_top=[tent])
    s = play(GAME, s, 0, TakeHike())
    s = play(GAME, s, 1, Join())
    # seat 0 has 2 miles against a 4-mile Tent: everything goes, out without scoring;
    # seat 1 has a Tent: safe, and is now the lead hiker
    assert names(s.backpacks[0]) == []
    assert s.hike.hikers == [1] and s.hike.lead == 1 and s.hike.original_lead == 0
    assert s.phase == "decide" and GAME.to_act(s) == [1]
    s = play(GAME, s, 1, DropOut())
    assert s.scoring[1] == [tent]
    assert s.turn == 1  # the player to the left of the original lead hiker


def test_dropping_out_without_items_to_take():
    p = Pool()
    packs = {0: p.many("tent", "camera"), 1: p.many("map", "compass", "socks")}
    blister = p.take("blister")
    s = build(p, 2, backpacks=packs, draw_top=[blister])
    s = play(GAME, s, 0, TakeHike())
    s = play(GAME, s, 1, Join())
    while s.phase == "resolve":
        seat = GAME.to_act(s)[0]
        s = play(GAME, s, seat, GAME.legal_moves(s, seat)[0])
    assert GAME.legal_moves(s, 0) == [Continue(), DropOut()]
    assert GAME.describe(s, 0, DropOut()) == "Drop out (nothing to score)"
    s = play(GAME, s, 0, DropOut())
    assert s.scoring[0] == [] and s.hike.lead == 1


def test_a_hiker_who_is_not_the_last_may_drop_out_without_taking_a_card():
    s, _, (bar, water, bag, _skunk) = rulebook_example(lucky=False)
    assert GAME.describe(s, 0, DropOut()) == "Drop out without taking a card"
    s = play(GAME, s, 0, DropOut())
    assert s.scoring[0] == [] and s.hike.pile == [bar, water, bag]
    assert s.log[-2].text == "Player 1 drops out without taking a card."


def test_a_hiker_who_drops_out_scores_only_an_item_of_the_hiking_pile():
    s, _, (bar, *_rest) = rulebook_example(lucky=False)
    with pytest.raises(IllegalMove, match="not an item card in the hiking pile"):
        play(GAME, s, 0, DropOut(score=s.draw_pile[0]))
    with pytest.raises(IllegalMove, match="continue the hike or drop out"):
        play(GAME, s, 0, Draw())


def test_the_decision_round_goes_clockwise_from_the_lead():
    p = Pool()
    packs = {0: p.many("tent"), 1: p.many("map"), 2: p.many("camera")}
    # seat 1 leads and everyone joins; the Bear finds no granola bars
    bear = p.take("bear")
    s = build(p, 3, backpacks=packs, draw_top=[bear], turn=1)
    s = play(GAME, s, 1, TakeHike())
    s = play(GAME, s, 2, Join())
    s = play(GAME, s, 0, Join())
    assert s.hike.joined == [1, 2, 0]
    assert s.phase == "decide" and s.hike.to_ask == [1, 2, 0]
    s = play(GAME, s, 1, DropOut())
    assert s.hike.lead == 2 and GAME.to_act(s) == [2]
    s = play(GAME, s, 2, Continue())
    assert GAME.to_act(s) == [0]


def test_labels_name_the_cards_and_spaces():
    p = Pool()
    compass = p.take("compass")
    s = build(p, 2, backpacks={0: p.many("tent")}, draw_top=[compass])
    assert GAME.describe(s, 0, Draw()) == "Draw a card"
    assert GAME.describe(s, 0, TakeHike()) == "Take a hike"
    s = play(GAME, s, 0, Draw())
    assert GAME.describe(s, 0, Pack(space="left_pocket")) == "Pack the Compass in the left pocket"
    assert GAME.legal_moves(s, 0) == [Pack(space="left_pocket"), Pack(space="right_pocket")]


def test_apply_leaves_its_input_untouched():
    s, _, (bar, water, bag, _) = rulebook_example(lucky=False)
    before = s.model_dump()
    for seat, move in [(0, DropOut(score=bag)), (0, Continue())]:
        play(GAME, s, seat, move)
        assert s.model_dump() == before


def test_moves_parse_from_json_and_bad_ones_are_refused():
    assert GAME.parse_move({"type": "pack", "space": "top"}) == Pack(space="top")
    assert GAME.parse_move({"type": "drop_out", "score": 7}) == DropOut(score=7)
    with pytest.raises(IllegalMove, match="Not a valid move"):
        GAME.parse_move({"type": "pack", "space": "roof"})
    with pytest.raises(IllegalMove, match="Not a valid move"):
        GAME.parse_move({"type": "fly"})
