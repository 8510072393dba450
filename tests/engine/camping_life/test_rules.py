"""Setup, bidding, picking, placing, new rounds and the end of the game."""

import pytest

from engine.camping_life import GAME
from engine.camping_life.cards import CARDS
from engine.camping_life.area import place, targets
from engine.camping_life.state import COINS
from engine.core import IllegalMove, play

from .conftest import arrange, take

RED, BLUE = 0, 1


def bids(state, seat, card, coin, table):
    state = play(GAME, state, seat, {"type": "bid_card", "card": card, "coin": coin})
    return play(GAME, state, seat, {"type": "bid_table", "coin": table})


def test_setup():
    s = GAME.setup(2, GAME.options(None), 7)
    assert len(s.open_missions) == 2 and len(s.secret_missions) == 2
    assert len(s.mission_pile) == 9
    assert len(s.row) == 4 and len(s.next_round) == 2 and len(s.draw) == 51
    assert s.coins == [COINS, COINS] == [[0, 1, 2, 2, 3, 4]] * 2
    assert GAME.to_act(s) == [s.starter] and s.phase == "bid_card"
    assert all(CARDS[c].kind == "mission" for c in s.open_missions + s.secret_missions)
    assert all(CARDS[c].kind != "mission" for c in s.row + s.next_round + s.draw)


def test_the_first_player_is_drawn_at_random_from_the_seed():
    starters = {GAME.setup(2, GAME.options(None), seed).starter for seed in range(16)}
    assert starters == {0, 1}
    s = GAME.setup(2, GAME.options(None), 3)
    colour = ["Red", "Blue"][s.starter]
    assert f"{colour} is drawn at random to start." in s.log[0].text
    assert s.log[-1].text == f"Round 1: {colour} starts."


def test_only_two_players():
    with pytest.raises(IllegalMove, match="for 2 to 2 players"):
        GAME.setup(3, GAME.options(None), 1)


def test_rulebook_example_c():
    s = arrange(["pool", "house", "forest", "pool"], ["tent", "campfire"])
    pool1, house, forest, pool2 = s.row
    tent, campfire = s.next_round
    # Turn by turn: (card, coin on it, coin on the table) for red then blue.
    turns = [
        ((pool1, 3, 2), (pool1, 2, 2)),
        ((forest, 2, 4), (forest, 3, 0)),
        ((pool2, 0, 1), (forest, 1, 4)),
    ]
    for red, blue in turns:
        s = bids(s, RED, *red)
        s = bids(s, BLUE, *blue)
    texts = [e.text for e in s.log]
    assert s.table_coins == [[2, 4, 1], [2, 0, 4]]
    assert s.phase == "pick" and GAME.to_act(s) == [RED]
    assert s.row == [pool1, house, forest, pool2]  # card coins still face down
    assert {b.coin for b in s.card_bids} == {0, 1, 2, 3}

    s = play(GAME, s, RED, {"type": "pick", "card": campfire})
    texts += [e.text for e in s.log]
    assert s.phase == "place" and s.placements[0].card == campfire
    assert s.card_bids  # not turned over before the picked card is placed
    assert s.last_round is None
    s = play(GAME, s, RED, {"type": "place", "card": campfire, "row": 1, "col": 1})

    # Each player places all the cards they won, in the order they choose.
    assert [(p.seat, p.card) for p in s.placements] == [(RED, pool1), (RED, pool2), (BLUE, forest)]
    assert GAME.to_act(s) == [RED]
    assert {m.card for m in GAME.legal_moves(s, RED)} == {pool1, pool2}
    assert house in s.discard and tent in s.next_round
    summary = s.last_round
    assert (summary.round, summary.table_totals) == (1, [7, 6])
    assert (summary.picker, summary.picked) == (RED, campfire)
    assert [(c.card, c.coins, c.winner, c.placed) for c in summary.cards] == [
        (pool1, [[3], [2]], RED, None),
        (house, [[], []], None, False),  # no coin: discarded
        (forest, [[2], [3, 1]], BLUE, None),
        (pool2, [[0], []], RED, None),  # a lone 0 wins
    ]
    texts += [e.text for e in s.log]
    assert "Table totals: Red 7, Blue 6. Red picks a next-round card." in texts
    assert "Swimming pool: Red 3, Blue 2. Red wins it." in texts
    assert "Nobody bid on the House: it is discarded." in texts
    assert "Forest: Red 2, Blue 3+1. Blue wins it." in texts
    assert "Swimming pool: Red 0. Red wins it." in texts

    # Red places the second pool first.
    s = play(GAME, s, RED, {"type": "place", "card": pool2, "row": 1, "col": 2})
    assert [(p.seat, p.card) for p in s.placements] == [(RED, pool1), (BLUE, forest)]
    assert {m.card for m in GAME.legal_moves(s, RED)} == {pool1}
    s = play(GAME, s, RED, {"type": "place", "card": pool1, "row": 2, "col": 2})
    s = play(GAME, s, BLUE, {"type": "place", "card": forest, "row": 0, "col": 0})
    assert [c.placed for c in s.last_round.cards] == [True, False, True, True]
    # Round 2: red won the next-round card so starts; the tent joins the row.
    assert s.round == 2 and s.starter == RED and GAME.to_act(s) == [RED]
    assert s.row[0] == tent and len(s.row) == 4 and len(s.next_round) == 2
    assert s.coins == [COINS, COINS] and s.table_coins == [[], []]
    assert s.areas[RED][5:7] == [campfire, pool2] and s.areas[RED][10] == pool1
    assert s.areas[BLUE][0] == forest


def test_table_coins_turn_over_only_after_both_played():
    s = arrange(["pool", "house", "forest", "pool"], ["tent", "campfire"])
    s = bids(s, RED, s.row[0], 4, 3)
    assert s.table_coins == [[], []] and s.hidden_table == [3, None]
    assert GAME.to_act(s) == [BLUE]
    s = bids(s, BLUE, s.row[1], 0, 1)
    assert s.table_coins == [[3], [1]] and s.hidden_table == [None, None]
    assert s.log[-1].text == "Table coins turned over: Red 3, Blue 1."
    assert GAME.to_act(s) == [RED] and s.turn == 2
    # Any card of the row stays open to both players, whoever bid on it already.
    assert {m.card for m in GAME.legal_moves(s, RED)} == set(s.row)
    assert {m.coin for m in GAME.legal_moves(s, RED)} == {0, 1, 2}


def test_table_tie_discards_both_next_round_cards_and_the_starter_stays():
    s = arrange(["pool", "house", "forest", "tent"], ["tent", "campfire"])
    s.starter = s.bidder = BLUE
    nexts = list(s.next_round)
    row = list(s.row)
    for blue, red in [
        ((row[0], 4, 0), (row[0], 4, 0)),  # a tie on a card: discarded
        ((row[1], 3, 1), (row[2], 3, 1)),
        ((row[1], 2, 2), (row[2], 2, 2)),
    ]:
        s = bids(s, BLUE, *blue)
        s = bids(s, RED, *red)
    assert (
        "Table totals: Red 3, Blue 3. A tie: nobody picks, the next-round cards are discarded."
    ) in [e.text for e in s.log]
    assert set(nexts) <= set(s.discard) and row[0] in s.discard and row[3] in s.discard
    summary = s.last_round
    assert (summary.table_totals, summary.picker, summary.picked) == ([3, 3], None, None)
    assert [c.winner for c in summary.cards] == [None, BLUE, RED, None]
    assert [(p.seat, p.card) for p in s.placements] == [(BLUE, row[1]), (RED, row[2])]
    s = play(GAME, s, BLUE, {"type": "place", "card": row[1], "row": 0, "col": 0})
    s = play(GAME, s, RED, {"type": "place", "card": row[2], "row": 2, "col": 3})
    assert s.round == 2 and s.starter == BLUE and GAME.to_act(s) == [BLUE]
    # No next-round card carried over: four fresh cards from the draw pile.
    assert not set(s.row) & set(nexts) and len(s.row) == 4


def test_placement_must_touch_a_placed_card():
    area = [None] * 12
    assert targets(area) == [(r, c) for r in range(3) for c in range(4)]
    area[5] = 20
    assert targets(area) == [(0, 1), (1, 0), (1, 2), (2, 1)]
    area[6] = 21
    assert targets(area) == [(0, 1), (0, 2), (1, 0), (1, 3), (2, 1), (2, 2)]


def test_the_area_grows_in_any_direction_while_it_fits_in_three_rows_of_four():
    area = [None] * 12
    area[0] = 20  # a first card in the top-left corner may still grow up and left
    assert targets(area) == [(-1, 0), (0, -1), (0, 1), (1, 0)]
    grown = place(area, -1, 0, 21)
    assert grown[0] == 21 and grown[4] == 20  # moved down one row, shape kept
    grown = place(grown, 0, -1, 22)
    assert (grown[0], grown[1], grown[5]) == (22, 21, 20)
    # Three rows high: no room above or below; three wide: one more column either side.
    column = [None] * 12
    column[1], column[5], column[9] = 20, 21, 22
    assert targets(column) == [(0, 0), (0, 2), (1, 0), (1, 2), (2, 0), (2, 2)]
    row = [20, 21, 22, None] + [None] * 8
    assert (0, -1) in targets(row) and (0, 3) in targets(row)
    full_row = [20, 21, 22, 23] + [None] * 8
    assert targets(full_row) == [(-1, 0), (-1, 1), (-1, 2), (-1, 3), (1, 0), (1, 1), (1, 2), (1, 3)]
    # Placing below the grid moves the area up.
    low = [None] * 8 + [20, None, None, None]
    assert place(place(low, 3, 0, 21), 0, 0, 22)[0:9:4] == [22, 20, 21]


def place_state():
    """Red must place a won forest; red already has a card at row 1, column 1."""
    s = arrange(["pool", "house", "forest", "pool"], ["tent", "campfire"])
    s.areas[RED][5] = take(s, "house")
    for red, blue in [
        ((s.row[2], 4, 0), (s.row[3], 4, 0)),
        ((s.row[2], 3, 1), (s.row[3], 3, 1)),
        ((s.row[2], 2, 2), (s.row[3], 2, 2)),
    ]:
        s = bids(s, RED, *red)
        s = bids(s, BLUE, *blue)
    return s


def test_legal_places_are_the_cells_next_to_the_area():
    s = place_state()
    forest = s.placements[0].card
    legal = GAME.legal_moves(s, RED)
    assert {(m.row, m.col) for m in legal} == {(0, 1), (1, 0), (1, 2), (2, 1)}
    assert all(m.card == forest for m in legal)
    assert GAME.legal_moves(s, BLUE) == []


@pytest.mark.parametrize(
    ("seat", "move", "reason"),
    [
        (BLUE, {"type": "place", "card": None, "row": 0, "col": 1}, "It is not your turn."),
        (
            RED,
            {"type": "place", "card": None, "row": 0, "col": 0},
            "A card must touch a card of your play area, side by side.",
        ),
        (
            RED,
            {"type": "place", "card": None, "row": 1, "col": 1},
            "There is already a card there.",
        ),
        (
            RED,
            {"type": "place", "card": None, "row": 4, "col": 1},
            "Your play area is 4 cards wide and 3 high.",
        ),
        (RED, {"type": "place", "card": 0, "row": 0, "col": 1}, "You must place the Forest now."),
        (
            RED,
            {"type": "bid_table", "coin": 1},
            "Now is not the time for bid_table: place a card you won.",
        ),
    ],
)
def test_illegal_places_are_refused_with_a_reason(seat, move, reason):
    s = place_state()
    if move.get("card", 0) is None:
        move = dict(move, card=s.placements[0].card)
    before = s.model_dump()
    with pytest.raises(IllegalMove) as err:
        play(GAME, s, seat, move)
    assert err.value.reason == reason
    assert s.model_dump() == before


def test_illegal_bids_are_refused_with_a_reason():
    s = arrange(["pool", "house", "forest", "pool"], ["tent", "campfire"])
    card = s.row[0]
    with pytest.raises(IllegalMove, match="^It is not your turn.$"):
        play(GAME, s, BLUE, {"type": "bid_card", "card": card, "coin": 1})
    with pytest.raises(IllegalMove, match="not in this round's row"):
        play(GAME, s, RED, {"type": "bid_card", "card": s.next_round[0], "coin": 1})
    s = bids(s, RED, card, 4, 2)
    s = bids(s, BLUE, card, 4, 2)
    with pytest.raises(IllegalMove, match="^You have no coin of value 4 left this round.$"):
        play(GAME, s, RED, {"type": "bid_card", "card": card, "coin": 4})
    s = play(GAME, s, RED, {"type": "bid_card", "card": card, "coin": 2})
    with pytest.raises(IllegalMove, match="no coin of value 2"):
        play(GAME, s, RED, {"type": "bid_table", "coin": 2})
    with pytest.raises(IllegalMove, match="^Not a valid move"):
        play(GAME, s, RED, {"type": "bid_table", "coin": "lots"})
    assert sorted(m.coin for m in GAME.legal_moves(s, RED)) == [0, 1, 3]


def test_a_won_card_that_cannot_be_placed_is_discarded_and_the_game_ends():
    s = arrange(["pool", "house", "forest", "pool"], ["tent", "campfire"])
    s.areas[BLUE] = [take(s, "road") for _ in range(11)] + [None]
    row = list(s.row)
    for red, blue in [
        ((row[0], 4, 0), (row[1], 4, 0)),
        ((row[2], 3, 1), (row[3], 3, 1)),
        ((row[2], 2, 2), (row[3], 2, 2)),
    ]:
        s = bids(s, RED, *red)
        s = bids(s, BLUE, *blue)
    assert [(p.seat, p.card) for p in s.placements] == [
        (RED, row[0]),
        (RED, row[2]),
        (BLUE, row[1]),
        (BLUE, row[3]),
    ]
    s = play(GAME, s, RED, {"type": "place", "card": row[0], "row": 0, "col": 0})
    s = play(GAME, s, RED, {"type": "place", "card": row[2], "row": 0, "col": 1})
    s = play(GAME, s, BLUE, {"type": "place", "card": row[1], "row": 2, "col": 3})
    # Blue's area is full: blue's last card is discarded.
    assert row[3] in s.discard
    assert "Blue's play area is full: the Swimming pool is discarded." in [e.text for e in s.log]
    assert [(c.winner, c.placed) for c in s.last_round.cards] == [
        (RED, True),
        (BLUE, True),
        (RED, True),
        (BLUE, False),
    ]
    assert GAME.view(s, None)["last_round"]["cards"][3]["placed"] is False
    assert s.phase == "over" and GAME.to_act(s) == []
    outcome = GAME.outcome(s)
    assert outcome.details["cards_in_area"] == [2, 12]
    with pytest.raises(IllegalMove, match="The game is over."):
        play(GAME, s, RED, {"type": "bid_table", "coin": 0})


def test_the_row_fills_as_far_as_the_draw_pile_allows_then_the_game_ends():
    s = arrange(["pool", "house", "forest", "pool"], ["tent", "campfire"])
    s.discard += s.draw[1:]
    s.draw = s.draw[:1]
    row = list(s.row)
    for red, blue in [
        ((row[0], 0, 4), (row[1], 4, 0)),
        ((row[2], 1, 3), (row[3], 3, 1)),
        ((row[2], 2, 2), (row[3], 2, 2)),
    ]:
        s = bids(s, RED, *red)
        s = bids(s, BLUE, *blue)
    s = play(GAME, s, RED, {"type": "pick", "card": s.next_round[0]})
    for _ in range(5):
        seat = GAME.to_act(s)[0]
        s = play(GAME, s, seat, GAME.legal_moves(s, seat)[0])
    # One next-round card and the one card left in the draw pile make a row of two.
    assert s.round == 2 and len(s.row) == 2 and s.next_round == [] and s.draw == []
    while GAME.outcome(s) is None:
        seat = GAME.to_act(s)[0]
        s = play(GAME, s, seat, GAME.legal_moves(s, seat)[0])
    assert s.round == 2
    assert s.log[-1].text == (
        "No cards are left to bid on. The game is over; the secret missions are revealed."
    )


def finished(red_area: list[str], blue_area: list[str]):
    s = arrange(["pool", "house", "forest", "pool"], ["tent", "campfire"])
    s.open_missions = []
    s.mission_pile += s.secret_missions
    s.secret_missions = []
    for seat, kinds in ((RED, red_area), (BLUE, blue_area)):
        for i, kind in enumerate(kinds):
            s.areas[seat][i] = take(s, kind)
    s.phase = "over"
    return s


def test_winner_by_score_then_cards_then_shared():
    assert GAME.outcome(finished(["tent", "tent"], ["tent"])).winners == [RED]
    tied = GAME.outcome(finished(["tent", "road"], ["tent"]))
    assert tied.scores == [1, 1] and tied.winners == [RED]
    shared = GAME.outcome(finished(["tent", "road"], ["road", "tent"]))
    assert shared.scores == [1, 1] and shared.winners == [RED, BLUE]


def test_outcome_reveals_secret_missions_and_breaks_scores_down():
    s = finished(["tent", "tent"], ["tent"])
    s.secret_missions = [s.mission_pile.pop(), s.mission_pile.pop()]
    o = GAME.outcome(s)
    keys = {CARDS[m].key for m in s.secret_missions}
    assert [m["id"] for m in o.details["secret_missions"]] == s.secret_missions
    assert set(o.details["breakdown"][RED]["missions"]) == keys
    assert o.scores == [o.details["breakdown"][p]["total"] for p in (RED, BLUE)]
    assert GAME.outcome(GAME.setup(2, GAME.options(None), 1)) is None
