import pytest

from engine.core import IllegalMove, play
from engine.hike import GAME
from engine.hike.cards import CARDS
from engine.hike.moves import Continue, Discard, Draw, DropOut, Pack, TakeHike

from .positions import Pool, all_cards, build


def test_the_game_ends_once_the_last_card_drawn_on_a_turn_is_packed():
    p = Pool()
    compass = p.take("compass")
    s = build(p, 2, backpacks={0: p.many("tent")}, draw_top=[compass], rest="discard")
    assert len(s.draw_pile) == 1
    s = play(GAME, s, 0, Draw())
    assert GAME.outcome(s) is None and s.phase == "pack"
    s = play(GAME, s, 0, Pack(space="left_pocket"))
    assert s.game_over and GAME.to_act(s) == []
    assert GAME.legal_moves(s, 0) == [] and GAME.legal_moves(s, 1) == []
    with pytest.raises(IllegalMove, match="over"):
        play(GAME, s, 1, Draw())


def test_the_game_ends_after_the_last_cards_hazard_is_resolved():
    p = Pool()
    packs = {0: p.many("tent", "compass")}
    raccoon = p.take("raccoon")
    s = build(p, 2, backpacks=packs, draw_top=[raccoon], rest="discard")
    s = play(GAME, s, 0, Draw())
    assert not s.game_over and GAME.to_act(s) == [0]
    s = play(GAME, s, 0, Discard(card=packs[0][1]))
    assert s.game_over


def test_the_draw_pile_running_out_during_a_hike_reshuffles_and_the_hike_finishes():
    p = Pool()
    tent, cam = p.many("tent", "camera")
    tent2 = p.take("tent")
    s = build(p, 2, backpacks={0: [tent, cam]}, draw_top=[tent2], rest="discard")
    discards = len(s.discard_pile)
    s = play(GAME, s, 0, TakeHike())  # seat 1 has an empty backpack: not asked
    assert s.ended_during_hike and not s.game_over
    assert s.draw_pile == [] and s.phase == "decide"
    s = play(GAME, s, 0, Continue())
    assert any("shuffled into a new draw pile" in e.text for e in s.log)
    assert len(s.draw_pile) == discards - 1 and len(s.hike.pile) == 2
    bar = s.hike.pile[-1]
    assert CARDS[bar].name == "granola_bar"  # what this seed turns up: 1 mile owed
    s = play(GAME, s, 0, Discard(card=cam))
    assert not s.game_over and s.phase == "decide"
    s = play(GAME, s, 0, DropOut())
    assert s.game_over and s.hike is None
    assert sorted(s.scoring[0]) == sorted([tent2, bar])
    assert len(s.draw_pile) > 0  # the rest of the new draw pile is never played
    assert sorted(all_cards(s)) == list(range(102))


def test_with_nothing_left_to_draw_the_hikers_must_drop_out():
    p = Pool()
    tent, cam = p.many("tent", "camera")
    tent2 = p.take("tent")
    s = build(p, 2, backpacks={0: [tent, cam]}, draw_top=[tent2], rest="discard")
    s.scoring[1], s.discard_pile = s.discard_pile, []
    s = play(GAME, s, 0, TakeHike())
    assert s.ended_during_hike and s.phase == "decide"
    assert GAME.legal_moves(s, 0) == [DropOut()]
    with pytest.raises(IllegalMove, match="no cards left"):
        play(GAME, s, 0, Continue())
    s = play(GAME, s, 0, DropOut())
    assert s.game_over and s.scoring[0] == [tent2]


def finished(scoring: dict[int, list[str]], players: int = 2):
    """A game whose last card (a Granola Bar for seat 0's backpack) is drawn now."""
    p = Pool()
    piles = {seat: p.many(*cards) for seat, cards in scoring.items()}
    bar = p.take("granola_bar")
    s = build(p, players, scoring=piles, draw_top=[bar], rest="discard")
    s = play(GAME, s, 0, Draw())
    s = play(GAME, s, 0, GAME.legal_moves(s, 0)[0])
    assert s.game_over
    return s, GAME.outcome(s)


def test_the_most_miles_wins_and_backpacks_do_not_count():
    s, out = finished({0: ["tent"], 1: ["camera", "granola_bar", "granola_bar"]})
    assert out.scores == [4, 5] and out.winners == [1]
    assert out.details == {"cards": [1, 3], "tie_break": None}


def test_a_tie_in_miles_goes_to_the_most_cards():
    s, out = finished({0: ["tent"], 1: ["compass", "granola_bar", "granola_bar"]})
    assert out.scores == [4, 4] and out.winners == [1]
    assert out.details["tie_break"] is None


def test_a_full_tie_is_broken_by_drawing_for_the_skunk():
    s, out = finished({0: ["tent", "socks"], 1: ["camera", "compass"]})
    tb = out.details["tie_break"]
    assert tb["tied"] == [0, 1]
    assert len(out.winners) == 1 and tb["losers"] == [1 - out.winners[0]]
    *before, last = tb["draws"]
    assert last[0] == tb["losers"][0] and CARDS[last[1]].name == "skunk"
    assert all(CARDS[c].name != "skunk" for _, c in before)
    # The tied players draw in turn, in the order drawn for them.
    first = tb["order"][0]
    assert sorted(tb["order"]) == [0, 1]
    assert [seat for seat, _ in tb["draws"]] == [(first + i) % 2 for i in range(len(tb["draws"]))]
    assert out.scores == [5, 5]
    order = " and ".join(f"Player {p + 1}" for p in tb["order"])
    assert any(e.text.startswith(f"A tie: {order.replace(' and ', ', ')} draw") for e in s.log)


def test_who_draws_first_in_a_tie_is_drawn_at_random_from_the_seed():
    firsts = set()
    for seed in range(16):
        p = Pool()
        piles = {0: p.many("tent"), 1: p.many("sleeping_bag")}
        bar = p.take("granola_bar")
        s = build(p, 2, scoring=piles, draw_top=[bar], rest="discard")
        s = s.model_copy(update={"rng": s.rng.from_seed(seed)})
        s = play(GAME, s, 0, Draw())
        s = play(GAME, s, 0, GAME.legal_moves(s, 0)[0])
        firsts.add(GAME.outcome(s).details["tie_break"]["order"][0])
    assert firsts == {0, 1}


def test_a_five_way_tie_leaves_the_players_who_escaped_all_three_skunks_sharing_the_win():
    s, out = finished({}, players=5)
    tb = out.details["tie_break"]
    assert tb["tied"] == [0, 1, 2, 3, 4]
    assert len(tb["losers"]) == 3 and sorted(out.winners + tb["losers"]) == [0, 1, 2, 3, 4]
    assert sum(CARDS[c].name == "skunk" for _, c in tb["draws"]) == 3


def test_the_tie_break_is_part_of_the_seeded_game():
    one = finished({0: ["tent"], 1: ["sleeping_bag"]})[1]
    two = finished({0: ["tent"], 1: ["sleeping_bag"]})[1]
    assert one == two
