"""What each seat sees: never the opponent's secrets, the coins' values, the deck or the seed."""

import json
import random

import pytest

from engine.camping_life import GAME
from engine.camping_life.moves import BidCard, BidTable
from engine.camping_life.state import CampingLifeState
from engine.core import full_view, play
from tests.engine.in_turn import moves_in_turn

from .conftest import arrange

GAMES = 60
BLOCKS = 2
VIEWERS = (0, 1, None)


def hidden_changed(s: CampingLifeState, viewer: int | None) -> CampingLifeState:
    """The same game with everything ``viewer`` may not see changed."""
    t = s.clone()
    t.draw.reverse()
    t.rng.state ^= 0xDEADBEEF
    for p in range(s.players):
        if p == viewer:
            continue
        if s.phase != "over":
            t.secret_missions[p], t.mission_pile[0] = t.mission_pile[0], t.secret_missions[p]
        t.card_bids = [
            b.model_copy(update={"coin": 4 - b.coin}) if b.seat == p else b for b in t.card_bids
        ]
        if t.hidden_table[p] is not None:
            t.hidden_table[p] = 4 - t.hidden_table[p]
        t.coins[p] = [4 - c for c in reversed(t.coins[p])]
    return t


def seen(s: CampingLifeState, viewer: int | None) -> dict:
    """Everything full_view sends, the log aside (the log is checked move by move)."""
    legal = GAME.legal_moves(s, viewer) if viewer is not None else []
    return {
        "view": GAME.view(s, viewer),
        "to_act": GAME.to_act(s),
        "legal": legal,
        "outcome": GAME.outcome(s),
    }


def other_coin(s: CampingLifeState, seat: int, move):
    """The same move with a different coin from the hand, if there is one."""
    others = sorted(set(s.coins[seat]) - {move.coin})
    return move.model_copy(update={"coin": others[0]}) if others else None


@pytest.mark.parametrize("block", range(BLOCKS))
def test_views_do_not_depend_on_what_the_viewer_may_not_see(block):
    for seed in range(block * GAMES // BLOCKS, (block + 1) * GAMES // BLOCKS):
        rng = random.Random(seed)
        s = GAME.setup(2, GAME.options(None), seed)
        while GAME.outcome(s) is None:
            for viewer in VIEWERS:
                assert seen(s, viewer) == seen(hidden_changed(s, viewer), viewer), (
                    f"seed {seed}: the view of {viewer} shows something hidden"
                )
            (seat,) = GAME.to_act(s)
            move = rng.choice(GAME.legal_moves(s, seat))
            nxt = play(GAME, s, seat, move)
            # Until coins are turned over, a bid with another coin must look the same to
            # the others, the log included.
            turns_over = isinstance(move, BidTable) and seat != s.starter
            if isinstance(move, BidCard | BidTable) and not turns_over:
                alt = other_coin(s, seat, move)
                if alt is not None:
                    twin = play(GAME, s, seat, alt)
                    assert twin.log == nxt.log
                    for viewer in (1 - seat, None):
                        assert seen(twin, viewer) == seen(nxt, viewer)
            s = nxt
        for viewer in VIEWERS:
            revealed = GAME.view(s, viewer)["secret_missions"]
            assert revealed == GAME.outcome(s).details["secret_missions"]


def test_a_seat_sees_its_own_secrets_and_only_counts_of_the_others():
    s = arrange(["pool", "house", "forest", "pool"], ["tent", "campfire"])
    card = s.row[2]
    s = play(GAME, s, 0, {"type": "bid_card", "card": card, "coin": 3})
    said = [e.text for e in s.log]
    s = play(GAME, s, 0, {"type": "bid_table", "coin": 4})
    said += [e.text for e in s.log]
    mine, theirs, crowd = (full_view(GAME, s, v) for v in VIEWERS)

    assert mine["secret_mission"]["id"] == s.secret_missions[0]
    assert theirs["secret_mission"]["id"] == s.secret_missions[1]
    assert crowd["secret_mission"] is None
    assert all(v["secret_missions"] is None for v in (mine, theirs, crowd))

    assert mine["row"][2]["bids"] == [{"seat": 0, "coin": 3}]
    assert theirs["row"][2]["bids"] == crowd["row"][2]["bids"] == [{"seat": 0, "coin": None}]
    assert mine["seats"][0]["coins"] == [0, 1, 2, 2]
    assert theirs["seats"][0]["coins"] is None and theirs["seats"][0]["coins_left"] == 4
    assert mine["seats"][0]["table_coin"] == 4
    assert theirs["seats"][0]["table_coin"] is None
    assert theirs["seats"][0]["table_coin_down"] is True
    assert theirs["seats"][0]["table_coins"] == []

    other_secret = s.secret_missions[0]
    text = json.dumps(theirs)
    for word in ("rng", "seed", 'draw":', 'mission_pile": ['):
        assert word not in text
    assert f'"id": {other_secret}, "kind": "mission"' not in text
    assert theirs["draw_pile"] == len(s.draw) and theirs["mission_pile"] == 9
    assert said == ["Red puts a coin on the Forest.", "Red puts a coin on the table."]


def test_turned_over_coins_become_public():
    s = arrange(["pool", "house", "forest", "pool"], ["tent", "campfire"])
    row = list(s.row)
    for red, blue in [
        ((row[0], 3, 2), (row[0], 2, 2)),
        ((row[2], 2, 4), (row[2], 3, 0)),
        ((row[3], 0, 1), (row[2], 1, 4)),
    ]:
        for seat, (card, coin, table) in ((0, red), (1, blue)):
            s = play(GAME, s, seat, {"type": "bid_card", "card": card, "coin": coin})
            s = play(GAME, s, seat, {"type": "bid_table", "coin": table})
    view = full_view(GAME, s, 1)
    assert view["seats"][0]["table_coins"] == [2, 4, 1]
    assert view["seats"][0]["table_total"] == 7
    assert view["row"][0]["bids"] == [{"seat": 0, "coin": None}, {"seat": 1, "coin": 2}]
    assert view["last_round"] is None  # totals are known, the coins on cards are not
    tent = s.next_round[0]
    s = play(GAME, s, 0, {"type": "pick", "card": tent})
    assert full_view(GAME, s, 1)["last_round"] is None
    s = play(GAME, s, 0, {"type": "place", "card": tent, "row": 0, "col": 0})
    view = full_view(GAME, s, 1)
    assert view["row"] == []
    summary = view["last_round"]
    assert summary["round"] == 1 and summary["table_totals"] == [7, 6]
    assert summary["picker"] == 0 and summary["picked"]["id"] == tent
    cards = summary["cards"]
    assert [c["card"]["id"] for c in cards] == row
    assert [(c["winner"], c["placed"]) for c in cards] == [
        (0, None),
        (None, False),
        (1, None),
        (0, None),
    ]
    assert [c["bids"] for c in cards] == [
        [{"seat": 0, "coins": [3]}, {"seat": 1, "coins": [2]}],
        [],
        [{"seat": 0, "coins": [2]}, {"seat": 1, "coins": [3, 1]}],
        [{"seat": 0, "coins": [0]}],
    ]
    assert all(GAME.view(s, v)["last_round"] == summary for v in (0, None))
    assert view["placing"] == {"seat": 0, "card": cards[0]["card"]}
    assert [w["seat"] for w in view["waiting"]] == [0, 1]
    s = play(GAME, s, 0, {"type": "place", "card": row[0], "row": 0, "col": 1})
    assert [c["placed"] for c in GAME.view(s, 1)["last_round"]["cards"]] == [
        True,
        False,
        None,
        None,
    ]


def test_views_share_what_did_not_change_with_many_games_in_play():
    """A seat whose area, coins and table coins are as they were, a round summary shown again,
    the results of a summary's cards and the bids still on the row are the very objects of the
    view before, however many other games moved in between (as on a busy server): a patch
    passes over them without comparing them."""
    seats = summaries = results = bids = 0
    for s, before, t, after in moves_in_turn(GAME, games=300, rounds=30, viewer=1):
        if t.last_round is not None and s.last_round is not None:
            for i, (was, now) in enumerate(zip(s.last_round.cards, t.last_round.cards)):
                if now is was:
                    assert after["last_round"]["cards"][i] is before["last_round"]["cards"][i]
                    results += 1
        kept = sum(1 for b in t.card_bids if any(b is a for a in s.card_bids))
        shown_before = {id(bid) for entry in before["row"] for bid in entry["bids"]}
        shown_again = sum(
            id(bid) in shown_before for entry in after["row"] for bid in entry["bids"]
        )
        assert shown_again >= kept
        bids += kept
        for p in range(2):
            if (
                t.areas[p] is s.areas[p]
                and t.coins[p] is s.coins[p]
                and t.table_coins[p] is s.table_coins[p]
                and t.hidden_table[p] == s.hidden_table[p]
            ):
                assert after["seats"][p] is before["seats"][p]
                seats += 1
        if t.last_round is not None and t.last_round is s.last_round:
            assert after["last_round"] is before["last_round"]
            summaries += 1
    assert seats > 1000 and summaries > 1000 and results > 1000 and bids > 1000
